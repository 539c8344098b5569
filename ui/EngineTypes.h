// Requests to and answers from the engine worker thread. They are plain
// values, so they cross threads by queued signals without shared mutable state.
#pragma once

#include "Device.h"
#include "Pipeline.h"
#include "RaceCheck.h"
#include "Result.h"
#include "lab/BinarySearchLab.h"
#include <QMetaType>
#include <QString>
#include <memory>
#include <string>
#include <vector>

namespace rgx::ui {

// One run of the pipeline on one device, as the GUI asks for it.
struct RunRequest {
    quint64 id = 0;
    std::shared_ptr<const LumaImage> image;
    std::vector<Seed> seeds;
    PipelineParams params;
    std::string deviceId;          // "P:I"
    GrowVariant variant;
    double timeoutSeconds = 120.0;
    bool withReference = false;    // also compute the CPU reference and the diff
};

// When the worker took a request up, when the engine's call returned and when
// the result was ready to send (steady-clock nanoseconds, comparable across
// threads): with the GUI's own clock readings, where an edit's time went.
struct WorkerTimes {
    qint64 startedNs = 0;
    qint64 engineDoneNs = 0;
    qint64 sentNs = 0;
};

// What a run's result depends on besides the device and the variant: the
// image, the seeds and the parameters (the CPU reference's cache key, and
// what makes two runs' times comparable).
std::string inputsKey(const RunRequest& request);
// The parameters alone, as text (equal texts: equal parameters); the seeds alike.
std::string paramsKey(const PipelineParams& params);
std::string seedsKey(const std::vector<Seed>& seeds);

// A finished run: the device result and, when asked, the CPU reference and
// where the two differ.
struct RunOutcome {
    RunRequest request;
    GrowResultPtr result;
    GrowResultPtr reference;
    std::shared_ptr<const ResultDiff> diff;
    // Pixels of each label, counted on the maps where the regions' own counts
    // may be wrong (a wrong-on-purpose variant); empty otherwise.
    std::vector<uint64_t> labelCounts;
    WorkerTimes times;
};

// Where one edit's time went, request to overlay drawn, in milliseconds
// (rgx_gui_bench prints these; the status bar gives the total).
struct EditTimes {
    quint64 runId = 0;
    double engineMs = 0;   // the device session's call: the run and its read-back
    double resultMs = 0;   // the result built on the host (worker thread, after the engine)
    double queueMs = 0;    // waiting in Qt's event queues: to the worker, and back
    double toWorkerMs = 0;  // from the request to the worker taking it up (part of the queues)
    double paintWaitMs = 0; // from the result shown to its paint event (part of the queues)
    double showMs = 0;     // the GUI thread's handling of the result before the paint (panels, tables)
    double overlayMs = 0;  // the overlay rendered for the view
    double paintMs = 0;    // the rest of the view's paint
    double totalMs = 0;    // request to overlay drawn
    double afterOverlayMs = 0; // the GUI thread's work after it: timing charts, log
    double outsideEngineMs() const { return totalMs - engineMs; }
};

// Steady-clock nanoseconds (the same clock on every thread).
qint64 steadyNs();

// The answer to a device listing: the devices and the one to start with.
struct DeviceList {
    std::vector<DeviceInfo> devices;
    std::string defaultId;
    QString problem;               // empty when the listing went as asked
};

// Why a run did not produce a result.
enum class FailureKind { Input, OpenCl, Cancelled, TimedOut, Other };

struct RunFailure {
    quint64 id = 0;
    FailureKind kind = FailureKind::Other;
    QString message;
    QString buildLog;              // the compiler's log for a failed build
};

QString failureKindName(FailureKind kind);

// A race check: the pipeline run by rgx-cli under Oclgrind on a cut-down
// part of the image (rgx::checkRaces).
struct RaceCheckRequest {
    quint64 id = 0;
    std::shared_ptr<const LumaImage> image;
    std::vector<Seed> seeds;
    std::vector<std::string> segmentOptions; // rgx-cli segment options: --mode ..., --variant ...
    QString variantText;
    QString cliPath;                         // the rgx-cli executable
    bool uniformWrites = false;              // Oclgrind --uniform-writes: same-value write-write races too
    bool automatic = false;                  // started by the corruption view, not asked for
};

struct RaceCheckOutcome {
    quint64 id = 0;
    QString variantText;
    bool uniformWrites = false;                   // same-value write-write races were reported too
    bool automatic = false;                       // started by the corruption view
    int left = 0, top = 0, width = 0, height = 0; // the part of the image checked
    size_t seedCount = 0;                         // seeds inside that part
    std::vector<RaceReport> races;
    QString error;                                // empty when Oclgrind ran
    double seconds = 0;
};

// The binary-search lab (rgx::runBinarySearchLab) on one device.
struct LabRequest {
    quint64 id = 0;
    std::string deviceId;
    size_t size = 0;
    size_t keys = 0;
    Driver driver = Driver::HostSync;
    uint32_t seed = 1;
};

struct LabOutcome {
    LabRequest request;
    std::shared_ptr<const BinarySearchResult> result; // null when it failed
    size_t differingKeys = 0;                          // against std::lower_bound
    QString error;
};

// Registers the types above for queued signals (once, before the first run).
void registerEngineMetaTypes();

} // namespace rgx::ui

Q_DECLARE_METATYPE(rgx::GrowResultPtr)
Q_DECLARE_METATYPE(rgx::ui::RunRequest)
Q_DECLARE_METATYPE(rgx::ui::RunOutcome)
Q_DECLARE_METATYPE(rgx::ui::DeviceList)
Q_DECLARE_METATYPE(rgx::ui::RunFailure)
Q_DECLARE_METATYPE(rgx::ui::RaceCheckRequest)
Q_DECLARE_METATYPE(rgx::ui::RaceCheckOutcome)
Q_DECLARE_METATYPE(rgx::ui::LabRequest)
Q_DECLARE_METATYPE(rgx::ui::LabOutcome)
