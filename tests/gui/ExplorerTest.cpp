// GUI tests of the explorer: they drive the real main window (mouse and keys
// on the image view, the panels' widgets, the menus' actions) offscreen, and
// run on the default device (PoCL).
#include "DevicePanel.h"
#include "Errors.h"
#include "ImageView.h"
#include "LabPanel.h"
#include "LogPanel.h"
#include "MainWindow.h"
#include "ParametersPanel.h"
#include "PlaybackPanel.h"
#include "SeedTableModel.h"
#include "TimingPanel.h"
#include "TimelineBars.h"
#include "Variant.h"
#include "io/Export.h"
#include "io/Overlay.h"
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QTimer>
#include <QMimeData>
#include <QSettings>
#include <QToolTip>
#include <QUrl>
#include <QFileInfo>
#include <QRegularExpression>
#include <QDir>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QTreeWidget>
#include <QDockWidget>
#include <QScrollBar>
#include <QScrollArea>
#include <QTest>
#include <QStatusBar>
#include <QToolButton>
#include <QWheelEvent>
#include <qcustomplot.h>
#include <algorithm>
#include <functional>
#include <memory>

using namespace rgx;
using namespace rgx::ui;

namespace rgx {
// Readable seeds in QCOMPARE failure messages (found by argument-dependent lookup).
char* toString(const Seed& seed)
{
    return QTest::toString(QStringLiteral("(%1, %2)").arg(seed.x).arg(seed.y));
}
} // namespace rgx

namespace {

QString sample(const char* fileName) { return QStringLiteral(RGX_SAMPLES_DIR "/") + QLatin1String(fileName); }

// A serpentine corridor one pixel wide: with range mode and one seed at its
// start, every iteration classifies one pixel, so a run takes many iterations.
QString writeMaze(const QString& folder, int width, int height)
{
    QImage maze(width, height, QImage::Format_Grayscale8);
    maze.fill(255);
    for (int y = 0; y < height; y += 2) {
        for (int x = 0; x < width; ++x)
            maze.setPixel(x, y, qRgb(0, 0, 0));
        if (y + 1 < height) {
            const int opening = (y / 2) % 2 == 0 ? width - 1 : 0;
            maze.setPixel(opening, y + 1, qRgb(0, 0, 0));
        }
    }
    const QString path = folder + QStringLiteral("/maze.png");
    maze.save(path);
    return path;
}

QString writeSeeds(const QString& folder, const char* text)
{
    const QString path = folder + QStringLiteral("/test.seeds");
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(text);
    return path;
}

template <typename T>
T* child(QObject* parent, const char* name)
{
    T* found = parent->findChild<T*>(QString::fromLatin1(name));
    if (!found)
        qWarning("no child %s", name);
    return found;
}

} // namespace

class ExplorerTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void opensBundledSampleFromTheMenuAndRunsIt();
    void parameterEditsAreStepsOfUndo();
    void noDockScrollsSidewaysAtTheDefaultSize();
    void seedEditsWithTheMouseAreUndoable();
    void seedsCannotLeaveTheImage();
    void statusBarShowsThePixelUnderTheCursor();
    void zoomAndPanKeepThePixelUnderTheCursor();
    void variantPanelDisablesWhatTheDeviceCannotRun();
    void exportedMaskEqualsReferenceAndCli();
    void playbackStepsThroughIterations();
    void chartExportsAsPngAndPdfAtTheChosenSize();
    void sessionReopensExactly();
    void guiStaysResponsiveDuringALongRunAndCancelStopsIt();
    void timeoutStopsARunWithAMessage();
    void corruptImageGivesAMessageAndKeepsWorking();
    void unreadableSessionGivesAMessage();
    void exportToAnImpossiblePathLeavesNoFile();
    void unavailableVariantFailsWithAMessageAndKeepsWorking();
    void corruptionViewMarksDifferingPixels();
    void theCorruptionPlaysBackIterationByIterationWithItsCounts();
    void keptRunsAreComparedSideBySide();
    void chartsShowValuesOnHover();
    void opens16BitGreyAndColourImages();
    void droppingFilesOpensThem();
    void seedEditsRunAutomaticallyWhenAsked();
    void liveModeTurnsItselfOnAfterAFastRunUnlessChosen();
    void aClickInLiveModeRunsExactlyOnce();
    void liveModeIsNeverTurnedOffByAFirstRunNorSilently();
    void aResultOfOtherSettingsIsDrawnStaleOrRunAgain();
    void theSeedTableFollowsADraggedSeed();
    void theSeedTablesColourSquaresAreMadeOnce();
    void howARunDeviatedFromItsVariantIsShownBesideItsTimes();
    void editedSeedsAreNotLostOnQuitting();
    void aSecondClickDuringARunSupersedesTheFirst();
    void aDraggedSeedRunsWhileItMoves();
    void iterationCapStopsTheRunWithANotice();
    void lastChoicesAreRestored();
    void aWrongOnPurposeVariantAndTheCorruptionViewAreNotRestoredSilently();
    void theCorruptionViewOfACorrectRunShowsItsRegions();
    void theIterationChartRescalesToEachRun();
    void aLongRunShowsItsRegionsWhileItGrows();
    void aLargeImageIsDrawnForTheViewAtItsOwnSize();
    void aBareDeviceNumberSelectsThatDevice();
    void prefilterOutputCanBeShown();
    void labelsBeforeThePostfilterCanBeShown();
    void raceCheckFindsTheMissingBarrierInGrowSweep();
    void raceCheckOfTheCorrectTwinFindsNone();
    void kernelTableListsTheRunsKernels();
    void summaryGivesTimePerIterationAndSpeedUpOverTheFirstKeptRun();
    void binarySearchLabRunsAndVerifies();
    void theAboutBoxNamesTheLicenceAndTheCredits();

private:
    std::unique_ptr<MainWindow> makeWindow();
    bool runAndWait(MainWindow* window, int milliseconds = 240000);
    QPoint at(int x, int y) const { return window_->imageView()->pixelCentre(x, y).toPoint(); }
    void clickPixel(int x, int y, Qt::MouseButton button = Qt::LeftButton);
    void chooseVariant(const GrowVariant& variant);
    void openSlowCorridor(const char* seeds);
    QString checkRacesAndWait(const char* variantText);

    std::unique_ptr<MainWindow> window_;
    std::unique_ptr<QTemporaryDir> folder_;
};

void ExplorerTest::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("RGX-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("rgx-gui-tests"));
}

std::unique_ptr<MainWindow> ExplorerTest::makeWindow()
{
    MainWindowOptions options;
    options.restoreSettings = false; // every test starts from the defaults
    options.cliPath = QStringLiteral(RGX_CLI_PATH); // the race check's rgx-cli
    auto window = std::make_unique<MainWindow>(options);
    window->resize(1400, 900);
    window->show();
    window->activateWindow();
    if (!QTest::qWaitForWindowExposed(window.get()))
        qWarning("window not exposed");
    if (!QTest::qWaitFor([&] { return window->devicesReady(); }, 60000))
        qWarning("devices not listed within 60 s");
    return window;
}

void ExplorerTest::init()
{
    // Settings of its own for each test function: CTest may run two at once.
    QCoreApplication::setApplicationName(QStringLiteral("rgx-gui-tests-%1").arg(QLatin1String(QTest::currentTestFunction())));
    folder_ = std::make_unique<QTemporaryDir>();
    QVERIFY(folder_->isValid());
    window_ = makeWindow();
    QVERIFY2(window_->devicesReady(), qPrintable(window_->lastNotice()));
    QVERIFY(QTest::qWaitForWindowActive(window_.get()));
}

void ExplorerTest::cleanup()
{
    window_.reset();
    folder_.reset();
}

bool ExplorerTest::runAndWait(MainWindow* window, int milliseconds)
{
    QSignalSpy finished(window, &MainWindow::runFinished);
    QSignalSpy failed(window, &MainWindow::runFailed);
    window->findChild<QAction*>(QStringLiteral("runAction"))->trigger();
    return QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, milliseconds) &&
           finished.count() == 1 && failed.isEmpty();
}

void ExplorerTest::clickPixel(int x, int y, Qt::MouseButton button)
{
    ImageView* view = window_->imageView();
    const QPoint position = at(x, y);
    QCOMPARE(view->pixelAt(position), QPoint(x, y));
    QTest::mouseClick(view, button, Qt::NoModifier, position);
}

// A one-pixel corridor of 1000x401 in mode range with the slowest driver
// (one read-back per iteration): a run of seconds. seeds: a seeds file's
// text, or nullptr for none.
void ExplorerTest::openSlowCorridor(const char* seeds)
{
    QVERIFY(window_->openImage(writeMaze(folder_->path(), 1000, 401)));
    if (seeds)
        QVERIFY(window_->importSeeds(writeSeeds(folder_->path(), seeds)));
    auto* mode = child<QComboBox>(window_.get(), "modeCombo");
    mode->setCurrentIndex(mode->findData(int(Mode::Range)));
    GrowVariant variant;
    variant.driver = Driver::HostSync;
    chooseVariant(variant);
}

void ExplorerTest::chooseVariant(const GrowVariant& variant)
{
    auto choose = [&](const char* name, int value) {
        auto* combo = child<QComboBox>(window_.get(), name);
        QVERIFY(combo);
        const int index = combo->findData(value);
        QVERIFY2(index >= 0, name);
        combo->setCurrentIndex(index);
    };
    choose("driverCombo", int(variant.driver));
    choose("frontierCombo", int(variant.frontier));
    choose("collectivesCombo", int(variant.collectives));
    if (variant.frontier == Frontier::Sweep)
        choose("tileCombo", int(variant.tile));
    choose("fusionCombo", int(variant.fusion));
    QCOMPARE(window_->devicePanel()->variant(), variant);
}

void ExplorerTest::opensBundledSampleFromTheMenuAndRunsIt()
{
    QAction* coins = child<QAction>(window_.get(), "sample_coins");
    QVERIFY(coins);
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    coins->trigger();
    QVERIFY(window_->luma());
    QCOMPARE(window_->luma()->width, 384);
    QCOMPARE(window_->luma()->height, 303);
    const std::vector<Seed> expected = readSeedsFile(sample("coins.seeds"));
    QCOMPARE(window_->seeds().size(), expected.size());
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 240000);
    QVERIFY(window_->result());
    QVERIFY(window_->result()->iterations > 0);
    // The seeds table shows each region's size after the run.
    auto* table = child<QTableView>(window_.get(), "seedTable");
    const QModelIndex size = table->model()->index(0, SeedTableModel::RegionSize);
    const GrowResultPtr full = withFullMaps(window_->result());
    QCOMPARE(table->model()->data(size).toString().remove(QRegularExpression(QStringLiteral("[^0-9]"))),
             QString::number(std::count(full->labels.begin(), full->labels.end(), 1)));
    // The sample opens on the parameters its seeds file suggests, which
    // segment the coins: the background one region, each coin its own.
    QCOMPARE(window_->parametersPanel()->params().grow.mode, Mode::Adaptive);
    const std::vector<RegionStats>& regions = window_->result()->regions;
    QCOMPARE(regions.size(), size_t(25));
    QVERIFY2(regions[0].count > 40000, "the background is one large region");
    for (size_t k = 1; k < regions.size(); ++k)
        QVERIFY2(regions[k].count > 500 && regions[k].count < 6000,
                 qPrintable(QStringLiteral("coin %1 has %2 pixels").arg(k).arg(regions[k].count)));
}

