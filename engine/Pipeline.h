// The whole pipeline of DESIGN.md: luma -> prefilter -> region growing ->
// postfilter, on the CPU reference or on an OpenCL device with a variant.
#pragma once

#include "GrowParams.h"
#include "Image.h"
#include "Result.h"
#include "Seeds.h"
#include "Variant.h"
#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace rgx {

class ComputeDevice;

struct PrefilterSpec {
    enum class Kind { None, BoxMean, Gaussian } kind = Kind::None;
    int size = 0;             // boxmean: window W; gaussian: radius R
    std::string variant;      // stage variant name; empty: the stage's default
};

struct PostfilterSpec {
    bool enabled = false;     // density:W:MIN
    int window = 0;
    int minimum = 0;
    std::string variant;
};

struct PipelineParams {
    PrefilterSpec prefilter;
    GrowParams grow;
    PostfilterSpec postfilter;
};

PrefilterSpec parsePrefilter(const std::string& text);   // "none", "boxmean:W", "gaussian:R"
PostfilterSpec parsePostfilter(const std::string& text); // "none", "density:W:MIN"
std::string prefilterText(const PrefilterSpec& spec);
std::string postfilterText(const PostfilterSpec& spec);

// How a run is watched and stopped. The engine checks cancel and the timeout
// between launches; progress is called from the running thread.
struct RunControl {
    const std::atomic<bool>* cancel = nullptr;
    double timeoutSeconds = 120.0;
    std::function<void(uint32_t iteration, uint64_t frontierSize)> progress;
};

GrowResultPtr runReferencePipeline(const LumaImage& image, const std::vector<Seed>& seeds,
                                   const PipelineParams& params);

// Throws InputError (bad seeds, unavailable variant, image too large for the
// device), OpenClError, or RunInterrupted (cancel or timeout).
GrowResultPtr runDevicePipeline(ComputeDevice& device, const LumaImage& image,
                                const std::vector<Seed>& seeds, const PipelineParams& params,
                                const GrowVariant& variant, const RunControl& control = {});

} // namespace rgx
