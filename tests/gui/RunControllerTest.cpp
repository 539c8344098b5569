// Tests of RunController on its own: requests go to a real engine thread and
// run on the default device (PoCL); the panels it reads are bare widgets, no
// main window.
#include "DevicePanel.h"
#include "Document.h"
#include "GuiTestSupport.h"
#include "LabPanel.h"
#include "LogPanel.h"
#include "Notices.h"
#include "ParametersPanel.h"
#include "RunController.h"
#include "TimingPanel.h"
#include "Variant.h"
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <memory>
#include <utility>

using namespace rgx;
using namespace rgx::ui;
using namespace rgx::ui::testing;

// RGX_CACHE_DIR pointed at an empty folder while it lives: programs not
// built in this process are compiled from source.
class FreshKernelCache {
public:
    FreshKernelCache() : old_(qgetenv("RGX_CACHE_DIR")) { qputenv("RGX_CACHE_DIR", folder_.path().toLocal8Bit()); }
    ~FreshKernelCache()
    {
        if (old_.isNull())
            qunsetenv("RGX_CACHE_DIR");
        else
            qputenv("RGX_CACHE_DIR", old_);
    }
    FreshKernelCache(const FreshKernelCache&) = delete;
    FreshKernelCache& operator=(const FreshKernelCache&) = delete;
    bool isValid() const { return folder_.isValid(); }

private:
    QTemporaryDir folder_;
    QByteArray old_;
};

class RunControllerTest : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void devicesAreListedOnTheEngineThread();
    void aRunNeedsAnImageAndSeeds();
    void aRunAskedBeforeTheDeviceListStartsWhenItComes();
    void aRunGivesItsResultBeforeRunFinished();
    void aFirstRunSaysItBuildsItsKernelsAndALaterRunLoadsThem();
    void theKernelsAreBuiltAheadSoThatTheFirstRunWaitsForNone();
    void aNewerRequestSupersedesTheOneInFlight();
    void cancelStopsALongRun();
    void aCancelDuringABuildSaysTheRunStopsOnceItIsBuilt();
    void theCorruptionViewAsksForTheCpuReference();
    void aKeptRunIsKeptOnce();
    void resetDropsTheResult();
    void aSeedEditRunsAtOnceWhenLive();
    void aLiveChoiceByHandHolds();
    void engineMemoryTheGuiLetsGoOfIsReleasedByTheEngineThread();

private:
    void openImage(const QImage& image, const std::vector<Seed>& seeds);
    void makeController();
    bool listDevices();
    // Runs and waits for runFinished (true) or runFailed (false).
    bool runAndWait(int milliseconds = 120000);

    std::unique_ptr<QWidget> window_;
    LogPanel* log_ = nullptr;
    QStatusBar* statusBar_ = nullptr;
    Notices* notices_ = nullptr;
    Document* document_ = nullptr;
    DevicePanel* devices_ = nullptr;
    ParametersPanel* parameters_ = nullptr;
    TimingPanel* timings_ = nullptr;
    LabPanel* lab_ = nullptr;
    RunController* runs_ = nullptr;
};

void RunControllerTest::init()
{
    window_ = std::make_unique<QWidget>();
    log_ = new LogPanel(window_.get());
    statusBar_ = new QStatusBar(window_.get());
    notices_ = new Notices(log_, statusBar_, window_.get());
    document_ = new Document(notices_, window_.get());
    devices_ = new DevicePanel(window_.get());
    parameters_ = new ParametersPanel(window_.get());
    timings_ = new TimingPanel(window_.get());
    lab_ = new LabPanel(window_.get());
    PipelineParams params;
    params.grow = rangeParams();
    parameters_->setParams(params);
    parameters_->setAutoRun(false);
    makeController();
}

void RunControllerTest::makeController()
{
    RunController::Options options;
    options.restoreDevice = false;
    options.cliPath = QStringLiteral(RGX_CLI_PATH);
    runs_ = new RunController(document_, {devices_, parameters_, timings_, lab_}, notices_, options, window_.get());
}

void RunControllerTest::cleanup() { window_.reset(); }