void ExplorerTest::seedEditsWithTheMouseAreUndoable()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    ImageView* view = window_->imageView();
    clickPixel(50, 50);
    clickPixel(100, 80);
    clickPixel(200, 150);
    QCOMPARE(window_->seeds().size(), size_t(3));
    QCOMPARE(window_->seeds()[1], (Seed{100, 80}));

    // Drag seed 1 to another pixel.
    QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, at(50, 50));
    QTest::mouseMove(view, at(55, 60));
    QTest::mouseMove(view, at(60, 70));
    QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, at(60, 70));
    QCOMPARE(window_->seeds()[0], (Seed{60, 70}));
    QCOMPARE(window_->seeds().size(), size_t(3));

    // Right-click removes seed 2.
    clickPixel(100, 80, Qt::RightButton);
    QCOMPARE(window_->seeds().size(), size_t(2));
    QCOMPARE(window_->seeds()[1], (Seed{200, 150}));

    // Select seed 2 by clicking it, then Delete removes it.
    clickPixel(200, 150);
    QCOMPARE(view->selectedSeed(), 1);
    QCOMPARE(window_->seeds().size(), size_t(2)); // a click on a seed selects, it does not add
    QTest::keyClick(view, Qt::Key_Delete);
    QCOMPARE(window_->seeds().size(), size_t(1));

    // Undo with the keyboard, step by step back to the start, then redo.
    QTest::keyClick(view, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(window_->seeds().size(), size_t(2));
    QTest::keyClick(view, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(window_->seeds().size(), size_t(3));
    QCOMPARE(window_->seeds()[1], (Seed{100, 80}));
    QTest::keyClick(view, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(window_->seeds()[0], (Seed{50, 50}));
    QCOMPARE(window_->undoStack()->index(), 3);
    QTest::keyClick(view, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(window_->seeds()[0], (Seed{60, 70}));
    QCOMPARE(window_->undoStack()->count(), 6);

    // The table follows, with the luma under each seed.
    auto* table = child<QTableView>(window_.get(), "seedTable");
    QCOMPARE(table->model()->rowCount(), 3);
    QCOMPARE(table->model()->data(table->model()->index(0, SeedTableModel::X)).toInt(), 60);
    QCOMPARE(table->model()->data(table->model()->index(0, SeedTableModel::Luma)).toInt(),
             int(window_->luma()->at(60, 70)));

    // Typing a coordinate in the table moves the seed, undoably.
    const QModelIndex x = table->model()->index(0, SeedTableModel::X);
    table->setCurrentIndex(x);
    table->edit(x);
    auto* editor = table->findChild<QSpinBox*>();
    QVERIFY(editor);
    editor->setValue(77);
    QTest::keyClick(editor, Qt::Key_Return);
    QTRY_COMPARE(window_->seeds()[0], (Seed{77, 70}));
    QCOMPARE(view->selectedSeed(), 0);
    QTest::keyClick(view, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(window_->seeds()[0], (Seed{60, 70}));
}

void ExplorerTest::seedsCannotLeaveTheImage()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    ImageView* view = window_->imageView();
    // Outside the picture (the view's corner is grey margin): nothing is added.
    QVERIFY(!view->contains(view->pixelAt(QPointF(2, 2))));
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, QPoint(2, 2));
    QVERIFY(window_->seeds().empty());
    // A seed dragged past the edge stops on the edge.
    clickPixel(10, 10);
    QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, at(10, 10));
    QTest::mouseMove(view, QPoint(2, 2));
    QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, QPoint(2, 2));
    QCOMPARE(window_->seeds()[0], (Seed{0, 0}));
    // Seed files with a seed outside the image are refused with a message.
    const QString outside = folder_->filePath(QStringLiteral("outside.seeds"));
    QFile file(outside);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("5 5\n1000 20\n");
    file.close();
    QVERIFY(!window_->importSeeds(outside));
    QVERIFY2(window_->lastNotice().contains(QStringLiteral("1000")), qPrintable(window_->lastNotice()));
    QCOMPARE(window_->seeds().size(), size_t(1));
}

void ExplorerTest::statusBarShowsThePixelUnderTheCursor()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    QTest::mouseMove(window_->imageView(), at(20, 30));
    auto* info = child<QLabel>(window_.get(), "pixelInfo");
    QTRY_VERIFY(info->text().startsWith(QStringLiteral("x 20  y 30  luma %1").arg(window_->luma()->at(20, 30))));
}

void ExplorerTest::zoomAndPanKeepThePixelUnderTheCursor()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    ImageView* view = window_->imageView();
    const double fitted = view->zoom();
    child<QAction>(window_.get(), "zoomInAction")->trigger();
    QVERIFY(qAbs(view->zoom() - fitted * 1.25) < 1e-9);

    // The wheel zooms around the cursor: the pixel under it stays put.
    const QPoint cursor = at(150, 100);
    QWheelEvent wheel(QPointF(cursor), QPointF(view->mapToGlobal(cursor)), QPoint(), QPoint(0, 240), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view, &wheel);
    QVERIFY(view->zoom() > fitted * 1.25 * 1.5);
    QCOMPARE(view->pixelAt(cursor), QPoint(150, 100));

    // Dragging on the image pans it and adds no seed.
    const QPoint start = at(150, 100);
    QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, start);
    QTest::mouseMove(view, start + QPoint(20, 0));
    QTest::mouseMove(view, start + QPoint(60, 0));
    QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, start + QPoint(60, 0));
    QVERIFY(window_->seeds().empty());
    QCOMPARE(view->pixelAt(start + QPoint(60, 0)), QPoint(150, 100));

    child<QAction>(window_.get(), "zoomActualAction")->trigger();
    QCOMPARE(view->zoom(), 1.0);
    child<QAction>(window_.get(), "zoomFitAction")->trigger();
    QCOMPARE(view->zoom(), fitted);
}

void ExplorerTest::variantPanelDisablesWhatTheDeviceCannotRun()
{
    const DeviceInfo* device = window_->devicePanel()->currentDevice();
    QVERIFY(device);
    auto* driver = child<QComboBox>(window_.get(), "driverCombo");
    auto* model = qobject_cast<QStandardItemModel*>(driver->model());
    QVERIFY(model);
    // Every driver choice is enabled exactly when some variant with it runs here.
    for (int row = 0; row < driver->count(); ++row) {
        const Driver value = Driver(driver->itemData(row).toInt());
        bool runs = false;
        std::optional<std::string> reason;
        for (const GrowVariant& variant : allVariants()) {
            if (variant.driver != value)
                continue;
            const auto why = whyUnavailable(variant, *device);
            runs = runs || !why;
            if (why && !reason)
                reason = why;
        }
        QCOMPARE(model->item(row)->isEnabled(), runs);
        if (!runs) {
            QVERIFY2(model->item(row)->toolTip().contains(QString::fromStdString(*reason)),
                     qPrintable(model->item(row)->toolTip()));
            QVERIFY(child<QLabel>(window_.get(), "unavailableList")->text().contains(QString::fromStdString(*reason)));
        }
    }
    // Wrong-on-purpose choices say so.
    auto* collectives = child<QComboBox>(window_.get(), "collectivesCombo");
    const int broken = collectives->findData(int(Collectives::LocalNoBarrier));
    QVERIFY(broken >= 0);
    QVERIFY(collectives->itemText(broken).contains(QStringLiteral("wrong on purpose")));
    // The tile axis only applies to the sweep frontier.
    GrowVariant sweep;
    sweep.frontier = Frontier::Sweep;
    sweep.tile = Tile::Direct;
    sweep.collectives = Collectives::Local;
    chooseVariant(sweep);
    QVERIFY(child<QComboBox>(window_.get(), "tileCombo")->isEnabled());
    GrowVariant queue;
    chooseVariant(queue);
    QVERIFY(!child<QComboBox>(window_.get(), "tileCombo")->isEnabled());
    QCOMPARE(window_->devicePanel()->variant().tile, Tile::None);
    // Fusion applies to the host-batched queue only, and shows in the variant text.
    auto* fusion = child<QComboBox>(window_.get(), "fusionCombo");
    QVERIFY(fusion->isEnabled());
    GrowVariant fused;
    fused.fusion = Fusion::GridBarrier;
    chooseVariant(fused);
    QVERIFY(child<QLabel>(window_.get(), "variantText")->text().contains(QStringLiteral("fusion=grid-barrier")));
    GrowVariant synced;
    synced.driver = Driver::HostSync;
    chooseVariant(synced);
    QVERIFY(!fusion->isEnabled());
    QCOMPARE(window_->devicePanel()->variant().fusion, Fusion::None);
}

