// Requests to and answers from the engine worker thread. They are plain
// values, so they cross threads by queued signals without shared mutable state.
#pragma once

#include "Device.h"
#include "Pipeline.h"
#include "Result.h"
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

// Registers the types above for queued signals (once, before the first run).
void registerEngineMetaTypes();

} // namespace rgx::ui

Q_DECLARE_METATYPE(rgx::GrowResultPtr)
Q_DECLARE_METATYPE(rgx::ui::RunRequest)
Q_DECLARE_METATYPE(rgx::ui::RunOutcome)
Q_DECLARE_METATYPE(rgx::ui::DeviceList)
Q_DECLARE_METATYPE(rgx::ui::RunFailure)