void RunControllerTest::openImage(const QImage& image, const std::vector<Seed>& seeds)
{
    document_->setImage(QStringLiteral("/test/image.png"), image, std::make_shared<LumaImage>(lumaFromImage(image)));
    document_->seedSet()->replaceAll(seeds);
}

bool RunControllerTest::listDevices()
{
    QSignalSpy listed(runs_, &RunController::devicesListed);
    runs_->listDevices();
    return QTest::qWaitFor([&] { return listed.count() == 1; }, 60000) && runs_->devicesReady();
}

bool RunControllerTest::runAndWait(int milliseconds)
{
    QSignalSpy finished(runs_, &RunController::runFinished);
    QSignalSpy failed(runs_, &RunController::runFailed);
    runs_->runNow();
    return QTest::qWaitFor([&] { return finished.count() + failed.count() > 0; }, milliseconds) && finished.count() == 1;
}

void RunControllerTest::devicesAreListedOnTheEngineThread()
{
    QVERIFY(!runs_->devicesReady());
    QVERIFY2(listDevices(), qPrintable(notices_->last()));
    QVERIFY(devices_->hasDevices());
    QVERIFY(!devices_->currentDeviceId().empty());
    QVERIFY(log_->toPlainText().contains(QStringLiteral("Device ")));
}

void RunControllerTest::aRunNeedsAnImageAndSeeds()
{
    QVERIFY(listDevices());
    QSignalSpy submitted(runs_, &RunController::runSubmitted);
    runs_->runNow();
    QVERIFY(notices_->last().contains(QStringLiteral("Open an image first")));
    openImage(twoHalves(32, 16), {});
    runs_->runNow();
    QVERIFY(notices_->last().contains(QStringLiteral("Add at least one seed")));
    QCOMPARE(submitted.count(), 0);
    QVERIFY(!runs_->isRunning());
}

void RunControllerTest::aRunAskedBeforeTheDeviceListStartsWhenItComes()
{
    openImage(twoHalves(32, 16), halvesSeeds(32));
    QSignalSpy status(runs_, &RunController::statusChanged);
    QSignalSpy finished(runs_, &RunController::runFinished);
    runs_->runNow();
    QVERIFY(!runs_->isRunning());
    QCOMPARE(status.last().at(0).toString(), QStringLiteral("Waiting for the device list..."));
    runs_->listDevices();
    QVERIFY(QTest::qWaitFor([&] { return finished.count() == 1; }, 120000));
    QVERIFY(runs_->result());
}

void RunControllerTest::aRunGivesItsResultBeforeRunFinished()
{
    QVERIFY(listDevices());
    openImage(twoHalves(32, 16), halvesSeeds(32));
    GrowResultPtr shown;
    bool resultBeforeFinished = false;
    connect(runs_, &RunController::resultChanged, this, [&](const RunOutcome& outcome) { shown = outcome.result; });
    connect(runs_, &RunController::runFinished, this, [&] { resultBeforeFinished = shown != nullptr; });
    QVERIFY2(runAndWait(), qPrintable(notices_->last()));
    QVERIFY(resultBeforeFinished);
    QCOMPARE(shown, runs_->result());
    QCOMPARE(runs_->resultRequest().seeds.size(), size_t(2));
    // The device result equals the CPU reference's.
    const RunOutcome expected = referenceOutcome(document_->luma(), halvesSeeds(32));
    QCOMPARE(compareResults(*expected.result, *runs_->result()).differingPixels, uint64_t(0));
    // The timings panel shows it as the current run; the status line says what it cost.
    QCOMPARE(timings_->shownRuns().size(), size_t(1));
    QVERIFY(log_->toPlainText().contains(QStringLiteral("Run #1 done")));
}

