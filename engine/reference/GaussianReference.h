// CPU reference of the prefilter gaussian:R (docs/STAGES.md): the 2D sum of
// SPEC form, weight by weight, in 64-bit integers.
#pragma once

#include <cstdint>
#include <vector>

namespace rgx {

std::vector<uint16_t> gaussianReference(const std::vector<uint16_t>& luma, int width, int height,
                                        int radius);

} // namespace rgx
