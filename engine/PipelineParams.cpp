// The text forms of the filters and their checks.
#include "PipelineParams.h"
#include "Errors.h"
#include "stages/StageVariants.h"

#include <sstream>
#include <vector>

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

void checkFilters(const PipelineParams& params, int depth)
{
    checkFilters(params);
    if (depth > 1 && params.prefilter.kind != PrefilterSpec::Kind::None)
        throw InputError("the prefilter " + prefilterText(params.prefilter) +
                         " works on 2D images; run a volume without one");
    if (depth > 1 && params.postfilter.enabled)
        throw InputError("the postfilter " + postfilterText(params.postfilter) +
                         " works on 2D images; run a volume without one");
}

} // namespace rgx
