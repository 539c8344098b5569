// Help > Lessons (issue 29, item 5), in the real window offscreen: each
// tour is started from its menu action and stepped with the card's Next
// button, and each step is held to what its text promises (the sample open,
// the variant set and run, the layer on, the runs kept, the panel raised).
// Runs go to PoCL, or to the listed device that has what a lesson needs.
#include "DevicePanel.h"
#include "LabPanel.h"
#include "LessonTour.h"
#include "LessonTours.h"
#include "MainWindow.h"
#include "ParametersPanel.h"
#include "PlaybackPanel.h"
#include "RaceList.h"
#include "ResidencyLabPanel.h"
#include "TimingPanel.h"
#include "TourCard.h"
#include "WorkGroupMap.h"
#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <algorithm>
#include <memory>

using namespace rgx;
using namespace rgx::ui;

namespace {

DeviceInfo fakeDevice(int platform, const char* platformName, bool collectives, bool enqueue)
{
    DeviceInfo device;
    device.platformIndex = platform;
    device.platformName = platformName;
    device.name = "CPU";
    device.type = "CPU";
    device.workGroupCollectives = collectives;
    device.deviceEnqueue = enqueue;
    return device;
}

} // namespace

class LessonToursTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void helpLessonsHasOneActionPerSeedLesson();
    void aLessonTakesTheListedDeviceThatHasWhatItNeedsOrSaysWhatThisOneCannot();
    void theAsyncCopiesTourShowsTheDamageItsPlaceAndTheRace();
    void theCollectivesTourKeepsTwoRunsAndComparesThem();
    void theDeviceEnqueueTourComparesTheLoopsOnADeviceThatHasIt();
    void theVload8TourListsTheDensityKernelsOfEachRun();
    void theResidencyTourRunsTheLabInItsTab();
    void backShowsTheStepBeforeWithoutKeepingAgainAndCloseHidesTheCard();

private:
    // Starts the lesson from its Help > Lessons action and waits for its first step.
    bool startLesson(const char* id);
    // Clicks Next and waits for the step after.
    bool nextStep();
    bool waitForStep(QSignalSpy& ready, int step);
    QString cardText() const;
    QString variantText() const { return QString::fromStdString(window_->devicePanel()->variant().text()); }
    QString shownVariant() const { return QString::fromStdString(window_->runs()->resultRequest().variant.text()); }
    bool dockRaised(const char* name) const;
    bool anyDevice(bool (*has)(const DeviceInfo&)) const;

    std::unique_ptr<MainWindow> window_;
};

void LessonToursTest::initTestCase() { QCoreApplication::setOrganizationName(QStringLiteral("RGX-tests")); }

void LessonToursTest::init()
{
    QCoreApplication::setApplicationName(
        QStringLiteral("rgx-gui-lesson-tests-%1").arg(QLatin1String(QTest::currentTestFunction())));
    MainWindowOptions options;
    options.restoreSettings = false;
    options.cliPath = QStringLiteral(RGX_CLI_PATH);
    window_ = std::make_unique<MainWindow>(options);
    window_->resize(1500, 950);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    QVERIFY2(QTest::qWaitFor([&] { return window_->devicesReady(); }, 60000), qPrintable(window_->lastNotice()));
    QVERIFY2(window_->devicePanel()->currentDevice()->isPocl(), "the tests start on PoCL");
}

void LessonToursTest::cleanup() { window_.reset(); }

bool LessonToursTest::waitForStep(QSignalSpy& ready, int step)
{
    // A race check under Oclgrind, a lab or a run on a busy 2-core machine: minutes at worst.
    if (!QTest::qWaitFor([&] { return !ready.isEmpty(); }, 240000)) {
        qWarning("step %d not ready; the card says: %s", step + 1, qPrintable(cardText()));
        return false;
    }
    const int got = ready.takeFirst().at(0).toInt();
    if (got != step || window_->lessonTour()->isBusy()) {
        qWarning("expected step %d ready, got %d", step + 1, got + 1);
        return false;
    }
    return true;
}

bool LessonToursTest::startLesson(const char* id)
{
    QSignalSpy ready(window_->lessonTour(), &LessonTour::stepReady);
    auto* action = window_->findChild<QAction*>(QStringLiteral("lessonAction_") + QLatin1String(id));
    if (!action)
        return false;
    action->trigger();
    return waitForStep(ready, 0);
}

