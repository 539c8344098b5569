// The pipeline of DESIGN.md put together, for the CPU reference and for a
// device with a variant: prefilter -> region growing -> postfilter.
#include "Pipeline.h"
#include "Device.h"
#include "Errors.h"
#include "reference/BoxMeanReference.h"
#include "reference/DensityFilterReference.h"
#include "reference/GaussianReference.h"
#include "reference/RegionGrowingReference.h"
#include "stages/BoxMean.h"
#include "stages/DensityFilter.h"
#include "stages/Gaussian.h"
#include "stages/RegionGrowing.h"
#include "stages/StageVariants.h"
#include "stages/TimingLog.h"

#include <chrono>
#include <memory>
#include <sstream>

namespace rgx {
namespace {

int parseWhole(const std::string& text, const std::string& what, const std::string& whole,
               long smallest, long largest)
{
    try {
        size_t used = 0;
        const long value = std::stol(text, &used);
        if (used == text.size() && value >= smallest && value <= largest)
            return int(value);
    } catch (const std::exception&) {
    }
    throw InputError("bad " + what + " in '" + whole + "' (expected a whole number from " +
                     std::to_string(smallest) + " to " + std::to_string(largest) + ")");
}

std::vector<std::string> splitColons(const std::string& text)
{
    std::vector<std::string> parts;
    std::stringstream stream(text);
    for (std::string part; std::getline(stream, part, ':');)
        parts.push_back(part);
    return parts;
}

// Region counts and sums of the pixels still classified, on the luma the
// regions grew on: after the postfilter, identically for reference and device.
void recountRegions(GrowResult& result, const std::vector<uint16_t>& luma)
{
    for (RegionStats& region : result.regions)
        region = {};
    for (size_t p = 0; p < result.labels.size(); ++p) {
        const uint16_t k = result.labels[p];
        if (k == 0 || k > result.regions.size())
            continue;
        result.regions[k - 1u].count += 1;
        result.regions[k - 1u].sum += luma[p];
    }
}

double millisecondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void checkCancel(const RunControl& control, const char* where)
{
    if (control.cancel && control.cancel->load())
        throw RunInterrupted(std::string("cancelled ") + where);
}

} // namespace

PrefilterSpec parsePrefilter(const std::string& text)
{
    PrefilterSpec spec;
    if (text == "none")
        return spec;
    const std::vector<std::string> parts = splitColons(text);
    if ((parts.size() == 2 || parts.size() == 3) && parts[0] == "boxmean") {
        spec.kind = PrefilterSpec::Kind::BoxMean;
        spec.size = parseWhole(parts[1], "window size", text, 1, maxBoxMeanWindow);
        spec.variant = parts.size() == 3 ? parts[2] : std::string();
        parseBoxMeanVariant(spec.variant);
        return spec;
    }
    if ((parts.size() == 2 || parts.size() == 3) && parts[0] == "gaussian") {
        spec.kind = PrefilterSpec::Kind::Gaussian;
        spec.size = parseWhole(parts[1], "radius", text, 1, maxGaussianRadius);
        spec.variant = parts.size() == 3 ? parts[2] : std::string();
        parseGaussianVariant(spec.variant);
        return spec;
    }
    throw InputError("unknown prefilter '" + text +
                     "' (expected none, boxmean:W or gaussian:R, optionally with :VARIANT)");
}

PostfilterSpec parsePostfilter(const std::string& text)
{
    PostfilterSpec spec;
    if (text == "none")
        return spec;
    const std::vector<std::string> parts = splitColons(text);
    if ((parts.size() == 3 || parts.size() == 4) && parts[0] == "density") {
        spec.enabled = true;
        spec.window = parseWhole(parts[1], "window size", text, 1, 1000000);
        spec.minimum = parseWhole(parts[2], "minimum count", text, 0, 1000000);
        spec.variant = parts.size() == 4 ? parts[3] : std::string();
        parseDensityVariant(spec.variant);
        return spec;
    }
    throw InputError("unknown postfilter '" + text +
                     "' (expected none or density:W:MIN, optionally with :VARIANT)");
}

std::string prefilterText(const PrefilterSpec& spec)
{
    const std::string variant = spec.variant.empty() ? std::string() : ":" + spec.variant;
    switch (spec.kind) {
    case PrefilterSpec::Kind::None: return "none";
    case PrefilterSpec::Kind::BoxMean: return "boxmean:" + std::to_string(spec.size) + variant;
    case PrefilterSpec::Kind::Gaussian: return "gaussian:" + std::to_string(spec.size) + variant;
    }
    return "none";
}

std::string postfilterText(const PostfilterSpec& spec)
{
    if (!spec.enabled)
        return "none";
    return "density:" + std::to_string(spec.window) + ":" + std::to_string(spec.minimum) +
           (spec.variant.empty() ? std::string() : ":" + spec.variant);
}

void checkFilters(const PipelineParams& params)
{
    const PrefilterSpec& pre = params.prefilter;
    if (pre.kind == PrefilterSpec::Kind::BoxMean) {
        parseBoxMeanVariant(pre.variant);
        if (pre.size < 1 || pre.size > maxBoxMeanWindow)
            throw InputError("boxmean window " + std::to_string(pre.size) + " is outside 1.." +
                             std::to_string(maxBoxMeanWindow) +
                             " (larger windows could overflow the 32-bit integral image)");
    } else if (pre.kind == PrefilterSpec::Kind::Gaussian) {
        parseGaussianVariant(pre.variant);
        if (pre.size < 1 || pre.size > maxGaussianRadius)
            throw InputError("gaussian radius " + std::to_string(pre.size) + " is outside 1.." +
                             std::to_string(maxGaussianRadius) +
                             " (the exact weighted sums of 16-bit luma must fit in 64 bits)");
    }
    const PostfilterSpec& post = params.postfilter;
    if (post.enabled) {
        parseDensityVariant(post.variant);
        if (post.window < 1)
            throw InputError("density window " + std::to_string(post.window) + " must be at least 1");
        if (post.minimum < 0)
            throw InputError("density minimum " + std::to_string(post.minimum) + " must not be negative");
    }
}

GrowResultPtr runReferencePipeline(const LumaImage& image, const std::vector<Seed>& seeds,
                                   const PipelineParams& params)
{
    validateSeeds(seeds, image.width, image.height);
    checkFilters(params);
    const auto start = std::chrono::steady_clock::now();
    std::vector<uint16_t> filtered;
    if (params.prefilter.kind == PrefilterSpec::Kind::BoxMean)
        filtered = boxMeanReference(image.luma, image.width, image.height, params.prefilter.size);
    else if (params.prefilter.kind == PrefilterSpec::Kind::Gaussian)
        filtered = gaussianReference(image.luma, image.width, image.height, params.prefilter.size);
    const std::vector<uint16_t>& luma = filtered.empty() ? image.luma : filtered;

    GrowResult result = growRegionsReference(luma, image.width, image.height, seeds, params.grow);
    if (params.postfilter.enabled) {
        result.labelsBeforePostfilter = result.labels;
        result.stampsBeforePostfilter = result.stamps;
        densityFilterReference(result.labels, result.stamps, image.width, image.height,
                               params.postfilter.window, params.postfilter.minimum);
        recountRegions(result, luma);
    }
    result.filteredLuma = std::move(filtered);
    result.hostMilliseconds = millisecondsSince(start);
    return std::make_shared<const GrowResult>(std::move(result));
}

GrowResultPtr runDevicePipeline(ComputeDevice& device, const LumaImage& image,
                                const std::vector<Seed>& seeds, const PipelineParams& params,
                                const GrowVariant& variant, const RunControl& control)
{
    // Everything a user can get wrong is reported before anything runs.
    validateSeeds(seeds, image.width, image.height);
    checkFilters(params);
    if (auto reason = whyUnavailable(variant, device.info()))
        throw InputError("variant " + variant.text() + " cannot run on " + device.info().name + ": " + *reason);

    // Programs are built (or loaded) first: host time counts from upload to result.
    const PrefilterSpec& pre = params.prefilter;
    const PostfilterSpec& post = params.postfilter;
    std::unique_ptr<BoxMean> boxMean;
    std::unique_ptr<Gaussian> gaussian;
    std::unique_ptr<DensityFilter> density;
    if (pre.kind == PrefilterSpec::Kind::BoxMean)
        boxMean = std::make_unique<BoxMean>(device, pre.size, parseBoxMeanVariant(pre.variant));
    else if (pre.kind == PrefilterSpec::Kind::Gaussian)
        gaussian = std::make_unique<Gaussian>(device, pre.size, parseGaussianVariant(pre.variant));
    if (post.enabled)
        density = std::make_unique<DensityFilter>(device, post.window, post.minimum,
                                                  parseDensityVariant(post.variant));

    TimingLog timings;
    std::vector<KernelReport> kernels;
    double stageMilliseconds = 0;
    std::vector<uint16_t> filtered;
    if (boxMean) {
        filtered = boxMean->run(image.luma, image.width, image.height, timings);
        stageMilliseconds += boxMean->lastMilliseconds();
        kernels = boxMean->kernels();
    } else if (gaussian) {
        filtered = gaussian->run(image.luma, image.width, image.height, timings);
        stageMilliseconds += gaussian->lastMilliseconds();
        kernels = gaussian->kernels();
    }
    checkCancel(control, "after the prefilter");
    const std::vector<uint16_t>& luma = filtered.empty() ? image.luma : filtered;

    GrowResult result = growRegionsOnDevice(device, luma, image.width, image.height, seeds,
                                            params.grow, variant, control, timings);
    kernels.insert(kernels.end(), result.kernels.begin(), result.kernels.end());
    if (density) {
        checkCancel(control, "before the postfilter");
        result.labelsBeforePostfilter = result.labels;
        result.stampsBeforePostfilter = result.stamps;
        density->run(result.labels, result.stamps, image.width, image.height, timings, control.cancel);
        stageMilliseconds += density->lastMilliseconds();
        recountRegions(result, luma);
        kernels.insert(kernels.end(), density->kernels().begin(), density->kernels().end());
    }
    result.filteredLuma = std::move(filtered);
    result.kernels = std::move(kernels);
    result.hostMilliseconds += stageMilliseconds;
    result.timings = timings.records();
    return std::make_shared<const GrowResult>(std::move(result));
}

} // namespace rgx
