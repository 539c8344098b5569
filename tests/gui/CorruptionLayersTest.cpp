// The layers that explain a corruption (issue 29, items 2 and 3), in the
// real window offscreen on PoCL: the race check's markers on the pixels
// Oclgrind's reports map to, the list beside the image selecting them, and
// the work-group map drawn by itself in the corruption view of a
// wrong-on-purpose variant, at the engine's tile size.
#include "ImageView.h"
#include "MainWindow.h"
#include "ParametersPanel.h"
#include "PictureLayers.h"
#include "RaceCheck.h"
#include "RaceList.h"
#include "Variant.h"
#include "WorkGroupMap.h"
#include <QAction>
#include <QCheckBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <memory>
#include <set>
#include <utility>

using namespace rgx;
using namespace rgx::ui;

namespace {

QString sample(const char* fileName) { return QStringLiteral(RGX_SAMPLES_DIR "/") + QLatin1String(fileName); }

const QRgb cellBorder = qRgb(0, 215, 255); // PictureLayers.cpp's border colour

} // namespace

class CorruptionLayersTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void raceMarkersSitOnThePixelsTheBoxMeanRaceTouches();
    void selectingARaceEntrySelectsAndCentresItsMarker();
    void theWorkGroupMapAppearsByItselfInTheCorruptionViewOfAWrongOnPurposeSweep();
    void theWorkGroupMapOfACorrectVariantIsDrawnOnlyWhenTurnedOn();
    void theCorrectSweepHasNoRaceEvenWithSameValueWrites();
    void theCorruptionViewChecksAWrongOnPurposeRunsRacesByItself();
    void runsGoOnWhileARaceCheckRuns();

private:
    bool runAndWait();
    // coins.png, seeds (100,100), boxmean:5:async-nobarrier, checked under
    // Oclgrind: one race, every pixel of the 32 x 32 part.
    QString checkBoxMeanRaces();
    void openCoinsWithVariant(const char* variant);

    std::unique_ptr<MainWindow> window_;
};

void CorruptionLayersTest::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("RGX-tests"));
}

void CorruptionLayersTest::init()
{
    QCoreApplication::setApplicationName(
        QStringLiteral("rgx-gui-layers-tests-%1").arg(QLatin1String(QTest::currentTestFunction())));
    MainWindowOptions options;
    options.restoreSettings = false;
    options.cliPath = QStringLiteral(RGX_CLI_PATH);
    window_ = std::make_unique<MainWindow>(options);
    window_->resize(1400, 900);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    QVERIFY2(QTest::qWaitFor([&] { return window_->devicesReady(); }, 60000), qPrintable(window_->lastNotice()));
}

void CorruptionLayersTest::cleanup() { window_.reset(); }

bool CorruptionLayersTest::runAndWait()
{
    // A live run of the edits first.
    if (!QTest::qWaitFor([&] { return !window_->isRunning(); }, 120000))
        return false;
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    QSignalSpy failed(window_.get(), &MainWindow::runFailed);
    window_->runNow();
    return QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, 240000) && failed.isEmpty();
}

QString CorruptionLayersTest::checkBoxMeanRaces()
{
    if (!window_->openImage(sample("coins.png")))
        return window_->lastNotice();
    window_->seedSet()->replaceAll({Seed{100, 100}});
    PipelineParams params = window_->parametersPanel()->params();
    params.prefilter = parsePrefilter("boxmean:5:async-nobarrier");
    window_->parametersPanel()->setParams(params);
    QSignalSpy finished(window_.get(), &MainWindow::raceCheckFinished);
    window_->findChild<QAction*>(QStringLiteral("raceCheckAction"))->trigger();
    if (!QTest::qWaitFor([&] { return !finished.isEmpty(); }, 300000))
        return QStringLiteral("no answer within 5 minutes");
    return window_->lastRaceReport();
}

