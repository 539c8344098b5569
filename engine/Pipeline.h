// The whole pipeline of DESIGN.md: luma -> prefilter -> region growing ->
// postfilter, on the CPU reference or on an OpenCL device with a variant
// (a resident session used once: DeviceSession.h is the device pipeline).
#pragma once

#include "GrowParams.h"
#include "Image.h"
#include "PipelineParams.h"
#include "Result.h"
#include "RunControl.h"
#include "Seeds.h"
#include "Variant.h"
#include <string>
#include <vector>

namespace rgx {

class ComputeDevice;

// The region growing runs on the prefiltered luma (GrowResult::filteredLuma);
// after the postfilter, labels and stamps are the filtered ones, the region
// counts and sums those of the surviving pixels, and iterations stays the
// growth's iteration count (labelsBeforePostfilter keeps the labels before).
GrowResultPtr runReferencePipeline(const LumaImage& image, const std::vector<Seed>& seeds,
                                   const PipelineParams& params);

// A resident session used once (engine/DeviceSession.h). Throws InputError
// (bad seeds, unavailable variant, image too large for the device),
// OpenClError, or RunInterrupted (cancel or timeout).
GrowResultPtr runDevicePipeline(ComputeDevice& device, const LumaImage& image,
                                const std::vector<Seed>& seeds, const PipelineParams& params,
                                const GrowVariant& variant, const RunControl& control = {});

} // namespace rgx
