// GUI tests of volumes in the explorer (issue 27): the real main window,
// offscreen, with a volume built in memory (a bright ball in a noisy box of
// anisotropic voxels); results from the CPU reference (SPEC's ground truth)
// or from a run on the default device (PoCL).
#include "Device.h"
#include "DeviceSession.h"
#include "Document.h"
#include "LogPanel.h"
#include "MainWindow.h"
#include "Pipeline.h"
#include "ParametersPanel.h"
#include "PlaybackPanel.h"
#include "SeedTableModel.h"
#include "Session.h"
#include "SliceView.h"
#include "TimingPanel.h"
#include "ViewState.h"
#include "VolumeSlice.h"
#include "VolumeView.h"
#include "WorkGroupMap.h"
#include "io/Export.h"
#include "io/VolumeFile.h"
#include "reference/RegionGrowingReference.h"
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSlider>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QWheelEvent>
#include <cmath>
#include <memory>
#include <qcustomplot.h>
#include <random>

using namespace rgx;
using namespace rgx::ui;

namespace rgx {
char* toString(const Seed& seed)
{
    return QTest::toString(QStringLiteral("(%1, %2, %3)").arg(seed.x).arg(seed.y).arg(seed.z));
}
} // namespace rgx

namespace {

constexpr int width = 24;
constexpr int height = 20;
constexpr int depth = 16;
constexpr int32_t shift = 1000; // as a CT's signed values are shifted
const Seed ballCentre{12, 9, 7};

// 16-bit, 0.5 x 0.5 x 2 mm voxels: a ball of radius 5 voxels (luma about
// 3000) in a box of luma about 1000, with seeded noise.
std::shared_ptr<LumaImage> ballVolume(unsigned seed = 7)
{
    auto volume = std::make_shared<LumaImage>();
    volume->width = width;
    volume->height = height;
    volume->depth = depth;
    volume->bitDepth = 16;
    volume->volume.spacing = {0.5, 0.5, 2.0};
    volume->volume.valueShift = shift;
    volume->volume.format = "in memory";
    volume->luma.resize(size_t(width) * height * depth);
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> noise(0, 40);
    for (int z = 0; z < depth; ++z)
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) {
                const int dx = x - ballCentre.x, dy = y - ballCentre.y, dz = z - ballCentre.z;
                const bool inside = dx * dx + dy * dy + dz * dz <= 25;
                volume->luma[seedIndex(Seed{x, y, z}, width, height)] = uint16_t((inside ? 3000 : 1000) + noise(random));
            }
    return volume;
}

// The ball with an orientation that permutes and flips the axes: voxel x
// runs up (S), y towards the patient's left, z towards the front (A).
std::shared_ptr<LumaImage> orientedBall()
{
    auto volume = ballVolume();
    volume->volume.hasOrientation = true;
    volume->volume.toWorld = {0, -0.5, 0, 10, 0, 0, 2, -20, 0.5, 0, 0, 30, 0, 0, 0, 1};
    return volume;
}

GrowParams ballParams()
{
    GrowParams params;
    params.mode = Mode::Range;
    params.lower = 200;
    params.upper = 200;
    params.connectivity = 6;
    return params;
}

bool isGrey(QRgb colour) { return qRed(colour) == qGreen(colour) && qGreen(colour) == qBlue(colour); }

const QRgb cellBorder = qRgb(0, 215, 255); // PictureLayers.cpp's border colour

int cellBorderPixels(const QImage& picture)
{
    int count = 0;
    for (int y = 0; y < picture.height(); ++y)
        for (int x = 0; x < picture.width(); ++x)
            count += picture.pixel(x, y) == cellBorder ? 1 : 0;
    return count;
}

} // namespace

class VolumeViewTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void theNeurologicalConventionStaysForTheNextSession();

    void aVolumeShowsThreeSliceViewsAndItsSizeSpacingAndShift();
    void anImageKeepsItsSingleView();
    void voxelSpacingSetsEachViewsAspect();
    void clickingTheCoronalViewMakesASeedAtThatVoxel();
    void aLiveSeedClickMovesTheCrosshairWithItsRegion();
    void aStaleResultSaysSoOnEachViewWithoutMovingThem();
    void seedsShowOnTheViewsWhoseSliceHoldsThem();
    void theOverlayOfARunShowsOnEveryViewAtItsVoxels();
    void theOverlayOfAnOrientedVolumeShowsAtItsVoxels();
    void anOrientedVolumeShowsTheStandardDisplayAndClicksMakeItsVoxels();
    void theNeurologicalToggleSwapsTheSidesOfAxialAndCoronal();
    void playbackShowsTheVoxelsOfEachIterationOnTheSlices();
    void theSeedTableGivesEachRegionsVoxelsAndVolume();
    void scrollingChangesTheShownSlice();
    void windowAndLevelChangeTheDrawnGreyOnly();
    void aRunOnTheDefaultDeviceEqualsTheCpuReference();
    void narrowStampsCutIntoSlicesAsTheirFullMaps();
    void sessionsKeepVoxelSeedsSlicesAndWindow();
    void aVolumeFileAndItsSessionReopenWhereTheyWere();
    void differencesFromTheReferenceShowOnTheSlices();
    void aVolumesCorruptionPlaysBackIterationByIteration();
    void aVolumeRunsWithoutTheTwoDimensionalFilters();
    void aVolumesMapsExportAsVolumes();
    void aSliceStepDrawsOnlyItsSlice();
    void theBrainTemplateSampleOpensInThreeViewsAndRunsItsSeed();
    void theCtSeriesSampleOpensInThreeViews();
    void theViewsNameThePatientsSidesAtTheirEdges();
    void theWorkGroupMapOfAWrongOnPurposeSweepLiesOnEachSliceWhereTheGridSays();
    void theWorkGroupMapOfACorrectVariantOnAVolumeIsDrawnOnlyWhenTurnedOn();
    void theWorkGroupMapFollowsAnOrientedVolumesAxesOnEachView();
    void aVolumesBricksAreDrawnAsCellsOfEightCubedVoxels();

private:
    bool runBallWithVariant(const char* variant, std::shared_ptr<LumaImage> ball = nullptr);
    void verifyCellBordersWhereTheGridSays(const WorkGroupGrid& grid) const;
    void openBall();
    void useTheBuildTreesSamples();
    QAction* sampleAction(const char* name) const;
    void verifyThreeViewsOf(VolumeSize size) const;
    void showReferenceResult(const std::vector<Seed>& seeds);
    void verifyOverlayAtItsVoxels();
    SliceView* view(Plane plane) const { return window_->volumeView()->sliceView(plane); }

    std::unique_ptr<MainWindow> window_;
    std::shared_ptr<LumaImage> volume_;
    GrowResultPtr reference_;
};

void VolumeViewTest::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("RGX-tests"));
}

void VolumeViewTest::init()
{
    QCoreApplication::setApplicationName(QStringLiteral("rgx-gui-tests-%1").arg(QLatin1String(QTest::currentTestFunction())));
    MainWindowOptions options;
    options.restoreSettings = false;
    window_ = std::make_unique<MainWindow>(options);
    window_->resize(1400, 900);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    QVERIFY2(QTest::qWaitFor([&] { return window_->devicesReady(); }, 60000), "devices not listed within 60 s");
}

void VolumeViewTest::cleanup()
{
    window_.reset();
    qunsetenv("RGX_SAMPLES_DIR");
    reference_.reset();
}

void VolumeViewTest::openBall()
{
    volume_ = ballVolume();
    QVERIFY(window_->openVolume(QStringLiteral("ball.nii.gz"), volume_));
    QVERIFY(window_->document()->isVolume());
}

// The samples as the build tree holds them (resources/CMakeLists.txt copies
// them beside the programs, as an install does): the menu is made with the
// window, so the window is made again (cleanup() unsets the variable).
void VolumeViewTest::useTheBuildTreesSamples()
{
    qputenv("RGX_SAMPLES_DIR", RGX_BUILD_SAMPLES_DIR);
    window_.reset();
    init();
}

// The File > Open Sample entry of a sample, after the images and a separator.
QAction* VolumeViewTest::sampleAction(const char* name) const
{
    auto* menu = window_->findChild<QMenu*>(QStringLiteral("sampleMenu"));
    if (!menu)
        return nullptr;
    const QList<QAction*> actions = menu->actions();
    const auto coins = std::find_if(actions.begin(), actions.end(), [](QAction* action) {
        return action->objectName() == QLatin1String("sample_coins");
    });
    const auto separator = std::find_if(actions.begin(), actions.end(), [](QAction* action) { return action->isSeparator(); });
    const auto found = std::find_if(actions.begin(), actions.end(), [name](QAction* action) {
        return action->objectName() == QStringLiteral("sample_") + QLatin1String(name);
    });
    if (found == actions.end() || coins == actions.end() || !(coins < separator && separator < found))
        return nullptr;
    return *found;
}

void VolumeViewTest::verifyThreeViewsOf(VolumeSize size) const
{
    auto* centre = window_->findChild<QStackedWidget*>(QStringLiteral("centralViews"));
    QCOMPARE(centre->currentWidget(), static_cast<QWidget*>(window_->volumeView()));
    for (Plane plane : allPlanes) {
        QVERIFY2(view(plane)->isVisible(), qPrintable(planeName(plane)));
        QVERIFY2(view(plane)->hasPicture(), qPrintable(planeName(plane)));
        QCOMPARE(view(plane)->imageSize(), sliceSize(window_->volumeView()->axes(plane), size));
    }
}

// The CPU reference's result for `seeds`, shown as a finished run.
void VolumeViewTest::showReferenceResult(const std::vector<Seed>& seeds)
{
    RunOutcome outcome;
    outcome.request.id = 1;
    outcome.request.image = volume_;
    outcome.request.seeds = seeds;
    outcome.request.params.grow = ballParams();
    reference_ = std::make_shared<GrowResult>(
        growRegionsReference(volume_->luma, width, height, seeds, ballParams(), depth));
    outcome.result = reference_;
    window_->viewState()->showResult(outcome);
}