void CorruptionLayersTest::raceMarkersSitOnThePixelsTheBoxMeanRaceTouches()
{
    const QString report = checkBoxMeanRaces();
    QVERIFY2(report.contains(QStringLiteral("race: box_mean_async box_mean.cl:")), qPrintable(report));
    RaceList* list = window_->raceList();
    QCOMPARE(list->races().size(), size_t(1));
    QCOMPARE(list->tree()->topLevelItemCount(), 1);
    QVERIFY(list->tree()->topLevelItem(0)->text(0).startsWith(QStringLiteral("box_mean_async box_mean.cl:")));

    // The part checked is the 32 x 32 around the seed; the race is in the
    // windows of every pixel of it (docs/STAGES.md): one marker a pixel.
    const RaceCheckInput part = cutDownForRaceCheck(*window_->luma(), {Seed{100, 100}});
    std::set<std::pair<int, int>> expected, marked;
    for (int y = 0; y < part.image.height; ++y)
        for (int x = 0; x < part.image.width; ++x)
            expected.insert({part.left + x, part.top + y});
    for (const RaceMarker& marker : list->markers()) {
        QCOMPARE(marker.report, 0);
        marked.insert({marker.x, marker.y});
    }
    QCOMPARE(list->markers().size(), expected.size());
    QVERIFY(marked == expected);
    QCOMPARE(list->tree()->topLevelItem(0)->childCount(), int(expected.size()));
    // The status bar's line for a marked pixel names the race; for others nothing.
    QVERIFY2(list->racesAt(QPoint(part.left + 3, part.top + 5)).startsWith(QStringLiteral("race: box_mean_async box_mean.cl:")),
             qPrintable(list->racesAt(QPoint(part.left + 3, part.top + 5))));
    QVERIFY(list->racesAt(QPoint(part.left - 1, part.top)).isEmpty());

    // Drawn on the picture (and so in its exports) around the part, nowhere else.
    const QImage with = window_->currentPicture();
    list->findChild<QCheckBox*>(QStringLiteral("raceMarkersBox"))->setChecked(false);
    const QImage without = window_->currentPicture();
    QCOMPARE(with.size(), without.size());
    const QRect near = QRect(part.left, part.top, part.image.width, part.image.height).adjusted(-8, -8, 8, 8);
    int changedInside = 0;
    for (int y = 0; y < with.height(); ++y)
        for (int x = 0; x < with.width(); ++x) {
            const bool changed = with.pixel(x, y) != without.pixel(x, y);
            if (near.contains(x, y))
                changedInside += changed ? 1 : 0;
            else
                QVERIFY2(!changed, qPrintable(QStringLiteral("pixel %1,%2 changed away from the markers").arg(x).arg(y)));
        }
    QVERIFY2(changedInside > part.image.width * part.image.height / 2, qPrintable(QString::number(changedInside)));
}

void CorruptionLayersTest::selectingARaceEntrySelectsAndCentresItsMarker()
{
    const QString report = checkBoxMeanRaces();
    QVERIFY2(report.contains(QStringLiteral("race: box_mean_async")), qPrintable(report));
    RaceList* list = window_->raceList();
    QTreeWidget* tree = list->tree();
    QTreeWidgetItem* race = tree->topLevelItem(0);
    QVERIFY(race->childCount() > 40);
    // The list's 40th pixel entry: its marker is selected, its pixel centred.
    QTreeWidgetItem* entry = race->child(40);
    const RacePlace& place = list->races()[0].places[40];
    QVERIFY(entry->text(0) == QStringLiteral("%1, %2").arg(place.x).arg(place.y));
    QVERIFY(!entry->text(1).isEmpty()); // the first side
    tree->setCurrentItem(entry);
    QCOMPARE(list->selectedReport(), 0);
    QCOMPARE(list->selectedMarker(), 40);
    const RaceMarker marker = list->markers()[40];
    QCOMPARE(QPoint(marker.x, marker.y), QPoint(place.x, place.y));
    ImageView* view = window_->imageView();
    QCOMPARE(view->pixelAt(QRectF(view->rect()).center()), QPoint(place.x, place.y));
    QVERIFY(view->zoom() >= 6.0);
    // The selected marker is drawn apart from the others.
    const QImage selected = window_->currentPicture();
    list->selectMarker(41);
    QCOMPARE(tree->currentItem(), race->child(41));
    QCOMPARE(list->selectedMarker(), 41);
    QVERIFY(window_->currentPicture() != selected);
    // The race's own entry: all its markers, no single one.
    tree->setCurrentItem(race);
    QCOMPARE(list->selectedReport(), 0);
    QCOMPARE(list->selectedMarker(), -1);
}

