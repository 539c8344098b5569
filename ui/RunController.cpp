// Run controller: what goes to the engine thread and what comes back, with
// the log lines, status texts and notices each answer gives.
#include "RunController.h"

#include "DevicePanel.h"
#include "Document.h"
#include "Errors.h"
#include "Format.h"
#include "LabPanel.h"
#include "LogPanel.h"
#include "Notices.h"
#include "ParameterCodec.h"
#include "ParametersPanel.h"
#include "TimingPanel.h"
#include <QCoreApplication>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <algorithm>
#include <utility>

namespace rgx::ui {

namespace {

QString text(const std::string& value) { return QString::fromStdString(value); }

// The current choices as rgx-cli segment options, so that the race check
// runs exactly what the explorer runs.
std::vector<std::string> segmentOptionsFor(const PipelineParams& params, const GrowVariant& variant)
{
    std::vector<std::string> options = parameterArguments(params);
    options.insert(options.end(), {"--variant", variant.text()});
    return options;
}

} // namespace

RunController::RunController(Document* document, const Panels& panels, Notices* notices, const Options& options,
                             QObject* parent)
    : QObject(parent), document_(document), panels_(panels), notices_(notices), options_(options)
{
    autoRunTimer_.setSingleShot(true);
    connect(&autoRunTimer_, &QTimer::timeout, this, &RunController::runNow);
    // A view that is hidden or covered may never paint: the edit ends anyway.
    paintTimeout_.setSingleShot(true);
    paintTimeout_.setInterval(1000);
    connect(&paintTimeout_, &QTimer::timeout, this, [this] { finishEdit(0, 0, false); });
    warmTimer_.setSingleShot(true);
    warmTimer_.setInterval(300);
    connect(&warmTimer_, &QTimer::timeout, this, &RunController::warmKernels);
    connect(document_->seedSet(), &SeedSet::changed, this, [this] {
        if (panels_.parameters->autoRun() && document_->hasImage() && !document_->seeds().empty())
            queueLiveRun();
        checkStale();
        warmKernelsSoon();
    });
    // Another device or variant: live runs again; otherwise the result is stale.
    auto settingsChanged = [this] {
        if (panels_.parameters->autoRun() && document_->hasImage() && !document_->seeds().empty() && result_)
            autoRunTimer_.start(0);
        checkStale();
        warmKernelsSoon();
    };
    connect(panels_.devices, &DevicePanel::variantChanged, this, settingsChanged);
    connect(panels_.devices, &DevicePanel::deviceChanged, this, settingsChanged);
    connect(panels_.parameters, &ParametersPanel::autoRunChanged, this, &RunController::checkStale);
    connect(panels_.parameters, &ParametersPanel::changed, this, [this] {
        if (panels_.parameters->autoRun() && document_->hasImage() && !document_->seeds().empty() && result_)
            autoRunTimer_.start(150);
        checkStale();
        warmKernelsSoon();
    });
    connect(panels_.parameters, &ParametersPanel::autoRunChosen, this, &RunController::setLiveChoice);
    connect(panels_.lab, &LabPanel::runRequested, this, &RunController::runLab);
    // The residency lab runs on the engine thread too, through its own runner there.
    panels_.lab->attachEngine(engine_.worker());
    connectEngine();
}

RunController::~RunController() = default;

LogPanel* RunController::log() const { return notices_->log(); }

void RunController::connectEngine()
{
    EngineWorker* worker = engine_.worker();
    connect(worker, &EngineWorker::devicesListed, this, &RunController::onDevicesListed);
    connect(worker, &EngineWorker::runStarted, this, [this](quint64 id) {
        if (id == activeRunId_) {
            emit statusChanged(QStringLiteral("Running #%1...").arg(id));
            emit runStarted(id);
        }
    });
    connect(worker, &EngineWorker::runProgress, this, [this](quint64 id, quint32 iteration, quint64 frontier) {
        if (id == activeRunId_ && running_)
            emit statusChanged(QStringLiteral("Running #%1: iteration %2, frontier %3")
                                   .arg(id)
                                   .arg(iteration)
                                   .arg(formatCount(frontier)));
    });
    connect(worker, &EngineWorker::runPartial, this, [this](quint64 id, rgx::GrowResultPtr partial) {
        if (id == activeRunId_ && running_ && document_->hasImage() && partial->width > 0)
            emit partialResult(std::move(partial));
    });
    connect(worker, &EngineWorker::runFinished, this, &RunController::onRunFinished);
    connect(worker, &EngineWorker::runFailed, this, &RunController::onRunFailed);
    connect(worker, &EngineWorker::referenceReady, this, &RunController::onReferenceReady);
    connect(worker, &EngineWorker::message, log(), &LogPanel::info);
    // A first use of a program compiles it (seconds on a CPU runtime, which
    // no Cancel interrupts): the status says so, not a silent "Running".
    connect(worker, &EngineWorker::programBuilding, this, [this](const QString& file, const QString& device) {
        building_ = file;
        if (running_)
            emit statusChanged(QStringLiteral("Running #%1: building kernels/%2 for %3 (first use)...")
                                   .arg(activeRunId_)
                                   .arg(file, device));
    });
    connect(worker, &EngineWorker::programBuilt, this, [this](const QString& file, const QString& device, double seconds) {
        building_.clear();
        log()->info(QStringLiteral("Built kernels/%1 for %2 in %3: its first use with these options; "
                                   "later runs load it from the kernel cache")
                        .arg(file, device, formatDuration(seconds * 1e9)));
        if (running_)
            buildMs_ += seconds * 1e3;
    });
    connect(worker, &EngineWorker::sessionResident, this, &RunController::volumeResident);
    connect(worker, &EngineWorker::kernelsWarmed, this,
            [this](const QString& variant, const QString& device, int built, double buildSeconds, double seconds) {
                building_.clear(); // a build that failed said nothing more
                if (built > 0)
                    log()->info(QStringLiteral("Built %1 program(s) of %2 ahead on %3 in %4 (the whole warm-up %5): "
                                               "a first click waits for no compiler")
                                    .arg(built)
                                    .arg(variant, device, formatDuration(buildSeconds * 1e9),
                                         formatDuration(seconds * 1e9)));
                emit kernelsWarmed();
            });
    connect(raceChecks_.worker(), &RaceCheckWorker::started, this, [this] {
        if (!running_)
            emit statusChanged(QStringLiteral("Checking for races under Oclgrind..."));
    });
    connect(raceChecks_.worker(), &RaceCheckWorker::finished, this, &RunController::onRaceCheckFinished);
    connect(worker, &EngineWorker::labFinished, this, &RunController::onLabFinished);
}

// ---- devices -----------------------------------------------------------------

void RunController::listDevices()
{
    // Listing touches OpenCL, so it runs on the engine thread like everything else.
    log()->info(QStringLiteral("Looking for OpenCL devices..."));
    engine_.listDevices(options_.preferredDevice);
}

void RunController::onDevicesListed(const DeviceList& list)
{
    if (!list.problem.isEmpty()) {
        if (list.devices.empty())
            notices_->warn(QStringLiteral("No OpenCL device"), list.problem);
        else
            log()->warning(list.problem);
    }
    std::string chosen = list.defaultId;
    if (options_.preferredDevice.isEmpty()) {
        // A session opened before the list came wins; then the last device used.
        std::string wanted = pendingDeviceId_;
        if (wanted.empty() && options_.restoreDevice)
            wanted = QSettings().value(QStringLiteral("device")).toString().toStdString();
        for (const DeviceInfo& device : list.devices)
            if (device.id() == wanted && (pendingDeviceName_.empty() || device.name == pendingDeviceName_))
                chosen = wanted;
    }
    panels_.devices->setDevices(list.devices, chosen);
    panels_.lab->setDevice(panels_.devices->currentDevice());
    pendingDeviceId_.clear();
    pendingDeviceName_.clear();
    devicesReady_ = !list.devices.empty();
    for (const DeviceInfo& device : list.devices)
        log()->info(QStringLiteral("Device %1: %2 (%3, %4)")
                        .arg(text(device.id()), text(device.name), text(device.type), text(device.openClCVersion)));
    emit stateChanged();
    emit devicesListed();
    makeVolumeResident(); // a volume opened before the list came
    warmKernelsSoon();
    if (pendingRun_ && devicesReady_) {
        pendingRun_ = false;
        runNow();
    }
}

bool RunController::selectDevice(const QString& id)
{
    if (!devicesReady_) {
        pendingDeviceId_ = id.toStdString();
        return true;
    }
    if (panels_.devices->selectDevice(id.toStdString()))
        return true;
    notices_->warn(QStringLiteral("Device"), QStringLiteral("No OpenCL device with id %1.").arg(id));
    return false;
}

void RunController::chooseSessionDevice(const std::string& id, const std::string& name)
{
    if (id.empty())
        return;
    if (!devicesReady_) {
        pendingDeviceId_ = id;
        pendingDeviceName_ = name;
        return;
    }
    bool found = false;
    for (const DeviceInfo& device : panels_.devices->devices())
        found = found || (device.id() == id);
    if (found)
        panels_.devices->selectDevice(id);
    else
        log()->warning(QStringLiteral("The session's device %1 (%2) is not here; using %3.")
                           .arg(text(id), text(name), text(panels_.devices->currentDeviceId())));
}

bool RunController::setVariantText(const QString& variantText)
{
    try {
        panels_.devices->setVariant(parseVariant(variantText.toStdString()));
        return true;
    } catch (const InputError& error) {
        notices_->warn(QStringLiteral("Variant"), QString::fromUtf8(error.what()));
        return false;
    }
}

// ---- runs ----------------------------------------------------------------------

QString RunController::runLabel(const RunRequest& request) const
{
    QString variant = text(request.variant.shortText());
    if (request.variant.wrongOnPurpose())
        variant += QStringLiteral(" (wrong on purpose)");
    QString device = text(request.deviceId);
    for (const DeviceInfo& info : panels_.devices->devices())
        if (info.id() == request.deviceId)
            device = text(info.name).section(QLatin1Char(' '), 0, 1);
    return QStringLiteral("%1 on %2").arg(variant, device);
}

// Posted now, the run's request leaves before the paints the same edit
// asked for: with a 0 ms timer the views repainted first (a volume's three
// views, their crosshair moved to the new seed: 3.5 to 6 ms at 512^3 on the
// H200, rgx_gui_bench --volume).
void RunController::queueLiveRun()
{
    if (std::exchange(runQueued_, true))
        return;
    QMetaObject::invokeMethod(
        this, [this] {
            if (std::exchange(runQueued_, false))
                runNow();
        },
        Qt::QueuedConnection);
}

void RunController::runNow()
{
    autoRunTimer_.stop();
    runQueued_ = false;
    if (!document_->hasImage()) {
        notices_->warn(QStringLiteral("Run"), QStringLiteral("Open an image first (File > Open Image or Open Sample)."));
        return;
    }
    if (document_->seeds().empty()) {
        notices_->warn(QStringLiteral("Run"), QStringLiteral("Add at least one seed: click on the image."));
        return;
    }
    if (!devicesReady_) {
        // Runs as soon as the device list arrives.
        pendingRun_ = true;
        emit statusChanged(QStringLiteral("Waiting for the device list..."));
        return;
    }
    RunRequest request;
    request.id = ++nextRunId_;
    request.image = document_->luma();
    request.seeds = dragSeeds_ ? *dragSeeds_ : document_->seeds();
    request.params = panels_.parameters->params();
    request.deviceId = panels_.devices->currentDeviceId();
    request.variant = panels_.devices->variant();
    request.timeoutSeconds = panels_.parameters->timeoutSeconds();
    request.withReference = wantsReference_;
    activeRunId_ = request.id;
    running_ = true;
    buildMs_ = 0;
    requestNs_ = steadyNs();
    // A newer request supersedes the one in flight (EngineThread::submit).
    engine_.submit(request);
    log()->info(QStringLiteral("Run #%1: %2, %3 seeds, %4").arg(request.id).arg(runLabel(request)).arg(request.seeds.size())
                    .arg(text(request.variant.text())));
    emit statusChanged(QStringLiteral("Starting run #%1...").arg(request.id));
    emit runSubmitted(request.id);
    emit stateChanged();
}

void RunController::cancelRun()
{
    autoRunTimer_.stop();
    runQueued_ = false;
    pendingRun_ = false;
    if (!running_)
        return;
    engine_.cancel();
    // OpenCL cannot interrupt a build: the run stops after it.
    emit statusChanged(building_.isEmpty() ? QStringLiteral("Cancelling run #%1...").arg(activeRunId_)
                                           : QStringLiteral("Cancelling run #%1: it stops once kernels/%2 is built "
                                                            "(OpenCL cannot interrupt a build)...")
                                                 .arg(activeRunId_)
                                                 .arg(building_));
}

void RunController::reset()
{
    pendingEdit_.reset();
    paintTimeout_.stop();
    if (running_)
        engine_.cancel();
    running_ = false;
    pendingRun_ = false;
    activeRunId_ = 0;
    autoRunTimer_.stop();
    runQueued_ = false;
    result_.reset();
    reference_.reset();
    diff_.reset();
    referencePending_ = false;
    panels_.timings->clearCurrentRun();
    stale_.clear();
    emit staleChanged(stale_);
    emit resultChanged(RunOutcome{});
    emit statusChanged(QStringLiteral("Ready"));
    emit stateChanged();
}

void RunController::logResult(const RunOutcome& outcome)
{
    const TimelineSummary summary = summarizeTimeline(result_->timings);
    int regionsGrown = 0;
    for (const RegionStats& region : result_->regions)
        regionsGrown += region.count > 1 ? 1 : 0;
    log()->info(QStringLiteral("Run #%1 done: %2 iterations, %3 of %4 regions grew; device busy %5, span %6, host %7")
                    .arg(outcome.request.id)
                    .arg(result_->iterations)
                    .arg(regionsGrown)
                    .arg(result_->regions.size())
                    .arg(formatDuration(double(summary.busyNs)), formatDuration(double(summary.spanNs)),
                         formatDuration(result_->hostMilliseconds * 1e6)));
    if (!result_->note.empty())
        log()->warning(QStringLiteral("Run #%1: %2").arg(outcome.request.id).arg(text(result_->note)));
    for (const KernelReport& kernel : result_->kernels)
        if (kernel.registers >= 0)
            log()->info(QStringLiteral("  %1: %2 registers, %3 spill stores, %4 spill loads")
                            .arg(text(kernel.kernel)).arg(kernel.registers).arg(kernel.spillStores).arg(kernel.spillLoads));
    if (diff_)
        log()->info(QStringLiteral("verify: %1 pixels differ").arg(diff_->differingPixels));
}

void RunController::onRunFinished(const RunOutcome& outcome)
{
    if (outcome.request.id != activeRunId_ || !running_)
        return; // superseded by a newer request, or the image changed
    const qint64 receivedNs = steadyNs();
    if (pendingEdit_)
        finishEdit(0, 0, false); // the previous result was never drawn: a newer one replaces it
    running_ = false;
    result_ = outcome.result;
    resultRequest_ = outcome.request;
    reference_ = outcome.reference;
    diff_ = outcome.diff;
    referencePending_ = false;
    // Where the time went so far: the engine's own figure for the run and
    // its read-back; the rest of the worker's call built the result.
    EditTimes times;
    times.runId = outcome.request.id;
    const WorkerTimes& worker = outcome.times;
    times.engineMs = std::min(result_->hostMilliseconds, double(worker.engineDoneNs - worker.startedNs) / 1e6);
    times.resultMs = double(worker.sentNs - worker.startedNs) / 1e6 - times.engineMs;
    times.toWorkerMs = double(worker.startedNs - requestNs_) / 1e6;
    times.queueMs = times.toWorkerMs + double(receivedNs - worker.sentNs) / 1e6;
    emit statusChanged(QStringLiteral("Run #%1: %2 iterations, %3")
                           .arg(outcome.request.id).arg(result_->iterations)
                           .arg(formatDuration(result_->hostMilliseconds * 1e6)));
    // The first run of an image, device, variant or prefilter builds kernels
    // and uploads the image: its latency says nothing about the edits after it.
    const std::string shape = outcome.request.deviceId + '|' + outcome.request.variant.text() + '|' +
                              prefilterText(outcome.request.params.prefilter) + '|' +
                              std::to_string(reinterpret_cast<quintptr>(outcome.request.image.get()));
    pendingFirstOfShape_ = shape != lastShape_;
    lastShape_ = shape;
    pendingEdit_ = times;
    pendingRequestNs_ = requestNs_;
    pendingReceivedNs_ = receivedNs;
    pendingShownNs_ = 0;
    stale_.clear();
    emit staleChanged(stale_);
    emit resultChanged(outcome); // the window paints the new overlay at once
    if (pendingEdit_) {
        pendingShownNs_ = steadyNs();
        if (drawReports_)
            paintTimeout_.start();
        else
            finishEdit(0, 0);
    }
    // What is not the overlay comes after it: the timing charts, the variant
    // panel's comparison, the log, notices.
    const qint64 panelsNs = steadyNs();
    if (!outcome.request.variant.wrongOnPurpose())
        panels_.devices->noteRunTime(outcome.request.deviceId, outcome.request.variant, inputsKey(outcome.request),
                                     result_->hostMilliseconds);
    RunInputs inputs;
    const LumaImage& image = *outcome.request.image;
    inputs.image = image.isVolume() ? QStringLiteral("%1 (%2 x %3 x %4)").arg(document_->imagePath()).arg(image.width)
                                          .arg(image.height).arg(image.depth)
                                    : QStringLiteral("%1 (%2 x %3)").arg(document_->imagePath()).arg(image.width)
                                          .arg(image.height);
    inputs.seeds = seedsKey(outcome.request.seeds);
    inputs.params = paramsKey(outcome.request.params);
    panels_.timings->setCurrentRun(RunEntry{int(outcome.request.id), runLabel(outcome.request), result_, inputs, diff_});
    logResult(outcome);
    if (result_->stoppedAtCap)
        notices_->warn(QStringLiteral("Iteration cap"),
                       QStringLiteral("Run #%1 stopped at the iteration cap (%2 iterations); the regions may not be complete.")
                           .arg(outcome.request.id)
                           .arg(result_->iterations));
    requestReferenceIfNeeded();
    checkRacesOfShownRun();
    if (lastEdit_.runId == outcome.request.id)
        lastEdit_.afterOverlayMs = double(steadyNs() - panelsNs) / 1e6;
    emit stateChanged();
    emit runFinished(outcome.request.id);
    if (dragRunPending_) {
        dragRunPending_ = false;
        runNow();
    }
}

void RunController::overlayDrawn(double overlayMs, double paintMs)
{
    if (pendingEdit_)
        finishEdit(overlayMs, paintMs);
}

// An edit ends when its overlay is drawn: the status bar's latency, and
// live segmentation following it unless the user chose.
void RunController::finishEdit(double overlayMs, double paintMs, bool measured)
{
    paintTimeout_.stop();
    if (!pendingEdit_)
        return;
    EditTimes times = *pendingEdit_;
    pendingEdit_.reset();
    const qint64 nowNs = steadyNs();
    times.overlayMs = overlayMs;
    times.paintMs = paintMs;
    times.totalMs = double(nowNs - pendingRequestNs_) / 1e6;
    // The GUI thread's work on the result (timing panel, log, view, tables)
    // until it was shown, or until the paint where the view painted at once.
    const double sinceReceivedMs = double(nowNs - pendingReceivedNs_) / 1e6;
    times.showMs = pendingShownNs_ ? double(pendingShownNs_ - pendingReceivedNs_) / 1e6
                                   : std::max(0.0, sinceReceivedMs - overlayMs - paintMs);
    times.paintWaitMs = std::max(0.0, sinceReceivedMs - times.showMs - overlayMs - paintMs);
    times.queueMs += times.paintWaitMs;
    lastEdit_ = times;
    if (result_ && times.runId == resultRequest_.id)
        emit statusChanged(QStringLiteral("Run #%1: %2 iterations, %3; request to overlay %4%5")
                               .arg(times.runId).arg(result_->iterations)
                               .arg(formatDuration(result_->hostMilliseconds * 1e6), formatDuration(times.totalMs * 1e6),
                                    buildMs_ > 0 ? QStringLiteral(", %1 of it building kernels (once)")
                                                       .arg(formatDuration(buildMs_ * 1e6))
                                                 : QString()));
    // A result that was never drawn (a hidden or minimised window) says
    // nothing about the latency of an edit.
    if (measured)
        followLatency(times.totalMs);
}

// Live segmentation, until the user chooses, follows the latency: on once
// an edit is drawn within the limit; off only after an edit of a resident
// run (not the first of its image, device, variant or prefilter, which
// builds and uploads) took longer, and then visibly (liveTurnedOff).
void RunController::followLatency(double latencyMs)
{
    ParametersPanel* parameters = panels_.parameters;
    const bool fast = latencyMs < liveLimitMs_;
    if (liveChoice_ || parameters->autoRun() == fast)
        return;
    const QString took = formatDuration(latencyMs * 1e6);
    if (fast) {
        parameters->setAutoRun(true);
        log()->info(QStringLiteral("Live segmentation on: this image runs in %1, so every edit runs at once "
                                   "(Run > Live to choose)").arg(took));
        return;
    }
    if (pendingFirstOfShape_) {
        log()->info(QStringLiteral("Live segmentation stays on: the first run with these settings took %1 with its "
                                   "kernel builds and upload; the edits after it decide").arg(took));
        return;
    }
    parameters->setAutoRun(false);
    const QString why = QStringLiteral("the last edit took %1 (live turns itself off above %2)")
                            .arg(took, formatDuration(liveLimitMs_ * 1e6));
    log()->warning(QStringLiteral("Live segmentation off: %1. Click the Live badge in the status bar, or "
                                  "Run > Live, to keep it on.").arg(why));
    notices_->status(QStringLiteral("Live segmentation turned off: %1").arg(why), 15000);
    emit liveTurnedOff(why);
}

void RunController::onRunFailed(const RunFailure& failure)
{
    building_.clear(); // a build that failed said nothing more
    if (failure.id != activeRunId_)
        return;
    if (!running_) {
        // The CPU reference of a finished run failed.
        referencePending_ = false;
        notices_->warn(QStringLiteral("CPU reference"), failure.message);
        return;
    }
    running_ = false;
    emit stateChanged();
    if (dragRunPending_) {
        dragRunPending_ = false;
        runNow();
    }
    if (failure.kind == FailureKind::Cancelled) {
        log()->warning(QStringLiteral("Run #%1 cancelled: %2").arg(failure.id).arg(failure.message));
        emit statusChanged(QStringLiteral("Run #%1 cancelled").arg(failure.id));
    } else {
        const QString message = QStringLiteral("Run #%1 failed (%2): %3").arg(failure.id).arg(failureKindName(failure.kind), failure.message);
        emit statusChanged(QStringLiteral("Run #%1 failed").arg(failure.id));
        notices_->warn(failure.kind == FailureKind::TimedOut ? QStringLiteral("Run timed out") : QStringLiteral("Run failed"),
                       message, failure.buildLog);
    }
    emit runFailed(failure.message);
    checkStale();
}

void RunController::setLiveChoice(bool on) { liveChoice_ = on; }

// What differs between the shown result's request and the panels now;
// empty when nothing does.
QString RunController::staleReason() const
{
    if (!result_)
        return {};
    QStringList changed;
    if (resultRequest_.deviceId != panels_.devices->currentDeviceId())
        changed << QStringLiteral("the device");
    if (resultRequest_.variant != panels_.devices->variant())
        changed << QStringLiteral("the variant");
    if (paramsKey(resultRequest_.params) != paramsKey(panels_.parameters->params()))
        changed << QStringLiteral("the parameters");
    if (!dragSeeds_ && resultRequest_.seeds != document_->seeds())
        changed << QStringLiteral("the seeds");
    if (changed.isEmpty())
        return {};
    return QStringLiteral("%1 changed since run #%2").arg(changed.join(QStringLiteral(", ")), QString::number(resultRequest_.id));
}

// A result made with other settings than the panels show is drawn as stale
// until the next run; in live mode the next run is already on its way.
void RunController::checkStale()
{
    QString reason = staleReason();
    const bool rerunComing = panels_.parameters->autoRun() && (running_ || autoRunTimer_.isActive() || runQueued_);
    if (!reason.isEmpty() && rerunComing)
        reason.clear();
    if (reason == stale_)
        return;
    stale_ = reason;
    emit staleChanged(stale_);
}

// A seed dragged in live mode runs while it moves. A run in flight is left
// to finish (cancelling it at every mouse move would never show anything);
// the next starts with the latest position when it ends.
void RunController::seedDragged(int index, QPoint pixel)
{
    const std::vector<Seed>& current = document_->seeds();
    if (index < 0 || index >= int(current.size()))
        return;
    seedDraggedTo(index, Seed{pixel.x(), pixel.y(), current[size_t(index)].z});
}

void RunController::seedDraggedTo(int index, rgx::Seed voxel)
{
    const std::vector<Seed>& current = document_->seeds();
    if (!panels_.parameters->autoRun() || !document_->hasImage() || index < 0 || index >= int(current.size()))
        return;
    const int other = document_->seedSet()->indexOf(voxel);
    if (other >= 0 && other != index)
        return;
    std::vector<Seed> seeds = current;
    seeds[size_t(index)] = voxel;
    dragSeeds_ = std::move(seeds);
    dragRan_ = true;
    if (running_)
        dragRunPending_ = true;
    else
        runNow();
}

void RunController::seedDragFinished()
{
    dragSeeds_.reset();
    dragRunPending_ = false;
    // A drag that ran and came back to where it started moved nothing: the
    // picture shows the last position, so run the real seeds once more.
    if (std::exchange(dragRan_, false) && panels_.parameters->autoRun())
        autoRunTimer_.start(0);
}

void RunController::keepRun()
{
    if (panels_.timings->keepCurrentRun())
        log()->info(QStringLiteral("Kept run #%1 for comparison").arg(resultRequest_.id));
}

// ---- the CPU reference -----------------------------------------------------

void RunController::setWantsReference(bool on)
{
    wantsReference_ = on;
    requestReferenceIfNeeded();
    checkRacesOfShownRun();
}

void RunController::requestReferenceIfNeeded()
{
    if (!wantsReference_ || !result_ || diff_ || referencePending_)
        return;
    referencePending_ = true;
    engine_.requestReference(resultRequest_, result_);
}

void RunController::onReferenceReady(quint64 runId, GrowResultPtr reference, std::shared_ptr<const ResultDiff> diff)
{
    if (!result_ || runId != resultRequest_.id)
        return;
    referencePending_ = false;
    reference_ = std::move(reference);
    diff_ = std::move(diff);
    log()->info(QStringLiteral("verify: %1 pixels differ").arg(diff_->differingPixels));
    panels_.timings->setDifferences(result_, diff_);
    emit referenceChanged(reference_, diff_);
    emit referenceReady();
}

// ---- race checks ---------------------------------------------------------------

QString RunController::cliPath() const
{
    if (!options_.cliPath.isEmpty())
        return options_.cliPath;
    return QCoreApplication::applicationDirPath() + QStringLiteral("/rgx-cli");
}

void RunController::checkRaces()
{
    if (raceChecking_)
        return;
    if (!document_->hasImage() || document_->seeds().empty()) {
        notices_->warn(QStringLiteral("Check for races"), QStringLiteral("Open an image and add at least one seed first."));
        return;
    }
    if (document_->isVolume()) {
        notices_->warn(QStringLiteral("Check for races"),
                       QStringLiteral("The race check runs a small part of a 2D image under Oclgrind; it does not "
                                      "check volumes yet. Open an image to check this variant."));
        return;
    }
    const QString cli = cliPath();
    if (!QFileInfo(cli).isExecutable()) {
        notices_->warn(QStringLiteral("Check for races"),
                       QStringLiteral("The race check runs rgx-cli under Oclgrind, but there is no rgx-cli at %1. "
                                      "Build the rgx-cli target; it must sit beside rgx.")
                           .arg(cli));
        return;
    }
    RunRequest checked;
    checked.image = document_->luma();
    checked.seeds = document_->seeds();
    checked.params = panels_.parameters->params();
    checked.variant = panels_.devices->variant();
    startRaceCheck(checked, false);
}

void RunController::startRaceCheck(const RunRequest& checked, bool automatic)
{
    RaceCheckRequest request;
    request.id = ++nextRaceCheckId_;
    request.image = checked.image;
    request.seeds = checked.seeds;
    request.segmentOptions = segmentOptionsFor(checked.params, checked.variant);
    request.variantText = text(checked.variant.text());
    request.cliPath = cliPath();
    request.uniformWrites = raceCheckUniformWrites_;
    request.automatic = automatic;
    raceChecking_ = true;
    raceChecks_.check(request);
    log()->info(QStringLiteral("Race check #%1%2: %3 under Oclgrind (this can take a minute)...")
                    .arg(request.id)
                    .arg(automatic ? QStringLiteral(" (the corruption view's)") : QString())
                    .arg(request.variantText));
    panels_.devices->setRaceCheckStatus(QStringLiteral("Checking %1 under Oclgrind...").arg(request.variantText));
    emit stateChanged();
}

void RunController::imageOpened()
{
    makeVolumeResident();
    warmKernelsSoon();
}

void RunController::warmKernelsSoon()
{
    if (devicesReady_ && document_->hasImage())
        warmTimer_.start();
}

void RunController::warmKernels()
{
    // RGX_WARM_KERNELS=0: none built ahead (A/B: rgx_gui_bench --first-click).
    if (running_ || !devicesReady_ || !document_->hasImage() || qEnvironmentVariable("RGX_WARM_KERNELS") == "0")
        return;
    RunRequest request;
    request.id = nextRunId_; // a run asked for after this one skips it
    request.image = document_->luma();
    request.seeds = document_->seeds();
    request.params = panels_.parameters->params();
    request.deviceId = panels_.devices->currentDeviceId();
    request.variant = panels_.devices->variant();
    request.timeoutSeconds = panels_.parameters->timeoutSeconds();
    if (request.deviceId.empty())
        return;
    // What chooses the programs (the kernel file, its options, which stages
    // run); the range, the tolerance and where the seeds are do not.
    const LumaImage& image = *request.image;
    const GrowParams& grow = request.params.grow;
    const std::string key = request.deviceId + "|" + request.variant.text() + "|" + std::to_string(image.depth > 1) +
                            "|" + std::to_string(image.bitDepth) + "|" + std::to_string(image.lumaBytes.empty()) +
                            "|" + std::to_string(std::min<size_t>(request.seeds.size(), 16)) + "|" +
                            modeName(grow.mode) + "|" + ruleName(grow.rule) + "|" + std::to_string(grow.connectivity) +
                            "|" + prefilterText(request.params.prefilter) + "|" +
                            postfilterText(request.params.postfilter);
    if (key == warmedKey_)
        return;
    warmedKey_ = key;
    engine_.warmUp(request);
}

void RunController::makeVolumeResident()
{
    if (!devicesReady_ || !document_->hasImage() || !document_->isVolume())
        return;
    const std::string deviceId = panels_.devices->currentDeviceId();
    if (deviceId.empty())
        return;
    engine_.makeResident(deviceId, document_->luma());
}

void RunController::checkRacesOfShownRun()
{
    if (!wantsReference_ || !result_ || !resultRequest_.variant.wrongOnPurpose() || raceChecking_ ||
        !resultRequest_.image || resultRequest_.image->isVolume())
        return;
    const std::string key = resultRequest_.variant.text() + '\n' + inputsKey(resultRequest_);
    if (key == autoCheckedKey_)
        return;
    // Without Oclgrind or rgx-cli the menu's check says why; this one stays quiet.
    if (QStandardPaths::findExecutable(QStringLiteral("oclgrind")).isEmpty() ||
        !QFileInfo(cliPath()).isExecutable())
        return;
    autoCheckedKey_ = key;
    startRaceCheck(resultRequest_, true);
}

void RunController::onRaceCheckFinished(const RaceCheckOutcome& outcome)
{
    raceChecking_ = false;
    emit stateChanged();
    emit racesChecked(outcome);
    if (!running_)
        emit statusChanged(QStringLiteral("Ready"));
    if (!outcome.error.isEmpty()) {
        lastRaceReport_ = QStringLiteral("race check failed: %1").arg(outcome.error);
        panels_.devices->setRaceCheckStatus(QStringLiteral("The last check could not run (see the log)."));
        if (outcome.automatic)
            log()->warning(QStringLiteral("Race check #%1 could not run: %2").arg(outcome.id).arg(outcome.error));
        else
            notices_->warn(QStringLiteral("Check for races"),
                       QStringLiteral("Race check #%1 could not run: %2").arg(outcome.id).arg(outcome.error));
        emit raceCheckFinished(lastRaceReport_);
        return;
    }
    const QString part = QStringLiteral("the %1 x %2 part at (%3, %4), %5 seed(s) inside")
                             .arg(outcome.width)
                             .arg(outcome.height)
                             .arg(outcome.left)
                             .arg(outcome.top)
                             .arg(outcome.seedCount);
    QStringList lines;
    for (const RaceReport& race : outcome.races)
        lines << QStringLiteral("race: %1 %2 %3").arg(text(race.kernel), text(race.location), text(race.kind));
    if (lines.isEmpty())
        lines << QStringLiteral("races: none");
    lastRaceReport_ = lines.join(QLatin1Char('\n'));
    const QString heading = QStringLiteral("Race check #%1 of %2 on %3%4 (%5 s):")
                                .arg(outcome.id)
                                .arg(outcome.variantText, part,
                                     outcome.uniformWrites ? QStringLiteral(", same-value writes included") : QString())
                                .arg(outcome.seconds, 0, 'f', 1);
    log()->info(heading);
    for (const QString& line : std::as_const(lines)) {
        if (outcome.races.empty())
            log()->info(QStringLiteral("  ") + line);
        else
            log()->warning(QStringLiteral("  ") + line);
    }
    const QString summary = outcome.races.empty()
                                ? QStringLiteral("races: none")
                                : QStringLiteral("%1 race(s) found").arg(outcome.races.size());
    panels_.devices->setRaceCheckStatus(QStringLiteral("%1 (%2, checked on %3)").arg(summary, outcome.variantText, part));
    if (!outcome.automatic)
        notices_->show(QStringLiteral("Race check"), QStringLiteral("%1\n\n%2").arg(heading, lastRaceReport_), QString(),
                   outcome.races.empty() ? QMessageBox::Information : QMessageBox::Warning);
    emit raceCheckFinished(lastRaceReport_);
}

// ---- the binary-search lab -------------------------------------------------------

void RunController::runLab(quint64 size, quint64 keys, rgx::Driver driver)
{
    if (!devicesReady_) {
        notices_->warn(QStringLiteral("Binary-search lab"), QStringLiteral("No OpenCL device yet: wait for the device list."));
        return;
    }
    LabRequest request;
    request.id = ++nextLabId_;
    request.deviceId = panels_.devices->currentDeviceId();
    request.size = size_t(size);
    request.keys = size_t(keys);
    request.driver = driver;
    panels_.lab->setBusy(true);
    log()->info(QStringLiteral("Binary-search lab #%1: %2 values, %3 keys, driver=%4 on %5")
                    .arg(request.id)
                    .arg(formatCount(size), formatCount(keys), text(driverName(driver)), text(request.deviceId)));
    engine_.runLab(request);
}

void RunController::onLabFinished(const LabOutcome& outcome)
{
    panels_.lab->showOutcome(outcome);
    if (!outcome.result) {
        notices_->warn(QStringLiteral("Binary-search lab"), QStringLiteral("The lab could not run: %1").arg(outcome.error));
        emit labFinished(false);
        return;
    }
    const TimelineSummary summary = summarizeTimeline(outcome.result->timings);
    log()->info(QStringLiteral("Binary-search lab #%1: %2 rounds, host %3, device busy %4, idle gaps %5; "
                               "verify: %6 keys differ from std::lower_bound")
                    .arg(outcome.request.id)
                    .arg(outcome.result->rounds)
                    .arg(formatDuration(outcome.result->hostMilliseconds * 1e6), formatDuration(double(summary.busyNs)),
                         formatDuration(double(summary.gapNs)))
                    .arg(outcome.differingKeys));
    emit labFinished(true);
}

} // namespace rgx::ui