bool LessonToursTest::nextStep()
{
    const int step = window_->lessonTour()->step() + 1;
    QSignalSpy ready(window_->lessonTour(), &LessonTour::stepReady);
    auto* next = window_->tourCard()->findChild<QPushButton*>(QStringLiteral("tourNextButton"));
    if (!next->isEnabled())
        return false;
    QTest::mouseClick(next, Qt::LeftButton);
    return waitForStep(ready, step);
}

QString LessonToursTest::cardText() const
{
    TourCard* card = window_->tourCard();
    return card->stepText() + QLatin1Char('\n') + card->deviceText() + QLatin1Char('\n') + card->statusText();
}

// A dock is raised when it is shown and, where it is one of several tabs,
// its tab is the current one (the window's tab bars name their docks).
bool LessonToursTest::dockRaised(const char* name) const
{
    auto* dock = window_->findChild<QDockWidget*>(QLatin1String(name));
    if (!dock || !dock->isVisible())
        return false;
    for (QTabBar* tabs : window_->findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
        if (!tabs->isVisible())
            continue;
        for (int index = 0; index < tabs->count(); ++index)
            if (tabs->tabText(index) == dock->windowTitle())
                return tabs->currentIndex() == index;
    }
    return true;
}

bool LessonToursTest::anyDevice(bool (*has)(const DeviceInfo&)) const
{
    const auto& devices = window_->devicePanel()->devices();
    return std::any_of(devices.begin(), devices.end(), has);
}

void LessonToursTest::helpLessonsHasOneActionPerSeedLesson()
{
    auto* menu = window_->findChild<QMenu*>(QStringLiteral("lessonsMenu"));
    QVERIFY(menu);
    QStringList titles;
    for (QAction* action : menu->actions())
        titles << action->text();
    QCOMPARE(titles, QStringList({QStringLiteral("Missing Barrier between Async Copies"),
                                  QStringLiteral("Work-group Collectives against Atomics"),
                                  QStringLiteral("Device-side Enqueue against Host Loops"),
                                  QStringLiteral("vload8 and Register Pressure"),
                                  QStringLiteral("Grid Barrier Residency")}));
    for (const Lesson& lesson : seedLessons()) {
        QVERIFY2(lesson.steps.size() >= 3 && lesson.steps.size() <= 5, qPrintable(lesson.id));
        QVERIFY2(lesson.steps.front().run, qPrintable(lesson.id)); // the first step opens the sample and runs
    }
}

void LessonToursTest::aLessonTakesTheListedDeviceThatHasWhatItNeedsOrSaysWhatThisOneCannot()
{
    const Lesson& enqueue = *findLesson(QStringLiteral("device-enqueue"));
    const std::vector<DeviceInfo> poclOnly = {fakeDevice(0, "Portable Computing Language", false, false)};
    LessonDeviceChoice choice = chooseLessonDevice(enqueue, poclOnly, "0:0");
    QCOMPARE(choice.deviceId, std::string("0:0"));
    QVERIFY(!choice.hasFeature);
    QVERIFY2(choice.note.startsWith(QStringLiteral("No device here has device-side enqueue")), qPrintable(choice.note));
    QVERIFY2(choice.note.contains(QStringLiteral("cannot run here")), qPrintable(choice.note));

    const std::vector<DeviceInfo> withIntel = {poclOnly[0], fakeDevice(1, "Intel(R) OpenCL", true, true)};
    choice = chooseLessonDevice(enqueue, withIntel, "0:0");
    QCOMPARE(choice.deviceId, std::string("1:0"));
    QVERIFY(choice.hasFeature);
    QVERIFY2(choice.note.startsWith(QStringLiteral("Switched to CPU (Intel(R) OpenCL)")), qPrintable(choice.note));
    // Already on a device that has it: it stays.
    QCOMPARE(chooseLessonDevice(enqueue, withIntel, "1:0").deviceId, std::string("1:0"));
    // The async copies' damage shows on PoCL: a tour started on Intel goes back there.
    QCOMPARE(chooseLessonDevice(*findLesson(QStringLiteral("async-copies")), withIntel, "1:0").deviceId,
             std::string("0:0"));
    // Registers come from NVIDIA only: on CPUs the tour says what the Kernels tab lacks.
    choice = chooseLessonDevice(*findLesson(QStringLiteral("vload8")), withIntel, "0:0");
    QVERIFY(!choice.hasFeature);
    QVERIFY2(choice.note.contains(QStringLiteral("does not report registers")), qPrintable(choice.note));
}

