// Region growing on an OpenCL device (kernels/region_growing.cl), driven by
// the host per iteration (host-sync) or in batches (host-batched).
#pragma once

#include "GrowParams.h"
#include "Pipeline.h"
#include "Result.h"
#include "Seeds.h"
#include "Variant.h"
#include <cstdint>
#include <vector>

namespace rgx {

class ComputeDevice;
class TimingLog;

// Throws InputError (seeds, unavailable variant, image too large for the
// device), OpenClError, RunInterrupted. Appends its commands to `timings`
// and the kernels it built to result.kernels.
GrowResult growRegionsOnDevice(ComputeDevice& device, const std::vector<uint16_t>& luma, int width,
                               int height, const std::vector<Seed>& seeds, const GrowParams& params,
                               const GrowVariant& variant, const RunControl& control,
                               TimingLog& timings);

// Bytes of device memory a run needs (all buffers together).
uint64_t regionGrowingDeviceBytes(uint64_t pixelCount, uint64_t regionCount, Frontier frontier);

} // namespace rgx
