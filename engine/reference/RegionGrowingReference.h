// The CPU reference of SPEC.md: plain, obviously correct, the ground truth
// every OpenCL variant must equal bit for bit.
#pragma once

#include "GrowParams.h"
#include "Result.h"
#include "Seeds.h"
#include <cstdint>
#include <vector>

namespace rgx {

// Throws InputError for invalid seeds (see validateSeeds) or a
// connectivity the image or volume has not (checkConnectivity). A volume
// has depth > 1 slices; its luma and maps are x fastest, then y, then z.
GrowResult growRegionsReference(const std::vector<uint16_t>& luma, int width, int height,
                                const std::vector<Seed>& seeds, const GrowParams& params, int depth = 1);

} // namespace rgx