void LessonToursTest::theAsyncCopiesTourShowsTheDamageItsPlaceAndTheRace()
{
    QVERIFY(startLesson("async-copies"));
    QVERIFY(window_->devicePanel()->currentDevice()->isPocl());
    QVERIFY(window_->lessonTour()->deviceHasFeature());
    QVERIFY(dockRaised("lessonDock"));
    QVERIFY2(window_->imagePath().endsWith(QStringLiteral("coins.png")), qPrintable(window_->imagePath()));
    QCOMPARE(window_->seeds().size(), size_t(25));
    QCOMPARE(shownVariant(), QStringLiteral("driver=host-batched,frontier=sweep,collectives=atomics,tile=async"));
    QVERIFY(window_->viewState()->corruptionView());
    QVERIFY(window_->diff());
    QCOMPARE(window_->diff()->differingPixels, uint64_t(0));
    QCOMPARE(window_->timingPanel()->currentChart(), TimingPanel::PerIteration);
    QVERIFY(dockRaised("timingsDock"));
    QVERIFY(!dockRaised("logDock")); // a tab behind the timings
    QVERIFY2(cardText().contains(QStringLiteral("0 pixels differ from the CPU reference")), qPrintable(cardText()));

    // The barrier removed: pixels differ, playback stands on the first differing iteration.
    QVERIFY(nextStep());
    QVERIFY(shownVariant().endsWith(QStringLiteral("tile=async-nobarrier")));
    QVERIFY(window_->diff());
    QVERIFY(window_->diff()->differingPixels > 0);
    const int64_t first = window_->diff()->firstDifferingIteration;
    QVERIFY(first > 0);
    QCOMPARE(int64_t(window_->playbackPanel()->frame()), first);
    QCOMPARE(window_->timingPanel()->playbackIteration(), int(first));
    QVERIFY2(cardText().contains(QStringLiteral("first at iteration %1").arg(first)), qPrintable(cardText()));

    // Where: the map of the sweep's tiles, turned on, at iteration 40.
    QVERIFY(!window_->workGroupMap()->action()->isChecked());
    QVERIFY(nextStep());
    QVERIFY(window_->workGroupMap()->action()->isChecked());
    const auto grid = window_->workGroupMap()->shownGrid(true);
    QVERIFY(grid && grid->kernel == "grow_sweep" && grid->byPlace && grid->wrongOnPurpose);
    QCOMPARE(window_->playbackPanel()->frame(), 40u);
    QVERIFY(dockRaised("racesDock"));

    // Why: the race check's markers.
    QVERIFY(nextStep());
    QVERIFY2(window_->lastRaceReport().contains(QStringLiteral("race: grow_sweep")), qPrintable(window_->lastRaceReport()));
    QVERIFY(!window_->raceList()->markers().empty());
    QVERIFY2(cardText().contains(QStringLiteral("Race check: %1 marker(s)").arg(window_->raceList()->markers().size())),
             qPrintable(cardText()));

    // The box mean's copies: its row segments, the sweep's markers gone.
    QVERIFY(nextStep());
    QCOMPARE(QString::fromStdString(prefilterText(window_->runs()->resultRequest().params.prefilter)),
             QStringLiteral("boxmean:5:async-nobarrier"));
    QCOMPARE(shownVariant(), QStringLiteral("driver=host-batched,frontier=sweep,collectives=atomics,tile=async"));
    QVERIFY(window_->raceList()->markers().empty());
    QVERIFY(window_->diff() && window_->diff()->differingPixels > 0);
    const auto& grids = window_->workGroupMap()->grids();
    QVERIFY(std::any_of(grids.begin(), grids.end(), [](const WorkGroupGrid& g) { return g.kernel == "box_mean_async"; }));
    auto* next = window_->tourCard()->findChild<QPushButton*>(QStringLiteral("tourNextButton"));
    QVERIFY(!next->isEnabled()); // the last step
}

