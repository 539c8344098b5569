// What the three bench commands (bench, bench --interactive, bench --volume)
// share: how they read a list option, write numbers and ratios, put a
// spread and the device into JSON, name the host's processor, and say where
// a click's device time went.
#pragma once

#include "Timing.h"
#include "bench/Measure.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <optional>
#include <string>
#include <vector>

namespace rgx {

struct DeviceInfo;

// The parts of `text` between separators, trimmed of blanks, empty ones left out.
std::vector<std::string> splitOn(const std::string& text, char separator);

// `value` with `decimals` decimals.
std::string fixed(double value, int decimals);
// Three significant figures or so, whatever the size.
std::string readable(double value);
// "12.5x" (more decimals below 0.1), or "-" for none.
std::string ratioText(const std::optional<double>& ratio);
// "3.1x faster than WHAT" or "2.0x slower than WHAT".
std::string versusText(double speedup, const std::string& what);

QJsonObject spreadJson(const bench::Spread& spread);
// The value, or null.
QJsonValue optionalJson(const std::optional<double>& value);
QJsonObject deviceJson(const DeviceInfo& device);
// The host's processor as /proc/cpuinfo names it.
std::string hostProcessor();

// "where its last click's device time went: K 1.23 ms in 4, ...": the
// kernels and transfers of a click, for the best variant's line.
std::string deviceTimeLine(const std::vector<KernelTotal>& totals);
// Where the device waited during one click: the span from its first
// command's start to its last's end, the idle time between commands, and
// the largest gaps with the command after each.
std::string queueTimeLine(const std::vector<TimingRecord>& commands);
// The same for the JSON files: {stage, kernel, launches, ms} each.
QJsonArray deviceTimeJson(const std::vector<KernelTotal>& totals);

} // namespace rgx
