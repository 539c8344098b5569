// Prefilter boxmean:W on an OpenCL device (kernels/box_mean.cl): the padded
// integral image by a row scan and a column scan, then the window means with
// the chosen variant. Semantics: docs/STAGES.md.
#pragma once

#include "ProgramCache.h"
#include "Result.h"
#include "StageVariants.h"
#include <cstdint>
#include <vector>

namespace rgx {

class ComputeDevice;
class TimingLog;

class BoxMean {
public:
    // Builds the program (or takes it from the cache). Throws InputError for
    // a window outside 1..maxBoxMeanWindow, OpenClError.
    BoxMean(ComputeDevice& device, int window, BoxMeanVariant variant);

    // The filtered luma; launches are recorded under stage "prefilter".
    // Throws InputError (image too large for the device), OpenClError.
    std::vector<uint16_t> run(const std::vector<uint16_t>& luma, int width, int height,
                              TimingLog& timings);

    // Resource report of every kernel of the program.
    const std::vector<KernelReport>& kernels() const { return built_->kernels; }
    // Host time of the last run, upload to download.
    double lastMilliseconds() const { return lastMilliseconds_; }

private:
    ComputeDevice& device_;
    int window_;
    BoxMeanVariant variant_;
    size_t scanGroup_ = 256;  // integral_rows work-group
    size_t segment_ = 256;    // box_mean_async work-group
    const BuiltProgram* built_ = nullptr;
    double lastMilliseconds_ = 0;
};

} // namespace rgx
