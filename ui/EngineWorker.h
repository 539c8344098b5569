// The engine worker: the one object that calls OpenCL. It lives on its own
// QThread (EngineThread), takes requests by queued calls and answers by signals.
#pragma once

#include "DeviceSession.h"
#include "EngineTypes.h"
#include <QObject>
#include <QThread>
#include <atomic>
#include <deque>
#include <map>
#include <mutex>
#include <vector>
#include <memory>
#include <string>

namespace rgx::ui {

// Engine memory that results handed to the GUI keep alive (a click's box
// maps may sit in pinned memory the device maps): when the GUI lets go of
// it, it comes here, and the engine thread releases it, so that the GUI
// thread never makes an OpenCL call (an unmap waits for the device's queue).
class EngineMemoryReturns {
public:
    // `memory`, kept alive by the returned pointer; when that goes, `memory`
    // waits here for releaseReturned().
    static std::shared_ptr<const void> lent(const std::shared_ptr<EngineMemoryReturns>& returns,
                                            std::shared_ptr<const void> memory);
    // On the engine thread: drops what came back.
    void releaseReturned();

private:
    std::mutex mutex_;
    std::vector<std::shared_ptr<const void>> returned_;
};

class EngineWorker : public QObject {
    Q_OBJECT
public:
    explicit EngineWorker(QObject* parent = nullptr);
    ~EngineWorker() override;

    // Thread-safe: marks `id` as the newest request and stops whatever runs,
    // so that a queued older request is skipped instead of run.
    void supersede(quint64 id);
    // Thread-safe: stops the run in progress (the engine checks between launches).
    void cancel();

    // These run on the worker thread; call them through EngineThread.
    void listDevices(const QString& preferredSpec);
    void run(const rgx::ui::RunRequest& request);
    void computeReference(const rgx::ui::RunRequest& request, rgx::GrowResultPtr against);
    // The session of this image on this device made resident before its
    // first click (DeviceSession::makeResident); answers sessionResident.
    void makeResident(const std::string& deviceId, std::shared_ptr<const rgx::LumaImage> image);
    // The programs a run of `request` would build, built ahead: a run of
    // its variant and parameters on a corner of its image (at most 32
    // pixels a side) with as many seeds (at most 16), whose result is
    // dropped, so that the first click on the image waits for no compiler
    // (PoCL: seconds from source, and its first launches of each kernel).
    // Skipped where a run was asked for since `request.id` (it builds what
    // it needs); stopped between launches by a run asked for meanwhile.
    // Answers kernelsWarmed.
    void warmUp(const rgx::ui::RunRequest& request);
    void runLab(const rgx::ui::LabRequest& request);
    const std::shared_ptr<EngineMemoryReturns>& memoryReturns() const { return memoryReturns_; }

signals:
    void devicesListed(const rgx::ui::DeviceList& list);
    void runStarted(quint64 id);
    void runProgress(quint64 id, quint32 iteration, quint64 frontierSize);
    // A long run's regions so far, a few times a second: maps of the image,
    // or of every n-th pixel of a large one (a result n times smaller each
    // way); stamps up to `iteration`, 0xFFFFFFFF when the driver does not know it.
    void runPartial(quint64 id, rgx::GrowResultPtr partial);
    void runFinished(const rgx::ui::RunOutcome& outcome);
    void runFailed(const rgx::ui::RunFailure& failure);
    void runSkipped(quint64 id);
    void referenceReady(quint64 runId, rgx::GrowResultPtr reference,
                        std::shared_ptr<const rgx::ResultDiff> diff);
    void message(const QString& text);
    // A program is being compiled from source on a device (its first use
    // with these options: seconds on a CPU runtime, and Cancel waits for
    // it), and then was, in `seconds`.
    void programBuilding(const QString& fileName, const QString& deviceName);
    void programBuilt(const QString& fileName, const QString& deviceName, double seconds);
    // A warm-up ended: `built` programs compiled from source in
    // `buildSeconds`, the whole warm-up in `seconds`.
    void kernelsWarmed(const QString& variantText, const QString& deviceName, int built, double buildSeconds,
                       double seconds);
    void sessionResident(double milliseconds);
    void labFinished(const rgx::ui::LabOutcome& outcome);

private:
    ComputeDevice& deviceFor(const std::string& id);
    // The resident session of this image on this device (made on first use;
    // another image or device replaces it, releasing the old one's memory).
    DeviceSession& sessionFor(const std::string& deviceId, const std::shared_ptr<const LumaImage>& image);
    GrowResultPtr referenceFor(const RunRequest& request);

    std::atomic<bool> cancel_{false};
    // The programs compiled from source (count, nanoseconds) since a warm-up
    // began; a session's upload thread may build one too.
    std::atomic<int> built_{0};
    std::atomic<qint64> builtNs_{0};
    std::atomic<quint64> latestId_{0};
    std::vector<DeviceInfo> devices_;
    // Opened lazily, one per device id, and kept: building programs is the slow part.
    std::map<std::string, std::unique_ptr<ComputeDevice>> openDevices_;
    std::unique_ptr<DeviceSession> session_;
    std::string sessionDevice_;
    // The CPU reference does not depend on device or variant, so comparing
    // variants on the same inputs computes it once.
    struct CachedReference {
        std::shared_ptr<const LumaImage> image; // kept alive so its address stays unique
        std::string key;
        GrowResultPtr result;
    };
    std::deque<CachedReference> references_;
    std::shared_ptr<EngineMemoryReturns> memoryReturns_ = std::make_shared<EngineMemoryReturns>();
};

// Owns the worker thread; the GUI talks to the engine only through this.
class EngineThread : public QObject {
    Q_OBJECT
public:
    explicit EngineThread(QObject* parent = nullptr);
    ~EngineThread() override;

    EngineWorker* worker() const { return worker_; }

    void listDevices(const QString& preferredSpec);
    // Queues the run and stops any older one.
    void submit(const RunRequest& request);
    void cancel();
    void requestReference(const RunRequest& request, GrowResultPtr against);
    void makeResident(const std::string& deviceId, std::shared_ptr<const LumaImage> image);
    void warmUp(const RunRequest& request);
    void runLab(const LabRequest& request);

private:
    QThread thread_;
    EngineWorker* worker_ = nullptr;
};

} // namespace rgx::ui

Q_DECLARE_METATYPE(std::shared_ptr<const rgx::ResultDiff>)
