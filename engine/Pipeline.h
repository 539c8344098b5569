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

// Limits that keep the filters' integer arithmetic exact (docs/STAGES.md):
// a boxmean window sum of 16-bit luma stays below 2^32, a gaussian sum below 2^64.
constexpr int maxBoxMeanWindow = 255;
constexpr int maxGaussianRadius = 12;

struct PrefilterSpec {
    enum class Kind { None, BoxMean, Gaussian } kind = Kind::None;
    int size = 0;             // boxmean: window W; gaussian: radius R
    std::string variant;      // stage variant name (StageVariants.h); empty: the stage's default
};

struct PostfilterSpec {
    bool enabled = false;     // density:W:MIN
    int window = 0;
    int minimum = 0;
    std::string variant;      // stage variant name; empty: the stage's default
};

struct PipelineParams {
    PrefilterSpec prefilter;
    GrowParams grow;
    PostfilterSpec postfilter;
};

// "none", "boxmean:W", "gaussian:R", each optionally with ":VARIANT"
// ("boxmean:5:direct"); throws InputError naming what is wrong.
PrefilterSpec parsePrefilter(const std::string& text);
// "none", "density:W:MIN", optionally "density:W:MIN:VARIANT".
PostfilterSpec parsePostfilter(const std::string& text);
// The forms above; the variant part only where one is chosen.
std::string prefilterText(const PrefilterSpec& spec);
std::string postfilterText(const PostfilterSpec& spec);

// Throws InputError for filter sizes outside their limits or unknown stage
// variant names (parse* check the same; this covers specs built in code).
void checkFilters(const PipelineParams& params);

// How a run is watched and stopped. The engine checks cancel and the timeout
// between launches; progress is called from the running thread.
struct RunControl {
    const std::atomic<bool>* cancel = nullptr;
    double timeoutSeconds = 120.0;
    std::function<void(uint32_t iteration, uint64_t frontierSize)> progress;
    // A picture of the region growing so far, between launches: when
    // partialWanted() says so, the maps as they stand go to partial() (the
    // box of the pixels touched so far) with the last iteration that ran
    // (0xFFFFFFFF where a driver does not know it: tiles run rounds).
    std::function<bool()> partialWanted;
    std::function<void(const BoxMaps& maps, uint32_t iteration)> partial;
    int partialStep = 1; // every partialStep-th pixel each way (BoxMaps::step), on the step grid
};

// Region counts and sums of the pixels still classified, on the luma the
// regions grew on: after the postfilter, identically for reference and device.
void recountRegions(GrowResult& result, const std::vector<uint16_t>& luma);

// The region growing runs on the prefiltered luma (GrowResult::filteredLuma);
// after the postfilter, labels and stamps are the filtered ones, the region
// counts and sums those of the surviving pixels, and iterations stays the
// growth's iteration count (labelsBeforePostfilter keeps the labels before).
GrowResultPtr runReferencePipeline(const LumaImage& image, const std::vector<Seed>& seeds,
                                   const PipelineParams& params);

// A resident session used once (engine/DeviceSession.h). Throws InputError
// (bad seeds, unavailable variant, image too large for the device),
// OpenClError, or RunInterrupted (cancel or timeout).
GrowResultPtr runDevicePipeline(ComputeDevice& device, const LumaImage& image,
                                const std::vector<Seed>& seeds, const PipelineParams& params,
                                const GrowVariant& variant, const RunControl& control = {});

} // namespace rgx
