// rgx-cli bench: region growing timed over a matrix of images, seed counts,
// modes and variants on one device, beside the launch floor of that device
// and the CPU baselines (docs/PERFORMANCE.md says how to read it).
#pragma once

#include "Variant.h"
#include <functional>
#include <string>
#include <vector>

namespace rgx {

struct DeviceInfo;

// The variants a bench runs (--variants): for a keyword, every correct
// variant the device can run that `keep` keeps; for a list (variants
// separated by ';'), those listed, each of which must run on the device.
// Throws InputError (`expected` names what --variants takes, for an empty
// list).
std::vector<GrowVariant> chooseVariants(const std::string& text, const DeviceInfo& device,
                                        const std::function<bool(const GrowVariant&)>& keep,
                                        const std::string& expected);

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