void CorruptionLayersTest::openCoinsWithVariant(const char* variant)
{
    QVERIFY(window_->openImage(sample("coins.png")));
    window_->seedSet()->replaceAll({Seed{100, 100}, Seed{200, 150}});
    QVERIFY(window_->setVariantText(QString::fromLatin1(variant)));
    QVERIFY2(runAndWait(), qPrintable(window_->lastNotice()));
}

void CorruptionLayersTest::theWorkGroupMapAppearsByItselfInTheCorruptionViewOfAWrongOnPurposeSweep()
{
    openCoinsWithVariant("driver=host-batched,frontier=sweep,collectives=atomics,tile=async-nobarrier");
    WorkGroupMap* map = window_->workGroupMap();
    QVERIFY(!map->isOn());
    QVERIFY(!map->shownGrid(false));
    QVERIFY(window_->currentPicture().pixel(16, 8) != cellBorder);

    window_->setCorruptionView(true);
    const std::optional<WorkGroupGrid> grid = map->shownGrid(true);
    QVERIFY(grid);
    QCOMPARE(QString::fromStdString(grid->kernel), QStringLiteral("grow_sweep"));
    QVERIFY(grid->wrongOnPurpose);
    // PoCL takes 16 x 16 sweep tiles (grow::levelKernels); the picture at
    // 1:1 has the tiles' borders at multiples of 16, in rows and columns.
    QCOMPARE(grid->cellWidth, 16);
    QCOMPARE(grid->cellHeight, 16);
    const QImage picture = window_->currentPicture();
    for (int y : {5, 40, 100})
        for (int x = 16; x < picture.width(); x += 16)
            QVERIFY2(picture.pixel(x, y) == cellBorder, qPrintable(QStringLiteral("no border at %1,%2").arg(x).arg(y)));
    for (int x : {5, 40, 100})
        QVERIFY(picture.pixel(x, 32) == cellBorder);
    QVERIFY(picture.pixel(8, 8) != cellBorder);

    // The cell under the cursor and the pixels its work-group reads.
    map->setHover(QPoint(20, 37), true);
    QCOMPARE(map->hoverText(true), QStringLiteral("tile (1,2) of grow_sweep (16,32) reads x 15..32, y 31..48"));
}

void CorruptionLayersTest::theWorkGroupMapOfACorrectVariantIsDrawnOnlyWhenTurnedOn()
{
    openCoinsWithVariant("driver=host-batched,frontier=sweep,collectives=atomics,tile=async");
    window_->setCorruptionView(true);
    WorkGroupMap* map = window_->workGroupMap();
    QVERIFY(!map->shownGrid(true));
    const QImage off = window_->currentPicture();
    QVERIFY(off.pixel(16, 5) != cellBorder);
    QAction* action = window_->findChild<QAction*>(QStringLiteral("workGroupMapAction"));
    QVERIFY(action);
    action->trigger();
    QVERIFY(map->isOn());
    QVERIFY(map->shownGrid(true));
    QCOMPARE(window_->currentPicture().pixel(16, 5), cellBorder);
    action->trigger();
    QVERIFY(window_->currentPicture() == off);
}