void ExplorerTest::exportedMaskEqualsReferenceAndCli()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    QVERIFY(window_->importSeeds(sample("coins.seeds")));
    GrowVariant variant;
    variant.driver = Driver::HostSync;
    variant.frontier = Frontier::Sweep;
    variant.collectives = Collectives::Local;
    variant.tile = Tile::Direct;
    chooseVariant(variant);
    auto* mode = child<QComboBox>(window_.get(), "modeCombo");
    mode->setCurrentIndex(mode->findData(int(Mode::Adaptive)));
    child<QDoubleSpinBox>(window_.get(), "toleranceSpin")->setValue(45);
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));

    const QString png = folder_->filePath(QStringLiteral("labels.png"));
    const QString npy = folder_->filePath(QStringLiteral("labels.npy"));
    const QString stamps = folder_->filePath(QStringLiteral("stamps.npy"));
    QVERIFY(window_->exportLabels(png));
    QVERIFY(window_->exportLabels(npy));
    QVERIFY(window_->exportStamps(stamps));

    PipelineParams params = window_->parametersPanel()->params();
    const GrowResultPtr reference = runReferencePipeline(*window_->luma(), window_->seeds(), params);
    const QImage mask(png);
    QCOMPARE(mask.size(), QSize(reference->width, reference->height));
    int width = 0, height = 0;
    const std::vector<uint32_t> labels = readNpy(npy, &width, &height);
    const std::vector<uint32_t> stampValues = readNpy(stamps, &width, &height);
    for (int y = 0; y < reference->height; ++y)
        for (int x = 0; x < reference->width; ++x) {
            const size_t p = size_t(y) * size_t(reference->width) + size_t(x);
            if (qGray(mask.pixel(x, y)) != reference->labels[p] || labels[p] != reference->labels[p]
                || stampValues[p] != reference->stamps[p])
                QFAIL(qPrintable(QStringLiteral("pixel (%1, %2): exported label %3 / %4, stamp %5; reference %6, %7")
                                     .arg(x).arg(y).arg(qGray(mask.pixel(x, y))).arg(labels[p]).arg(stampValues[p])
                                     .arg(reference->labels[p]).arg(reference->stamps[p])));
        }

    // rgx-cli writes the same mask for the same inputs.
    const QString cliMask = folder_->filePath(QStringLiteral("cli.png"));
    QProcess cli;
    cli.start(QStringLiteral(RGX_CLI_PATH),
              {QStringLiteral("segment"), QStringLiteral("--image"), sample("coins.png"), QStringLiteral("--seeds-file"),
               sample("coins.seeds"), QStringLiteral("--mode"), QStringLiteral("adaptive"), QStringLiteral("--tolerance"),
               QStringLiteral("45"), QStringLiteral("--variant"), QString::fromStdString(variant.text()),
               QStringLiteral("--out-labels"), cliMask});
    QVERIFY(cli.waitForFinished(240000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    QCOMPARE(QImage(cliMask).convertToFormat(QImage::Format_Grayscale8),
             mask.convertToFormat(QImage::Format_Grayscale8));
}

void ExplorerTest::playbackStepsThroughIterations()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    QVERIFY(window_->importSeeds(sample("coins.seeds")));
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    PlaybackPanel* playback = window_->playbackPanel();
    const uint32_t last = window_->result()->iterations;
    QCOMPARE(playback->lastFrame(), last);
    QCOMPARE(playback->frame(), last);
    const QImage finalPicture = window_->currentPicture();

    QTest::mouseClick(child<QToolButton>(window_.get(), "stepBackButton"), Qt::LeftButton);
    QCOMPARE(playback->frame(), last - 1);
    QVERIFY(window_->currentPicture() != finalPicture);
    // The per-iteration chart marks the iteration shown (issue 28).
    QCOMPARE(window_->timingPanel()->playbackIteration(), int(last - 1));
    auto* marker = window_->timingPanel()->plot(TimingPanel::PerIteration)->findChild<QCPItemStraightLine*>(QStringLiteral("keyMarker"));
    QVERIFY(marker && marker->visible());
    QCOMPARE(marker->point1->key(), double(last - 1));
    QTest::mouseClick(child<QToolButton>(window_.get(), "stepForwardButton"), Qt::LeftButton);
    QCOMPARE(playback->frame(), last);
    QCOMPARE(window_->currentPicture(), finalPicture); // cached, and rebuilt identically

    // Frame 0: only the seeds are classified; every frame equals the overlay
    // of SPEC.md rebuilt from the final labels and stamps.
    child<QSlider>(window_.get(), "frameSlider")->setValue(0);
    QCOMPARE(playback->frame(), 0u);
    OverlayStyle style;
    style.opacity = playback->opacity();
    style.outlines = playback->outlines();
    style.frontier = playback->frontier();
    style.frame = 0;
    const QImage base = QImage(sample("coins.png")).convertToFormat(QImage::Format_RGB32);
    QCOMPARE(window_->currentPicture().convertToFormat(QImage::Format_RGB32),
             renderOverlay(base, *window_->result(), style).convertToFormat(QImage::Format_RGB32));

    // Play advances by itself; pause stops it.
    child<QSpinBox>(window_.get(), "speedSpin")->setValue(60);
    QTest::mouseClick(child<QToolButton>(window_.get(), "playButton"), Qt::LeftButton);
    QVERIFY(playback->isPlaying());
    QTRY_VERIFY(playback->frame() >= 3);
    QTest::mouseClick(child<QToolButton>(window_.get(), "playButton"), Qt::LeftButton);
    QVERIFY(!playback->isPlaying());
    const uint32_t paused = playback->frame();
    QTest::qWait(100);
    QCOMPARE(playback->frame(), paused);
    QVERIFY(child<QLabel>(window_.get(), "frameLabel")->text().contains(QString::number(paused)));
}

void ExplorerTest::chartExportsAsPngAndPdfAtTheChosenSize()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    QVERIFY(window_->importSeeds(sample("coins.seeds")));
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    TimingPanel* timing = window_->timingPanel();
    for (auto chart : {TimingPanel::PerIteration, TimingPanel::PerKernel, TimingPanel::Timeline}) {
        timing->showChart(chart);
        QVERIFY(timing->plot(chart)->plottableCount() > 0);
        const QString png = folder_->filePath(QStringLiteral("chart%1.png").arg(int(chart)));
        QVERIFY2(window_->exportChart(png, QSize(900, 500)), qPrintable(window_->lastNotice()));
        QCOMPARE(QImage(png).size(), QSize(900, 500));
    }
    const QString pdf = folder_->filePath(QStringLiteral("chart.pdf"));
    QVERIFY(window_->exportChart(pdf, QSize(800, 450)));
    QFile file(pdf);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.read(5) == "%PDF-");
    // The timing records go out too.
    QVERIFY(window_->exportTimings(folder_->filePath(QStringLiteral("timings.csv"))));
    QVERIFY(window_->exportTimings(folder_->filePath(QStringLiteral("timings.json"))));
    QVERIFY(window_->exportOverlay(folder_->filePath(QStringLiteral("overlay.png"))));
    QCOMPARE(QImage(folder_->filePath(QStringLiteral("overlay.png"))).size(), QSize(384, 303));
}

// Issue 28: the device and variant dock needed a horizontal scroll bar at
// the window's default size, on every device of the list.
void ExplorerTest::noDockScrollsSidewaysAtTheDefaultSize()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    window_->resize(1500, 950);
    // The longest variant text the panel shows (docs/screenshots/fusion-vs-host-sync.png
    // had the dock scroll sideways on it).
    GrowVariant longest;
    longest.driver = Driver::HostBatched;
    longest.collectives = Collectives::Local;
    longest.fusion = Fusion::GridBarrier;
    chooseVariant(longest);
    auto* devices = child<QTreeWidget>(window_.get(), "deviceList");
    for (int row = 0; row < std::max(1, devices->topLevelItemCount()); ++row) {
        if (devices->topLevelItemCount() > 0)
            devices->setCurrentItem(devices->topLevelItem(row));
        for (const char* dock : {"devicesDock", "parametersDock", "playbackDock"}) {
            auto* area = child<QDockWidget>(window_.get(), dock)->findChild<QScrollArea*>();
            QVERIFY(area);
            child<QDockWidget>(window_.get(), dock)->raise();
            QTest::qWait(50);
            QVERIFY2(!area->horizontalScrollBar()->isVisible(),
                     qPrintable(QStringLiteral("%1 scrolls sideways on device row %2: content %3 px in %4 px")
                                    .arg(QLatin1String(dock))
                                    .arg(row)
                                    .arg(area->widget()->minimumSizeHint().width())
                                    .arg(area->viewport()->width())));
        }
    }
}

// Issue 28: undo took back seeds but not parameters. A spin box's steps are
// one step of undo; a second field is another.
void ExplorerTest::parameterEditsAreStepsOfUndo()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    clickPixel(40, 40);
    QUndoStack* undo = window_->undoStack();
    const int seedSteps = undo->count();
    auto* mode = child<QComboBox>(window_.get(), "modeCombo");
    mode->setCurrentIndex(mode->findData(int(Mode::Range)));
    auto* lower = child<QSpinBox>(window_.get(), "lowerSpin");
    lower->stepUp();
    lower->stepUp();
    lower->stepUp();
    QCOMPARE(window_->parametersPanel()->params().grow.lower, 23u);
    QCOMPARE(undo->count(), seedSteps + 2);
    QCOMPARE(undo->undoText(), QStringLiteral("set --lower 23"));
    undo->undo();
    QCOMPARE(lower->value(), 20);
    QCOMPARE(window_->parametersPanel()->params().grow.mode, Mode::Range);
    undo->undo();
    QCOMPARE(window_->parametersPanel()->params().grow.mode, Mode::Competitive);
    undo->undo();
    QVERIFY(window_->seeds().empty());
    undo->redo();
    undo->redo();
    QCOMPARE(window_->parametersPanel()->params().grow.mode, Mode::Range);
}

void ExplorerTest::sessionReopensExactly()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    clickPixel(40, 40);
    clickPixel(200, 120);
    clickPixel(300, 250);
    auto* mode = child<QComboBox>(window_.get(), "modeCombo");
    mode->setCurrentIndex(mode->findData(int(Mode::Range)));
    child<QSpinBox>(window_.get(), "lowerSpin")->setValue(12);
    child<QSpinBox>(window_.get(), "upperSpin")->setValue(34);
    auto* connectivity = child<QComboBox>(window_.get(), "connectivityCombo");
    connectivity->setCurrentIndex(connectivity->findData(8));
    auto* prefilter = child<QComboBox>(window_.get(), "prefilterCombo");
    prefilter->setCurrentIndex(prefilter->findData(int(PrefilterSpec::Kind::BoxMean)));
    child<QSpinBox>(window_.get(), "prefilterSizeSpin")->setValue(7);
    auto* prefilterVariant = child<QComboBox>(window_.get(), "prefilterVariantCombo");
    prefilterVariant->setCurrentIndex(prefilterVariant->findData(QStringLiteral("direct")));
    child<QCheckBox>(window_.get(), "postfilterCheck")->setChecked(true);
    child<QSpinBox>(window_.get(), "postfilterWindowSpin")->setValue(9);
    child<QSpinBox>(window_.get(), "postfilterMinimumSpin")->setValue(20);
    child<QSpinBox>(window_.get(), "iterationCapSpin")->setValue(500);
    child<QDoubleSpinBox>(window_.get(), "timeoutSpin")->setValue(77);
    GrowVariant variant;
    variant.driver = Driver::HostSync;
    variant.frontier = Frontier::Sweep;
    variant.collectives = Collectives::Local;
    variant.tile = Tile::Async;
    chooseVariant(variant);

    const QString path = folder_->filePath(QStringLiteral("work.json"));
    QVERIFY(window_->saveSession(path));
    const PipelineParams params = window_->parametersPanel()->params();

    std::unique_ptr<MainWindow> reopened = makeWindow();
    QVERIFY(reopened->openSession(path));
    QCOMPARE(reopened->imagePath(), window_->imagePath());
    QCOMPARE(reopened->seeds(), window_->seeds());
    QCOMPARE(reopened->devicePanel()->variant(), variant);
    QCOMPARE(reopened->devicePanel()->currentDeviceId(), window_->devicePanel()->currentDeviceId());
    const PipelineParams again = reopened->parametersPanel()->params();
    QCOMPARE(again.grow.mode, Mode::Range);
    QCOMPARE(again.grow.lower, 12u);
    QCOMPARE(again.grow.upper, 34u);
    QCOMPARE(again.grow.connectivity, 8);
    QCOMPARE(again.grow.maxIterations, 500u);
    QCOMPARE(prefilterText(again.prefilter), prefilterText(params.prefilter));
    QCOMPARE(again.prefilter.variant, std::string("direct"));
    QCOMPARE(postfilterText(again.postfilter), postfilterText(params.postfilter));
    QCOMPARE(reopened->parametersPanel()->timeoutSeconds(), 77.0);
    // Saved again, the file is the same byte for byte.
    const QString second = folder_->filePath(QStringLiteral("work2.json"));
    QVERIFY(reopened->saveSession(second));
    QFile a(path), b(second);
    QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
    QCOMPARE(b.readAll(), a.readAll());
}

