// Runs of the pipeline as the window asks for them: requests to the engine
// thread, cancel, live runs (a newer request supersedes the one in flight),
// the CPU reference of the corruption view and the runs kept for comparison;
// the device list, race checks and the binary-search lab travel the same way.
// The GUI thread never calls OpenCL: everything here is a queued request to
// EngineThread and an answer by signal.
#pragma once

#include "EngineWorker.h"
#include "RaceCheckWorker.h"
#include <QObject>
#include <QPoint>
#include <QTimer>
#include <optional>
#include <vector>

namespace rgx::ui {

class DevicePanel;
class Document;
class LabPanel;
class LogPanel;
class Notices;
class ParametersPanel;
class TimingPanel;

class RunController : public QObject {
    Q_OBJECT
public:
    // What a run reads its choices from and reports to.
    struct Panels {
        DevicePanel* devices = nullptr;
        ParametersPanel* parameters = nullptr;
        TimingPanel* timings = nullptr;
        LabPanel* lab = nullptr;
    };
    struct Options {
        QString preferredDevice; // --device; empty: the saved one, else the default
        bool restoreDevice = true; // choose the device saved in the settings
        QString cliPath;         // the race check's rgx-cli; empty: beside this executable
    };
    RunController(Document* document, const Panels& panels, Notices* notices, const Options& options,
                  QObject* parent = nullptr);
    ~RunController() override;

    // Asks the engine thread for the devices; devicesListed answers.
    void listDevices();
    bool devicesReady() const { return devicesReady_; }
    bool isRunning() const { return running_; }
    bool isCheckingRaces() const { return raceChecking_; }
    QString lastRaceReport() const { return lastRaceReport_; }

    // The shown result, the request it answers, and (corruption view) its
    // CPU reference and where the two differ.
    GrowResultPtr result() const { return result_; }
    const RunRequest& resultRequest() const { return resultRequest_; }
    GrowResultPtr reference() const { return reference_; }
    std::shared_ptr<const ResultDiff> diff() const { return diff_; }

    // Selects a device by id, or remembers it until the list comes.
    bool selectDevice(const QString& id);
    // A session's device: selected when it is here (else the log says which
    // one is used instead), or when the list comes.
    void chooseSessionDevice(const std::string& id, const std::string& name);
    bool setVariantText(const QString& text);
    // Live segmentation turns itself on while a run (request to overlay
    // drawn) takes less than this (default 100 ms); tests set it to show the
    // rule on machines of any speed.
    void setLiveLimitMs(double milliseconds) { liveLimitMs_ = milliseconds; }
    // The window reports when a result's overlay is drawn (overlayDrawn), so
    // that an edit ends there; without it an edit ends with its result.
    void setDrawReports(bool on) { drawReports_ = on; }
    // The overlay of the newest result was drawn: the view's render and paint took these.
    void overlayDrawn(double overlayMs, double paintMs);
    // Where the last edit's time went.
    const EditTimes& lastEdit() const { return lastEdit_; }
    // Why the shown result no longer matches the panels (device, variant,
    // parameters or seeds changed, and no live run is on its way); empty when it does.
    QString stale() const { return stale_; }

public slots:
    // A new image or volume in the document.
    void imageOpened();
    void runNow();
    void cancelRun();
    void keepRun();
    // Runs the current variant and parameters under Oclgrind on a small part
    // of the image, on the engine thread; raceCheckFinished answers.
    void checkRaces();
    // The next race checks report same-value write-write races too (Oclgrind --uniform-writes).
    void setRaceCheckUniformWrites(bool on) { raceCheckUniformWrites_ = on; }
    void runLab(quint64 size, quint64 keys, rgx::Driver driver);
    // The corruption view wants the CPU reference of every result.
    void setWantsReference(bool on);
    // Live runs: a choice by hand holds; until then live follows the latency.
    void setLiveChoice(bool on);
    void seedDragged(int index, QPoint pixel);
    // The same for a volume's seed, dragged to a voxel.
    void seedDraggedTo(int index, rgx::Seed voxel);
    void seedDragFinished();
    // The image closed: a run still going is stopped and its answer ignored.
    void reset();
    // The window closes: whatever the engine does now is stopped.
    void stopEngine() { engine_.cancel(); }

signals:
    void devicesListed();
    // A warm-up of the kernels (warmKernels) ended on the engine thread.
    void kernelsWarmed();
    void runSubmitted(quint64 id);
    void runStarted(quint64 id);
    // A new result (or, after reset, an empty outcome), before runFinished.
    void resultChanged(const rgx::ui::RunOutcome& outcome);
    void referenceChanged(rgx::GrowResultPtr reference, std::shared_ptr<const rgx::ResultDiff> diff);
    // A running run's regions so far.
    void partialResult(rgx::GrowResultPtr partial);
    void runFinished(quint64 id);
    // Live segmentation turned itself off, and why (the status bar says so).
    void liveTurnedOff(const QString& why);
    // The shown result became stale (with the reason), or current again (empty).
    void staleChanged(const QString& reason);
    void runFailed(const QString& message);
    void referenceReady();
    // The race check's reports themselves, before raceCheckFinished.
    void racesChecked(const rgx::ui::RaceCheckOutcome& outcome);
    void raceCheckFinished(const QString& report);
    // The opened volume is on the device (milliseconds it took).
    void volumeResident(double milliseconds);
    void labFinished(bool succeeded);
    // The run status line of the status bar.
    void statusChanged(const QString& text);
    // Running, checking, device list or result changed: actions to update.
    void stateChanged();

private:
    void connectEngine();
    void onDevicesListed(const DeviceList& list);
    void onRunFinished(const RunOutcome& outcome);
    void onRunFailed(const RunFailure& failure);
    void onReferenceReady(quint64 runId, GrowResultPtr reference, std::shared_ptr<const ResultDiff> diff);
    void onRaceCheckFinished(const RaceCheckOutcome& outcome);
    void onLabFinished(const LabOutcome& outcome);
    void logResult(const RunOutcome& outcome);
    // measured: the overlay was drawn (or nothing will draw it), so the
    // latency counts for live segmentation's rule.
    void finishEdit(double overlayMs, double paintMs, bool measured = true);
    void followLatency(double latencyMs);
    QString staleReason() const;
    void checkStale();
    void requestReferenceIfNeeded();
    QString runLabel(const RunRequest& request) const;
    QString cliPath() const;
    LogPanel* log() const;

