// The engine worker thread: device listing, device runs with cancel and
// timeout, CPU references and their diffs, every error turned into a message.
#include "EngineWorker.h"

#include "Errors.h"
#include <QElapsedTimer>
#include <QMetaObject>

namespace rgx::ui {

namespace {

QString text(const std::string& value) { return QString::fromStdString(value); }

// Pixels of each label 0..K (labels past K are not counted), over the box of
// the classified pixels.
std::vector<uint64_t> countLabels(const GrowResult& result)
{
    std::vector<uint64_t> counts(result.regions.size() + 1, 0);
    const BoxMaps maps = mapsView(result);
    for (int z = maps.z0; z < maps.z0 + maps.boxDepth; ++z)
        for (int y = maps.y0; y < maps.y0 + maps.boxHeight * maps.step; y += maps.step)
            for (int x = maps.x0; x < maps.x0 + maps.boxWidth * maps.step; x += maps.step) {
                const uint16_t label = maps.label(x, z * maps.sliceHeight() + y);
                if (label < counts.size())
                    ++counts[label];
            }
    return counts;
}

} // namespace

std::shared_ptr<const void> EngineMemoryReturns::lent(const std::shared_ptr<EngineMemoryReturns>& returns,
                                                      std::shared_ptr<const void> memory)
{
    if (!memory)
        return memory;
    const void* data = memory.get();
    auto* held = new std::shared_ptr<const void>(std::move(memory));
    return std::shared_ptr<const void>(data, [returns, held](const void*) {
        {
            const std::lock_guard<std::mutex> lock(returns->mutex_);
            returns->returned_.push_back(std::move(*held));
        }
        delete held;
    });
}

void EngineMemoryReturns::releaseReturned()
{
    std::vector<std::shared_ptr<const void>> returned;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        returned.swap(returned_);
    }
    returned.clear(); // here, on the engine thread
}

EngineWorker::EngineWorker(QObject* parent) : QObject(parent) {}

EngineWorker::~EngineWorker()
{
    memoryReturns_->releaseReturned();
}

void EngineWorker::supersede(quint64 id)
{
    latestId_.store(id);
    cancel_.store(true);
}

void EngineWorker::cancel() { cancel_.store(true); }

void EngineWorker::listDevices(const QString& preferredSpec)
{
    DeviceList list;
    try {
        devices_ = rgx::listDevices();
        list.devices = devices_;
    } catch (const std::exception& error) {
        list.problem = QStringLiteral("Could not list OpenCL devices: %1").arg(error.what());
        emit devicesListed(list);
        return;
    }
    if (list.devices.empty()) {
        list.problem = QStringLiteral("No OpenCL device found. Install an OpenCL runtime "
                                      "(for example Debian's pocl-opencl-icd).");
        emit devicesListed(list);
        return;
    }
    try {
        list.defaultId = selectDevice(preferredSpec.toStdString()).id();
    } catch (const std::exception& error) {
        if (!preferredSpec.isEmpty())
            list.problem = QStringLiteral("Device \"%1\": %2; using the default device instead.")
                               .arg(preferredSpec, QString::fromUtf8(error.what()));
        try {
            list.defaultId = selectDevice(std::string()).id();
        } catch (const std::exception&) {
            list.defaultId = list.devices.front().id();
        }
    }
    emit devicesListed(list);
}

ComputeDevice& EngineWorker::deviceFor(const std::string& id)
{
    auto open = openDevices_.find(id);
    if (open != openDevices_.end())
        return *open->second;
    if (devices_.empty())
        devices_ = rgx::listDevices();
    for (const DeviceInfo& info : devices_) {
        if (info.id() == id) {
            emit message(QStringLiteral("Opening %1 (%2)").arg(text(info.name), text(info.id())));
            auto device = std::make_unique<ComputeDevice>(info);
            ComputeDevice& reference = *device;
            const QString name = text(info.name);
            reference.programs().setBuildListener(
                {[this, name](const std::string& file) { emit programBuilding(text(file), name); },
                 [this, name](const std::string& file, double seconds) {
                     ++built_;
                     builtNs_ += qint64(seconds * 1e9);
                     emit programBuilt(text(file), name, seconds);
                 }});
            openDevices_[id] = std::move(device);
            return reference;
        }
    }
    throw InputError("no OpenCL device with id " + id);
}