void ExplorerTest::guiStaysResponsiveDuringALongRunAndCancelStopsIt()
{
    openSlowCorridor("0 0\n");

    int ticks = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, [&] { ++ticks; });
    ticker.start(10);
    QSignalSpy started(window_.get(), &MainWindow::runStarted);
    QSignalSpy failed(window_.get(), &MainWindow::runFailed);
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    child<QAction>(window_.get(), "runAction")->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(started.count() == 1, 120000);
    auto* status = child<QLabel>(window_.get(), "runStatus");
    QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(QStringLiteral("iteration")), 120000);

    // While the engine works, the GUI thread keeps handling events.
    const int before = ticks;
    const QString firstProgress = status->text();
    QTest::qWait(1500);
    QVERIFY(window_->isRunning());
    QVERIFY2(ticks - before >= 50, qPrintable(QString::number(ticks - before)));
    QVERIFY(status->text() != firstProgress);
    QVERIFY(child<QAction>(window_.get(), "cancelAction")->isEnabled());
    // Seed edits still work (zoomed in, so that a click hits one pixel).
    window_->imageView()->zoomActualSize();
    window_->imageView()->zoomIn();
    window_->imageView()->zoomIn();
    clickPixel(500, 200);
    QCOMPARE(window_->seeds().size(), size_t(2));

    QElapsedTimer clock;
    clock.start();
    child<QAction>(window_.get(), "cancelAction")->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!window_->isRunning(), 20000);
    QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(failed.count(), 1);
    QCOMPARE(finished.count(), 0);
    QVERIFY(window_->logPanel()->lastLine().contains(QStringLiteral("cancelled")));
    QVERIFY(!window_->result());
}

void ExplorerTest::timeoutStopsARunWithAMessage()
{
    openSlowCorridor("0 0\n");
    child<QDoubleSpinBox>(window_.get(), "timeoutSpin")->setValue(1.0);
    QSignalSpy notices(window_.get(), &MainWindow::noticeShown);
    QVERIFY(!runAndWait(window_.get()));
    QVERIFY(!window_->isRunning());
    QCOMPARE(notices.count(), 1);
    QVERIFY2(window_->lastNotice().contains(QStringLiteral("timed out")), qPrintable(window_->lastNotice()));
    QVERIFY(child<QMessageBox>(window_.get(), "noticeBox")->isVisible());
}

void ExplorerTest::corruptImageGivesAMessageAndKeepsWorking()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    const auto luma = window_->luma();
    const QString broken = folder_->filePath(QStringLiteral("broken.png"));
    QFile file(broken);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("\x89PNG\r\n\x1a\n this is not really a PNG file");
    file.close();
    QVERIFY(!window_->openImage(broken));
    QVERIFY2(window_->lastNotice().contains(QStringLiteral("broken.png")), qPrintable(window_->lastNotice()));
    QVERIFY(child<QMessageBox>(window_.get(), "noticeBox")->isVisible());
    QVERIFY(!child<QMessageBox>(window_.get(), "noticeBox")->isModal());
    // The image that was open stays open and editable.
    QCOMPARE(window_->luma(), luma);
    clickPixel(100, 100);
    QCOMPARE(window_->seeds().size(), size_t(1));
    QVERIFY(!window_->openImage(folder_->filePath(QStringLiteral("missing.png"))));
    QCOMPARE(window_->luma(), luma);
}

void ExplorerTest::unreadableSessionGivesAMessage()
{
    const QString garbage = folder_->filePath(QStringLiteral("garbage.json"));
    QFile file(garbage);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{ this is not json");
    file.close();
    QVERIFY(!window_->openSession(garbage));
    QVERIFY2(window_->lastNotice().contains(QStringLiteral("not valid JSON")), qPrintable(window_->lastNotice()));
    QVERIFY(!window_->openSession(folder_->filePath(QStringLiteral("absent.json"))));
    QVERIFY(window_->lastNotice().contains(QStringLiteral("absent.json")));

    // A well-formed session whose image is gone names the image.
    QVERIFY(window_->openImage(sample("coins.png")));
    clickPixel(30, 30);
    const QString copy = folder_->filePath(QStringLiteral("copy.png"));
    QVERIFY(QFile::copy(sample("coins.png"), copy));
    QVERIFY(window_->openImage(copy));
    clickPixel(30, 30);
    const QString session = folder_->filePath(QStringLiteral("session.json"));
    QVERIFY(window_->saveSession(session));
    QVERIFY(QFile::remove(copy));
    QVERIFY(!window_->openSession(session));
    QVERIFY2(window_->lastNotice().contains(QStringLiteral("copy.png")), qPrintable(window_->lastNotice()));
    QVERIFY(window_->openImage(sample("coins.png"))); // still working
}

void ExplorerTest::exportToAnImpossiblePathLeavesNoFile()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    QVERIFY(window_->importSeeds(sample("coins.seeds")));
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    // A path below a regular file cannot be written, not even by root.
    const QString blocker = folder_->filePath(QStringLiteral("plain-file"));
    QFile file(blocker);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    const QString labels = blocker + QStringLiteral("/labels.png");
    QVERIFY(!window_->exportLabels(labels));
    QVERIFY2(window_->lastNotice().contains(labels), qPrintable(window_->lastNotice()));
    QVERIFY(!window_->exportChart(blocker + QStringLiteral("/chart.png"), QSize(640, 480)));
    QVERIFY(!window_->saveSession(blocker + QStringLiteral("/session.json")));
    QVERIFY(!window_->exportTimings(blocker + QStringLiteral("/timings.csv")));
    QVERIFY(!QFile::exists(labels));
    // Nothing half-written next to the target either.
    QCOMPARE(QDir(folder_->path()).entryList(QDir::Files | QDir::NoDotAndDotDot), QStringList{QStringLiteral("plain-file")});
    QVERIFY(window_->exportLabels(folder_->filePath(QStringLiteral("ok.png"))));
}

void ExplorerTest::unavailableVariantFailsWithAMessageAndKeepsWorking()
{
    const DeviceInfo* device = window_->devicePanel()->currentDevice();
    QVERIFY(device);
    std::optional<GrowVariant> unavailable;
    for (const GrowVariant& variant : allVariants())
        if (!unavailable && whyUnavailable(variant, *device))
            unavailable = variant;
    if (!unavailable)
        QSKIP("this device runs every variant");
    QVERIFY(window_->openImage(sample("coins.png")));
    QVERIFY(window_->importSeeds(sample("coins.seeds")));
    QVERIFY(window_->setVariantText(QString::fromStdString(unavailable->text())));
    const QString reason = QString::fromStdString(*whyUnavailable(*unavailable, *device));
    QVERIFY(child<QLabel>(window_.get(), "variantReason")->text().contains(reason.toHtmlEscaped()));
    QVERIFY(!runAndWait(window_.get()));
    QVERIFY2(window_->lastNotice().contains(QStringLiteral("failed")), qPrintable(window_->lastNotice()));
    QVERIFY(!window_->isRunning());
    // Back to a variant that runs: the next run works.
    chooseVariant(GrowVariant{});
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    QVERIFY(window_->result());
}

// Issue 29, item 1: choosing a wrong-on-purpose variant and the corruption
// view is all it takes; the chart counts the pixels that differ at each
// iteration (against a replay of both runs' frames here), marks the first,
// and playback at iteration k lights exactly the pixels that differ at k.
void ExplorerTest::theCorruptionPlaysBackIterationByIterationWithItsCounts()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    QVERIFY(window_->importSeeds(sample("coins.seeds")));
    GrowVariant broken;
    broken.collectives = Collectives::LocalNoBarrier;
    chooseVariant(broken);
    window_->setCorruptionView(true);
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    QTRY_VERIFY_WITH_TIMEOUT(window_->diff() != nullptr, 120000);
    const GrowResultPtr reference = window_->reference();
    const GrowResultPtr result = withFullMaps(window_->result());
    const uint32_t last = std::max(reference->iterations, result->iterations);
    auto replayed = [&](uint32_t k) {
        uint64_t count = 0;
        for (size_t p = 0; p < reference->labels.size(); ++p) {
            const uint16_t expected = reference->stamps[p] <= k ? reference->labels[p] : 0;
            const uint16_t actual = result->stamps[p] <= k ? result->labels[p] : 0;
            count += expected != actual ? 1 : 0;
        }
        return count;
    };
    QCustomPlot* chart = window_->timingPanel()->plot(TimingPanel::PerIteration);
    QCPGraph* counts = nullptr;
    for (int i = 0; i < chart->graphCount(); ++i)
        counts = chart->graph(i)->objectName() == QLatin1String("differencesGraph") ? chart->graph(i) : counts;
    QVERIFY(counts);
    QCOMPARE(counts->data()->size(), int(last) + 1);
    int64_t first = -1;
    for (uint32_t k = 0; k <= last; ++k) {
        const uint64_t expected = replayed(k);
        QCOMPARE(uint64_t(counts->data()->at(int(k))->value), expected);
        first = first < 0 && expected > 0 ? int64_t(k) : first;
    }
    QVERIFY2(first >= 0, "the variant corrupted nothing on coins: the test would prove nothing");
    auto* marker = chart->findChild<QCPItemStraightLine*>(QStringLiteral("firstDifferenceMarker"));
    QVERIFY(marker && marker->visible());
    QCOMPARE(marker->point1->coords().x(), double(first));
    // Playback at the first differing iteration and one before it (exact
    // magenta as in corruptionViewMarksDifferingPixels).
    const auto magentaPixels = [this] {
        const QImage picture = window_->currentPicture().convertToFormat(QImage::Format_RGB32);
        uint64_t magenta = 0;
        for (int y = 0; y < picture.height(); ++y)
            for (int x = 0; x < picture.width(); ++x) {
                const QRgb pixel = picture.pixel(x, y);
                magenta += qRed(pixel) - qGreen(pixel) == 191 && qBlue(pixel) - qGreen(pixel) == 191 ? 1 : 0;
            }
        return magenta;
    };
    for (int64_t k : {first - 1, first, first + 1}) {
        if (k < 0 || k >= int64_t(result->iterations))
            continue;
        window_->playbackPanel()->setFrame(uint32_t(k));
        QTRY_COMPARE_WITH_TIMEOUT(magentaPixels(), replayed(uint32_t(k)), 10000);
    }
}

void ExplorerTest::corruptionViewMarksDifferingPixels()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    QVERIFY(window_->importSeeds(sample("coins.seeds")));
    GrowVariant broken;
    broken.collectives = Collectives::LocalNoBarrier;
    chooseVariant(broken);
    window_->setCorruptionView(true);
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    QTRY_VERIFY_WITH_TIMEOUT(window_->diff() != nullptr, 120000);
    const ResultDiff diff = compareResults(*window_->reference(), *window_->result());
    QCOMPARE(window_->diff()->differingPixels, diff.differingPixels);
    // At the last frame every differing pixel is magenta, and only those:
    // on this grey image a difference is drawn as (191 + v/4, v/4, 191 + v/4)
    // from the pixel's grey v (engine/io/Overlay.cpp), so red and blue are
    // exactly 191 above green. (A looser "red and blue far above green" also
    // counted the outline of a magenta-coloured region that was right.) The
    // frame is drawn after the diff arrives (a slow build, under a
    // sanitizer, can look in between).
    const auto magentaPixels = [this] {
        const QImage picture = window_->currentPicture().convertToFormat(QImage::Format_RGB32);
        uint64_t magenta = 0;
        for (int y = 0; y < picture.height(); ++y)
            for (int x = 0; x < picture.width(); ++x) {
                const QRgb pixel = picture.pixel(x, y);
                magenta += qRed(pixel) - qGreen(pixel) == 191 && qBlue(pixel) - qGreen(pixel) == 191 ? 1 : 0;
            }
        return magenta;
    };
    QTRY_COMPARE_WITH_TIMEOUT(magentaPixels(), diff.differingPixels, 10000);
    const QString label = child<QLabel>(window_.get(), "diffLabel")->text();
    if (diff.differingPixels > 0) {
        QVERIFY2(label.contains(QStringLiteral("first at iteration %1").arg(diff.firstDifferingIteration)), qPrintable(label));
        QVERIFY(label.contains(QStringLiteral("%")));
    } else {
        QVERIFY2(label.contains(QStringLiteral("no pixel differs")), qPrintable(label));
    }
    // A correct variant on the same inputs: nothing differs.
    chooseVariant(GrowVariant{});
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    QTRY_VERIFY_WITH_TIMEOUT(window_->diff() != nullptr, 120000);
    QCOMPARE(window_->diff()->differingPixels, uint64_t(0));
    QVERIFY(child<QLabel>(window_.get(), "diffLabel")->text().contains(QStringLiteral("no pixel differs")));
    window_->setCorruptionView(false);
    QVERIFY(child<QLabel>(window_.get(), "diffLabel")->text().contains(QStringLiteral("off")));
}