// With an empty kernel cache, a run's programs are compiled from source
// first (seconds on a CPU runtime, which Cancel cannot interrupt): the status
// and the log say so. A new controller (a new engine, as at the program's
// next start) loads them from the disk cache, and says nothing of building.
void RunControllerTest::aFirstRunSaysItBuildsItsKernelsAndALaterRunLoadsThem()
{
    const FreshKernelCache cache;
    QVERIFY(cache.isValid());
    const QString building = QStringLiteral("building kernels/");

    openImage(twoHalves(32, 16), halvesSeeds(32));
    QVERIFY(listDevices());
    QSignalSpy status(runs_, &RunController::statusChanged);
    QVERIFY2(runAndWait(), qPrintable(notices_->last()));
    QStringList said;
    for (const QList<QVariant>& change : status)
        said << change.at(0).toString();
    QVERIFY2(!said.filter(building).isEmpty(), qPrintable(said.join(QLatin1Char('\n'))));
    QVERIFY2(said.filter(building).first().startsWith(QStringLiteral("Running #")), qPrintable(said.join(QLatin1Char('\n'))));
    const QString logged = log_->toPlainText();
    QVERIFY2(logged.contains(QStringLiteral("Built kernels/")) && logged.contains(QStringLiteral("kernel cache")),
             qPrintable(logged));
    // The same run again on the same engine: the programs are in memory.
    status.clear();
    const int builds = log_->toPlainText().count(QStringLiteral("Built kernels/"));
    QVERIFY(runAndWait());
    for (const QList<QVariant>& change : status)
        QVERIFY2(!change.at(0).toString().contains(building), qPrintable(change.at(0).toString()));
    QCOMPARE(log_->toPlainText().count(QStringLiteral("Built kernels/")), builds);

    // A new engine finds them on disk.
    delete runs_;
    makeController();
    QVERIFY(listDevices());
    QSignalSpy again(runs_, &RunController::statusChanged);
    QVERIFY(runAndWait());
    for (const QList<QVariant>& change : again)
        QVERIFY2(!change.at(0).toString().contains(building), qPrintable(change.at(0).toString()));
    QCOMPARE(log_->toPlainText().count(QStringLiteral("Built kernels/")), builds);
}

// Opened with its seeds, the image's kernels are built ahead on the engine
// thread (a run on a corner of it, dropped): the first run builds nothing.
// Another variant is built ahead too; the same choices again are not.
void RunControllerTest::theKernelsAreBuiltAheadSoThatTheFirstRunWaitsForNone()
{
    const FreshKernelCache cache;
    QVERIFY(cache.isValid());
    const QString built = QStringLiteral("Built kernels/");

    QSignalSpy warmed(runs_, &RunController::kernelsWarmed);
    QVERIFY(listDevices());
    openImage(twoHalves(200, 100), halvesSeeds(200));
    runs_->imageOpened();
    QVERIFY(QTest::qWaitFor([&] { return warmed.count() == 1; }, 120000));
    QVERIFY(!runs_->isRunning());
    const QString logged = log_->toPlainText();
    QVERIFY2(logged.contains(built) && logged.contains(QStringLiteral("ahead on")), qPrintable(logged));
    const int builds = logged.count(built);

    QSignalSpy status(runs_, &RunController::statusChanged);
    QVERIFY2(runAndWait(), qPrintable(notices_->last()));
    QCOMPARE(log_->toPlainText().count(built), builds);
    for (const QList<QVariant>& change : status)
        QVERIFY2(!change.at(0).toString().contains(QStringLiteral("building")), qPrintable(change.at(0).toString()));
    QVERIFY(runs_->result());
    QCOMPARE(runs_->result()->width, 200);

    // Another variant: built ahead as well, and its run builds nothing.
    devices_->setVariant(parseVariant("driver=host-batched,frontier=queue,collectives=local"));
    QVERIFY(QTest::qWaitFor([&] { return warmed.count() == 2; }, 120000));
    QVERIFY(log_->toPlainText().count(built) > builds);
    const int moreBuilds = log_->toPlainText().count(built);
    QVERIFY(runAndWait());
    QCOMPARE(log_->toPlainText().count(built), moreBuilds);
    // The same choices once more: no second warm-up.
    runs_->imageOpened();
    QTest::qWait(1000);
    QCOMPARE(warmed.count(), 2);
}

