// Postfilter density:W:MIN on an OpenCL device (kernels/density_filter.cl):
// one pass per region over its bounding box (integral count image of the
// region's mask, then the window counts with the chosen variant). Semantics
// and cost: docs/STAGES.md.
#pragma once

#include "ProgramCache.h"
#include "Result.h"
#include "StageVariants.h"
#include <atomic>
#include <cstdint>
#include <vector>

namespace rgx {

class ComputeDevice;
class TimingLog;

class DensityFilter {
public:
    // Builds the program (or takes it from the cache). Throws InputError for
    // a window < 1 or a negative minimum, OpenClError.
    DensityFilter(ComputeDevice& device, int window, int minimum, DensityVariant variant);

    // Unclassifies (label 0, stamp 0xFFFFFFFF) the pixels the filter
    // removes, in place; launches are recorded under stage "postfilter".
    // Checks `cancel` between region passes (throws RunInterrupted).
    void run(std::vector<uint16_t>& labels, std::vector<uint32_t>& stamps, int width, int height,
             TimingLog& timings, const std::atomic<bool>* cancel = nullptr);

    const std::vector<KernelReport>& kernels() const { return built_->kernels; }
    double lastMilliseconds() const { return lastMilliseconds_; }

private:
    ComputeDevice& device_;
    int window_;
    int minimum_;
    DensityVariant variant_;
    size_t scanGroup_ = 256;
    const BuiltProgram* built_ = nullptr;
    double lastMilliseconds_ = 0;
};

} // namespace rgx