void ExplorerTest::keptRunsAreComparedSideBySide()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    QVERIFY(window_->importSeeds(sample("coins.seeds")));
    GrowVariant sync;
    sync.driver = Driver::HostSync;
    chooseVariant(sync);
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    child<QAction>(window_.get(), "keepAction")->trigger();
    TimingPanel* timing = window_->timingPanel();
    QCOMPARE(timing->keptRunCount(), 1);
    GrowVariant batched;
    batched.driver = Driver::HostBatched;
    chooseVariant(batched);
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    const auto runs = timing->shownRuns();
    QCOMPARE(runs.size(), size_t(2));
    QVERIFY(runs[0].label.contains(QStringLiteral("host-sync")));
    QVERIFY(runs[1].label.contains(QStringLiteral("host-batched")));
    // Per kernel: one bar series per run, grouped.
    QCustomPlot* kernels = timing->plot(TimingPanel::PerKernel);
    QCOMPARE(kernels->plottableCount(), 2);
    QVERIFY(qobject_cast<QCPBars*>(kernels->plottable(0))->barsGroup() != nullptr);
    // The timeline has a bar per measured command of both runs.
    auto* timeline = qobject_cast<TimelineBars*>(timing->plot(TimingPanel::Timeline)->plottable(0));
    QVERIFY(timeline);
    size_t measured = 0;
    for (const RunEntry& run : runs)
        for (const TimingRecord& record : run.result->timings)
            measured += record.measured ? 1 : 0;
    QCOMPARE(timeline->segments().size(), measured);
    // Unchecking the kept run leaves the last run alone in the charts.
    auto* list = child<QListWidget>(window_.get(), "keptRunsList");
    list->item(0)->setCheckState(Qt::Unchecked);
    QCOMPARE(timing->shownRuns().size(), size_t(1));
    QCOMPARE(kernels->plottableCount(), 1);
}

void ExplorerTest::chartsShowValuesOnHover()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    QVERIFY(window_->importSeeds(sample("coins.seeds")));
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    TimingPanel* timing = window_->timingPanel();
    window_->showTimingChart(TimingPanel::PerKernel);
    QCustomPlot* plot = timing->plot(TimingPanel::PerKernel);
    QTRY_VERIFY(plot->isVisible());
    // The dock is enlarged after it is shown: let the layout settle before
    // reading pixel positions off the axes.
    QTest::qWait(100);
    plot->replot();
    // The last bar is the idle time between commands.
    auto* bars = qobject_cast<QCPBars*>(plot->plottable(0));
    QVERIFY(bars && bars->data()->size() > 0);
    const auto last = bars->data()->at(bars->data()->size() - 1);
    // A short idle time can be a bar under a pixel high: zoom in on it (as a
    // user would with the wheel) so that the mouse can be over it.
    if (plot->yAxis->coordToPixel(0) - plot->yAxis->coordToPixel(last->value) < 6) {
        plot->yAxis->setRange(0, last->value * 1.5);
        plot->replot();
    }
    const QPoint overBar(int(plot->xAxis->coordToPixel(last->key)), int(plot->yAxis->coordToPixel(last->value / 2)));
    QTest::mouseMove(plot, overBar);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(QStringLiteral("Idle time")), qPrintable(QToolTip::text()));

    window_->showTimingChart(TimingPanel::Timeline);
    QCustomPlot* timelinePlot = timing->plot(TimingPanel::Timeline);
    QTRY_VERIFY(timelinePlot->isVisible());
    QTest::qWait(100);
    timelinePlot->replot();
    auto* timeline = qobject_cast<TimelineBars*>(timelinePlot->plottable(0));
    const TimelineBars::Segment& first = timeline->segments().front();
    const QPoint overSegment(int(timelinePlot->xAxis->coordToPixel((first.start + first.end) / 2)),
                             int(timelinePlot->yAxis->coordToPixel(first.row)));
    QCOMPARE(timeline->segmentAt(overSegment), 0);
    QTest::mouseMove(timelinePlot, overSegment);
    QTRY_VERIFY(QToolTip::text().contains(QStringLiteral("duration")));
}

void ExplorerTest::opens16BitGreyAndColourImages()
{
    // 16-bit grey: luma is the 16-bit value itself.
    QImage grey(64, 48, QImage::Format_Grayscale16);
    for (int y = 0; y < grey.height(); ++y) {
        auto* line = reinterpret_cast<quint16*>(grey.scanLine(y));
        for (int x = 0; x < grey.width(); ++x)
            line[x] = quint16(x < 32 ? 1000 : 60000);
    }
    const QString greyPath = folder_->filePath(QStringLiteral("grey16.png"));
    QVERIFY(grey.save(greyPath));
    QVERIFY(window_->openImage(greyPath));
    QCOMPARE(window_->luma()->bitDepth, 16);
    QCOMPARE(window_->luma()->at(40, 10), uint16_t(60000));
    window_->imageView()->zoomToFit();
    clickPixel(5, 5);
    clickPixel(50, 40);
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    QCOMPARE(withFullMaps(window_->result())->labels[size_t(10) * 64 + 10], uint16_t(1));
    QCOMPARE(withFullMaps(window_->result())->labels[size_t(10) * 64 + 60], uint16_t(2));
    QTest::mouseMove(window_->imageView(), at(40, 10));
    QTRY_VERIFY(child<QLabel>(window_.get(), "pixelInfo")->text().contains(QStringLiteral("luma 60000  label 2")));

    // 8-bit colour: shown in colour, grown on the luma of SPEC.md.
    QImage colour(40, 30, QImage::Format_RGB32);
    colour.fill(qRgb(200, 30, 60));
    const QString colourPath = folder_->filePath(QStringLiteral("colour.png"));
    QVERIFY(colour.save(colourPath));
    QVERIFY(window_->openImage(colourPath));
    QVERIFY(window_->luma()->colour);
    QCOMPARE(window_->luma()->at(0, 0), uint16_t((77 * 200 + 150 * 30 + 29 * 60 + 128) >> 8));
    QCOMPARE(window_->currentPicture().pixel(3, 3), qRgb(200, 30, 60));
}