void VolumeViewTest::aVolumeShowsThreeSliceViewsAndItsSizeSpacingAndShift()
{
    openBall();
    auto* centre = window_->findChild<QStackedWidget*>(QStringLiteral("centralViews"));
    QCOMPARE(centre->currentWidget(), static_cast<QWidget*>(window_->volumeView()));
    QVERIFY(!window_->imageView()->isVisible());
    for (Plane plane : allPlanes) {
        QVERIFY2(view(plane)->isVisible(), qPrintable(planeName(plane)));
        QVERIFY(view(plane)->hasPicture());
        QCOMPARE(view(plane)->imageSize(), sliceSize(voxelOrderAxes(plane), VolumeSize{width, height, depth}));
    }
    // The crosshair starts at the centre; each view shows its slice index.
    QCOMPARE(window_->volumeView()->crosshair(), (Seed{width / 2, height / 2, depth / 2}));
    QCOMPARE(window_->findChild<QLabel*>(QStringLiteral("axialSliceLabel"))->text().section(QLatin1Char(' '), 0, 3),
             QStringLiteral("z %1 / %2").arg(depth / 2).arg(depth - 1));
    // Size, spacing and value shift in the title.
    const QString title = window_->windowTitle();
    QVERIFY2(title.contains(QStringLiteral("24 x 20 x 16 voxels")), qPrintable(title));
    QVERIFY2(title.contains(QStringLiteral("0.5 x 0.5 x 2 mm")), qPrintable(title));
    QVERIFY2(title.contains(QStringLiteral("value shift 1000")), qPrintable(title));
    // Volume connectivities, and the seed table's z column.
    auto* connectivity = window_->findChild<QComboBox*>(QStringLiteral("connectivityCombo"));
    QCOMPARE(connectivity->count(), 3);
    QCOMPARE(connectivity->itemData(0).toInt(), 6);
    QCOMPARE(connectivity->itemData(2).toInt(), 26);
    QCOMPARE(window_->parametersPanel()->params().grow.connectivity, 6); // 4 became its counterpart
    auto* table = window_->findChild<QTableView*>(QStringLiteral("seedTable"));
    QVERIFY(!table->isColumnHidden(SeedTableModel::Z));
    QVERIFY(!table->isColumnHidden(SeedTableModel::RegionVolume));
}

void VolumeViewTest::anImageKeepsItsSingleView()
{
    openBall();
    QImage image(30, 20, QImage::Format_Grayscale8);
    image.fill(90);
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("flat.png"));
    QVERIFY(image.save(path));
    QVERIFY(window_->openImage(path));
    auto* centre = window_->findChild<QStackedWidget*>(QStringLiteral("centralViews"));
    QCOMPARE(centre->currentWidget(), static_cast<QWidget*>(window_->imageView()));
    QVERIFY(window_->imageView()->isVisible());
    QCOMPARE(window_->imageView()->pixelAspect(), 1.0);
    auto* connectivity = window_->findChild<QComboBox*>(QStringLiteral("connectivityCombo"));
    QCOMPARE(connectivity->count(), 2);
    QCOMPARE(window_->parametersPanel()->params().grow.connectivity, 4);
    auto* table = window_->findChild<QTableView*>(QStringLiteral("seedTable"));
    QVERIFY(table->isColumnHidden(SeedTableModel::Z));
    QVERIFY(table->isColumnHidden(SeedTableModel::RegionVolume));
    QCOMPARE(window_->windowTitle(), QStringLiteral("flat.png - RGX"));
}

void VolumeViewTest::voxelSpacingSetsEachViewsAspect()
{
    openBall();
    // 0.5 mm across, 2 mm between slices: coronal and sagittal rows are 4 times as tall.
    QCOMPARE(view(Plane::Axial)->pixelAspect(), 1.0);
    QCOMPARE(view(Plane::Coronal)->pixelAspect(), 4.0);
    QCOMPARE(view(Plane::Sagittal)->pixelAspect(), 4.0);
    const QPointF first = view(Plane::Coronal)->pixelCentre(0, 0);
    const QPointF below = view(Plane::Coronal)->pixelCentre(1, 1);
    QVERIFY(std::abs((below.y() - first.y()) - 4.0 * (below.x() - first.x())) < 1e-6);
}

void VolumeViewTest::clickingTheCoronalViewMakesASeedAtThatVoxel()
{
    openBall();
    VolumeView* volume = window_->volumeView();
    volume->setSlice(Plane::Coronal, 5);
    SliceView* coronal = view(Plane::Coronal);
    // Coronal: columns are x, rows run up the z axis (the last slice on top).
    const Seed target{17, 5, 11};
    const QPoint pixel = slicePixel(Plane::Coronal, target, VolumeSize{width, height, depth});
    QCOMPARE(pixel, QPoint(17, depth - 1 - 11));
    const QPoint position = coronal->pixelCentre(pixel.x(), pixel.y()).toPoint();
    QCOMPARE(coronal->pixelAt(position), pixel);
    QTest::mouseClick(coronal, Qt::LeftButton, Qt::NoModifier, position);
    QCOMPARE(window_->seeds().size(), size_t(1));
    QCOMPARE(window_->seeds()[0], target);
    // The crosshair follows the new seed, so the other views show it too.
    QCOMPARE(volume->crosshair(), target);
    QCOMPARE(volume->slice(Plane::Axial), 11);
    QCOMPARE(volume->slice(Plane::Sagittal), 17);
    // The table shows its z; the undo stack names the voxel.
    auto* table = window_->findChild<QTableView*>(QStringLiteral("seedTable"));
    QCOMPARE(table->model()->data(table->model()->index(0, SeedTableModel::Z)).toInt(), 11);
    const int luma = volume_->at(17, 5, 11);
    QCOMPARE(table->model()->data(table->model()->index(0, SeedTableModel::Luma), Qt::EditRole).toInt(), luma);
    QCOMPARE(table->model()->data(table->model()->index(0, SeedTableModel::Luma)).toString(),
             QStringLiteral("%1 (%2)").arg(luma).arg(luma - shift)); // the file's own value beside it
    QCOMPARE(window_->undoStack()->text(0), QStringLiteral("add seed 1 at (17, 5, 11)"));
    window_->undoStack()->undo();
    QVERIFY(window_->seeds().empty());
    window_->undoStack()->redo();
    QCOMPARE(window_->seeds()[0], target);
    // Dragging it on the axial view moves it within its slice.
    SliceView* axial = view(Plane::Axial);
    QTest::mousePress(axial, Qt::LeftButton, Qt::NoModifier, axial->pixelCentre(17, 5).toPoint());
    QTest::mouseMove(axial, axial->pixelCentre(15, 6).toPoint());
    QTest::mouseMove(axial, axial->pixelCentre(14, 8).toPoint());
    QTest::mouseRelease(axial, Qt::LeftButton, Qt::NoModifier, axial->pixelCentre(14, 8).toPoint());
    QCOMPARE(window_->seeds()[0], (Seed{14, 8, 11}));
    // A right-click on it removes it.
    QTest::mouseClick(axial, Qt::RightButton, Qt::NoModifier, axial->pixelCentre(14, 8).toPoint());
    QVERIFY(window_->seeds().empty());
}

// Live, a click's crosshair moves with the region the click's run brings:
// each view paints its new slice once, with the region (on the H100 a
// ball's region came 1 ms after the click and then waited 9 ms behind the
// new slices painted with the old region). Not live, it moves at once.
void VolumeViewTest::aLiveSeedClickMovesTheCrosshairWithItsRegion()
{
    openBall();
    VolumeView* volume = window_->volumeView();
    window_->parametersPanel()->setAutoRun(true);
    volume->setSlice(Plane::Axial, ballCentre.z);
    const Seed before = volume->crosshair();
    const Seed target{ballCentre.x + 2, ballCentre.y - 1, ballCentre.z};
    QVERIFY(before.x != target.x && before.y != target.y);
    SliceView* axial = view(Plane::Axial);
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    QTest::mouseClick(axial, Qt::LeftButton, Qt::NoModifier, axial->pixelCentre(target.x, target.y).toPoint());
    QCOMPARE(window_->seeds().size(), size_t(1));
    QCOMPARE(window_->seeds()[0], target);
    QCOMPARE(volume->crosshair(), before); // waiting for the region
    QVERIFY(QTest::qWaitFor([&] { return finished.count() > 0 && !window_->isRunning(); }, 120000));
    QVERIFY(window_->result() != nullptr);
    QCOMPARE(volume->crosshair(), target);
    QCOMPARE(volume->slice(Plane::Coronal), target.y);
    QCOMPARE(volume->slice(Plane::Sagittal), target.x);
    // The sagittal view's new slice shows the region: the ball's voxel at the crosshair is coloured.
    const QImage sagittal = volume->slicePicture(Plane::Sagittal);
    const QPoint inBall = volume->slicePixel(Plane::Sagittal, {target.x, ballCentre.y, ballCentre.z + 1});
    QVERIFY(qRed(sagittal.pixel(inBall)) != qGreen(sagittal.pixel(inBall))
            || qGreen(sagittal.pixel(inBall)) != qBlue(sagittal.pixel(inBall)));

    // Not live: the crosshair goes with the click itself.
    window_->parametersPanel()->setAutoRun(false);
    const Seed second{ballCentre.x - 3, ballCentre.y + 2, ballCentre.z};
    QTest::mouseClick(axial, Qt::LeftButton, Qt::NoModifier, axial->pixelCentre(second.x, second.y).toPoint());
    QCOMPARE(window_->seeds().size(), size_t(2));
    QCOMPARE(volume->crosshair(), second);
}

