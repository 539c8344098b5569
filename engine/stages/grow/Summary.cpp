// The end every run shares, whatever its driver: where the classified
// pixels are, the largest stamp and the region statistics (summarize in
// kernels/grow_session.cl), read back with the counters.
#include "Device.h"
#include "GrowPrograms.h"
#include "Run.h"
#include "stages/TimingLog.h"
#include "grow_counters.h"

#include <algorithm>

namespace rgx::grow {

void enqueueSummary(Run& run)
{
    GrowState& state = run.state;
    const int set = run.result.finalSet;
    const BuiltProgram& built = sessionKernels(state.device());
    cl::Kernel& kernel = state.kernel(built.program, "summarize");
    const size_t regionTotal = run.seeds.size();
    int a = 0;
    kernel.setArg(a++, state.stamps[set]);
    kernel.setArg(a++, state.labels[set]);
    kernel.setArg(a++, state.luma);
    kernel.setArg(a++, cl_uint(state.width()));
    kernel.setArg(a++, cl_uint(state.sliceHeight()));
    kernel.setArg(a++, cl_uint(regionTotal));
    // One region of a correct run: label 1 wherever a stamp is (as a click's
    // maps take it, DeviceSession.cpp).
    kernel.setArg(a++, cl_uint(regionTotal == 1 && !run.variant.wrongOnPurpose() ? 1 : 0));
    kernel.setArg(a++, state.counters);
    kernel.setArg(a++, state.regionStats);
    const size_t groups = std::min<size_t>(groupsToFill(run.info), size_t(state.height()));
    run.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(groups * 256), cl::NDRange(256), nullptr,
                                   run.timings.track("download", "summarize"));
    state.enqueuePackAhead(set, run.timings);
    // Into the pinned words after the counters: summarize takes them once a
    // blocking read of the counters has passed this one.
    run.queue.enqueueReadBuffer(state.regionStats, CL_FALSE, 0, RGX_REGION_STATS_WORDS * regionTotal * 4,
                                state.readBackWords() + RGX_COUNTER_WORDS, nullptr,
                                run.timings.track("download", "read:region_stats"));
}

// A driver may have summarised already (its last launch may be the run's
// last: then the summary saves a wait), or have summarised too early (then
// its totals and box are reset first).
void summarize(Run& run)
{
    if (run.summary == Run::Summary::Stale) {
        GrowState& state = run.state;
        run.queue.enqueueFillBuffer(state.regionStats, cl_uint(0), 0, RGX_REGION_STATS_WORDS * run.seeds.size() * 4,
                                    nullptr, run.timings.track("download", "fill:region_stats"));
        std::vector<uint32_t>& counters = run.counters;
        counters[RGX_COUNTER_BOX + 0] = counters[RGX_COUNTER_BOX + 1] = unclassifiedStamp;
        counters[RGX_COUNTER_BOX + 2] = counters[RGX_COUNTER_BOX + 3] = counters[RGX_COUNTER_MAX_STAMP] = 0;
        counters[RGX_COUNTER_BOX_Z + 0] = unclassifiedStamp;
        counters[RGX_COUNTER_BOX_Z + 1] = 0;
        static_assert(RGX_COUNTER_BOX_Z == RGX_COUNTER_BOX + 5, "the box's words are one range");
        run.queue.enqueueWriteBuffer(state.counters, CL_FALSE, RGX_COUNTER_BOX * 4, 7 * 4, &counters[RGX_COUNTER_BOX],
                                     nullptr, run.timings.track("download", "write:counters"));
    }
    if (run.summary != Run::Summary::Done) {
        enqueueSummary(run);
        run.readCounters(-1);
    }

    const size_t regionTotal = run.seeds.size();
    GrowRun& result = run.result;
    result.regions.resize(regionTotal);
    for (size_t k = 0; k < regionTotal; ++k) {
        const uint32_t* words = run.state.readBackWords() + RGX_COUNTER_WORDS + RGX_REGION_STATS_WORDS * k;
        result.regions[k] = {words[0], (uint64_t(words[2]) << 32) | words[1]};
    }
    const std::vector<uint32_t>& counters = run.counters;
    result.box = {counters[RGX_COUNTER_BOX + 0],   counters[RGX_COUNTER_BOX + 1],   counters[RGX_COUNTER_BOX + 2],
                  counters[RGX_COUNTER_BOX + 3],   counters[RGX_COUNTER_BOX_Z + 0], counters[RGX_COUNTER_BOX_Z + 1]};
    result.iterations = counters[RGX_COUNTER_MAX_STAMP];
    run.state.notePackedAhead(counters[RGX_COUNTER_PACKED], result.box, run.result.finalSet);
    result.stoppedAtCap = result.iterations == run.cap && result.iterations > 0;
    // Only a broken variant overflows: its result is shown, damage and all.
    if (counters[RGX_COUNTER_OVERFLOW] != 0)
        run.addNote("a frontier ran past its buffer: the writes beyond it were dropped");
}

} // namespace rgx::grow
