// SPEC.md's region growing on the CPU, written for speed: the baseline an
// OpenCL variant has to beat. Bit-exact with RegionGrowingReference.
#pragma once

#include "GrowParams.h"
#include "Result.h"
#include "Seeds.h"
#include <cstdint>
#include <vector>

namespace rgx {

// The threads used when none are asked for: one per hardware thread.
int fastCpuDefaultThreads();

// threads <= 0: fastCpuDefaultThreads(). Throws InputError for invalid seeds
// and for images of 2^31 pixels or more.
GrowResult growRegionsFastCpu(const std::vector<uint16_t>& luma, int width, int height,
                              const std::vector<Seed>& seeds, const GrowParams& params,
                              int threads = 0);

} // namespace rgx