void ExplorerTest::droppingFilesOpensThem()
{
    auto drop = [&](const QString& path) {
        QMimeData data;
        data.setUrls({QUrl::fromLocalFile(path)});
        const QPoint where = window_->imageView()->geometry().center();
        QDragEnterEvent enter(where, Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(window_.get(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent dropEvent(QPointF(where), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(window_.get(), &dropEvent);
    };
    drop(sample("coins.png"));
    QTRY_COMPARE(window_->imagePath(), QFileInfo(sample("coins.png")).absoluteFilePath());
    // A seed file dropped on an open image imports its seeds.
    drop(sample("coins.seeds"));
    QTRY_COMPARE(window_->seeds().size(), readSeedsFile(sample("coins.seeds")).size());
    // The file is now among the recent files.
    // (The test window writes no settings, as with --no-settings: the list is kept for this run.)
    QVERIFY(window_->files()->recentFiles().contains(QFileInfo(window_->imagePath()).canonicalFilePath()));
}

void ExplorerTest::seedEditsRunAutomaticallyWhenAsked()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    // Chosen as a user does (a click): the choice holds whatever a run
    // takes. (Set without a click, live would turn itself off after a run
    // slower than its limit, as on a busy machine or under a sanitizer.)
    child<QCheckBox>(window_.get(), "autoRunCheck")->click();
    QVERIFY(child<QAction>(window_.get(), "autoRunAction")->isChecked());
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    clickPixel(100, 100);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 120000);
    QCOMPARE(window_->result()->regions.size(), size_t(1));
    clickPixel(300, 200);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 2, 120000);
    QCOMPARE(window_->result()->regions.size(), size_t(2));
    // Undo counts as an edit too.
    QTest::keyClick(window_->imageView(), Qt::Key_Z, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 3, 120000);
    QCOMPARE(window_->result()->regions.size(), size_t(1));
}

void ExplorerTest::liveModeTurnsItselfOnAfterAFastRunUnlessChosen()
{
    QVERIFY(window_->openImage(writeMaze(folder_->path(), 40, 21)));
    QVERIFY(window_->importSeeds(writeSeeds(folder_->path(), "0 0\n")));
    QVERIFY(!window_->parametersPanel()->autoRun());
    // A run slower than the limit leaves live off (a limit of 0 ms: every
    // run is slower), whatever the machine's speed.
    window_->runs()->setLiveLimitMs(0.0);
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    QVERIFY(!window_->parametersPanel()->autoRun());
    // A small image runs in well under the limit (100 ms by default; a
    // minute here, so that a slow or busy machine shows the rule too):
    // live comes on by itself, and the status bar says what the edit cost.
    window_->runs()->setLiveLimitMs(60000.0);
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    QVERIFY(window_->parametersPanel()->autoRun());
    QVERIFY(child<QAction>(window_.get(), "autoRunAction")->isChecked());
    QVERIFY(child<QLabel>(window_.get(), "runStatus")->text().contains(QStringLiteral("request to overlay")));
    QVERIFY(window_->logPanel()->toPlainText().contains(QStringLiteral("Live segmentation on")));
    // Turned off by hand, it stays off after the next fast run.
    child<QAction>(window_.get(), "autoRunAction")->trigger();
    QVERIFY(!window_->parametersPanel()->autoRun());
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    QVERIFY(!window_->parametersPanel()->autoRun());
}

void ExplorerTest::liveModeIsNeverTurnedOffByAFirstRunNorSilently()
{
    QVERIFY(window_->openImage(writeMaze(folder_->path(), 40, 21)));
    QVERIFY(window_->importSeeds(writeSeeds(folder_->path(), "0 0\n")));
    auto* badge = child<QToolButton>(window_.get(), "liveBadge");
    QVERIFY2(badge->text().contains(QStringLiteral("Live off")), qPrintable(badge->text()));
    window_->runs()->setLiveLimitMs(60000.0);
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    QVERIFY(window_->parametersPanel()->autoRun());
    QVERIFY2(!badge->text().contains(QStringLiteral("off")), qPrintable(badge->text()));
    // Every run is now slower than the limit. The first run of another
    // variant (kernel builds) leaves live on.
    window_->runs()->setLiveLimitMs(0.0);
    QVERIFY(window_->setVariantText(QStringLiteral("driver=host-sync")));
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    QVERIFY(window_->parametersPanel()->autoRun());
    QVERIFY(window_->logPanel()->toPlainText().contains(QStringLiteral("Live segmentation stays on")));
    // A slow edit of a resident run turns it off, and says so where it shows.
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    QVERIFY(!window_->parametersPanel()->autoRun());
    QVERIFY2(badge->text().contains(QStringLiteral("click to turn on")), qPrintable(badge->text()));
    QVERIFY2(badge->toolTip().contains(QStringLiteral("the last edit took")), qPrintable(badge->toolTip()));
    QVERIFY2(window_->statusBar()->currentMessage().contains(QStringLiteral("Live segmentation turned off")),
             qPrintable(window_->statusBar()->currentMessage()));
    // One click on the badge turns it back on, as the user's own choice: it stays.
    badge->click();
    QVERIFY(window_->parametersPanel()->autoRun());
    QVERIFY(child<QAction>(window_.get(), "autoRunAction")->isChecked());
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    QVERIFY(window_->parametersPanel()->autoRun());
}

void ExplorerTest::aResultOfOtherSettingsIsDrawnStaleOrRunAgain()
{
    QVERIFY(window_->openImage(writeMaze(folder_->path(), 40, 21)));
    QVERIFY(window_->importSeeds(writeSeeds(folder_->path(), "0 0\n")));
    QVERIFY(!window_->parametersPanel()->autoRun());
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    // Live off by the user's choice (a fast run may have turned it on).
    if (window_->parametersPanel()->autoRun())
        child<QAction>(window_.get(), "autoRunAction")->trigger();
    QVERIFY(!window_->parametersPanel()->autoRun());
    QVERIFY(window_->imageView()->banner().isEmpty());
    const QImage current = window_->imageView()->grabShown();
    // Live off: another variant leaves the result of the old one, drawn faint under a line that says why.
    QVERIFY(window_->setVariantText(QStringLiteral("driver=host-sync")));
    QVERIFY2(window_->imageView()->banner().contains(QStringLiteral("the variant changed since run #1")),
             qPrintable(window_->imageView()->banner()));
    QVERIFY(window_->imageView()->grabShown() != current);
    QVERIFY(!window_->isRunning());
    // So do new parameters, named too.
    auto* connectivity = child<QComboBox>(window_.get(), "connectivityCombo");
    connectivity->setCurrentIndex(connectivity->currentIndex() == 0 ? 1 : 0);
    QVERIFY2(window_->imageView()->banner().contains(QStringLiteral("the variant, the parameters changed")),
             qPrintable(window_->imageView()->banner()));
    // A run makes it current again.
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    QVERIFY(window_->imageView()->banner().isEmpty());
    // Live on: another variant runs again at once, and nothing is drawn stale meanwhile.
    child<QAction>(window_.get(), "autoRunAction")->trigger();
    QVERIFY(window_->parametersPanel()->autoRun());
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    QVERIFY(window_->setVariantText(QStringLiteral("driver=host-batched")));
    QVERIFY(window_->imageView()->banner().isEmpty());
    QVERIFY(finished.wait(120000));
    QCOMPARE(window_->runs()->resultRequest().variant, parseVariant("driver=host-batched"));
    QVERIFY(window_->imageView()->banner().isEmpty());
}

void ExplorerTest::theSeedTableFollowsADraggedSeed()
{
    QVERIFY(window_->openImage(writeMaze(folder_->path(), 40, 21)));
    QVERIFY(window_->importSeeds(writeSeeds(folder_->path(), "0 0\n")));
    auto* table = child<QTableView>(window_.get(), "seedTable");
    const auto cell = [&](int column) { return table->model()->data(table->model()->index(0, column)).toString(); };
    QCOMPARE(cell(SeedTableModel::X), QStringLiteral("0"));
    QTest::mousePress(window_->imageView(), Qt::LeftButton, Qt::NoModifier, at(0, 0));
    QTest::mouseMove(window_->imageView(), at(3, 2));
    QTest::mouseMove(window_->imageView(), at(6, 4));
    // While it moves, the row says where the seed is now.
    QCOMPARE(cell(SeedTableModel::X), QStringLiteral("6"));
    QCOMPARE(cell(SeedTableModel::Y), QStringLiteral("4"));
    QTest::mouseRelease(window_->imageView(), Qt::LeftButton, Qt::NoModifier, at(6, 4));
    QCOMPARE(window_->seeds().front(), (Seed{6, 4}));
    QCOMPARE(cell(SeedTableModel::X), QStringLiteral("6"));
}

// The monkey test (issue 28) saw the memory grow by 10 MiB: each paint of
// the table made a new pixmap of each region's colour and QPixmapCache kept
// them all. The colour squares are icons, made once per region.
void ExplorerTest::theSeedTablesColourSquaresAreMadeOnce()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    clickPixel(50, 50);
    clickPixel(100, 80);
    QAbstractItemModel* model = child<QTableView>(window_.get(), "seedTable")->model();
    const QVariant first = model->data(model->index(0, SeedTableModel::Number), Qt::DecorationRole);
    QCOMPARE(first.typeId(), QMetaType::QIcon);
    QCOMPARE(model->data(model->index(0, SeedTableModel::Number), Qt::DecorationRole).value<QIcon>().cacheKey(),
             first.value<QIcon>().cacheKey());
    const QIcon second = model->data(model->index(1, SeedTableModel::Number), Qt::DecorationRole).value<QIcon>();
    QVERIFY(second.cacheKey() != first.value<QIcon>().cacheKey());
    QCOMPARE(second.pixmap(16, 16).toImage().pixel(8, 8), regionColour(2).rgb());
}

void ExplorerTest::howARunDeviatedFromItsVariantIsShownBesideItsTimes()
{
    // Two regions in adaptive mode: the tile driver goes level by level, and says so.
    QVERIFY(window_->openImage(writeMaze(folder_->path(), 40, 21)));
    QVERIFY(window_->importSeeds(writeSeeds(folder_->path(), "0 0\n39 20\n")));
    auto* mode = child<QComboBox>(window_.get(), "modeCombo");
    mode->setCurrentIndex(mode->findData(int(Mode::Adaptive)));
    QCOMPARE(window_->parametersPanel()->params().grow.mode, Mode::Adaptive);
    QVERIFY(window_->setVariantText(QStringLiteral("fusion=tiles")));
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    const std::string note = window_->result()->note;
    QVERIFY(!note.empty());
    QVERIFY2(window_->timingPanel()->summaryText().contains(QString::fromStdString(note).toHtmlEscaped()),
             qPrintable(window_->timingPanel()->summaryText()));
}

void ExplorerTest::editedSeedsAreNotLostOnQuitting()
{
    QSettings().clear();
    QFile::remove(FileActions::lastSessionPath());
    const QString image = writeMaze(folder_->path(), 40, 21);
    // Answers the question about unsaved seeds with `button` once it shows.
    const auto answer = [](QMessageBox::StandardButton button) {
        QTimer::singleShot(0, [button] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            QVERIFY(box);
            QCOMPARE(box->objectName(), QStringLiteral("unsavedSeedsBox"));
            QVERIFY(box->text().contains(QStringLiteral("2 seeds")));
            box->button(button)->click();
        });
    };
    {
        MainWindowOptions options; // as the program starts: with settings, asking
        options.asksBeforeDiscarding = true;
        MainWindow first(options);
        first.resize(1000, 700);
        first.show();
        QVERIFY(QTest::qWaitFor([&] { return first.devicesReady(); }, 60000));
        QVERIFY(first.openImage(image));
        QVERIFY(first.importSeeds(writeSeeds(folder_->path(), "0 0\n")));
        // Imported seeds are saved in their file: quitting would not ask. A click is an edit.
        QVERIFY(!first.document()->hasUnsavedSeeds());
        QTest::mouseClick(first.imageView(), Qt::LeftButton, Qt::NoModifier,
                          first.imageView()->pixelCentre(20, 10).toPoint());
        QCOMPARE(first.seeds().size(), size_t(2));
        QVERIFY(first.document()->hasUnsavedSeeds());
        // Cancel keeps the window and its seeds.
        answer(QMessageBox::Cancel);
        QVERIFY(!first.close());
        QVERIFY(first.isVisible());
        QCOMPARE(first.seeds().size(), size_t(2));
        // Discard quits, and the last session is kept all the same.
        answer(QMessageBox::Discard);
        QVERIFY(first.close());
    }
    QVERIFY(QFileInfo::exists(FileActions::lastSessionPath()));
    MainWindowOptions options;
    MainWindow second(options);
    QVERIFY(QTest::qWaitFor([&] { return second.devicesReady(); }, 60000));
    QVERIFY(second.seeds().empty());
    second.findChild<QAction*>(QStringLiteral("reopenLastSessionAction"))->trigger();
    QCOMPARE(second.imagePath(), QFileInfo(image).absoluteFilePath());
    QCOMPARE(second.seeds(), (std::vector<Seed>{{0, 0}, {20, 10}}));
    QSettings().clear();
    QFile::remove(FileActions::lastSessionPath());
}

void ExplorerTest::aClickInLiveModeRunsExactlyOnce()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    child<QCheckBox>(window_.get(), "autoRunCheck")->click();
    QVERIFY(window_->parametersPanel()->autoRun());
    QSignalSpy started(window_.get(), &MainWindow::runStarted);
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    clickPixel(100, 55);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 120000);
    QTest::qWait(500);
    QCOMPARE(started.count(), 1);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(window_->result()->regions.size(), size_t(1));
}

void ExplorerTest::aSecondClickDuringARunSupersedesTheFirst()
{
    openSlowCorridor(nullptr);
    child<QCheckBox>(window_.get(), "autoRunCheck")->click();
    window_->imageView()->zoomActualSize();
    window_->imageView()->zoomIn();
    window_->imageView()->zoomIn();
    QSignalSpy started(window_.get(), &MainWindow::runStarted);
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    clickPixel(500, 200);
    QTRY_VERIFY_WITH_TIMEOUT(window_->isRunning() && started.count() == 1, 120000);
    QTest::qWait(300);
    clickPixel(470, 200);
    // The first run never finishes; the second, with both seeds, does.
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1 && !window_->isRunning(), 240000);
    QCOMPARE(window_->result()->regions.size(), size_t(2));
    QCOMPARE(started.count(), 2);
}

void ExplorerTest::aDraggedSeedRunsWhileItMoves()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    QVERIFY(window_->importSeeds(writeSeeds(folder_->path(), "# parameters: --mode adaptive --tolerance 45\n100 55\n")));
    child<QCheckBox>(window_.get(), "autoRunCheck")->click();
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    auto* view = window_->imageView();
    QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, at(100, 55));
    const int before = int(finished.count());
    // Across the second coin of row 1 to the first coin of row 2, with time
    // for runs between the moves.
    for (int step = 1; step <= 8; ++step) {
        QTest::mouseMove(view, at(100 - step * 7, 55 + step * 9));
        QTest::qWait(150);
    }
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() > before + 1, 120000);
    QVERIFY2(window_->seeds()[0].x == 100, "the seeds themselves move on release only");
    QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, at(44, 127));
    QTRY_VERIFY_WITH_TIMEOUT(!window_->isRunning() && window_->result() && window_->seeds()[0].x == 44, 120000);
    QTRY_VERIFY_WITH_TIMEOUT(window_->resultSeeds().size() == 1 && window_->resultSeeds()[0].x == 44, 120000);
    // What is drawn is the run of the seeds as they now are.
    const GrowResultPtr expected = runReferencePipeline(*window_->luma(), window_->seeds(), window_->parametersPanel()->params());
    QCOMPARE(compareResults(*expected, *window_->result()).differingPixels, uint64_t(0));
}

