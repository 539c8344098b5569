// The race check's worker: runs rgx-cli under Oclgrind (engine/RaceCheck)
// on a thread of its own, so that a check that takes a minute never holds
// up the runs on the engine thread. It makes no OpenCL call itself: the
// checked run happens in the rgx-cli process.
#pragma once

#include "EngineTypes.h"
#include <QObject>
#include <QThread>
#include <atomic>

namespace rgx::ui {

class RaceCheckWorker : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    // On the worker's thread: waits for Oclgrind (up to minutes).
    void check(const rgx::ui::RaceCheckRequest& request);
    // Thread-safe: the check in progress, and any queued, stop.
    void stop() { stop_ = true; }

signals:
    void started(quint64 id);
    void finished(const rgx::ui::RaceCheckOutcome& outcome);

private:
    std::atomic<bool> stop_{false};
};

// Owns the race-check thread; checks queue on it one after another.
class RaceCheckThread : public QObject {
    Q_OBJECT
public:
    explicit RaceCheckThread(QObject* parent = nullptr);
    ~RaceCheckThread() override;

    RaceCheckWorker* worker() const { return worker_; }
    void check(const RaceCheckRequest& request);

private:
    QThread thread_;
    RaceCheckWorker* worker_ = nullptr;
};

} // namespace rgx::ui