// A result of other settings says so over each view, as an image's view
// does, and the views stay where they are: a banner between the controls
// and the views moved them, and each cut and drew its slice again.
void VolumeViewTest::aStaleResultSaysSoOnEachViewWithoutMovingThem()
{
    openBall();
    window_->document()->addSeed(ballCentre);
    QVERIFY(QTest::qWaitFor([&] { return !window_->isRunning(); }, 120000));
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    window_->runNow();
    QVERIFY(QTest::qWaitFor([&] { return finished.count() > 0 && !window_->isRunning(); }, 120000));
    window_->parametersPanel()->setAutoRun(false);
    VolumeView* volume = window_->volumeView();
    QVERIFY(volume->banner().isEmpty());
    std::array<QRect, 3> before;
    for (Plane plane : allPlanes) {
        QVERIFY(view(plane)->banner().isEmpty());
        before[size_t(plane)] = view(plane)->geometry();
    }
    QVERIFY(window_->setVariantText(QStringLiteral("driver=host-sync")));
    QVERIFY2(volume->banner().contains(QStringLiteral("the variant changed since run #")), qPrintable(volume->banner()));
    QTest::qWait(50); // the layout would move the views now
    for (Plane plane : allPlanes) {
        QCOMPARE(view(plane)->banner(), volume->banner());
        QCOMPARE(view(plane)->geometry(), before[size_t(plane)]);
    }
    if (const QByteArray shots = qgetenv("RGX_GUI_TEST_SHOTS"); !shots.isEmpty())
        window_->grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/volume-stale.png"));
    // A run makes it current again, and no view moved.
    finished.clear();
    window_->runNow();
    QVERIFY(QTest::qWaitFor([&] { return finished.count() > 0 && !window_->isRunning(); }, 120000));
    QVERIFY(volume->banner().isEmpty());
    for (Plane plane : allPlanes) {
        QVERIFY(view(plane)->banner().isEmpty());
        QCOMPARE(view(plane)->geometry(), before[size_t(plane)]);
    }
}

void VolumeViewTest::seedsShowOnTheViewsWhoseSliceHoldsThem()
{
    openBall();
    VolumeView* volume = window_->volumeView();
    volume->setCrosshair(Seed{3, 4, 5});
    window_->document()->addSeed(Seed{3, 4, 9}); // on the coronal slice y 4 and the sagittal x 3, not the axial z 5
    QVERIFY(view(Plane::Axial)->seedAt(view(Plane::Axial)->pixelCentre(3, 4)) < 0);
    QCOMPARE(view(Plane::Coronal)->seedAt(view(Plane::Coronal)->pixelCentre(3, depth - 1 - 9)), 0);
    QCOMPARE(view(Plane::Sagittal)->seedAt(view(Plane::Sagittal)->pixelCentre(4, depth - 1 - 9)), 0);
    // Selecting its row brings its slices into view.
    auto* table = window_->findChild<QTableView*>(QStringLiteral("seedTable"));
    table->selectRow(0);
    QCOMPARE(volume->crosshair(), (Seed{3, 4, 9}));
    QCOMPARE(view(Plane::Axial)->seedAt(view(Plane::Axial)->pixelCentre(3, 4)), 0);
    QCOMPARE(view(Plane::Axial)->selectedSeed(), 0);
}

// Every pixel of each view is coloured exactly where the voxel under it
// (VolumeView::voxelAt, the views' one mapping) is in the region.
void VolumeViewTest::verifyOverlayAtItsVoxels()
{
    showReferenceResult({ballCentre});
    const GrowResult& result = *reference_;
    QVERIFY(result.regions[0].count > 100);
    VolumeView* volume = window_->volumeView();
    volume->setCrosshair(Seed{10, 8, 6}); // slices through the ball, off its centre
    const VolumeSize size{width, height, depth};
    for (Plane plane : allPlanes) {
        const QImage picture = volume->slicePicture(plane);
        QCOMPARE(picture.size(), sliceSize(volume->axes(plane), size));
        int coloured = 0;
        for (int row = 0; row < picture.height(); ++row)
            for (int column = 0; column < picture.width(); ++column) {
                const Seed voxel = volume->voxelAt(plane, QPoint(column, row));
                const bool labelled = result.labels[seedIndex(voxel, width, height)] != 0;
                coloured += labelled;
                QVERIFY2(isGrey(picture.pixel(column, row)) != labelled,
                         qPrintable(QStringLiteral("%1 view, voxel (%2, %3, %4)")
                                        .arg(planeName(plane)).arg(voxel.x).arg(voxel.y).arg(voxel.z)));
            }
        QVERIFY2(coloured > 20, qPrintable(planeName(plane)));
    }
}

void VolumeViewTest::theOverlayOfARunShowsOnEveryViewAtItsVoxels()
{
    openBall();
    verifyOverlayAtItsVoxels();
    VolumeView* volume = window_->volumeView();
    // Coloured, not just tinted.
    volume->setCrosshair(ballCentre);
    const QImage axial = volume->slicePicture(Plane::Axial);
    const QRgb inside = axial.pixel(ballCentre.x + 1, ballCentre.y); // not on an outline
    QVERIFY(std::abs(qRed(inside) - qGreen(inside)) > 20 || std::abs(qGreen(inside) - qBlue(inside)) > 20);
    // The status bar names the label and stamp of the voxel under the cursor.
    const QPoint cursor = view(Plane::Axial)->pixelCentre(ballCentre.x, ballCentre.y).toPoint();
    QTest::mouseMove(view(Plane::Axial), cursor);
    auto* info = window_->findChild<QLabel*>(QStringLiteral("pixelInfo"));
    QTRY_VERIFY2(info->text().contains(QStringLiteral("label 1  stamp 0")), qPrintable(info->text()));
    QVERIFY2(info->text().startsWith(QStringLiteral("x 12  y 9  z 7  luma %1 (value %2)")
                                         .arg(volume_->at(12, 9, 7)).arg(volume_->at(12, 9, 7) - shift)),
             qPrintable(info->text()));
}

void VolumeViewTest::theOverlayOfAnOrientedVolumeShowsAtItsVoxels()
{
    volume_ = orientedBall();
    QVERIFY(window_->openVolume(QStringLiteral("oriented"), volume_));
    verifyOverlayAtItsVoxels();
    // The axial view steps along voxel x (up) and shows the ball's centre where slicePixel says.
    VolumeView* volume = window_->volumeView();
    volume->setCrosshair(ballCentre);
    QCOMPARE(volume->slice(Plane::Axial), ballCentre.x);
    const QPoint centre = volume->slicePixel(Plane::Axial, ballCentre);
    QCOMPARE(volume->voxelAt(Plane::Axial, centre), ballCentre);
    QVERIFY(!isGrey(volume->slicePicture(Plane::Axial).pixel(centre)));
}

// The oriented ball (voxel x up, y towards the left, z to the front) in the
// standard display: each view's corners are the voxels its axes give, a
// click there makes that seed, and the letters say what is shown.
void VolumeViewTest::anOrientedVolumeShowsTheStandardDisplayAndClicksMakeItsVoxels()
{
    volume_ = orientedBall();
    QVERIFY(window_->openVolume(QStringLiteral("oriented"), volume_));
    VolumeView* volume = window_->volumeView();
    const auto letters = [this](Plane plane) {
        const EdgeLetters edges = view(plane)->edgeLetters();
        return QStringList({edges.left, edges.right, edges.top, edges.bottom}).join(QLatin1Char(' '));
    };
    QCOMPARE(letters(Plane::Axial), QStringLiteral("R L A P"));
    QCOMPARE(letters(Plane::Coronal), QStringLiteral("R L S I"));
    QCOMPARE(letters(Plane::Sagittal), QStringLiteral("A P S I"));
    // Axial: y across (towards the left), z down (from the front); coronal: y
    // across, x down (from the top); sagittal: z across (from the front), x down.
    QCOMPARE(view(Plane::Axial)->imageSize(), QSize(height, depth));
    QCOMPARE(view(Plane::Coronal)->imageSize(), QSize(height, width));
    QCOMPARE(view(Plane::Sagittal)->imageSize(), QSize(depth, width));
    QCOMPARE(view(Plane::Axial)->pixelAspect(), 4.0);    // 0.5 mm across, 2 mm down
    QCOMPARE(view(Plane::Coronal)->pixelAspect(), 1.0);
    QCOMPARE(view(Plane::Sagittal)->pixelAspect(), 0.25);
    QCOMPARE(window_->findChild<QLabel*>(QStringLiteral("axialSliceLabel"))->text().section(QLatin1Char(' '), 0, 3),
             QStringLiteral("x %1 / %2").arg(width / 2).arg(width - 1));
    struct Corners {
        Plane plane;
        int slice;
        Seed topLeft, bottomRight;
    };
    const Corners cases[] = {
        {Plane::Axial, 5, Seed{5, 0, depth - 1}, Seed{5, height - 1, 0}},
        {Plane::Coronal, 3, Seed{width - 1, 0, 3}, Seed{0, height - 1, 3}},
        {Plane::Sagittal, 4, Seed{width - 1, 4, depth - 1}, Seed{0, 4, 0}},
    };
    for (const Corners& corners : cases) {
        volume->setSlice(corners.plane, corners.slice);
        SliceView* shown = view(corners.plane);
        const QSize size = shown->imageSize();
        const QPoint last(size.width() - 1, size.height() - 1);
        QCOMPARE(volume->voxelAt(corners.plane, QPoint(0, 0)), corners.topLeft);
        QCOMPARE(volume->slicePixel(corners.plane, corners.bottomRight), last);
        QTest::mouseClick(shown, Qt::LeftButton, Qt::NoModifier, shown->pixelCentre(0, 0).toPoint());
        QVERIFY2(!window_->seeds().empty(), qPrintable(planeName(corners.plane)));
        QCOMPARE(window_->seeds().back(), corners.topLeft);
        QCOMPARE(volume->slice(corners.plane), corners.slice); // the crosshair went there, in this slice
        QTest::mouseClick(shown, Qt::LeftButton, Qt::NoModifier, shown->pixelCentre(last.x(), last.y()).toPoint());
        QCOMPARE(window_->seeds().back(), corners.bottomRight);
        // The grey drawn there is that voxel's.
        const std::vector<uint8_t> table = windowTable(volume->windowLevel(), 16);
        const QImage picture = volume->slicePicture(corners.plane);
        QCOMPARE(qRed(picture.pixel(0, 0)), int(table[volume_->at(corners.topLeft.x, corners.topLeft.y, corners.topLeft.z)]));
        // The seeds show where they were clicked.
        QVERIFY(shown->seedAt(shown->pixelCentre(0, 0)) >= 0);
        QVERIFY(shown->seedAt(shown->pixelCentre(last.x(), last.y())) >= 0);
    }
    QCOMPARE(window_->seeds().size(), size_t(6));
}