void ExplorerTest::iterationCapStopsTheRunWithANotice()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    QVERIFY(window_->importSeeds(sample("coins.seeds")));
    child<QSpinBox>(window_.get(), "iterationCapSpin")->setValue(5);
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    QVERIFY(window_->result()->stoppedAtCap);
    QCOMPARE(window_->result()->iterations, 5u);
    QVERIFY2(window_->lastNotice().contains(QStringLiteral("iteration cap")), qPrintable(window_->lastNotice()));
    QCOMPARE(window_->playbackPanel()->lastFrame(), 5u);
}

void ExplorerTest::lastChoicesAreRestored()
{
    QSettings().clear();
    GrowVariant variant;
    variant.driver = Driver::HostSync;
    variant.frontier = Frontier::Sweep;
    variant.collectives = Collectives::Atomics;
    variant.tile = Tile::Direct;
    {
        MainWindowOptions options; // with settings, as the program starts
        MainWindow first(options);
        first.show();
        QVERIFY(QTest::qWaitFor([&] { return first.devicesReady(); }, 60000));
        first.devicePanel()->setVariant(variant);
        auto* mode = first.findChild<QComboBox*>(QStringLiteral("modeCombo"));
        mode->setCurrentIndex(mode->findData(int(Mode::Adaptive)));
        first.findChild<QDoubleSpinBox*>(QStringLiteral("toleranceSpin"))->setValue(45);
        first.findChild<QSlider*>(QStringLiteral("opacitySlider"))->setValue(70);
        first.close();
    }
    MainWindowOptions options;
    MainWindow second(options);
    QCOMPARE(second.devicePanel()->variant(), variant);
    QCOMPARE(second.parametersPanel()->params().grow.mode, Mode::Adaptive);
    QCOMPARE(second.parametersPanel()->params().grow.tolerance, 45.0);
    QCOMPARE(second.playbackPanel()->opacity(), 0.7);
    QSettings().clear();
}

void ExplorerTest::aWrongOnPurposeVariantAndTheCorruptionViewAreNotRestoredSilently()
{
    QSettings().clear();
    const GrowVariant wrong = parseVariant("driver=host-batched,frontier=queue,collectives=local-nobarrier");
    {
        MainWindowOptions options; // with settings, as the program starts
        MainWindow first(options);
        first.show();
        QVERIFY(QTest::qWaitFor([&] { return first.devicesReady(); }, 60000));
        first.devicePanel()->setVariant(wrong);
        first.findChild<QAction*>(QStringLiteral("corruptionAction"))->setChecked(true);
        first.close();
    }
    MainWindowOptions options;
    MainWindow second(options);
    QCOMPARE(second.devicePanel()->variant(), wrong.correctTwin());
    QVERIFY(!second.devicePanel()->variant().wrongOnPurpose());
    QVERIFY(second.logPanel()->toPlainText().contains(QStringLiteral("wrong on purpose")));
    QVERIFY(!second.findChild<QAction*>(QStringLiteral("corruptionAction"))->isChecked());
    QSettings().clear();
}

void ExplorerTest::theCorruptionViewOfACorrectRunShowsItsRegions()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    QVERIFY(window_->importSeeds(sample("coins.seeds")));
    child<QAction>(window_.get(), "corruptionAction")->setChecked(true);
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    QTRY_VERIFY_WITH_TIMEOUT(window_->diff() != nullptr, 120000);
    QCOMPARE(window_->diff()->differingPixels, uint64_t(0));
    // No difference, and still the regions: the background (region 1) in
    // its colour over the darkened image, not the grey of the image alone.
    const QImage picture = window_->currentPicture();
    const QRgb background = picture.pixel(10, 80);
    QVERIFY2(qRed(background) != qGreen(background) || qGreen(background) != qBlue(background),
             qPrintable(QStringLiteral("pixel (10, 80) is grey: %1").arg(background, 0, 16)));
}

void ExplorerTest::theIterationChartRescalesToEachRun()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    QVERIFY(window_->importSeeds(sample("coins.seeds")));
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    QCustomPlot* plot = window_->timingPanel()->plot(TimingPanel::PerIteration);
    const double first = plot->xAxis->range().upper;
    QVERIFY2(first > 600, qPrintable(QString::number(first)));
    // Zoomed in by hand, then a shorter run: the chart shows all of it, and no more.
    plot->xAxis->setRange(100, 120);
    child<QSpinBox>(window_.get(), "iterationCapSpin")->setValue(40);
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    QCOMPARE(window_->result()->iterations, 40u);
    QVERIFY2(plot->xAxis->range().lower <= 1 && plot->xAxis->range().upper >= 40 && plot->xAxis->range().upper < 60,
             qPrintable(QStringLiteral("%1..%2").arg(plot->xAxis->range().lower).arg(plot->xAxis->range().upper)));
}

void ExplorerTest::aLongRunShowsItsRegionsWhileItGrows()
{
    // The one-pixel corridor with the slowest driver: a run of seconds.
    openSlowCorridor("0 0\n");
    const QImage plain = window_->currentPicture();
    child<QAction>(window_.get(), "runAction")->trigger();
    // Pictures of the corridor filling up arrive while the run goes on.
    QTRY_VERIFY_WITH_TIMEOUT(window_->partialPictures() >= 2, 120000);
    QVERIFY(window_->isRunning());
    const QImage growing = window_->currentPicture();
    QCOMPARE(growing.size(), plain.size());
    QVERIFY2(growing.pixel(0, 0) != plain.pixel(0, 0), "the seed's pixel is drawn in its region's colour");
    QCOMPARE(growing.pixel(999, 400), plain.pixel(999, 400)); // the corridor's far end is not reached yet
    child<QAction>(window_.get(), "cancelAction")->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!window_->isRunning(), 20000);
}

void ExplorerTest::aLargeImageIsDrawnForTheViewAtItsOwnSize()
{
    // Above 2048 x 2048 pixels the view renders each frame for what it shows.
    QImage large(2300, 2100, QImage::Format_Grayscale8);
    for (int y = 0; y < large.height(); ++y)
        for (int x = 0; x < large.width(); ++x)
            large.scanLine(y)[x] = uchar((x / 40 + y / 40) % 2 ? 200 : 60);
    const QString path = folder_->filePath(QStringLiteral("large.png"));
    QVERIFY(large.save(path));
    QVERIFY(window_->openImage(path));
    QVERIFY(window_->importSeeds(writeSeeds(folder_->path(), "# parameters: --mode range --lower 5 --upper 5\n1150 1050\n")));
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    ImageView* view = window_->imageView();
    // Fitted to the view: the seed's square is drawn in its region's colour.
    const QImage shown = view->grabShown();
    const QPoint seed = view->pixelCentre(1150, 1050).toPoint() + QPoint(3, 3);
    const QRgb colour = shown.pixel(seed);
    QVERIFY2(qRed(colour) != qGreen(colour) || qGreen(colour) != qBlue(colour),
             qPrintable(QStringLiteral("grey at the seed: %1").arg(colour, 0, 16)));
    // The same frame whole equals what the exports draw.
    OverlayStyle style;
    style.opacity = window_->playbackPanel()->opacity();
    style.outlines = window_->playbackPanel()->outlines();
    style.frontier = window_->playbackPanel()->frontier();
    style.frame = window_->playbackPanel()->frame();
    QCOMPARE(window_->currentPicture(), renderOverlay(large.convertToFormat(QImage::Format_RGB32), *window_->result(), style));
}

void ExplorerTest::aBareDeviceNumberSelectsThatDevice()
{
    // rgx --device N: the N-th device as rgx-cli devices lists them.
    const std::vector<DeviceInfo> devices = listDevices();
    for (size_t n = 0; n < devices.size(); ++n) {
        MainWindowOptions options;
        options.restoreSettings = false;
        options.preferredDevice = QString::number(n);
        MainWindow window(options);
        QVERIFY(QTest::qWaitFor([&] { return window.devicesReady(); }, 60000));
        QCOMPARE(window.devicePanel()->currentDeviceId(), devices[n].id());
    }
}

void ExplorerTest::prefilterOutputCanBeShown()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    QVERIFY(window_->importSeeds(sample("coins.seeds")));
    auto* prefilter = child<QComboBox>(window_.get(), "prefilterCombo");
    prefilter->setCurrentIndex(prefilter->findData(int(PrefilterSpec::Kind::BoxMean)));
    child<QSpinBox>(window_.get(), "prefilterSizeSpin")->setValue(9);
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    const GrowResultPtr result = window_->result();
    QVERIFY(result->filteredLuma);
    QCOMPARE(result->filteredLuma->size(), size_t(384) * 303);
    auto* filtered = child<QCheckBox>(window_.get(), "filteredCheck");
    QVERIFY(filtered->isEnabled());
    filtered->setChecked(true);
    child<QCheckBox>(window_.get(), "overlayCheck")->setChecked(false);
    const QImage picture = window_->currentPicture();
    for (QPoint pixel : {QPoint(0, 0), QPoint(100, 55), QPoint(383, 302)}) {
        const uint16_t value = (*result->filteredLuma)[size_t(pixel.y()) * 384 + size_t(pixel.x())];
        QCOMPARE(qGray(picture.pixel(pixel)), int(value));
    }
    QTest::mouseMove(window_->imageView(), at(100, 55));
    QTRY_VERIFY(child<QLabel>(window_.get(), "pixelInfo")->text().contains(QStringLiteral("filtered")));
}


void ExplorerTest::labelsBeforeThePostfilterCanBeShown()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    QVERIFY(window_->importSeeds(sample("coins.seeds")));
    auto* before = child<QCheckBox>(window_.get(), "beforePostfilterCheck");
    QVERIFY(runAndWait(window_.get()));
    QVERIFY(!before->isEnabled()); // no postfilter, nothing to compare with

    // A density filter strict enough to remove the thin parts of regions.
    child<QCheckBox>(window_.get(), "postfilterCheck")->setChecked(true);
    child<QSpinBox>(window_.get(), "postfilterWindowSpin")->setValue(7);
    child<QSpinBox>(window_.get(), "postfilterMinimumSpin")->setValue(40);
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    const GrowResultPtr result = window_->result();
    QCOMPARE(result->labelsBeforePostfilter.size(), result->labels.size());
    size_t removed = 0, at = 0;
    for (size_t p = 0; p < result->labels.size(); ++p)
        if (result->labels[p] == 0 && result->labelsBeforePostfilter[p] != 0) {
            removed += 1;
            at = p;
        }
    QVERIFY2(removed > 0, "the postfilter removed nothing: the test input needs a stricter filter");
    QVERIFY(before->isEnabled());
    const QPoint pixel(int(at % 384), int(at / 384));
    const QRgb after = window_->currentPicture().pixel(pixel);
    before->setChecked(true);
    const QRgb grown = window_->currentPicture().pixel(pixel);
    QVERIFY2(after != grown, "the removed pixel looks the same before and after the postfilter");
}

