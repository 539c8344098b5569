// Growing parameters the engine tests share.
#pragma once

#include "GrowParams.h"
#include <cstdint>

namespace rgx::test {

// Mode range: S - lower <= L(p) <= S + upper, with that connectivity.
inline GrowParams rangeParams(uint32_t lower, uint32_t upper, int connectivity)
{
    GrowParams params;
    params.mode = Mode::Range;
    params.lower = lower;
    params.upper = upper;
    params.connectivity = connectivity;
    return params;
}

} // namespace rgx::test
