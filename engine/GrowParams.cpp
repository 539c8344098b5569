// Names and derived values of the region-growing parameters.
#include "GrowParams.h"
#include "Errors.h"
#include "Neighbourhood.h"
#include <cmath>

namespace rgx {

uint64_t GrowParams::toleranceThreshold() const
{
    return uint64_t(std::floor(tolerance * 256.0));
}

uint32_t GrowParams::iterationCap(uint64_t pixelCount) const
{
    // A correct run classifies at least one pixel per iteration, so it can
    // never need more iterations than there are pixels.
    const uint64_t natural = pixelCount;
    const uint64_t cap = maxIterations == 0 ? natural : std::min<uint64_t>(maxIterations, natural);
    return uint32_t(std::min<uint64_t>(cap, 0xFFFFFFFEu));
}

std::string modeName(Mode mode)
{
    switch (mode) {
    case Mode::Competitive: return "competitive";
    case Mode::Adaptive: return "adaptive";
    case Mode::Range: return "range";
    }
    return "?";
}

std::string ruleName(Rule rule)
{
    return rule == Rule::Adjacent ? "adjacent" : "all";
}

void checkConnectivity(int connectivity, int depth)
{
    if (connectivityFits(connectivity, depth))
        return;
    if (connectivity == 4 || connectivity == 8) {
        throw InputError("connectivity " + std::to_string(connectivity) + " is for images; a volume of "
                         + std::to_string(depth) + " slices takes 6, 18 or 26");
    }
    throw InputError("connectivity must be 4 or 8 (images) or 6, 18 or 26 (volumes), not "
                     + std::to_string(connectivity));
}

Mode parseMode(const std::string& text)
{
    for (Mode mode : {Mode::Competitive, Mode::Adaptive, Mode::Range})
        if (text == modeName(mode))
            return mode;
    throw InputError("unknown mode '" + text + "' (expected competitive, adaptive or range)");
}

Rule parseRule(const std::string& text)
{
    for (Rule rule : {Rule::Adjacent, Rule::All})
        if (text == ruleName(rule))
            return rule;
    throw InputError("unknown rule '" + text + "' (expected adjacent or all)");
}

} // namespace rgx
