// The pieces of text and JSON every bench command writes (BenchText.h).
#include "BenchText.h"
#include "Device.h"

#include <QFile>
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace rgx {

std::vector<std::string> splitOn(const std::string& text, char separator)
{
    std::vector<std::string> parts;
    std::stringstream stream(text);
    for (std::string part; std::getline(stream, part, separator);) {
        part.erase(0, part.find_first_not_of(" \t"));
        part.erase(part.find_last_not_of(" \t") + 1);
        if (!part.empty())
            parts.push_back(part);
    }
    return parts;
}

std::string fixed(double value, int decimals)
{
    std::ostringstream text;
    text << std::fixed << std::setprecision(decimals) << value;
    return text.str();
}

std::string readable(double value)
{
    const double magnitude = std::fabs(value);
    return fixed(value, magnitude >= 100 ? 1 : magnitude >= 10 ? 2 : 3);
}

std::string ratioText(const std::optional<double>& ratio)
{
    if (!ratio)
        return "-";
    const double r = *ratio;
    return fixed(r, r >= 100 ? 0 : r >= 10 ? 1 : r >= 0.1 ? 2 : r >= 0.01 ? 3 : 4) + "x";
}

std::string versusText(double speedup, const std::string& what)
{
    return speedup >= 1 ? ratioText(speedup) + " faster than " + what : ratioText(1.0 / speedup) + " slower than " + what;
}

QJsonObject spreadJson(const bench::Spread& spread)
{
    return QJsonObject{{"median", spread.median}, {"min", spread.min}, {"max", spread.max}};
}

QJsonValue optionalJson(const std::optional<double>& value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

QJsonObject deviceJson(const DeviceInfo& device)
{
    return QJsonObject{{"id", QString::fromStdString(device.id())},
                       {"name", QString::fromStdString(device.name)},
                       {"platform", QString::fromStdString(device.platformName)},
                       {"platformVersion", QString::fromStdString(device.platformVersion)},
                       {"driverVersion", QString::fromStdString(device.driverVersion)},
                       {"openClVersion", QString::fromStdString(device.openClVersion)},
                       {"openClCVersion", QString::fromStdString(device.openClCVersion)},
                       {"type", QString::fromStdString(device.type)},
                       {"computeUnits", int(device.computeUnits)},
                       {"globalMemoryBytes", double(device.globalMemoryBytes)},
                       {"maxAllocationBytes", double(device.maxAllocationBytes)}};
}

std::string hostProcessor()
{
    QFile cpuinfo(QStringLiteral("/proc/cpuinfo"));
    if (cpuinfo.open(QIODevice::ReadOnly | QIODevice::Text)) {
        for (QByteArray line = cpuinfo.readLine(); !line.isEmpty(); line = cpuinfo.readLine())
            if (line.startsWith("model name")) {
                const int colon = line.indexOf(':');
                return line.mid(colon + 1).trimmed().toStdString();
            }
    }
    return "unknown processor";
}

QJsonArray deviceTimeJson(const std::vector<KernelTotal>& totals)
{
    QJsonArray kernels;
    for (const KernelTotal& total : totals)
        kernels.append(QJsonObject{{"stage", QString::fromStdString(total.stage)},
                                   {"kernel", QString::fromStdString(total.kernel)},
                                   {"launches", total.launches},
                                   {"ms", double(total.totalNs) / 1e6}});
    return kernels;
}

std::string deviceTimeLine(const std::vector<KernelTotal>& totals)
{
    std::string line = "where its last click's device time went:";
    const char* separator = " ";
    for (const KernelTotal& total : totals) {
        line += separator + total.kernel + " " + readable(double(total.totalNs) / 1e6) + " ms";
        if (total.launches > 1)
            line += " in " + std::to_string(total.launches);
        separator = ", ";
    }
    return line;
}

std::string queueTimeLine(const std::vector<TimingRecord>& commands)
{
    // The commands of the main queue in their order of start (a second
    // queue's read overlaps them: left out of the gaps).
    std::vector<const TimingRecord*> order;
    for (const TimingRecord& command : commands)
        if (command.measured && command.end > command.start)
            order.push_back(&command);
    if (order.empty())
        return {};
    std::sort(order.begin(), order.end(), [](const TimingRecord* a, const TimingRecord* b) { return a->start < b->start; });
    struct Gap {
        uint64_t ns;
        std::string before;
    };
    std::vector<Gap> gaps;
    uint64_t busyUntil = order.front()->start, idle = 0;
    for (const TimingRecord* command : order) {
        if (command->start > busyUntil) {
            idle += command->start - busyUntil;
            gaps.push_back({command->start - busyUntil, command->kernel});
        }
        busyUntil = std::max(busyUntil, command->end);
    }
    std::sort(gaps.begin(), gaps.end(), [](const Gap& a, const Gap& b) { return a.ns > b.ns; });
    std::string line = "its last click on the device: " + readable(double(busyUntil - order.front()->start) / 1e6) +
                       " ms from the first command's start to the last's end, idle " + readable(double(idle) / 1e6) +
                       " ms in " + std::to_string(gaps.size()) + " gaps";
    for (size_t i = 0; i < std::min<size_t>(gaps.size(), 3); ++i)
        line += std::string(i == 0 ? ", the largest " : ", ") + readable(double(gaps[i].ns) / 1e3) + " us before " +
                gaps[i].before;
    return line;
}

} // namespace rgx
