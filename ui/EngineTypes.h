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

// A finished run: the device result and, when asked, the CPU reference and
// where the two differ.
struct RunOutcome {
    RunRequest request;
    GrowResultPtr result;
    GrowResultPtr reference;
    std::shared_ptr<const ResultDiff> diff;
};

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
};

struct RaceCheckOutcome {
    quint64 id = 0;
    QString variantText;
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