void CorruptionLayersTest::theCorrectSweepHasNoRaceEvenWithSameValueWrites()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    window_->seedSet()->replaceAll({Seed{100, 100}, Seed{104, 98}});
    QVERIFY(window_->setVariantText(QStringLiteral("driver=host-batched,frontier=sweep,collectives=atomics,tile=async")));
    RaceList* list = window_->raceList();
    list->findChild<QCheckBox*>(QStringLiteral("uniformWritesBox"))->setChecked(true);
    QSignalSpy finished(window_.get(), &MainWindow::raceCheckFinished);
    window_->findChild<QAction*>(QStringLiteral("raceCheckAction"))->trigger();
    QVERIFY(QTest::qWaitFor([&] { return !finished.isEmpty(); }, 300000));
    QCOMPARE(window_->lastRaceReport(), QStringLiteral("races: none"));
    QVERIFY(list->races().empty());
    QVERIFY(list->markers().empty());
    QVERIFY2(list->findChild<QLabel*>(QStringLiteral("raceSummary"))->text().contains(QStringLiteral("Same-value writes included")),
             qPrintable(list->findChild<QLabel*>(QStringLiteral("raceSummary"))->text()));
}


void CorruptionLayersTest::theCorruptionViewChecksAWrongOnPurposeRunsRacesByItself()
{
    // A correct variant under the corruption view: nothing to check.
    openCoinsWithVariant("driver=host-batched,frontier=sweep,collectives=atomics,tile=async");
    window_->setCorruptionView(true);
    QVERIFY(!window_->isCheckingRaces());
    window_->setCorruptionView(false);

    // The same run without its barrier: the view checks it by itself, once.
    QVERIFY(window_->setVariantText(
        QStringLiteral("driver=host-batched,frontier=sweep,collectives=atomics,tile=async-nobarrier")));
    QVERIFY2(runAndWait(), qPrintable(window_->lastNotice()));
    QVERIFY(!window_->isCheckingRaces());
    QSignalSpy finished(window_.get(), &MainWindow::raceCheckFinished);
    const QString noticeBefore = window_->lastNotice();
    window_->setCorruptionView(true);
    QVERIFY(window_->isCheckingRaces());
    QVERIFY2(QTest::qWaitFor([&] { return !finished.isEmpty(); }, 300000), "no race check answered");
    QVERIFY2(window_->lastRaceReport().contains(QStringLiteral("race: grow_sweep")), qPrintable(window_->lastRaceReport()));
    QVERIFY(!window_->raceList()->markers().empty());
    QCOMPARE(window_->lastNotice(), noticeBefore); // markers and the log, no message box
    window_->setCorruptionView(false);
    window_->setCorruptionView(true);
    QVERIFY(!window_->isCheckingRaces()); // the same run, seeds and parameters: not again
}

void CorruptionLayersTest::runsGoOnWhileARaceCheckRuns()
{
    QVERIFY(window_->openImage(sample("coins.png")));
    window_->seedSet()->replaceAll({Seed{100, 100}});
    QVERIFY(window_->setVariantText(
        QStringLiteral("driver=host-batched,frontier=sweep,collectives=atomics,tile=async-nobarrier")));
    QVERIFY2(runAndWait(), qPrintable(window_->lastNotice()));
    QSignalSpy checked(window_.get(), &MainWindow::raceCheckFinished);
    window_->checkRaces();
    QVERIFY(window_->isCheckingRaces());
    // Oclgrind takes seconds on the 32 x 32 part; a run of coins on PoCL
    // goes on beside it, on the engine thread, and is done first.
    window_->seedSet()->replaceAll({Seed{100, 100}, Seed{200, 150}});
    QVERIFY2(runAndWait(), qPrintable(window_->lastNotice()));
    QVERIFY(checked.isEmpty());
    QVERIFY(window_->isCheckingRaces());
    QVERIFY2(QTest::qWaitFor([&] { return !checked.isEmpty(); }, 300000), "no race check answered");
    QVERIFY(window_->lastRaceReport().contains(QStringLiteral("race: grow_sweep")));
}

QTEST_MAIN(CorruptionLayersTest)
#include "CorruptionLayersTest.moc"