void LessonToursTest::theCollectivesTourKeepsTwoRunsAndComparesThem()
{
    QVERIFY(startLesson("collectives"));
    const bool collectives = anyDevice([](const DeviceInfo& d) { return d.workGroupCollectives; });
    QCOMPARE(window_->devicePanel()->currentDevice()->workGroupCollectives, collectives);
    QVERIFY(window_->imagePath().endsWith(QStringLiteral("astronaut.png")));
    QCOMPARE(shownVariant(), QStringLiteral("driver=host-batched,frontier=queue,collectives=atomics"));
    QCOMPARE(window_->timingPanel()->currentChart(), TimingPanel::PerKernel);
    QCOMPARE(window_->timingPanel()->keptRunCount(), 0);

    QVERIFY(nextStep());
    QCOMPARE(window_->timingPanel()->keptRunCount(), 1);
    QCOMPARE(shownVariant(), QStringLiteral("driver=host-batched,frontier=queue,collectives=local"));
    QCOMPARE(window_->timingPanel()->shownRuns().size(), size_t(2));

    QVERIFY(nextStep());
    QCOMPARE(window_->timingPanel()->keptRunCount(), 2);
    QVERIFY2(cardText().contains(QStringLiteral("2 runs kept for comparison")), qPrintable(cardText()));
    if (collectives) {
        QCOMPARE(shownVariant(), QStringLiteral("driver=host-batched,frontier=queue,collectives=builtin"));
        QCOMPARE(window_->timingPanel()->shownRuns().size(), size_t(3));
    } else {
        QVERIFY2(cardText().contains(QStringLiteral("This device cannot run")), qPrintable(cardText()));
    }

    QVERIFY(nextStep());
    QVERIFY(shownVariant().endsWith(QStringLiteral("collectives=local-nobarrier")));
    QVERIFY(window_->viewState()->corruptionView());
    QVERIFY(window_->diff() && window_->diff()->differingPixels > 0);
}

void LessonToursTest::theDeviceEnqueueTourComparesTheLoopsOnADeviceThatHasIt()
{
    QVERIFY(startLesson("device-enqueue"));
    const bool enqueue = anyDevice([](const DeviceInfo& d) { return d.deviceEnqueue; });
    QCOMPARE(window_->devicePanel()->currentDevice()->deviceEnqueue, enqueue);
    QCOMPARE(window_->lessonTour()->deviceHasFeature(), enqueue);
    QVERIFY2(window_->tourCard()->deviceText().contains(QStringLiteral("device-side enqueue")), qPrintable(cardText()));
    QCOMPARE(shownVariant(), QStringLiteral("driver=host-sync,frontier=queue,collectives=atomics"));
    QCOMPARE(window_->timingPanel()->currentChart(), TimingPanel::Timeline);

    QVERIFY(nextStep());
    QCOMPARE(shownVariant(), QStringLiteral("driver=host-batched,frontier=queue,collectives=atomics"));
    QCOMPARE(window_->timingPanel()->keptRunCount(), 1);

    QVERIFY(nextStep());
    QCOMPARE(window_->timingPanel()->keptRunCount(), 2);
    if (enqueue)
        QCOMPARE(shownVariant(), QStringLiteral("driver=device-enqueue,frontier=queue,collectives=atomics"));
    else
        QVERIFY2(cardText().contains(QStringLiteral("This device cannot run")), qPrintable(cardText()));

    // The binary-search lab, on its tab, with the device's own enqueue where there is one.
    QVERIFY(nextStep());
    QVERIFY(dockRaised("labDock"));
    auto* tabs = window_->labPanel()->findChild<QTabWidget*>(QStringLiteral("labTabs"));
    QCOMPARE(tabs->currentIndex(), 0);
    QVERIFY2(window_->labPanel()->resultText().contains(QStringLiteral("rounds")), qPrintable(window_->labPanel()->resultText()));
    QCOMPARE(cardText().contains(QStringLiteral("cannot run the lab with driver=device-enqueue")), !enqueue);
}