void VolumeViewTest::theNeurologicalToggleSwapsTheSidesOfAxialAndCoronal()
{
    volume_ = orientedBall();
    QVERIFY(window_->openVolume(QStringLiteral("oriented"), volume_));
    VolumeView* volume = window_->volumeView();
    volume->setCrosshair(Seed{5, 6, 7});
    const QPoint radiological = volume->slicePixel(Plane::Axial, volume->crosshair());
    QAction* toggle = volume->neurologicalAction();
    QVERIFY(toggle->isCheckable());
    QVERIFY(!toggle->isChecked());
    toggle->trigger();
    QCOMPARE(volume->convention(), DisplayConvention::Neurological);
    QCOMPARE(view(Plane::Axial)->edgeLetters().left, QStringLiteral("L"));
    QCOMPARE(view(Plane::Coronal)->edgeLetters().left, QStringLiteral("L"));
    QCOMPARE(view(Plane::Axial)->edgeLetters().top, QStringLiteral("A"));
    QCOMPARE(view(Plane::Sagittal)->edgeLetters().left, QStringLiteral("A")); // unchanged
    // The crosshair stays at its voxel, mirrored on the axial view.
    QCOMPARE(volume->crosshair(), (Seed{5, 6, 7}));
    QCOMPARE(view(Plane::Axial)->crosshair(), QPoint(height - 1 - radiological.x(), radiological.y()));
    QCOMPARE(volume->voxelAt(Plane::Axial, QPoint(0, 0)), (Seed{5, height - 1, depth - 1}));
    SliceView* axial = view(Plane::Axial);
    QTest::mouseClick(axial, Qt::LeftButton, Qt::NoModifier, axial->pixelCentre(0, 0).toPoint());
    QCOMPARE(window_->seeds().back(), (Seed{5, height - 1, depth - 1}));
    toggle->trigger();
    QCOMPARE(view(Plane::Axial)->edgeLetters().left, QStringLiteral("R"));
    QCOMPARE(view(Plane::Axial)->crosshair(), volume->slicePixel(Plane::Axial, volume->crosshair()));
}

void VolumeViewTest::playbackShowsTheVoxelsOfEachIterationOnTheSlices()
{
    volume_ = orientedBall(); // through the display's mapping, axes permuted and flipped
    QVERIFY(window_->openVolume(QStringLiteral("oriented"), volume_));
    showReferenceResult({ballCentre});
    const GrowResult& result = *reference_;
    QVERIFY(result.iterations >= 4);
    window_->playbackPanel()->setFrame(2);
    QCOMPARE(window_->viewState()->frame(), 2u);
    VolumeView* volume = window_->volumeView();
    volume->setCrosshair(ballCentre);
    for (Plane plane : allPlanes) {
        const QImage picture = volume->slicePicture(plane);
        for (int row = 0; row < picture.height(); ++row)
            for (int column = 0; column < picture.width(); ++column) {
                const Seed voxel = volume->voxelAt(plane, QPoint(column, row));
                const bool shown = result.stamps[seedIndex(voxel, width, height)] <= 2;
                QVERIFY2(isGrey(picture.pixel(column, row)) != shown,
                         qPrintable(QStringLiteral("%1 view, voxel (%2, %3, %4)")
                                        .arg(planeName(plane)).arg(voxel.x).arg(voxel.y).arg(voxel.z)));
            }
    }
}

void VolumeViewTest::theSeedTableGivesEachRegionsVoxelsAndVolume()
{
    openBall();
    window_->document()->addSeed(ballCentre);
    RunOutcome outcome;
    outcome.request.image = volume_;
    outcome.request.seeds = {ballCentre};
    outcome.result = std::make_shared<GrowResult>(
        growRegionsReference(volume_->luma, width, height, {ballCentre}, ballParams(), depth));
    // What the window does with a run's outcome.
    emit window_->runs()->resultChanged(outcome);
    auto* table = window_->findChild<QTableView*>(QStringLiteral("seedTable"));
    QAbstractItemModel* model = table->model();
    const uint64_t count = outcome.result->regions[0].count;
    QCOMPARE(model->headerData(SeedTableModel::RegionSize, Qt::Horizontal).toString(), QStringLiteral("voxels"));
    QCOMPARE(model->data(model->index(0, SeedTableModel::RegionSize)).toString().remove(QRegularExpression(QStringLiteral("[^0-9]"))),
             QString::number(count));
    const double expected = double(count) * 0.5 * 0.5 * 2.0;
    QCOMPARE(model->data(model->index(0, SeedTableModel::RegionVolume)).toString(),
             QLocale().toString(expected, 'f', expected < 10 ? 2 : expected < 1000 ? 1 : 0));
}

void VolumeViewTest::scrollingChangesTheShownSlice()
{
    openBall();
    VolumeView* volume = window_->volumeView();
    SliceView* axial = view(Plane::Axial);
    const int before = volume->slice(Plane::Axial);
    // A wheel notch up: the next slice; the coronal view's crosshair follows.
    const QPoint at = axial->pixelCentre(5, 5).toPoint();
    QWheelEvent wheel(QPointF(at), QPointF(axial->mapToGlobal(at)), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(axial, &wheel);
    QCOMPARE(volume->slice(Plane::Axial), before + 1);
    QCOMPARE(view(Plane::Coronal)->crosshair().y(), depth - 1 - (before + 1));
    auto* label = window_->findChild<QLabel*>(QStringLiteral("axialSliceLabel"));
    QVERIFY2(label->text().startsWith(QStringLiteral("z %1 / %2").arg(before + 1).arg(depth - 1)), qPrintable(label->text()));
    QCOMPARE(window_->findChild<QSlider*>(QStringLiteral("axialSlider"))->value(), before + 1);
    // Page Down twice: two slices back; Shift+Page Up: ten on, stopping at the last.
    axial->setFocus();
    QTest::keyClick(axial, Qt::Key_PageDown);
    QTest::keyClick(axial, Qt::Key_PageDown);
    QCOMPARE(volume->slice(Plane::Axial), before - 1);
    QTest::keyClick(axial, Qt::Key_PageUp, Qt::ShiftModifier);
    QCOMPARE(volume->slice(Plane::Axial), depth - 1);
    // The slider moves the sagittal slice.
    window_->findChild<QSlider*>(QStringLiteral("sagittalSlider"))->setValue(3);
    QCOMPARE(volume->slice(Plane::Sagittal), 3);
    QCOMPARE(volume->crosshair().x, 3);
    // The picture is the slice shown: its grey follows the luma of that slice.
    for (int z : {0, 7, depth - 1}) {
        volume->setSlice(Plane::Axial, z);
        const QImage picture = volume->slicePicture(Plane::Axial);
        const std::vector<uint8_t> table = windowTable(volume->windowLevel(), 16);
        for (QPoint pixel : {QPoint(0, 0), QPoint(12, 9), QPoint(width - 1, height - 1)})
            QCOMPARE(qRed(picture.pixel(pixel)), int(table[volume_->at(pixel.x(), pixel.y(), z)]));
    }
    // What the view draws changes with it.
    volume->setSlice(Plane::Axial, 0);
    const QImage far = axial->grabShown();
    volume->setSlice(Plane::Axial, ballCentre.z);
    QVERIFY(axial->grabShown() != far);
}

void VolumeViewTest::windowAndLevelChangeTheDrawnGreyOnly()
{
    openBall();
    VolumeView* volume = window_->volumeView();
    volume->setCrosshair(ballCentre);
    const std::vector<uint16_t> lumaBefore = volume_->luma;
    // Level 1000 and width 200 in the file's values: luma 1900 black, 2100 white.
    auto* level = window_->findChild<QDoubleSpinBox*>(QStringLiteral("windowLevelSpin"));
    auto* widthSpin = window_->findChild<QDoubleSpinBox*>(QStringLiteral("windowWidthSpin"));
    level->setValue(1000);
    widthSpin->setValue(200);
    QCOMPARE(volume->windowLevel(), (WindowLevel{2000, 200}));
    const QImage picture = volume->slicePicture(Plane::Axial);
    QCOMPARE(qRed(picture.pixel(0, 0)), 0);                      // background, luma about 1000
    QCOMPARE(qRed(picture.pixel(ballCentre.x, ballCentre.y)), 255); // the ball, luma about 3000
    const std::vector<uint8_t> table = windowTable(volume->windowLevel(), 16);
    QCOMPARE(int(table[1900]), 0);
    QCOMPARE(int(table[2000]), 128);
    QCOMPARE(int(table[2100]), 255);
    // A right-drag to the right widens the window, downwards raises the level.
    SliceView* sagittal = view(Plane::Sagittal);
    const QPoint start = sagittal->pixelCentre(2, 2).toPoint();
    QTest::mousePress(sagittal, Qt::RightButton, Qt::NoModifier, start);
    QMouseEvent move(QEvent::MouseMove, QPointF(start + QPoint(40, 20)), QPointF(sagittal->mapToGlobal(start + QPoint(40, 20))),
                     Qt::NoButton, Qt::RightButton, Qt::NoModifier);
    QApplication::sendEvent(sagittal, &move);
    QTest::mouseRelease(sagittal, Qt::RightButton, Qt::NoModifier, start + QPoint(40, 20));
    QVERIFY(volume->windowLevel().width > 200);
    QVERIFY(volume->windowLevel().centre > 2000);
    QVERIFY(std::abs(level->value() - (volume->windowLevel().centre - shift)) <= 0.5);
    // Full range: every 16-bit luma; the ball is then a dark grey.
    window_->findChild<QPushButton*>(QStringLiteral("fullWindowButton"))->click();
    QCOMPARE(volume->windowLevel(), fullRangeWindow(16));
    const int ball = qRed(volume->slicePicture(Plane::Axial).pixel(ballCentre.x, ballCentre.y));
    QVERIFY2(ball > 5 && ball < 20, qPrintable(QString::number(ball)));
    // Drawing only: the luma a run sees is untouched.
    QVERIFY(window_->luma()->luma == lumaBefore);
}

// A click's stamps read narrow (a byte over a base per run of a row:
// GrowState::readNarrow, on a GPU from 8 Mi voxels, forced here) cut into
// every slice of every plane, in the voxel order and in the standard
// display, as the same click's full maps: the axial cut points into the
// narrow rows and their bases, the others read voxel by voxel.
void VolumeViewTest::narrowStampsCutIntoSlicesAsTheirFullMaps()
{
    qputenv("RGX_NARROW_STAMPS", "1");
    const auto unset = qScopeGuard([] { qunsetenv("RGX_NARROW_STAMPS"); });
    const std::shared_ptr<LumaImage> volume = orientedBall();
    const VolumeSize size = VolumeSize::of(*volume);
    ComputeDevice device(selectDevice(""));
    DeviceSession session(device, volume);
    for (const int range : {200, 3000}) { // the ball; every voxel
        PipelineParams params;
        params.grow = ballParams();
        params.grow.lower = params.grow.upper = range;
        const ClickResultPtr click = session.click({ballCentre}, params, parseVariant("fusion=tiles"));
        QCOMPARE(click->maps.stampBytes, 1);
        const auto box = std::make_shared<const GrowResult>(click->toBoxResult());
        const GrowResultPtr full = withFullMaps(box);
        for (Plane plane : allPlanes)
            for (const SliceAxes& axes : {voxelOrderAxes(plane), sliceAxes(plane, volume->volume)})
                for (int slice = 0; slice < sliceCount(axes, size); ++slice) {
                    const GrowResultPtr cut = withFullMaps(sliceResult(axes, slice, box));
                    const GrowResultPtr expected = withFullMaps(sliceResult(axes, slice, full));
                    QVERIFY2(cut->labels == expected->labels && cut->stamps == expected->stamps,
                             qPrintable(QStringLiteral("range %1, %2 view, slice %3")
                                            .arg(range).arg(planeName(plane)).arg(slice)));
                }
    }
}

void VolumeViewTest::aRunOnTheDefaultDeviceEqualsTheCpuReference()
{
    openBall();
    auto* mode = window_->findChild<QComboBox*>(QStringLiteral("modeCombo"));
    mode->setCurrentIndex(mode->findData(int(Mode::Range)));
    window_->findChild<QSpinBox*>(QStringLiteral("lowerSpin"))->setValue(200);
    window_->findChild<QSpinBox*>(QStringLiteral("upperSpin"))->setValue(200);
    window_->document()->addSeed(ballCentre);
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    QSignalSpy failed(window_.get(), &MainWindow::runFailed);
    window_->runNow();
    QVERIFY(QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, 120000));
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
    const GrowResultPtr full = withFullMaps(window_->result());
    QCOMPARE(full->depth, depth);
    const GrowResult expected = growRegionsReference(volume_->luma, width, height, {ballCentre}, ballParams(), depth);
    QVERIFY(full->labels == expected.labels);
    QVERIFY(full->stamps == expected.stamps);
    // And the views draw it: the ball's centre is coloured on each.
    window_->volumeView()->setCrosshair(ballCentre);
    for (Plane plane : allPlanes) {
        const QPoint centre = slicePixel(plane, ballCentre, VolumeSize{width, height, depth});
        QVERIFY(!isGrey(window_->volumeView()->slicePicture(plane).pixel(centre)));
    }
}