    Document* document_;
    Panels panels_;
    Notices* notices_;
    Options options_;
    EngineThread engine_;
    RaceCheckThread raceChecks_; // Oclgrind on a thread of its own: runs go on meanwhile

    bool devicesReady_ = false;
    bool running_ = false;
    // What the active run waited for programs compiled from source, and
    // the program being compiled now (empty: none).
    double buildMs_ = 0;
    QString building_;
    bool pendingRun_ = false;
    std::string pendingDeviceId_;
    std::string pendingDeviceName_;
    quint64 nextRunId_ = 0;
    quint64 activeRunId_ = 0;
    // Live segmentation: the user's own choice (none: on while a run of this
    // image takes under liveLimitMs), the seeds of a drag in progress, a
    // drag run waiting for the one in flight, and when each request left.
    std::optional<bool> liveChoice_;
    double liveLimitMs_ = 100.0;
    std::optional<std::vector<Seed>> dragSeeds_;
    bool dragRunPending_ = false;
    bool dragRan_ = false;
    qint64 requestNs_ = 0;
    // The edit whose result is shown but not yet drawn, and the limit on waiting for its paint.
    std::optional<EditTimes> pendingEdit_;
    qint64 pendingRequestNs_ = 0;
    qint64 pendingReceivedNs_ = 0;
    qint64 pendingShownNs_ = 0; // 0: the result was drawn before its showing ended
    QTimer paintTimeout_;
    bool drawReports_ = false;
    std::string lastShape_;          // device, variant, prefilter and image of the last result
    bool pendingFirstOfShape_ = false;
    QString stale_;
    EditTimes lastEdit_;
    // Live runs: a seed edit runs at once (queueLiveRun: the edits of one
    // event coalesce), a parameter edit after a short pause for typing.
    QTimer autoRunTimer_;
    QTimer warmTimer_;
    std::string warmedKey_; // the choices of the last warm-up asked for
    bool runQueued_ = false;
    void queueLiveRun();

    GrowResultPtr result_;
    RunRequest resultRequest_;
    GrowResultPtr reference_;
    std::shared_ptr<const ResultDiff> diff_;
    bool wantsReference_ = false;
    bool referencePending_ = false;

    bool raceChecking_ = false;
    bool raceCheckUniformWrites_ = false;
    quint64 nextRaceCheckId_ = 0;
    QString lastRaceReport_;
    // The race check of `request`'s variant, seeds and parameters on the
    // document's image; automatic: started by the corruption view (no notice).
    void startRaceCheck(const RunRequest& request, bool automatic);
    // The corruption view of a wrong-on-purpose run checks its races by
    // itself, once per variant, image, seeds and parameters (where Oclgrind
    // is installed), so that the markers appear without being asked for.
    void checkRacesOfShownRun();
    // A volume just opened goes onto the chosen device before the first
    // click (its upload and host memory take longer than a click).
    void makeVolumeResident();
    // The programs a run with the current choices would build, built ahead
    // on the engine thread (EngineWorker::warmUp), soon after the image,
    // the device, the variant, the parameters or the seeds changed, unless
    // a run comes first or they were built ahead for the same choices.
    void warmKernelsSoon();
    void warmKernels();
    std::string autoCheckedKey_;
    quint64 nextLabId_ = 0;
};

} // namespace rgx::ui