// Seeds around (100, 100) of coins.png, the variant set, then the Run menu's
// action; returns the report once the engine thread has answered.
QString ExplorerTest::checkRacesAndWait(const char* variantText)
{
    if (!window_->openImage(sample("coins.png")))
        return QStringLiteral("could not open coins.png");
    window_->seedSet()->replaceAll({Seed{100, 100}, Seed{104, 98}});
    if (!window_->setVariantText(QString::fromLatin1(variantText)))
        return window_->lastNotice();
    QSignalSpy finished(window_.get(), &MainWindow::raceCheckFinished);
    QAction* action = window_->findChild<QAction*>(QStringLiteral("raceCheckAction"));
    if (!action || !action->isEnabled())
        return QStringLiteral("the Check for races action is missing or disabled");
    action->trigger();
    // Busy while Oclgrind runs, and the GUI thread keeps answering.
    if (!window_->isCheckingRaces() || action->isEnabled())
        return QStringLiteral("no busy state while the check runs");
    QElapsedTimer clock;
    clock.start();
    int longestPause = 0;
    while (finished.isEmpty() && clock.elapsed() < 300000) {
        QElapsedTimer step;
        step.start();
        QTest::qWait(20);
        longestPause = std::max(longestPause, int(step.elapsed()));
    }
    if (finished.isEmpty())
        return QStringLiteral("no answer within 5 minutes");
    if (longestPause > 1000)
        return QStringLiteral("the GUI thread was blocked for %1 ms").arg(longestPause);
    if (!action->isEnabled() || window_->isCheckingRaces())
        return QStringLiteral("still busy after the answer");
    return finished.first().first().toString();
}

void ExplorerTest::raceCheckFindsTheMissingBarrierInGrowSweep()
{
    const QString report =
        checkRacesAndWait("driver=host-batched,frontier=sweep,collectives=atomics,tile=async-nobarrier");
    QVERIFY2(report.contains(QStringLiteral("race: grow_sweep region_growing.cl:")), qPrintable(report));
    QVERIFY2(report.contains(QStringLiteral("data race")), qPrintable(report));
    // The log says which part of the image was checked; the panel shows the result.
    QVERIFY2(window_->logPanel()->toPlainText().contains(QStringLiteral("32 x 32 part at (")),
             qPrintable(window_->logPanel()->toPlainText()));
    QVERIFY2(window_->devicePanel()->raceCheckStatus().contains(QStringLiteral("race(s) found")),
             qPrintable(window_->devicePanel()->raceCheckStatus()));
    QVERIFY(window_->lastNotice().contains(QStringLiteral("grow_sweep")));
}

void ExplorerTest::raceCheckOfTheCorrectTwinFindsNone()
{
    const QString report = checkRacesAndWait("driver=host-batched,frontier=sweep,collectives=atomics,tile=async");
    QCOMPARE(report, QStringLiteral("races: none"));
    QVERIFY(window_->devicePanel()->raceCheckStatus().startsWith(QStringLiteral("races: none")));
}

void ExplorerTest::kernelTableListsTheRunsKernels()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    QVERIFY(window_->importSeeds(sample("coins.seeds")));
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    auto* table = child<QTableWidget>(window_.get(), "kernelTable");
    QVERIFY(table);
    window_->timingPanel()->showKernelTable();
    QTRY_VERIFY(table->isVisible());
    const int runRows = int(window_->result()->kernels.size());
    QCOMPARE(table->rowCount(), runRows);
    int queueRow = -1;
    for (int row = 0; row < table->rowCount(); ++row)
        if (table->item(row, 2)->text() == QLatin1String("grow_queue"))
            queueRow = row;
    QVERIFY2(queueRow >= 0, "grow_queue is not listed");
    QCOMPARE(table->item(queueRow, 0)->text(), QStringLiteral("#1"));
    QCOMPARE(table->item(queueRow, 1)->text(), QStringLiteral("region_growing.cl"));
    QVERIFY(table->item(queueRow, 3)->text().toULongLong() > 0); // work-group size limit
    // PoCL does not report registers: shown as unknown, not as -1.
    if (window_->result()->kernels.front().registers < 0)
        QCOMPARE(table->item(0, 7)->text(), QStringLiteral("–"));
    // A kept run stays listed after the next run.
    window_->keepRun();
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    QCOMPARE(table->rowCount(), 2 * runRows);
    QCOMPARE(table->item(runRows, 0)->text(), QStringLiteral("#2"));
}

void ExplorerTest::summaryGivesTimePerIterationAndSpeedUpOverTheFirstKeptRun()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    QVERIFY(window_->importSeeds(sample("coins.seeds")));
    GrowVariant sync;
    sync.driver = Driver::HostSync;
    chooseVariant(sync);
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    TimingPanel* timing = window_->timingPanel();
    QVERIFY2(timing->summaryText().contains(QStringLiteral("per iteration")), qPrintable(timing->summaryText()));
    // Nothing kept yet: nothing to compare with.
    QVERIFY(!timing->summaryText().contains(QStringLiteral("than #")));
    const double firstHost = window_->result()->hostMilliseconds;
    window_->keepRun();
    GrowVariant batched;
    batched.driver = Driver::HostBatched;
    chooseVariant(batched);
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    const double secondHost = window_->result()->hostMilliseconds;
    const QStringList lines = timing->summaryText().split(QStringLiteral("<br>"));
    QCOMPARE(lines.size(), 2);
    // The first kept run is the reference, so its own line has no ratio.
    QVERIFY2(!lines[0].contains(QStringLiteral("than #")), qPrintable(lines[0]));
    QVERIFY2(lines[1].contains(QStringLiteral("per iteration")), qPrintable(lines[1]));
    const QRegularExpressionMatch match =
        QRegularExpression(QStringLiteral("([0-9.]+)x (faster|slower) than #1")).match(lines[1]);
    QVERIFY2(match.hasMatch(), qPrintable(lines[1]));
    const bool faster = secondHost <= firstHost;
    QCOMPARE(match.captured(2), faster ? QStringLiteral("faster") : QStringLiteral("slower"));
    const double expected = faster ? firstHost / secondHost : secondHost / firstHost;
    QVERIFY2(std::abs(match.captured(1).toDouble() - expected) <= 0.051,
             qPrintable(QStringLiteral("%1 vs %2").arg(match.captured(1)).arg(expected)));
    // A run on other seeds is not compared: the ratio would say nothing about the variants.
    window_->seedSet()->remove(int(window_->seeds().size()) - 1);
    QVERIFY2(runAndWait(window_.get()), qPrintable(window_->lastNotice()));
    const QString other = timing->summaryText().split(QStringLiteral("<br>")).last();
    QVERIFY2(!other.contains(QStringLiteral("than #")), qPrintable(other));
    QVERIFY2(other.contains(QStringLiteral("not compared with #1 (other seeds)")), qPrintable(other));
}

void ExplorerTest::binarySearchLabRunsAndVerifies()
{
    window_->showLab();
    LabPanel* lab = window_->labPanel();
    QTRY_VERIFY(lab->isVisible());
    // device-enqueue is offered only where the device has it, with the reason otherwise.
    auto* driver = child<QComboBox>(lab, "labDriver");
    const DeviceInfo* device = window_->devicePanel()->currentDevice();
    QVERIFY(device);
    auto* model = qobject_cast<QStandardItemModel*>(driver->model());
    const int enqueueRow = driver->findData(int(Driver::DeviceEnqueue));
    QCOMPARE(model->item(enqueueRow)->isEnabled(), device->deviceEnqueue);
    if (!device->deviceEnqueue)
        QVERIFY(child<QLabel>(lab, "labDriverNote")->text().contains(QStringLiteral("no device-side enqueue")));
    child<QSpinBox>(lab, "labSize")->setValue(200000);
    child<QSpinBox>(lab, "labKeys")->setValue(20000);
    for (Driver choice : {Driver::HostSync, Driver::HostBatched}) {
        QVERIFY(lab->setDriver(choice));
        QSignalSpy finished(window_.get(), &MainWindow::labFinished);
        QTest::mouseClick(child<QPushButton>(lab, "labRunButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 120000);
        QVERIFY2(finished.first().first().toBool(), qPrintable(window_->lastNotice()));
        const QString result = lab->resultText();
        QVERIFY2(result.contains(QStringLiteral("0 keys differ from std::lower_bound")), qPrintable(result));
        QVERIFY2(result.contains(QStringLiteral("rounds")), qPrintable(result));
        QVERIFY2(result.contains(QString::fromStdString(driverName(choice))), qPrintable(result));
        QVERIFY(lab->timeline() && !lab->timeline()->segments().empty());
    }
}

void ExplorerTest::theAboutBoxNamesTheLicenceAndTheCredits()
{
    QString shown;
    QTimer::singleShot(0, [&shown] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        QVERIFY(box);
        shown = box->text();
        box->accept();
    });
    child<QAction>(window_.get(), "aboutAction")->trigger();
    QVERIFY2(shown.contains(QStringLiteral("RGX " RGX_VERSION)), qPrintable(shown));
    // The licence and where its full text is.
    for (const char* licence : {"GPL-3.0-or-later", "LICENSE", "/usr/share/doc/rgx/copyright"})
        QVERIFY2(shown.contains(QLatin1String(licence)), licence);
    // What RGX builds on and where the samples come from, each with its licence.
    const char* credits[][2] = {
        {"Qt 6", "LGPL-3.0"},
        {"QCustomPlot", "GPL-3.0"},
        {"OpenCL ICD loader", "BSD-2-Clause"},
        {"PoCL", "MIT"},
        {"Intel's CPU OpenCL runtime", "Intel End User License Agreement"},
        {"Oclgrind", "BSD-3-Clause"},
        {"OpenCV", "Apache-2.0"},
        {"coins.png", "no known copyright restrictions"},
        {"astronaut.png", "public domain"},
        // The volume libraries and the sample volumes.
        {"nifti_clib", "public domain"},
        {"GDCM", "BSD-3-Clause"},
        {"libtiff", "libtiff licence"},
        {"zlib", "Zlib"},
        {"mni_icbm152_t1_tal_nlin_sym_09a_converted.nii.gz", "MNI licence"},
        {"dicom-ct-series", "MIT"},
    };
    for (const auto& [name, licence] : credits) {
        const int at = shown.indexOf(QLatin1String(name));
        QVERIFY2(at >= 0, name);
        // The licence on the credit's own line.
        const QString line = shown.mid(at, shown.indexOf(QStringLiteral("</li>"), at) - at);
        QVERIFY2(line.contains(QLatin1String(licence)), qPrintable(line));
    }
    QVERIFY2(shown.contains(QStringLiteral("scikit-image")), qPrintable(shown));
    for (const char* source : {"Louis Collins", "McGill University", "nilearn", "pydicom", "Darcy Mason"})
        QVERIFY2(shown.contains(QLatin1String(source)), source);
}

QTEST_MAIN(ExplorerTest)
#include "ExplorerTest.moc"
