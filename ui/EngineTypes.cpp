// Metatype registration and names for the engine worker's messages.
#include "EngineTypes.h"
#include "ParameterCodec.h"

#include <chrono>
#include <sstream>

namespace rgx::ui {

QString failureKindName(FailureKind kind)
{
    switch (kind) {
    case FailureKind::Input: return QStringLiteral("input error");
    case FailureKind::OpenCl: return QStringLiteral("OpenCL failure");
    case FailureKind::Cancelled: return QStringLiteral("cancelled");
    case FailureKind::TimedOut: return QStringLiteral("timed out");
    case FailureKind::Other: break;
    }
    return QStringLiteral("failure");
}

std::string paramsKey(const PipelineParams& p) { return parameterLine(p); }

std::string seedsKey(const std::vector<Seed>& seeds)
{
    std::ostringstream key;
    for (const Seed& seed : seeds) {
        key << seed.x << ',' << seed.y;
        if (seed.z != 0)
            key << ',' << seed.z;
        key << ';';
    }
    return key.str();
}

std::string inputsKey(const RunRequest& request)
{
    std::ostringstream key;
    key << static_cast<const void*>(request.image.get()) << '|' << paramsKey(request.params) << '|'
        << seedsKey(request.seeds);
    return key.str();
}

qint64 steadyNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void registerEngineMetaTypes()
{
    qRegisterMetaType<rgx::GrowResultPtr>("rgx::GrowResultPtr");
    qRegisterMetaType<rgx::ui::RunRequest>("rgx::ui::RunRequest");
    qRegisterMetaType<rgx::ui::RunOutcome>("rgx::ui::RunOutcome");
    qRegisterMetaType<rgx::ui::DeviceList>("rgx::ui::DeviceList");
    qRegisterMetaType<rgx::ui::RunFailure>("rgx::ui::RunFailure");
    qRegisterMetaType<rgx::ui::RaceCheckRequest>("rgx::ui::RaceCheckRequest");
    qRegisterMetaType<rgx::ui::RaceCheckOutcome>("rgx::ui::RaceCheckOutcome");
    qRegisterMetaType<rgx::ui::LabRequest>("rgx::ui::LabRequest");
    qRegisterMetaType<rgx::ui::LabOutcome>("rgx::ui::LabOutcome");
}

} // namespace rgx::ui
