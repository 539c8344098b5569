// Names and derived values of the region-growing parameters.
#include "GrowParams.h"
#include "Errors.h"
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