void VolumeViewTest::sessionsKeepVoxelSeedsSlicesAndWindow()
{
    Session session;
    session.imagePath = QStringLiteral("/data/ball.nii.gz");
    session.seeds = {Seed{1, 2, 3}, Seed{4, 5, 0}};
    session.params.grow.connectivity = 26;
    session.variant = "driver=host-sync,frontier=queue,collectives=atomics";
    session.volumeView = VolumeViewSettings{Seed{7, 8, 9}, 2000.5, 300};
    const QByteArray json = sessionToJson(session, QString());
    QVERIFY2(json.contains("\"volumeView\""), json.constData());
    const Session back = sessionFromJson(json, QString(), QStringLiteral("test"));
    QCOMPARE(back.seeds.size(), size_t(2));
    QCOMPARE(back.seeds[0], (Seed{1, 2, 3}));
    QCOMPARE(back.seeds[1], (Seed{4, 5, 0}));
    QCOMPARE(back.params.grow.connectivity, 26);
    QVERIFY(back.volumeView.has_value());
    QCOMPARE(back.volumeView->crosshair, (Seed{7, 8, 9}));
    QCOMPARE(back.volumeView->windowCentre, 2000.5);
    QCOMPARE(back.volumeView->windowWidth, 300.0);
    // An image's session has no volume view and [x, y] seeds, as before.
    Session image = session;
    image.volumeView.reset();
    image.seeds = {Seed{1, 2}};
    const QByteArray imageJson = sessionToJson(image, QString());
    QVERIFY(!imageJson.contains("volumeView"));
    QVERIFY(imageJson.contains("[\n            1,\n            2\n        ]"));
    QVERIFY(!sessionFromJson(imageJson, QString(), QStringLiteral("test")).volumeView);

    // The window writes its volume view into the session it saves.
    openBall();
    window_->document()->addSeed(Seed{2, 3, 4});
    window_->volumeView()->setCrosshair(Seed{5, 6, 7});
    window_->volumeView()->setWindowLevel(WindowLevel{1500, 700});
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("ball.rgx"));
    QVERIFY(window_->saveSession(path));
    const Session saved = readSessionFile(path);
    QCOMPARE(saved.seeds[0], (Seed{2, 3, 4}));
    QVERIFY(saved.volumeView.has_value());
    QCOMPARE(saved.volumeView->crosshair, (Seed{5, 6, 7}));
    QCOMPARE(saved.volumeView->windowCentre, 1500.0);
    QCOMPARE(saved.volumeView->windowWidth, 700.0);
}

void VolumeViewTest::aVolumeFileAndItsSessionReopenWhereTheyWere()
{
    QTemporaryDir folder;
    const QString file = folder.filePath(QStringLiteral("ball.nii.gz"));
    const std::shared_ptr<LumaImage> ball = ballVolume();
    writeVolumeNifti(file, width, height, depth, ball->luma, ball->volume);
    QVERIFY(window_->openImage(file)); // File > Open takes volumes
    QVERIFY(window_->document()->isVolume());
    QCOMPARE(window_->luma()->depth, depth);
    QVERIFY(window_->luma()->luma == ball->luma);
    VolumeView* volume = window_->volumeView();
    window_->document()->addSeed(Seed{4, 5, 6});
    volume->setCrosshair(Seed{3, 14, 2});
    volume->setWindowLevel(WindowLevel{1800, 900});
    const QString session = folder.filePath(QStringLiteral("ball.rgx"));
    QVERIFY(window_->saveSession(session));

    window_.reset();
    init();
    QVERIFY(window_->openSession(session));
    volume = window_->volumeView();
    QCOMPARE(window_->seeds().size(), size_t(1));
    QCOMPARE(window_->seeds()[0], (Seed{4, 5, 6}));
    QCOMPARE(volume->crosshair(), (Seed{3, 14, 2}));
    QCOMPARE(volume->slice(Plane::Axial), 2);
    QCOMPARE(volume->windowLevel(), (WindowLevel{1800, 900}));
    QCOMPARE(window_->findChild<QDoubleSpinBox*>(QStringLiteral("windowWidthSpin"))->value(), 900.0);
}

void VolumeViewTest::differencesFromTheReferenceShowOnTheSlices()
{
    openBall();
    showReferenceResult({ballCentre});
    // A result one voxel off the reference, at a voxel of the ball.
    auto wrong = std::make_shared<GrowResult>(*reference_);
    const Seed off{10, 8, 6};
    const size_t voxel = seedIndex(off, width, height);
    QVERIFY(wrong->labels[voxel] == 1);
    wrong->labels[voxel] = 0;
    wrong->stamps[voxel] = unclassifiedStamp;
    RunOutcome outcome;
    outcome.request.image = volume_;
    outcome.request.seeds = {ballCentre};
    outcome.result = wrong;
    outcome.reference = reference_;
    outcome.diff = std::make_shared<ResultDiff>(compareResults(*reference_, *wrong));
    QCOMPARE(outcome.diff->differingPixels, uint64_t(1));
    window_->setCorruptionView(true);
    window_->viewState()->showResult(outcome);
    const QString line = window_->playbackPanel()->findChild<QLabel*>(QStringLiteral("diffLabel"))->text();
    QVERIFY2(line.startsWith(QStringLiteral("1 voxels differ from the CPU reference")), qPrintable(line));
    VolumeView* volume = window_->volumeView();
    volume->setCrosshair(off);
    const auto magenta = [](QRgb colour) { return qRed(colour) >= 191 && qBlue(colour) >= 191 && qGreen(colour) < 64; };
    const VolumeSize size{width, height, depth};
    for (Plane plane : allPlanes) {
        const QImage picture = volume->slicePicture(plane);
        const QPoint at = slicePixel(plane, off, size);
        QVERIFY2(magenta(picture.pixel(at)), qPrintable(planeName(plane)));
        QVERIFY2(!magenta(picture.pixel(at + QPoint(1, 0))), qPrintable(planeName(plane)));
    }
    // A slice that misses the voxel shows no difference.
    volume->setSlice(Plane::Axial, off.z + 1);
    const QImage other = volume->slicePicture(Plane::Axial);
    QVERIFY(!magenta(other.pixel(off.x, off.y)));
}

