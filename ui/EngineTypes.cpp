// Metatype registration and names for the engine worker's messages.
#include "EngineTypes.h"

#include <chrono>

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

qint64 steadyNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void registerEngineMetaTypes()
{
    qRegisterMetaType<rgx::ui::EditTimes>("rgx::ui::EditTimes");
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