DeviceSession& EngineWorker::sessionFor(const std::string& deviceId, const std::shared_ptr<const LumaImage>& image)
{
    if (!session_ || sessionDevice_ != deviceId || session_->sharedImage() != image) {
        session_.reset(); // the old session's buffers go before the new one's are made
        session_ = std::make_unique<DeviceSession>(deviceFor(deviceId), image);
        sessionDevice_ = deviceId;
    }
    return *session_;
}

GrowResultPtr EngineWorker::referenceFor(const RunRequest& request)
{
    const std::string key = inputsKey(request);
    for (const CachedReference& cached : references_)
        if (cached.key == key && cached.image == request.image)
            return cached.result;
    QElapsedTimer clock;
    clock.start();
    GrowResultPtr result = runReferencePipeline(*request.image, request.seeds, request.params);
    emit message(QStringLiteral("CPU reference computed in %1 ms").arg(clock.elapsed()));
    references_.push_back({request.image, key, result});
    while (references_.size() > 4)
        references_.pop_front();
    return result;
}

namespace {

// A long run sends a picture of its regions every partialPictureMs, of at
// most partialPictureLimit pixels (every few pixels of a larger image).
constexpr qint64 partialPictureMs = 250;
constexpr uint64_t partialPictureLimit = uint64_t(2048) * 2048; // a preview: more than a screen shows

// The maps so far as a result of their own, in box form as the engine
// packed them (every step-th pixel of every step-th row of a large image):
// nothing of the image's size is made for them. Their memory goes back to
// the engine thread when the GUI is done with it.
GrowResultPtr partialPicture(const BoxMaps& maps, uint32_t iteration, size_t regionCount,
                             const std::shared_ptr<EngineMemoryReturns>& returns)
{
    auto partial = std::make_shared<GrowResult>();
    partial->width = maps.width;
    // A volume's maps stack its slices one below the other.
    partial->depth = std::max(1, maps.depth);
    partial->height = maps.height / partial->depth;
    partial->box = maps;
    partial->box.storage = EngineMemoryReturns::lent(returns, maps.storage);
    partial->regions.resize(regionCount);
    partial->iterations = iteration;
    return partial;
}

// What a run hands the engine beside the request: Cancel, the time limit,
// and the feedback of a long run as the worker's signals: progress (a few
// a second are enough for the status bar and do not flood the GUI's event
// queue) and, once a run has lasted a while, pictures of its regions.
class LiveFeedback {
public:
    LiveFeedback(EngineWorker& worker, const RunRequest& request, const std::atomic<bool>& cancel) : id_(request.id)
    {
        control_.cancel = &cancel;
        control_.timeoutSeconds = request.timeoutSeconds;
        sinceProgress_.start();
        sincePartial_.start();
        control_.progress = [this, &worker](uint32_t iteration, uint64_t frontierSize) {
            if (firstProgress_ || sinceProgress_.elapsed() >= 40) {
                firstProgress_ = false;
                sinceProgress_.restart();
                emit worker.runProgress(id_, iteration, frontierSize);
            }
        };
        // On images over partialPictureLimit pixels every step-th pixel of
        // every step-th row (the window scales them back up). A volume's
        // rows are its slices stacked, which steps would mix: its pictures
        // are whole, up to four times the limit (256^3 voxels); a larger
        // volume's run shows its progress alone.
        int step = 1;
        const bool volume = request.image->isVolume();
        while (!volume && request.image->pixelCount() / uint64_t(step * step) > partialPictureLimit)
            ++step;
        control_.partialStep = step;
        const bool pictures = !volume || request.image->pixelCount() <= 4 * partialPictureLimit;
        control_.partialWanted = [this, pictures] { return pictures && sincePartial_.elapsed() >= partialPictureMs; };
        control_.partial = [this, &worker, regionCount = request.seeds.size(),
                            returns = worker.memoryReturns()](const BoxMaps& maps, uint32_t iteration) {
            emit worker.runPartial(id_, partialPicture(maps, iteration, regionCount, returns));
            sincePartial_.restart();
        };
    }
    LiveFeedback(const LiveFeedback&) = delete;
    LiveFeedback& operator=(const LiveFeedback&) = delete;