void LessonToursTest::theVload8TourListsTheDensityKernelsOfEachRun()
{
    QVERIFY(startLesson("vload8"));
    const bool nvidia = window_->devicePanel()->currentDevice()->isNvidia();
    QCOMPARE(window_->lessonTour()->deviceHasFeature(), nvidia);
    if (!nvidia)
        QVERIFY2(window_->tourCard()->deviceText().contains(QStringLiteral("does not report registers")),
                 qPrintable(cardText()));
    QCOMPARE(QString::fromStdString(postfilterText(window_->runs()->resultRequest().params.postfilter)),
             QStringLiteral("density:5:10:vload8-expr"));
    QTableWidget* table = window_->timingPanel()->kernelTable();
    QVERIFY(table->isVisible());
    auto densityRows = [table] {
        QStringList runs;
        for (int row = 0; row < table->rowCount(); ++row)
            if (table->item(row, 2)->text().startsWith(QLatin1String("density_")))
                runs << table->item(row, 0)->text() + QLatin1Char(' ') + table->item(row, 7)->text();
        return runs;
    };
    QCOMPARE(densityRows().size(), 3); // expr, serial and scalar: one program

    QVERIFY(nextStep());
    QCOMPARE(QString::fromStdString(postfilterText(window_->runs()->resultRequest().params.postfilter)),
             QStringLiteral("density:5:10:vload8-serial"));
    QCOMPARE(window_->timingPanel()->keptRunCount(), 1);
    QVERIFY(table->isVisible());
    const QStringList rows = densityRows();
    QCOMPARE(rows.size(), 6); // the kept run's and this one's
    QVERIFY2(rows[0].section(QLatin1Char(' '), 0, 0) != rows[5].section(QLatin1Char(' '), 0, 0),
             qPrintable(rows.join(QLatin1Char('|'))));
    if (!nvidia)
        for (const QString& row : rows)
            QVERIFY2(row.endsWith(QStringLiteral("–")), qPrintable(row)); // registers not reported

    QVERIFY(nextStep());
    QCOMPARE(QString::fromStdString(postfilterText(window_->runs()->resultRequest().params.postfilter)),
             QStringLiteral("density:5:10:scalar"));
    QCOMPARE(window_->timingPanel()->keptRunCount(), 2);
    QCOMPARE(window_->timingPanel()->currentChart(), TimingPanel::PerKernel);
    QVERIFY(!table->isVisible());
}

void LessonToursTest::theResidencyTourRunsTheLabInItsTab()
{
    QVERIFY(startLesson("residency"));
    QCOMPARE(shownVariant(), QStringLiteral("driver=host-batched,frontier=queue,collectives=local"));
    QVERIFY(nextStep());
    QVERIFY(shownVariant().endsWith(QStringLiteral("fusion=grid-barrier")));
    QCOMPARE(window_->timingPanel()->keptRunCount(), 1);
    QCOMPARE(window_->timingPanel()->currentChart(), TimingPanel::Timeline);

    ResidencyOptions smaller; // the corridor runs stay short on a loaded machine
    smaller.corridorSize = 32;
    window_->labPanel()->residencyLab()->setOptions(smaller);
    QVERIFY(nextStep());
    QVERIFY(dockRaised("labDock"));
    auto* tabs = window_->labPanel()->findChild<QTabWidget*>(QStringLiteral("labTabs"));
    QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(window_->labPanel()->residencyLab()));
    const auto result = window_->labPanel()->residencyLab()->lastResult();
    QVERIFY2(result, qPrintable(cardText()));
    QVERIFY(result->residentGroups >= 1);
    QVERIFY2(cardText().contains(QStringLiteral("resident")), qPrintable(cardText()));
}

void LessonToursTest::backShowsTheStepBeforeWithoutKeepingAgainAndCloseHidesTheCard()
{
    QVERIFY(startLesson("residency"));
    QVERIFY(nextStep());
    QCOMPARE(window_->timingPanel()->keptRunCount(), 1);
    QSignalSpy ready(window_->lessonTour(), &LessonTour::stepReady);
    QTest::mouseClick(window_->tourCard()->findChild<QPushButton*>(QStringLiteral("tourBackButton")), Qt::LeftButton);
    QVERIFY(waitForStep(ready, 0));
    QCOMPARE(shownVariant(), QStringLiteral("driver=host-batched,frontier=queue,collectives=local"));
    QCOMPARE(window_->timingPanel()->keptRunCount(), 1);
    QVERIFY(window_->tourCard()->stepText().contains(QStringLiteral("Step 1 of 3")));

    QTest::mouseClick(window_->tourCard()->findChild<QPushButton*>(QStringLiteral("tourCloseButton")), Qt::LeftButton);
    QVERIFY(!window_->findChild<QDockWidget*>(QStringLiteral("lessonDock"))->isVisible());
    QVERIFY(!window_->lessonTour()->lesson());
}

QTEST_MAIN(LessonToursTest)
#include "LessonToursTest.moc"