void RunControllerTest::aNewerRequestSupersedesTheOneInFlight()
{
    QVERIFY(listDevices());
    openImage(twoHalves(64, 32), halvesSeeds(64));
    QSignalSpy submitted(runs_, &RunController::runSubmitted);
    QSignalSpy finished(runs_, &RunController::runFinished);
    QSignalSpy failed(runs_, &RunController::runFailed);
    runs_->runNow();
    runs_->runNow();
    QCOMPARE(submitted.count(), 2);
    const quint64 newest = submitted.last().at(0).toULongLong();
    QVERIFY(QTest::qWaitFor([&] { return finished.count() == 1; }, 120000));
    QTest::qWait(200); // an answer to the first request would come by now
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.first().at(0).toULongLong(), newest);
    QCOMPARE(failed.count(), 0); // the superseded run is dropped silently
    QCOMPARE(runs_->resultRequest().id, newest);
}

void RunControllerTest::cancelStopsALongRun()
{
    QVERIFY(listDevices());
    // A serpentine corridor one pixel wide: one pixel per iteration, with a
    // read-back after each (host-sync), so the run takes seconds.
    QImage maze(600, 201, QImage::Format_Grayscale8);
    maze.fill(255);
    for (int y = 0; y < maze.height(); y += 2) {
        std::fill(maze.scanLine(y), maze.scanLine(y) + maze.width(), uchar(0));
        if (y + 1 < maze.height())
            maze.scanLine(y + 1)[(y / 2) % 2 == 0 ? maze.width() - 1 : 0] = 0;
    }
    openImage(maze, {Seed{0, 0}});
    GrowVariant variant;
    variant.driver = Driver::HostSync;
    devices_->setVariant(variant);
    QSignalSpy started(runs_, &RunController::runStarted);
    QSignalSpy failed(runs_, &RunController::runFailed);
    QSignalSpy status(runs_, &RunController::statusChanged);
    runs_->runNow();
    QVERIFY(QTest::qWaitFor([&] { return started.count() == 1; }, 120000));
    QVERIFY(runs_->isRunning());
    runs_->cancelRun();
    QVERIFY(QTest::qWaitFor([&] { return !runs_->isRunning(); }, 20000));
    QCOMPARE(failed.count(), 1);
    QVERIFY(status.last().at(0).toString().contains(QStringLiteral("cancelled")));
    QVERIFY(!runs_->result());
}

// OpenCL cannot interrupt a program's build: a Cancel asked while the run
// waits for one says the run stops once it is built, and then it does.
void RunControllerTest::aCancelDuringABuildSaysTheRunStopsOnceItIsBuilt()
{
    const FreshKernelCache cache;
    QVERIFY(cache.isValid());
    QVERIFY(listDevices());
    openImage(twoHalves(64, 32), halvesSeeds(64));
    QSignalSpy failed(runs_, &RunController::runFailed);
    QStringList said;
    bool cancelled = false;
    connect(runs_, &RunController::statusChanged, this, [&](const QString& text) {
        said << text;
        // The status of a build is handled before the build's end comes.
        if (text.contains(QStringLiteral("building kernels/")) && !std::exchange(cancelled, true))
            runs_->cancelRun();
    });
    runs_->runNow();
    QVERIFY(QTest::qWaitFor([&] { return !runs_->isRunning(); }, 120000));
    QVERIFY2(cancelled, qPrintable(said.join(QLatin1Char('\n'))));
    QVERIFY2(!said.filter(QStringLiteral("stops once kernels/")).isEmpty(), qPrintable(said.join(QLatin1Char('\n'))));
    QCOMPARE(failed.count(), 1);
    QVERIFY2(said.last().contains(QStringLiteral("cancelled")), qPrintable(said.last()));
    QVERIFY(!runs_->result());
}

void RunControllerTest::theCorruptionViewAsksForTheCpuReference()
{
    QVERIFY(listDevices());
    openImage(twoHalves(32, 16), halvesSeeds(32));
    QVERIFY(runAndWait());
    QVERIFY(!runs_->diff());
    QSignalSpy changed(runs_, &RunController::referenceChanged);
    QSignalSpy ready(runs_, &RunController::referenceReady);
    runs_->setWantsReference(true);
    QVERIFY(QTest::qWaitFor([&] { return ready.count() == 1; }, 60000));
    QCOMPARE(changed.count(), 1);
    QVERIFY(runs_->reference());
    QVERIFY(runs_->diff());
    QCOMPARE(runs_->diff()->differingPixels, uint64_t(0));
    // Later runs bring their reference with them.
    QSignalSpy outcomes(runs_, &RunController::resultChanged);
    QVERIFY(runAndWait());
    QVERIFY(outcomes.last().at(0).value<RunOutcome>().diff);
}