// Issue 29, item 1, for volumes: playback in the corruption view lights, at
// iteration k, the voxels whose state at k differs from the reference's (one
// classified two iterations late, one lost), the last frame every
// difference; the per-iteration chart counts voxels.
void VolumeViewTest::aVolumesCorruptionPlaysBackIterationByIteration()
{
    openBall();
    showReferenceResult({ballCentre});
    const uint32_t last = reference_->iterations;
    QVERIFY(last >= 4);
    auto wrong = std::make_shared<GrowResult>(*reference_);
    const Seed late{12, 9, 9}, lost{14, 9, 7};
    const size_t lateVoxel = seedIndex(late, width, height), lostVoxel = seedIndex(lost, width, height);
    const uint32_t lateStamp = reference_->stamps[lateVoxel], lostStamp = reference_->stamps[lostVoxel];
    QVERIFY(lateStamp >= 1 && lateStamp + 3 <= last && lostStamp >= 1 && lostStamp < last);
    wrong->stamps[lateVoxel] += 2;
    wrong->labels[lostVoxel] = 0;
    wrong->stamps[lostVoxel] = unclassifiedStamp;
    RunOutcome outcome;
    outcome.request.image = volume_;
    outcome.request.seeds = {ballCentre};
    outcome.result = wrong;
    outcome.reference = reference_;
    outcome.diff = std::make_shared<ResultDiff>(compareResults(*reference_, *wrong));
    window_->setCorruptionView(true);
    window_->viewState()->showResult(outcome);
    VolumeView* volume = window_->volumeView();
    const auto magenta = [](QRgb colour) { return qRed(colour) >= 191 && qBlue(colour) >= 191 && qGreen(colour) < 64; };
    const VolumeSize size{width, height, depth};
    for (uint32_t frame = 0; frame <= last; ++frame) {
        window_->playbackPanel()->setFrame(frame);
        const bool lateDiffers = frame == last || (frame >= lateStamp && frame < lateStamp + 2);
        const bool lostDiffers = frame >= lostStamp;
        volume->setCrosshair(late);
        QVERIFY2(magenta(volume->slicePicture(Plane::Axial).pixel(slicePixel(Plane::Axial, late, size))) == lateDiffers,
                 qPrintable(QStringLiteral("late voxel, frame %1").arg(frame)));
        volume->setCrosshair(lost);
        QVERIFY2(magenta(volume->slicePicture(Plane::Coronal).pixel(slicePixel(Plane::Coronal, lost, size))) == lostDiffers,
                 qPrintable(QStringLiteral("lost voxel, frame %1").arg(frame)));
        QCOMPARE(outcome.diff->perIteration[frame], uint64_t((frame >= lateStamp && frame < lateStamp + 2 ? 1 : 0) +
                                                             (lostDiffers ? 1 : 0)));
    }
    // The chart says voxels.
    TimingPanel* timing = window_->timingPanel();
    timing->setCurrentRun(RunEntry{1, QStringLiteral("wrong"), wrong, {}, outcome.diff});
    QCustomPlot* chart = timing->plot(TimingPanel::PerIteration);
    QVERIFY2(chart->yAxis2->visible() && chart->yAxis2->label() == QStringLiteral("Differing voxels"),
             qPrintable(chart->yAxis2->label()));
    auto* label = chart->findChild<QCPItemText*>(QStringLiteral("firstDifferenceLabel"));
    QVERIFY(label && label->visible());
    const uint32_t first = std::min(lateStamp, lostStamp);
    QCOMPARE(label->text(), QStringLiteral("first difference: iteration %1, %2 voxels").arg(first).arg(outcome.diff->perIteration[first]));
}

void VolumeViewTest::aVolumeRunsWithoutTheTwoDimensionalFilters()
{
    PipelineParams filtered = window_->parametersPanel()->params();
    filtered.prefilter.kind = PrefilterSpec::Kind::BoxMean;
    filtered.prefilter.size = 5;
    filtered.postfilter.enabled = true;
    window_->parametersPanel()->setParams(filtered);
    openBall();
    const PipelineParams params = window_->parametersPanel()->params();
    QCOMPARE(params.prefilter.kind, PrefilterSpec::Kind::None);
    QVERIFY(!params.postfilter.enabled);
    QVERIFY(!window_->findChild<QComboBox*>(QStringLiteral("prefilterCombo"))->isEnabled());
    // An image gets them back as they were.
    QImage image(30, 20, QImage::Format_Grayscale8);
    image.fill(90);
    QTemporaryDir folder;
    QVERIFY(image.save(folder.filePath(QStringLiteral("flat.png"))));
    QVERIFY(window_->openImage(folder.filePath(QStringLiteral("flat.png"))));
    QCOMPARE(window_->parametersPanel()->params().prefilter.kind, PrefilterSpec::Kind::BoxMean);
    QVERIFY(window_->parametersPanel()->params().postfilter.enabled);
}

void VolumeViewTest::aVolumesMapsExportAsVolumes()
{
    openBall();
    window_->document()->addSeed(ballCentre);
    RunOutcome outcome;
    outcome.request.image = volume_;
    outcome.request.seeds = {ballCentre};
    const auto result = std::make_shared<GrowResult>(
        growRegionsReference(volume_->luma, width, height, {ballCentre}, ballParams(), depth));
    outcome.result = result;
    emit window_->runs()->resultChanged(outcome);
    QTemporaryDir folder;
    // Labels as NIfTI with the volume's spacing; stamps as .npy (D, H, W).
    const QString labels = folder.filePath(QStringLiteral("ball-labels.nii.gz"));
    QVERIFY2(window_->exportLabels(labels), qPrintable(window_->lastNotice()));
    const LumaImage read = loadLumaVolume(labels);
    QCOMPARE(read.depth, depth);
    QCOMPARE(read.volume.spacing[2], 2.0);
    QVERIFY(std::equal(read.luma.begin(), read.luma.end(), result->labels.begin(), result->labels.end()));
    const QString stamps = folder.filePath(QStringLiteral("ball-stamps.npy"));
    QVERIFY2(window_->exportStamps(stamps), qPrintable(window_->lastNotice()));
    int w = 0, h = 0, d = 0;
    const std::vector<uint32_t> back = readNpy(stamps, &w, &h, &d);
    QCOMPARE(d, depth);
    QVERIFY(back == result->stamps);
    // The overlay: the axial slice as the view shows it.
    const QString overlay = folder.filePath(QStringLiteral("ball-overlay.png"));
    QVERIFY(window_->exportOverlay(overlay));
    QCOMPARE(QImage(overlay).size(), QSize(width, height));
}

// Scrolling stays fluid: a slice step cuts and draws one slice of each view
// whose slice changed, never the volume (512 x 512 x 512 with a run's full
// maps, a gigabyte: one pass over it takes longer than many frames). The
// bound leaves room for a loaded machine; the log gives the times.
void VolumeViewTest::aSliceStepDrawsOnlyItsSlice()
{
    constexpr int side = 512, slices = 512;
    auto volume = std::make_shared<LumaImage>();
    volume->width = side;
    volume->height = side;
    volume->depth = slices;
    volume->bitDepth = 16;
    volume->luma.resize(size_t(side) * side * slices);
    for (size_t i = 0; i < volume->luma.size(); ++i)
        volume->luma[i] = uint16_t((i * 2654435761u) >> 16);
    QVERIFY(window_->openVolume(QStringLiteral("large"), volume));
    auto result = std::make_shared<GrowResult>();
    result->width = side;
    result->height = side;
    result->depth = slices;
    result->labels.assign(volume->luma.size(), 0);
    result->stamps.assign(volume->luma.size(), unclassifiedStamp);
    for (size_t i = 0; i < result->labels.size(); i += 3) {
        result->labels[i] = 1;
        result->stamps[i] = uint32_t(i % 50);
    }
    result->regions.resize(1);
    result->iterations = 49;
    RunOutcome outcome;
    outcome.request.image = volume;
    outcome.result = result;
    window_->viewState()->showResult(outcome);
    VolumeView* view = window_->volumeView();
    for (Plane plane : allPlanes)
        view->sliceView(plane)->repaint();
    // Each plane in turn: twenty steps, each painted at once, each cutting
    // the stepped plane's new slice and nothing of the other two planes,
    // whose slices stay (the time is printed, not asserted).
    for (Plane plane : allPlanes) {
        QElapsedTimer clock;
        clock.start();
        constexpr int steps = 20;
        for (int i = 0; i < steps; ++i) {
            const quint64 cutBefore = view->slicesCut();
            view->setSlice(plane, view->slice(plane) + (i % 2 ? -3 : 5));
            for (Plane shown : allPlanes)
                view->sliceView(shown)->repaint();
            QVERIFY2(view->slicesCut() - cutBefore == 1,
                     qPrintable(QStringLiteral("a %1 step cut %2 slices")
                                    .arg(planeName(plane))
                                    .arg(view->slicesCut() - cutBefore)));
        }
        const double perStep = double(clock.nsecsElapsed()) / 1e6 / steps;
        qInfo("%s slice step: %.2f ms (cut, render and paint of three views)", qPrintable(planeName(plane)), perStep);
    }
}