    const RunControl& control() const { return control_; }

private:
    const quint64 id_;
    RunControl control_;
    QElapsedTimer sinceProgress_;
    QElapsedTimer sincePartial_;
    bool firstProgress_ = true;
};

} // namespace

void EngineWorker::run(const RunRequest& request)
{
    // A newer request is already queued: this one's answer would be thrown away.
    if (request.id != latestId_.load()) {
        emit runSkipped(request.id);
        return;
    }
    cancel_.store(false);
    // Checked again after clearing the flag: a request that arrived in between
    // set the flag before we cleared it.
    if (request.id != latestId_.load()) {
        emit runSkipped(request.id);
        return;
    }
    emit runStarted(request.id);
    // The box maps the GUI let go of since the last run: back to the session
    // before it looks for free pinned memory.
    memoryReturns_->releaseReturned();

    RunFailure failure;
    failure.id = request.id;
    try {
        // The request goes one way: to the session of its image and device
        // (the device pipeline), which runs the stages, each its driver.
        RunOutcome outcome;
        outcome.times.startedNs = steadyNs();
        DeviceSession& session = sessionFor(request.deviceId, request.image);
        const LiveFeedback feedback(*this, request, cancel_);
        outcome.request = request;
        if (request.params.postfilter.enabled) {
            // The postfilter works on the full maps.
            outcome.result = session.run(request.seeds, request.params, request.variant, feedback.control());
            outcome.times.engineDoneNs = steadyNs();
        } else {
            // The box of the classified pixels, as the device packed it: what
            // the view draws from, whatever the image's size.
            const ClickResultPtr click = session.click(request.seeds, request.params, request.variant, feedback.control());
            outcome.times.engineDoneNs = steadyNs();
            GrowResult boxResult = click->toBoxResult();
            boxResult.box.storage = EngineMemoryReturns::lent(memoryReturns_, std::move(boxResult.box.storage));
            outcome.result = std::make_shared<const GrowResult>(std::move(boxResult));
        }
        if (request.variant.wrongOnPurpose())
            outcome.labelCounts = countLabels(*outcome.result);
        if (request.withReference && !cancel_.load()) {
            // The comparison needs every pixel: the one place an edit makes full maps.
            outcome.reference = referenceFor(request);
            outcome.diff = std::make_shared<const ResultDiff>(
                compareResults(*outcome.reference, *withFullMaps(outcome.result)));
        }
        outcome.times.sentNs = steadyNs();
        emit runFinished(outcome);
        return;
    } catch (const RunInterrupted& error) {
        failure.kind = cancel_.load() ? FailureKind::Cancelled : FailureKind::TimedOut;
        failure.message = QString::fromUtf8(error.what());
    } catch (const OpenClError& error) {
        failure.kind = FailureKind::OpenCl;
        failure.message = QString::fromUtf8(error.what());
        failure.buildLog = QString::fromStdString(error.buildLog());
    } catch (const InputError& error) {
        failure.kind = FailureKind::Input;
        failure.message = QString::fromUtf8(error.what());
    } catch (const cl::Error& error) {
        // The engine wraps OpenCL errors; this catches any that slip through.
        failure.kind = FailureKind::OpenCl;
        failure.message = QStringLiteral("%1 failed: %2")
                              .arg(QString::fromUtf8(error.what()), text(openClErrorName(error.err())));
    } catch (const std::exception& error) {
        failure.kind = FailureKind::Other;
        failure.message = QString::fromUtf8(error.what());
    }
    emit runFailed(failure);
}

