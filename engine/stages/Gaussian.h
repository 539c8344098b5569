// Prefilter gaussian:R on an OpenCL device (kernels/gaussian.cl): exact
// integer binomial weights, one launch of the chosen variant. Semantics:
// docs/STAGES.md.
#pragma once

#include "ProgramCache.h"
#include "Result.h"
#include "StageVariants.h"
#include <cstdint>
#include <vector>

namespace rgx {

class ComputeDevice;
class TimingLog;

// w(d) = C(2R, R + d) for d = -R..R.
std::vector<uint32_t> binomialWeights(int radius);

class Gaussian {
public:
    // Builds the program (or takes it from the cache). Throws InputError for
    // a radius outside 1..maxGaussianRadius, OpenClError.
    Gaussian(ComputeDevice& device, int radius, GaussianVariant variant);

    // The filtered luma; launches are recorded under stage "prefilter".
    std::vector<uint16_t> run(const std::vector<uint16_t>& luma, int width, int height,
                              TimingLog& timings);

    const std::vector<KernelReport>& kernels() const { return built_->kernels; }
    double lastMilliseconds() const { return lastMilliseconds_; }

private:
    ComputeDevice& device_;
    int radius_;
    GaussianVariant variant_;
    size_t tileWidth_ = 16;
    size_t tileHeight_ = 16;
    const BuiltProgram* built_ = nullptr;
    double lastMilliseconds_ = 0;
};

} // namespace rgx
