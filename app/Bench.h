// rgx-cli bench: region growing timed over a matrix of images, seed counts,
// modes and variants on one device, beside the launch floor of that device
// and the CPU baselines (docs/PERFORMANCE.md says how to read it).
#pragma once

#include "Timing.h"
#include "Variant.h"
#include <QJsonArray>
#include <functional>
#include <string>
#include <vector>

namespace rgx {

struct DeviceInfo;
struct KernelTotal;

// The variants a bench runs (--variants): for a keyword, every correct
// variant the device can run that `keep` keeps; for a list (variants
// separated by ';'), those listed, each of which must run on the device.
// Throws InputError (`expected` names what --variants takes, for an empty
// list).
std::vector<GrowVariant> chooseVariants(const std::string& text, const DeviceInfo& device,
                                        const std::function<bool(const GrowVariant&)>& keep,
                                        const std::string& expected);

// "where its last click's device time went: K 1.23 ms in 4, ...": the
// kernels and transfers of a click, for the best variant's line.
std::string deviceTimeLine(const std::vector<KernelTotal>& totals);
// Where the device waited during one click: the span from its first
// command's start to its last's end, the idle time between commands, and
// the largest gaps with the command after each.
std::string queueTimeLine(const std::vector<TimingRecord>& commands);
// The same for the JSON files: {stage, kernel, launches, ms} each.
QJsonArray deviceTimeJson(const std::vector<KernelTotal>& totals);

// The usage lines of bench and bench --interactive, for rgx-cli --help.
extern const char* benchUsage;
extern const char* interactiveBenchUsage;

// Runs the bench with the arguments after "bench", prints the tables and
// writes the JSON/CSV files asked for. Returns false when a result that
// should equal the CPU reference did not (a correct variant, the fast CPU
// implementation or cv::floodFill), or a correct variant failed to run.
// Throws InputError, OpenClError.
bool runBench(const std::vector<std::string>& arguments);

// bench --interactive (app/BenchInteractive.cpp): the click script on one
// resident session per image size and variant. Returns false when a click
// differs from the CPU reference or a session outgrew its memory bound.
bool runInteractiveBench(const std::vector<std::string>& arguments);

} // namespace rgx