void EngineWorker::computeReference(const RunRequest& request, GrowResultPtr against)
{
    try {
        GrowResultPtr reference = referenceFor(request);
        auto diff = std::make_shared<const ResultDiff>(compareResults(*reference, *withFullMaps(against)));
        emit referenceReady(request.id, reference, diff);
    } catch (const std::exception& error) {
        RunFailure failure;
        failure.id = request.id;
        failure.kind = FailureKind::Input;
        failure.message = QStringLiteral("CPU reference: %1").arg(QString::fromUtf8(error.what()));
        emit runFailed(failure);
    }
}

void EngineWorker::runLab(const LabRequest& request)
{
    LabOutcome outcome;
    outcome.request = request;
    try {
        ComputeDevice& device = deviceFor(request.deviceId);
        const std::vector<uint32_t> values = makeSortedValues(request.size, request.seed);
        const std::vector<uint32_t> keys = makeSearchKeys(request.keys, values, request.seed + 1);
        cancel_.store(false);
        RunControl control;
        control.cancel = &cancel_;
        auto result = std::make_shared<BinarySearchResult>(runBinarySearchLab(device, values, keys, request.driver, control));
        const std::vector<uint32_t> expected = lowerBoundsReference(values, keys);
        for (size_t k = 0; k < expected.size(); ++k)
            outcome.differingKeys += k >= result->positions.size() || result->positions[k] != expected[k];
        outcome.result = std::move(result);
    } catch (const OpenClError& error) {
        outcome.error = QString::fromUtf8(error.what());
        if (!error.buildLog().empty())
            outcome.error += QLatin1Char('\n') + QString::fromStdString(error.buildLog());
    } catch (const std::exception& error) {
        outcome.error = QString::fromUtf8(error.what());
    }
    emit labFinished(outcome);
}

EngineThread::EngineThread(QObject* parent) : QObject(parent)
{
    registerEngineMetaTypes();
    qRegisterMetaType<std::shared_ptr<const rgx::ResultDiff>>("std::shared_ptr<const rgx::ResultDiff>");
    worker_ = new EngineWorker;
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    thread_.setObjectName(QStringLiteral("rgx-engine"));
    thread_.start();
}

EngineThread::~EngineThread()
{
    worker_->cancel();
    thread_.quit();
    thread_.wait();
}

void EngineThread::listDevices(const QString& preferredSpec)
{
    EngineWorker* worker = worker_;
    QMetaObject::invokeMethod(
        worker_, [worker, preferredSpec] { worker->listDevices(preferredSpec); }, Qt::QueuedConnection);
}

void EngineThread::submit(const RunRequest& request)
{
    worker_->supersede(request.id);
    EngineWorker* worker = worker_;
    QMetaObject::invokeMethod(
        worker_, [worker, request] { worker->run(request); }, Qt::QueuedConnection);
}

void EngineWorker::makeResident(const std::string& deviceId, std::shared_ptr<const LumaImage> image)
{
    // A click that comes meanwhile waits for this: it would make the same session.
    try {
        const double milliseconds = sessionFor(deviceId, image).makeResident();
        emit message(QStringLiteral("The image is on the device, ready for a click (%1 ms)").arg(milliseconds, 0, 'f', 0));
        emit sessionResident(milliseconds);
    } catch (const std::exception& error) {
        // The first click makes the session again, and says what fails.
        emit message(QStringLiteral("The image could not be made resident ahead: %1").arg(QString::fromUtf8(error.what())));
    }
}