// File > Open Sample lists the bundled MNI template below the images; it
// opens as File > Open opens a NIfTI file, with its seed in the white matter
// and the parameters its seeds file suggests, and runs.
void VolumeViewTest::theBrainTemplateSampleOpensInThreeViewsAndRunsItsSeed()
{
    useTheBuildTreesSamples();
    QAction* brain = sampleAction("mni_icbm152_t1_tal_nlin_sym_09a_converted");
    QVERIFY2(brain, "File > Open Sample has no MNI template below the images");
    QVERIFY2(brain->text().contains(QStringLiteral("MNI brain template")), qPrintable(brain->text()));
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    brain->trigger();
    QVERIFY2(window_->document()->isVolume(), qPrintable(window_->lastNotice()));
    const VolumeSize size{197, 233, 189};
    QCOMPARE(window_->luma()->depth, size.depth);
    verifyThreeViewsOf(size);
    const QString title = window_->windowTitle();
    QVERIFY2(title.contains(QStringLiteral("197 x 233 x 189 voxels of 1 x 1 x 1 mm")), qPrintable(title));
    const Seed seed{98, 116, 94};
    QCOMPARE(window_->seeds().size(), size_t(1));
    QCOMPARE(window_->seeds()[0], seed);
    const GrowParams params = window_->parametersPanel()->params().grow;
    QCOMPARE(params.mode, Mode::Range);
    QCOMPARE(params.lower, 15u);
    QCOMPARE(params.upper, 57u);
    QCOMPARE(params.connectivity, 26);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 240000);
    // The white matter (luma 183 to 255), as rgx-cli segment finds it.
    QVERIFY(window_->result());
    QCOMPARE(window_->result()->regions.size(), size_t(1));
    QCOMPARE(window_->result()->regions[0].count, uint64_t(856002));
    // Stored in RAS (x right, y front, z up), shown as radiologists read it:
    // the axial view with the front at the top and the patient's right on the
    // left, the coronal with the top up, the sagittal facing left.
    VolumeView* volume = window_->volumeView();
    const auto letters = [this](Plane plane) {
        const EdgeLetters edges = view(plane)->edgeLetters();
        return QStringList({edges.left, edges.right, edges.top, edges.bottom}).join(QLatin1Char(' '));
    };
    QCOMPARE(letters(Plane::Axial), QStringLiteral("R L A P"));
    QCOMPARE(letters(Plane::Coronal), QStringLiteral("R L S I"));
    QCOMPARE(letters(Plane::Sagittal), QStringLiteral("A P S I"));
    QCOMPARE(volume->voxelAt(Plane::Axial, QPoint(0, 0)), (Seed{size.width - 1, size.height - 1, seed.z}));
    QCOMPARE(volume->voxelAt(Plane::Coronal, QPoint(0, 0)), (Seed{size.width - 1, seed.y, size.depth - 1}));
    QCOMPARE(volume->voxelAt(Plane::Sagittal, QPoint(0, 0)), (Seed{seed.x, size.height - 1, size.depth - 1}));
    // The crosshair starts at the centre, which is the seed: the region shows on every slice there.
    QCOMPARE(volume->crosshair(), seed);
    for (Plane plane : allPlanes) {
        const QImage picture = volume->slicePicture(plane);
        QVERIFY2(!isGrey(picture.pixel(volume->slicePixel(plane, seed))), qPrintable(planeName(plane)));
    }
}

// The CT series is a folder of DICOM files: it opens through the same path
// as File > Open Volume Folder, with its signed values shifted, and waits for
// seeds (it has no seeds file).
void VolumeViewTest::theCtSeriesSampleOpensInThreeViews()
{
    useTheBuildTreesSamples();
    QAction* ct = sampleAction("dicom-ct-series");
    QVERIFY2(ct, "File > Open Sample has no CT series below the images");
    QVERIFY2(ct->text().contains(QStringLiteral("CT series")), qPrintable(ct->text()));
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    ct->trigger();
    QVERIFY2(window_->document()->isVolume(), qPrintable(window_->lastNotice()));
    const VolumeSize size{16, 16, 5};
    QCOMPARE(window_->luma()->width, size.width);
    QCOMPARE(window_->luma()->depth, size.depth);
    verifyThreeViewsOf(size);
    const QString title = window_->windowTitle();
    QVERIFY2(title.contains(QStringLiteral("16 x 16 x 5 voxels")), qPrintable(title));
    QVERIFY2(title.contains(QStringLiteral("value shift 32768")), qPrintable(title));
    QVERIFY(window_->seeds().empty());
    QVERIFY(window_->logPanel()->toPlainText().contains(QStringLiteral("click on a slice to add seeds")));
    QTest::qWait(200);
    QCOMPARE(finished.count(), 0);
}

// Each view names the patient's side at its edges where the file gives an
// orientation, and names none where it does not (the voxel order then).
void VolumeViewTest::theViewsNameThePatientsSidesAtTheirEdges()
{
    openBall(); // no orientation
    for (Plane plane : allPlanes)
        QVERIFY2(view(plane)->edgeLetters().isEmpty(), qPrintable(planeName(plane)));
    // As a DICOM series in LPS: x towards the patient's left, y towards the
    // back, z up (RAS: -x, -y, +z), with 0.5 x 0.5 x 2 mm voxels.
    auto oriented = ballVolume();
    oriented->volume.hasOrientation = true;
    oriented->volume.toWorld = {-0.5, 0, 0, 10, 0, -0.5, 0, 20, 0, 0, 2, -30, 0, 0, 0, 1};
    QVERIFY(window_->openVolume(QStringLiteral("oriented"), oriented));
    const auto letters = [this](Plane plane) {
        const EdgeLetters edges = view(plane)->edgeLetters();
        return QStringList({edges.left, edges.right, edges.top, edges.bottom}).join(QLatin1Char(' '));
    };
    QCOMPARE(letters(Plane::Axial), QStringLiteral("R L A P"));    // as radiologists read a CT
    QCOMPARE(letters(Plane::Coronal), QStringLiteral("R L S I"));
    QCOMPARE(letters(Plane::Sagittal), QStringLiteral("A P S I"));
    // A DICOM series is stored as radiologists read it: shown as it is stored.
    for (Plane plane : allPlanes)
        QVERIFY2(window_->volumeView()->axes(plane) == voxelOrderAxes(plane), qPrintable(planeName(plane)));
    // One voxel axis for each direction, the nearest first: x leans to the
    // front, but y points there straight, so x shows the sides.
    oriented = ballVolume();
    oriented->volume.hasOrientation = true;
    oriented->volume.toWorld = {0.2, 0, 0, 0, 0.45, 0.5, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1};
    QVERIFY(window_->openVolume(QStringLiteral("oblique"), oriented));
    QCOMPARE(letters(Plane::Axial), QStringLiteral("R L A P"));
    QCOMPARE(window_->volumeView()->axes(Plane::Axial).across, 0);
}

// On each view's 1:1 picture, a cell border exactly where two neighbouring
// pixels' voxels lie in different cells of `grid`, but between slices (a
// pixel each here: no lines there) and on the plane of y and z, where the
// tiles' rows end at another y in each slice (segments a pixel long).
void VolumeViewTest::verifyCellBordersWhereTheGridSays(const WorkGroupGrid& grid) const
{
    VolumeView* volume = window_->volumeView();
    for (Plane plane : allPlanes) {
        const QImage picture = volume->slicePicture(plane);
        const SliceAxes& axes = volume->axes(plane);
        const auto cell = [&](int u, int v) {
            const Seed voxel = volume->voxelAt(plane, QPoint(u, v));
            return grid.cellOf(voxel.x, voxel.y, voxel.z);
        };
        // Bricks lie in the voxels' own rows and slices: borders every way.
        const bool bricks = grid.cellDepth > 0;
        const bool holdsX = bricks || axes.across == 0 || axes.down == 0;
        const bool linesAcross = holdsX && (bricks || axes.across != 2);
        const bool linesDown = holdsX && (bricks || axes.down != 2);
        int borders = 0;
        for (int v = 0; v < picture.height(); ++v)
            for (int u = 0; u < picture.width(); ++u) {
                const bool border = (u > 0 && linesAcross && cell(u - 1, v) != cell(u, v)) ||
                                    (v > 0 && linesDown && cell(u, v - 1) != cell(u, v));
                borders += border ? 1 : 0;
                QVERIFY2((picture.pixel(u, v) == cellBorder) == border,
                         qPrintable(QStringLiteral("%1 pixel %2,%3: border %4").arg(planeName(plane)).arg(u).arg(v).arg(border)));
            }
        QVERIFY2(holdsX == (borders > 0), qPrintable(planeName(plane)));
    }
}

bool VolumeViewTest::runBallWithVariant(const char* variant, std::shared_ptr<LumaImage> ball)
{
    if (ball) {
        volume_ = std::move(ball);
        if (!window_->openVolume(QStringLiteral("oriented"), volume_))
            return false;
    } else {
        openBall();
    }
    if (!window_->setVariantText(QString::fromLatin1(variant)))
        return false;
    window_->document()->addSeed(ballCentre);
    if (!QTest::qWaitFor([&] { return !window_->isRunning(); }, 120000)) // the edit's live run first
        return false;
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    QSignalSpy failed(window_.get(), &MainWindow::runFailed);
    window_->runNow();
    return QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, 120000) && failed.isEmpty();
}