void RunControllerTest::aKeptRunIsKeptOnce()
{
    QVERIFY(listDevices());
    openImage(twoHalves(32, 16), halvesSeeds(32));
    QVERIFY(runAndWait());
    runs_->keepRun();
    runs_->keepRun();
    QCOMPARE(timings_->keptRunCount(), 1);
    QVERIFY(log_->toPlainText().contains(QStringLiteral("Kept run #1 for comparison")));
    QVERIFY(runAndWait());
    runs_->keepRun();
    QCOMPARE(timings_->keptRunCount(), 2);
    QCOMPARE(timings_->shownRuns().size(), size_t(2));
}

void RunControllerTest::resetDropsTheResult()
{
    QVERIFY(listDevices());
    openImage(twoHalves(32, 16), halvesSeeds(32));
    QVERIFY(runAndWait());
    QSignalSpy outcomes(runs_, &RunController::resultChanged);
    QSignalSpy status(runs_, &RunController::statusChanged);
    runs_->reset();
    QVERIFY(!runs_->result());
    QCOMPARE(outcomes.count(), 1);
    QVERIFY(!outcomes.first().at(0).value<RunOutcome>().result);
    QCOMPARE(status.last().at(0).toString(), QStringLiteral("Ready"));
    QVERIFY(timings_->shownRuns().empty());
}

void RunControllerTest::aSeedEditRunsAtOnceWhenLive()
{
    QVERIFY(listDevices());
    openImage(twoHalves(32, 16), halvesSeeds(32));
    QSignalSpy submitted(runs_, &RunController::runSubmitted);
    document_->addSeed(QPoint(5, 5));
    QTest::qWait(50);
    QCOMPARE(submitted.count(), 0); // not live
    parameters_->setAutoRun(true);
    QSignalSpy finished(runs_, &RunController::runFinished);
    document_->addSeed(QPoint(6, 6));
    document_->addSeed(QPoint(7, 7)); // the edits of one event make one run
    QVERIFY(QTest::qWaitFor([&] { return finished.count() == 1; }, 120000));
    QCOMPARE(submitted.count(), 1);
    QCOMPARE(runs_->resultRequest().seeds.size(), size_t(5));
}

void RunControllerTest::aLiveChoiceByHandHolds()
{
    // Until the user chooses, live follows each run's latency (the window's
    // test liveModeTurnsItselfOnAfterAFastRunUnlessChosen); a choice holds.
    QVERIFY(listDevices());
    openImage(twoHalves(32, 16), halvesSeeds(32));
    runs_->setLiveChoice(false);
    QVERIFY(runAndWait());
    QVERIFY(!parameters_->autoRun());
    parameters_->setAutoRun(true);
    runs_->setLiveChoice(true);
    QVERIFY(runAndWait());
    QVERIFY(parameters_->autoRun());
}

void RunControllerTest::engineMemoryTheGuiLetsGoOfIsReleasedByTheEngineThread()
{
    // A click's box maps may sit in pinned memory that the device maps: the
    // GUI letting go of a result must not release it (an unmap waits for the
    // device), the engine thread does, before its next run.
    auto returns = std::make_shared<EngineMemoryReturns>();
    bool released = false;
    std::shared_ptr<const void> memory(new int(7), [&](const void* p) {
        delete static_cast<const int*>(p);
        released = true;
    });
    std::shared_ptr<const void> lent = EngineMemoryReturns::lent(returns, std::move(memory));
    QCOMPARE(*static_cast<const int*>(lent.get()), 7);
    lent.reset(); // the GUI thread lets go
    QVERIFY(!released);
    returns->releaseReturned(); // the engine thread, before its next run
    QVERIFY(released);
}

QTEST_MAIN(RunControllerTest)
#include "RunControllerTest.moc"