namespace {

// The corner of `image` a warm-up runs on: the same kind of image (2D or a
// volume, its bit depth, its luma a byte a pixel or two) at most 32 pixels
// a side.
LumaImage warmUpCorner(const LumaImage& image)
{
    LumaImage corner;
    corner.width = std::min(image.width, 32);
    corner.height = std::min(image.height, 32);
    corner.depth = std::min(image.depth, image.isVolume() ? 32 : 1);
    corner.bitDepth = image.bitDepth;
    corner.colour = image.colour;
    corner.volume = image.volume;
    corner.luma.reserve(corner.pixelCount());
    for (int z = 0; z < corner.depth; ++z)
        for (int y = 0; y < corner.height; ++y)
            for (int x = 0; x < corner.width; ++x)
                corner.luma.push_back(image.at(x, y, z));
    if (!image.lumaBytes.empty())
        keepLumaBytes(corner);
    return corner;
}

// `count` seeds (1 to 16) on distinct pixels of the corner, along a diagonal.
std::vector<Seed> warmUpSeeds(const LumaImage& corner, size_t count)
{
    // At most as many as the corner's longer side: one coordinate tells them apart.
    const int n = int(std::clamp<size_t>(count, 1, size_t(std::min(16, std::max(corner.width, corner.height)))));
    std::vector<Seed> seeds;
    for (int i = 0; i < n; ++i) {
        const int x = int(int64_t(corner.width) * i / n), y = int(int64_t(corner.height) * (n - 1 - i) / n);
        const int z = int(int64_t(corner.depth) * i / n);
        seeds.push_back(corner.isVolume() ? Seed{x, y, z} : Seed{x, y});
    }
    return seeds;
}

} // namespace

void EngineWorker::warmUp(const RunRequest& request)
{
    // As run() does: a cancel left from an earlier run does not stop this,
    // a run asked for since does.
    cancel_.store(false);
    if (request.id != latestId_.load())
        return;
    QElapsedTimer clock;
    clock.start();
    built_ = 0;
    builtNs_ = 0;
    try {
        ComputeDevice& device = deviceFor(request.deviceId);
        const auto corner = std::make_shared<const LumaImage>(warmUpCorner(*request.image));
        const std::vector<Seed> seeds = warmUpSeeds(*corner, request.seeds.size());
        RunControl control;
        control.cancel = &cancel_;
        control.timeoutSeconds = request.timeoutSeconds;
        DeviceSession session(device, corner);
        if (request.params.postfilter.enabled)
            session.run(seeds, request.params, request.variant, control);
        else
            session.click(seeds, request.params, request.variant, control);
    } catch (const RunInterrupted&) {
        // A run was asked for: it goes on from what was built.
        return;
    } catch (const std::exception& error) {
        // The run itself says what fails, in its own words.
        emit message(QStringLiteral("The kernels could not be built ahead: %1").arg(QString::fromUtf8(error.what())));
        return;
    }
    QString deviceName = text(request.deviceId);
    for (const DeviceInfo& info : devices_)
        if (info.id() == request.deviceId)
            deviceName = text(info.name);
    emit kernelsWarmed(text(request.variant.text()), deviceName, built_.load(), double(builtNs_.load()) / 1e9,
                       double(clock.nsecsElapsed()) / 1e9);
}

void EngineThread::cancel() { worker_->cancel(); }

void EngineThread::makeResident(const std::string& deviceId, std::shared_ptr<const LumaImage> image)
{
    EngineWorker* worker = worker_;
    QMetaObject::invokeMethod(
        worker_, [worker, deviceId, image] { worker->makeResident(deviceId, image); }, Qt::QueuedConnection);
}

void EngineThread::warmUp(const RunRequest& request)
{
    EngineWorker* worker = worker_;
    QMetaObject::invokeMethod(
        worker_, [worker, request] { worker->warmUp(request); }, Qt::QueuedConnection);
}

void EngineThread::requestReference(const RunRequest& request, GrowResultPtr against)
{
    EngineWorker* worker = worker_;
    QMetaObject::invokeMethod(
        worker_, [worker, request, against] { worker->computeReference(request, against); },
        Qt::QueuedConnection);
}

void EngineThread::runLab(const LabRequest& request)
{
    EngineWorker* worker = worker_;
    QMetaObject::invokeMethod(
        worker_, [worker, request] { worker->runLab(request); }, Qt::QueuedConnection);
}

} // namespace rgx::ui