// Issue 29, item 2, on a volume: the sweep's tiles lie over the slices
// stacked (voxel x, y, z is row z * 20 + y of the image the kernels see), so
// a slice view shows a tile border wherever two neighbouring voxels of its
// slice lie in different tiles: on the axial slice along x and at the rows
// where the stacked row is a multiple of the tile height, on the sagittal
// slice at another y in each slice (seen on the view itself, where a slice
// is 2 mm tall). The 1:1 pictures show a slice as one pixel, and each slice
// of a column is another tile row: no lines a slice long there (they would
// only hatch the picture).
void VolumeViewTest::theWorkGroupMapOfAWrongOnPurposeSweepLiesOnEachSliceWhereTheGridSays()
{
    QVERIFY2(runBallWithVariant("driver=host-batched,frontier=sweep,collectives=atomics,tile=async-nobarrier"),
             qPrintable(window_->lastNotice()));
    WorkGroupMap* map = window_->workGroupMap();
    QVERIFY(!map->isOn());
    VolumeView* volume = window_->volumeView();
    const Seed at{5, 13, 3};
    volume->setCrosshair(at);
    for (Plane plane : allPlanes)
        QCOMPARE(cellBorderPixels(volume->slicePicture(plane)), 0);

    window_->setCorruptionView(true);
    const std::optional<WorkGroupGrid> grid = map->shownGrid(true);
    QVERIFY(grid);
    QCOMPARE(QString::fromStdString(grid->kernel), QStringLiteral("grow_sweep"));
    QVERIFY(grid->wrongOnPurpose);
    QCOMPARE(grid->sliceHeight, height);
    // PoCL's sweep tiles are 16 x 16 (grow::levelKernels).
    QCOMPARE(grid->cellWidth, 16);
    QCOMPARE(grid->cellHeight, 16);
    verifyCellBordersWhereTheGridSays(*grid);
    if (QTest::currentTestFailed())
        return;
    // The same, spelt out: axial slice 3 is rows 60..79, its tile border at
    // y 4 (row 64); the sagittal view's slice z is at y 16 - 20 z mod 16.
    const VolumeSize size{width, height, depth};
    const QImage axial = volume->slicePicture(Plane::Axial);
    QCOMPARE(axial.pixel(10, 4), cellBorder);
    QCOMPARE(axial.pixel(16, 10), cellBorder);
    QVERIFY(axial.pixel(10, 5) != cellBorder);
    // The sagittal view on screen, a slice 2 mm tall and a row 0.5 mm: the
    // tiles' rows end at y 16 in slice 0, 12 in slice 1, 8 in slice 2, 12 in
    // slice 5 (rows 16, 32, 48, 112), between two voxels' centres.
    SliceView* sagittal = view(Plane::Sagittal);
    QVERIFY(sagittal->zoom() * sagittal->pixelAspect() >= 8);
    const QImage screen = sagittal->grab().toImage();
    const auto bordersBetween = [&](int z, int first, int last) {
        const QPoint left = slicePixel(Plane::Sagittal, Seed{at.x, first, z}, size);
        const QPoint right = slicePixel(Plane::Sagittal, Seed{at.x, last, z}, size);
        const QPointF from = sagittal->pixelCentre(left.x(), left.y()), to = sagittal->pixelCentre(right.x(), right.y());
        int count = 0;
        // The picture is drawn at a whole pixel: from the pixel after one
        // centre to the pixel of the next.
        for (int x = int(from.x()) + 1; x <= int(to.x()); ++x)
            count += screen.pixel(x, int(from.y())) == cellBorder ? 1 : 0;
        return count;
    };
    for (const auto& [z, y] : {std::pair{0, 16}, std::pair{1, 12}, std::pair{2, 8}, std::pair{5, 12}}) {
        QVERIFY2(bordersBetween(z, y - 1, y) == 1, qPrintable(QStringLiteral("slice %1 at y %2").arg(z).arg(y)));
        QVERIFY2(bordersBetween(z, y, y + 3) == 0, qPrintable(QStringLiteral("slice %1 after y %2").arg(z).arg(y)));
    }
    const QImage coronal = volume->slicePicture(Plane::Coronal);
    QCOMPARE(coronal.pixel(slicePixel(Plane::Coronal, Seed{16, at.y, 7}, size)), cellBorder);
    QVERIFY(coronal.pixel(slicePixel(Plane::Coronal, Seed{15, at.y, 7}, size)) != cellBorder);

    // The voxel under the cursor: its tile (rows 16..31: the last 4 rows of
    // slice 0, the first 12 of slice 1) and what its work-group copies,
    // outlined on the slices they cut, and named in the status bar.
    volume->setCrosshair(Seed{17, 2, 1});
    const QImage before = volume->slicePicture(Plane::Axial);
    map->setHoverVoxel(Seed{17, 2, 1}, true);
    QCOMPARE(map->hoverText(true), QStringLiteral("tile (1,1) of grow_sweep holds x 16..23, y 16..19, z 0 + x 16..23, "
                                                  "y 0..11, z 1; reads x 15..23, y 15..19, z 0 + x 15..23, y 0..12, z 1"));
    QVERIFY(volume->slicePicture(Plane::Axial) != before);
}

void VolumeViewTest::theWorkGroupMapOfACorrectVariantOnAVolumeIsDrawnOnlyWhenTurnedOn()
{
    QVERIFY2(runBallWithVariant("driver=host-batched,frontier=sweep,collectives=atomics,tile=async"),
             qPrintable(window_->lastNotice()));
    window_->setCorruptionView(true);
    WorkGroupMap* map = window_->workGroupMap();
    QVERIFY(!map->shownGrid(true));
    VolumeView* volume = window_->volumeView();
    std::vector<QImage> off;
    for (Plane plane : allPlanes) {
        off.push_back(volume->slicePicture(plane));
        QCOMPARE(cellBorderPixels(off.back()), 0);
    }
    QAction* action = window_->findChild<QAction*>(QStringLiteral("workGroupMapAction"));
    QVERIFY(action && action->isEnabled());
    action->trigger();
    QVERIFY(map->shownGrid(true));
    // At 1:1 a slice is a pixel: the sagittal plane's tile borders, a
    // slice long, are left out there (see verifyCellBordersWhereTheGridSays).
    for (Plane plane : {Plane::Axial, Plane::Coronal})
        QVERIFY2(cellBorderPixels(volume->slicePicture(plane)) > 0, qPrintable(planeName(plane)));
    QCOMPARE(volume->slicePicture(Plane::Axial).pixel(16, 3), cellBorder);
    action->trigger();
    for (Plane plane : allPlanes)
        QVERIFY2(volume->slicePicture(plane) == off[size_t(plane)], qPrintable(planeName(plane)));
}

// The views of an oriented volume permute and flip the voxel axes
// (orientedBall: x runs up, y to the left, z to the front); the cells lie
// at their voxels all the same, in both conventions.
void VolumeViewTest::theWorkGroupMapFollowsAnOrientedVolumesAxesOnEachView()
{
    QVERIFY2(runBallWithVariant("driver=host-batched,frontier=sweep,collectives=atomics,tile=async-nobarrier",
                                orientedBall()),
             qPrintable(window_->lastNotice()));
    window_->setCorruptionView(true);
    const std::optional<WorkGroupGrid> grid = window_->workGroupMap()->shownGrid(true);
    QVERIFY(grid);
    VolumeView* volume = window_->volumeView();
    QVERIFY(!(volume->axes(Plane::Axial) == voxelOrderAxes(Plane::Axial)));
    volume->setCrosshair(Seed{9, 13, 5});
    verifyCellBordersWhereTheGridSays(*grid);
    if (QTest::currentTestFailed())
        return;
    volume->setConvention(DisplayConvention::Neurological);
    verifyCellBordersWhereTheGridSays(*grid);
}

// fusion=tiles on a volume of one region: bricks of 8 x 8 x 8 voxels, a
// correct variant, drawn when the map is turned on, on every plane.
void VolumeViewTest::aVolumesBricksAreDrawnAsCellsOfEightCubedVoxels()
{
    // Mode range grows in bricks (competitive with one seed takes the
    // distances from it).
    auto* mode = window_->findChild<QComboBox*>(QStringLiteral("modeCombo"));
    mode->setCurrentIndex(mode->findData(int(Mode::Range)));
    window_->findChild<QSpinBox*>(QStringLiteral("lowerSpin"))->setValue(200);
    window_->findChild<QSpinBox*>(QStringLiteral("upperSpin"))->setValue(200);
    QVERIFY2(runBallWithVariant("fusion=tiles"), qPrintable(window_->lastNotice()));
    window_->findChild<QAction*>(QStringLiteral("workGroupMapAction"))->trigger();
    const std::optional<WorkGroupGrid> grid = window_->workGroupMap()->shownGrid(false);
    QVERIFY(grid);
    QCOMPARE(QString::fromStdString(grid->kernel), QStringLiteral("grow_bricks"));
    QCOMPARE(grid->cellDepth, 8);
    window_->volumeView()->setCrosshair(Seed{5, 13, 3});
    verifyCellBordersWhereTheGridSays(*grid);
    const QImage coronal = window_->volumeView()->slicePicture(Plane::Coronal);
    const VolumeSize size{width, height, depth};
    // Slices 7 and 8 lie in two bricks, 6 and 7 in one.
    const QPoint seven = slicePixel(Plane::Coronal, Seed{3, 13, 7}, size), eight = slicePixel(Plane::Coronal, Seed{3, 13, 8}, size);
    QVERIFY(coronal.pixel(seven) == cellBorder || coronal.pixel(eight) == cellBorder);
    QVERIFY(coronal.pixel(slicePixel(Plane::Coronal, Seed{3, 13, 5}, size)) != cellBorder);
}

void VolumeViewTest::theNeurologicalConventionStaysForTheNextSession()
{
    // As the program starts: with settings (this test's own application name).
    QSettings().clear();
    MainWindowOptions options;
    {
        MainWindow first(options);
        QVERIFY(QTest::qWaitFor([&] { return first.devicesReady(); }, 60000));
        QCOMPARE(first.volumeView()->convention(), DisplayConvention::Radiological);
        first.volumeView()->neurologicalAction()->trigger();
        QCOMPARE(first.volumeView()->convention(), DisplayConvention::Neurological);
        QVERIFY(first.close());
    }
    {
        MainWindow second(options);
        QVERIFY(QTest::qWaitFor([&] { return second.devicesReady(); }, 60000));
        QCOMPARE(second.volumeView()->convention(), DisplayConvention::Neurological);
        QVERIFY(second.volumeView()->neurologicalAction()->isChecked());
        second.volumeView()->neurologicalAction()->trigger();
        QVERIFY(second.close());
    }
    MainWindow third(options);
    QVERIFY(QTest::qWaitFor([&] { return third.devicesReady(); }, 60000));
    QCOMPARE(third.volumeView()->convention(), DisplayConvention::Radiological);
    QSettings().clear();
}

QTEST_MAIN(VolumeViewTest)
#include "VolumeViewTest.moc"
