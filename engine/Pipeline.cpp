// The pipeline of DESIGN.md put together, for the CPU reference and for a
// device with a variant.
#include "Pipeline.h"
#include "Device.h"
#include "Errors.h"
#include "reference/RegionGrowingReference.h"
#include "stages/RegionGrowing.h"
#include "stages/TimingLog.h"

#include <chrono>
#include <sstream>

namespace rgx {
namespace {

int parsePositive(const std::string& text, const std::string& what, const std::string& whole)
{
    try {
        size_t used = 0;
        const long value = std::stol(text, &used);
        if (used == text.size() && value >= 1 && value <= 1000000)
            return int(value);
    } catch (const std::exception&) {
    }
    throw InputError("bad " + what + " in '" + whole + "' (expected a whole number >= 1)");
}

std::vector<std::string> splitColons(const std::string& text)
{
    std::vector<std::string> parts;
    std::stringstream stream(text);
    for (std::string part; std::getline(stream, part, ':');)
        parts.push_back(part);
    return parts;
}

void rejectUnimplementedStages(const PipelineParams& params)
{
    if (params.prefilter.kind != PrefilterSpec::Kind::None)
        throw InputError("prefilter " + prefilterText(params.prefilter) +
                         " is not implemented in this version of RGX yet (use --prefilter none)");
    if (params.postfilter.enabled)
        throw InputError("postfilter " + postfilterText(params.postfilter) +
                         " is not implemented in this version of RGX yet (use --postfilter none)");
}

} // namespace

PrefilterSpec parsePrefilter(const std::string& text)
{
    PrefilterSpec spec;
    const std::vector<std::string> parts = splitColons(text);
    if (text == "none")
        return spec;
    if (parts.size() == 2 && parts[0] == "boxmean") {
        spec.kind = PrefilterSpec::Kind::BoxMean;
        spec.size = parsePositive(parts[1], "window size", text);
        return spec;
    }
    if (parts.size() == 2 && parts[0] == "gaussian") {
        spec.kind = PrefilterSpec::Kind::Gaussian;
        spec.size = parsePositive(parts[1], "radius", text);
        return spec;
    }
    throw InputError("unknown prefilter '" + text + "' (expected none, boxmean:W or gaussian:R)");
}

PostfilterSpec parsePostfilter(const std::string& text)
{
    PostfilterSpec spec;
    if (text == "none")
        return spec;
    const std::vector<std::string> parts = splitColons(text);
    if (parts.size() == 3 && parts[0] == "density") {
        spec.enabled = true;
        spec.window = parsePositive(parts[1], "window size", text);
        spec.minimum = parsePositive(parts[2], "minimum count", text);
        return spec;
    }
    throw InputError("unknown postfilter '" + text + "' (expected none or density:W:MIN)");
}

std::string prefilterText(const PrefilterSpec& spec)
{
    switch (spec.kind) {
    case PrefilterSpec::Kind::None: return "none";
    case PrefilterSpec::Kind::BoxMean: return "boxmean:" + std::to_string(spec.size);
    case PrefilterSpec::Kind::Gaussian: return "gaussian:" + std::to_string(spec.size);
    }
    return "none";
}

std::string postfilterText(const PostfilterSpec& spec)
{
    if (!spec.enabled)
        return "none";
    return "density:" + std::to_string(spec.window) + ":" + std::to_string(spec.minimum);
}

GrowResultPtr runReferencePipeline(const LumaImage& image, const std::vector<Seed>& seeds,
                                   const PipelineParams& params)
{
    rejectUnimplementedStages(params);
    const auto start = std::chrono::steady_clock::now();
    GrowResult result = growRegionsReference(image.luma, image.width, image.height, seeds, params.grow);
    result.hostMilliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return std::make_shared<const GrowResult>(std::move(result));
}

GrowResultPtr runDevicePipeline(ComputeDevice& device, const LumaImage& image,
                                const std::vector<Seed>& seeds, const PipelineParams& params,
                                const GrowVariant& variant, const RunControl& control)
{
    rejectUnimplementedStages(params);
    TimingLog timings;
    GrowResult result = growRegionsOnDevice(device, image.luma, image.width, image.height, seeds,
                                            params.grow, variant, control, timings);
    result.timings = timings.records();
    return std::make_shared<const GrowResult>(std::move(result));
}

} // namespace rgx
