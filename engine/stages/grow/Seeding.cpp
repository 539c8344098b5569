// The start every run shares, whatever its driver: the maps and counters
// reset in one launch (start_run), then the seeds placed (place_seeds),
// both in kernels/grow_session.cl; with tiles, the seeds are placed by the
// tile driver's first launch.
#include "Device.h"
#include "GrowPrograms.h"
#include "Run.h"
#include "stages/StageSupport.h"
#include "stages/TimingLog.h"
#include "grow_counters.h"

#include <algorithm>

namespace rgx::grow {

using stage::roundUp;

void startRun(Run& run, const GrowState::RunStart& start, const PixelBox& touched)
{
    GrowState& state = run.state;
    std::vector<uint32_t>& counters = run.counters;
    std::fill(counters.begin(), counters.end(), 0);
    counters[RGX_COUNTER_ACCEPTED] = uint32_t(run.seeds.size());
    const bool none = touched.empty();
    const cl_uint4 box = {{none ? unclassifiedStamp : touched.x0, none ? unclassifiedStamp : touched.y0,
                           none ? 0 : touched.x1, none ? 0 : touched.y1}};
    const cl_uint2 boxZ = {{none ? unclassifiedStamp : touched.z0, none ? 0 : touched.z1}};
    for (int i = 0; i < 4; ++i)
        counters[RGX_COUNTER_TOUCHED + i] = box.s[i];
    counters[RGX_COUNTER_TOUCHED_Z + 0] = boxZ.s[0];
    counters[RGX_COUNTER_TOUCHED_Z + 1] = boxZ.s[1];
    counters[RGX_COUNTER_BOX + 0] = unclassifiedStamp;
    counters[RGX_COUNTER_BOX + 1] = unclassifiedStamp;
    counters[RGX_COUNTER_BOX_Z + 0] = unclassifiedStamp;

    // The maps: in the same launch on a GPU; with two fills on a CPU, whose
    // memset outruns a kernel's loop several times over (the rows from the
    // box's first to its last, slices between included).
    const PixelBox& reset = start.reset;
    const bool mapsInKernel = run.info.type == "GPU";
    if (!mapsInKernel && !reset.empty()) {
        const size_t width = size_t(state.width()), sliceHeight = size_t(state.sliceHeight());
        const size_t first = (size_t(reset.z0) * sliceHeight + reset.y0) * width;
        const size_t end = (size_t(reset.z1) * sliceHeight + reset.y1 + 1) * width;
        run.queue.enqueueFillBuffer(state.labels[0], cl_ushort(0), first * 2, (end - first) * 2, nullptr,
                                    run.timings.track("upload", "fill:labels"));
        run.queue.enqueueFillBuffer(state.stamps[0], cl_uint(unclassifiedStamp), first * 4, (end - first) * 4,
                                    nullptr, run.timings.track("upload", "fill:stamps"));
    }
    const PixelBox inKernel = mapsInKernel ? reset : PixelBox();
    cl::Kernel& kernel = state.kernel(sessionKernels(state.device()).program, "start_run");
    int a = 0;
    kernel.setArg(a++, state.labels[0]);
    kernel.setArg(a++, state.stamps[0]);
    kernel.setArg(a++, cl_uint(state.width()));
    kernel.setArg(a++, cl_uint(state.sliceHeight()));
    kernel.setArg(a++, cl_uint4{{inKernel.x0, inKernel.y0, inKernel.x1, inKernel.y1}});
    kernel.setArg(a++, cl_uint2{{inKernel.z0, inKernel.z1}});
    kernel.setArg(a++, start.markWords > 0 ? state.tileMark : state.counters);
    kernel.setArg(a++, cl_uint(start.markWords));
    kernel.setArg(a++, state.regionStats);
    kernel.setArg(a++, cl_uint(start.statWords));
    kernel.setArg(a++, state.counters);
    kernel.setArg(a++, cl_uint(run.seeds.size()));
    kernel.setArg(a++, box);
    kernel.setArg(a++, boxZ);
    const size_t words = std::max({size_t(inKernel.pixels()), start.markWords, start.statWords,
                                   size_t(RGX_COUNTER_WORDS)});
    const size_t items = std::min(roundUp(words, 256), groupsToFill(run.info) * 256);
    run.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(items), cl::NDRange(256), nullptr,
                                   run.timings.track("upload", "start_run"));
    run.gridBarrierClear = true;
}

void placeSeeds(Run& run, bool tiles, const std::vector<uint32_t>& seedLuma)
{
    GrowState& state = run.state;
    const size_t regionTotal = run.seeds.size();
    run.seedPixels.resize(regionTotal);
    run.seedLuma = seedLuma;
    for (size_t k = 0; k < regionTotal; ++k)
        run.seedPixels[k] = uint32_t(seedIndex(run.seeds[k], state.width(), state.sliceHeight()));
    if (!state.holdsSeedPixels(run.seedPixels)) {
        run.queue.enqueueWriteBuffer(state.seedPixels, CL_FALSE, 0, regionTotal * 4, run.seedPixels.data(), nullptr,
                                     run.timings.track("upload", "write:seed_pixels"));
        state.holdSeedPixels(run.seedPixels);
    }
    if (tiles) {
        run.seedsToPlace = uint32_t(regionTotal);
        return;
    }
    const BuiltProgram& built = sessionKernels(state.device());
    cl::Kernel& place = state.kernel(built.program, "place_seeds");
    int a = 0;
    place.setArg(a++, state.seedPixels);
    place.setArg(a++, state.luma);
    place.setArg(a++, state.seedLuma);
    place.setArg(a++, cl_uint(regionTotal));
    place.setArg(a++, cl_uint(state.width()));
    place.setArg(a++, cl_uint(state.sliceHeight()));
    place.setArg(a++, state.labels[0]);
    place.setArg(a++, state.stamps[0]);
    place.setArg(a++, state.counters);
    run.queue.enqueueNDRangeKernel(place, cl::NullRange, cl::NDRange(roundUp(regionTotal, 64)), cl::NullRange,
                                   nullptr, run.timings.track("upload", "place_seeds"));
}

} // namespace rgx::grow
