// The pipeline of DESIGN.md put together on the CPU reference, and the
// device pipeline used once: prefilter -> region growing -> postfilter.
#include "Pipeline.h"
#include "Device.h"
#include "DeviceSession.h"
#include "Errors.h"
#include "reference/BoxMeanReference.h"
#include "reference/DensityFilterReference.h"
#include "reference/GaussianReference.h"
#include "reference/RegionGrowingReference.h"

#include <chrono>
#include <memory>

namespace rgx {
namespace {

double millisecondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

GrowResultPtr runReferencePipeline(const LumaImage& image, const std::vector<Seed>& seeds,
                                   const PipelineParams& params)
{
    validateSeeds(seeds, image.width, image.height, image.depth);
    checkFilters(params, image.depth);
    const auto start = std::chrono::steady_clock::now();
    std::vector<uint16_t> filtered;
    if (params.prefilter.kind == PrefilterSpec::Kind::BoxMean)
        filtered = boxMeanReference(image.luma, image.width, image.height, params.prefilter.size);
    else if (params.prefilter.kind == PrefilterSpec::Kind::Gaussian)
        filtered = gaussianReference(image.luma, image.width, image.height, params.prefilter.size);
    const std::vector<uint16_t>& luma = filtered.empty() ? image.luma : filtered;

    GrowResult result = growRegionsReference(luma, image.width, image.height, seeds, params.grow, image.depth);
    if (params.postfilter.enabled) {
        result.labelsBeforePostfilter = result.labels;
        result.stampsBeforePostfilter = result.stamps;
        densityFilterReference(result.labels, result.stamps, image.width, image.height,
                               params.postfilter.window, params.postfilter.minimum);
        recountRegions(result, luma);
    }
    if (!filtered.empty())
        result.filteredLuma = std::make_shared<const std::vector<uint16_t>>(std::move(filtered));
    result.hostMilliseconds = millisecondsSince(start);
    return std::make_shared<const GrowResult>(std::move(result));
}

GrowResultPtr runDevicePipeline(ComputeDevice& device, const LumaImage& image,
                                const std::vector<Seed>& seeds, const PipelineParams& params,
                                const GrowVariant& variant, const RunControl& control)
{
    // A session used once: it does not own the image, which outlives it here.
    DeviceSession session(device, std::shared_ptr<const LumaImage>(std::shared_ptr<const LumaImage>(), &image),
                          DeviceSession::Use::Once);
    return session.run(seeds, params, variant, control);
}

} // namespace rgx
