// The second pass of a competitive run of several regions in tiles or
// bricks (kernels/label_levels.cl, docs/VARIANTS.md "Competitive runs of
// many regions"): the first found every voxel's stamp, its distance from
// the nearest seed; here the voxels are bucketed by stamp and labelled level
// by level, each level on the means the level before left. The host waits
// three times (it reads the largest stamp and the voxels per stamp, writes
// the stamps' starts), then launches every level at once with a grid
// barrier between levels; where the work-groups cannot all be resident or
// stop meeting (or there are more regions than a work-group keeps), it
// labels again from level 1 with two launches a level, each level its own
// iteration in the timings.
#include "Device.h"
#include "GrowDriver.h"
#include "GrowPrograms.h"
#include "Run.h"
#include "stages/StageSupport.h"
#include "stages/TimingLog.h"
#include "grow_counters.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace rgx::grow {

namespace {

constexpr size_t groupSize = labelLevelGroup;
constexpr int notAnIteration = -1;

// Every level in one launch (label_levels_fused); false where the
// work-groups could not all run at once or stopped meeting (then the run's
// note says so, and nothing of the launch is kept).
bool labelFused(Run& run, const BuiltProgram& built, cl_uint levels, cl::Buffer& ends)
{
    GrowState& state = run.state;
    cl::Kernel& fused = state.kernel(built.program, "label_levels_fused");
    int a = 0;
    fused.setArg(a++, levels);
    fused.setArg(a++, ends);
    fused.setArg(a++, state.levelOrder());
    fused.setArg(a++, state.levelInfo());
    fused.setArg(a++, cl_int(state.width()));
    fused.setArg(a++, cl_int(state.height()));
    fused.setArg(a++, cl_int(state.sliceHeight()));
    fused.setArg(a++, cl_int(run.params.connectivity));
    fused.setArg(a++, state.luma);
    fused.setArg(a++, state.labels[0]);
    fused.setArg(a++, state.totals);
    fused.setArg(a++, cl_uint(run.seeds.size()));
    fused.setArg(a++, state.deltas);
    fused.setArg(a++, state.counters);
    run.clearGridBarrier(notAnIteration);
    const size_t groups = fusedGroupCount(run.info);
    run.queue.enqueueNDRangeKernel(fused, cl::NullRange, cl::NDRange(groups * groupSize), cl::NDRange(groupSize),
                                   nullptr, run.timings.track("grow", "label_levels_fused", notAnIteration));
    const size_t record = run.timings.size() - 1;
    // The click's summary comes back with the verdict (and is redone where
    // the launch labelled nothing).
    enqueueSummary(run);
    run.readCounters(notAnIteration);
    const uint32_t verdict = run.verdict();
    if (verdict == RGX_VERDICT_GO) {
        run.summary = Run::Summary::Done;
        run.timings.coverIterations(record, -1,
                                    "label levels 1 to " + std::to_string(levels - 1) +
                                        " in one launch, a grid barrier between them");
        return true;
    }
    run.summary = Run::Summary::Stale;
    const std::string why = verdict == RGX_VERDICT_NOT_RESIDENT ? "not all " + std::to_string(groups) +
                                                                      " work-groups of the labels ran at once"
                                                                : "the work-groups stopped meeting at the grid "
                                                                  "barrier of the labels";
    run.timings.coverIterations(record, -1, "no label level: " + why);
    run.addNote("fusion=tiles: " + why + " on " + run.info.name + ", so they were labelled again one level per launch");
    return false;
}

} // namespace

void labelLevels(Run& run, std::optional<uint32_t> largestStamp)
{
    GrowState& state = run.state;
    const BuiltProgram& built = labelLevelKernels(state.device(), state.sliceHeight() != state.height());
    run.result.kernels.insert(run.result.kernels.end(), built.kernels.begin(), built.kernels.end());
    cl::CommandQueue& queue = run.queue;
    const cl_uint voxels = cl_uint(state.pixelCount());
    const cl_uint regions = cl_uint(run.seeds.size());
    const size_t groups = labelPassGroups(run.info);

    // The largest stamp: the levels to label (seed_distances may have found it).
    cl_uint last = largestStamp.value_or(0);
    if (!largestStamp) {
        cl::Buffer largest = state.scratch(4);
        const cl_uint zero = 0;
        queue.enqueueWriteBuffer(largest, CL_TRUE, 0, 4, &zero);
        cl::Kernel& largestKernel = state.kernel(built.program, "largest_stamp");
        largestKernel.setArg(0, state.stamps[0]);
        largestKernel.setArg(1, voxels);
        largestKernel.setArg(2, largest);
        queue.enqueueNDRangeKernel(largestKernel, cl::NullRange, cl::NDRange(groups * groupSize),
                                   cl::NDRange(groupSize), nullptr,
                                   run.timings.track("grow", "largest_stamp", notAnIteration));
        queue.enqueueReadBuffer(largest, CL_TRUE, 0, 4, &last, nullptr, run.timings.track("grow", "read:largest_stamp"));
    }
    const cl_uint levels = last + 1;
    // Below the cap every voxel has its stamp (in mode competitive every
    // one is a candidate): a click's stamps travel while the labels are made.
    if (last < run.cap)
        state.readStampsAhead(0, last, run.timings);

    // The voxels of each stamp, counted, then bucketed at the scan's starts.
    cl::Buffer histogram = state.scratch(size_t(levels) * 4);
    queue.enqueueFillBuffer(histogram, cl_uint(0), 0, size_t(levels) * 4);
    cl::Kernel& count = state.kernel(built.program, "count_stamps");
    count.setArg(0, state.stamps[0]);
    count.setArg(1, voxels);
    count.setArg(2, levels);
    count.setArg(3, histogram);
    count.setArg(4, state.levelInfo());
    count.setArg(5, state.luma);
    count.setArg(6, cl_int(state.width()));
    count.setArg(7, cl_int(state.height()));
    count.setArg(8, cl_int(state.sliceHeight()));
    count.setArg(9, cl_int(run.params.connectivity));
    queue.enqueueNDRangeKernel(count, cl::NullRange, cl::NDRange(groups * groupSize), cl::NDRange(groupSize), nullptr,
                               run.timings.track("grow", "count_stamps", notAnIteration));
    std::vector<cl_uint> perLevel(levels), starts(levels);
    queue.enqueueReadBuffer(histogram, CL_TRUE, 0, size_t(levels) * 4, perLevel.data(), nullptr,
                            run.timings.track("grow", "read:stamp_counts"));
    cl_uint next = 0;
    for (cl_uint s = 0; s < levels; ++s) {
        starts[s] = next;
        next += perLevel[s];
    }
    queue.enqueueWriteBuffer(histogram, CL_TRUE, 0, size_t(levels) * 4, starts.data(), nullptr,
                             run.timings.track("grow", "write:stamp_starts"));
    cl::Buffer& order = state.levelOrder();
    cl::Kernel& bucket = state.kernel(built.program, "bucket_stamps");
    bucket.setArg(0, state.stamps[0]);
    bucket.setArg(1, voxels);
    bucket.setArg(2, levels);
    bucket.setArg(3, histogram);
    bucket.setArg(4, order);
    queue.enqueueNDRangeKernel(bucket, cl::NullRange, cl::NDRange(groups * groupSize), cl::NDRange(groupSize), nullptr,
                               run.timings.track("grow", "bucket_stamps", notAnIteration));

    // bucket_stamps moved each stamp's start to its end: `histogram` holds
    // the ends now, as the fused launch takes them.
    // Each region's count and sum as the seeds left them (the fused launch
    // only reads them).
    std::vector<cl_uint> totals(size_t(regions) * 3, 0);
    for (cl_uint k = 0; k < regions; ++k) {
        totals[k * 3] = 1;
        totals[k * 3 + 1] = run.seedLuma[k];
    }
    queue.enqueueWriteBuffer(state.totals, CL_TRUE, 0, totals.size() * 4, totals.data(), nullptr,
                             run.timings.track("grow", "write:totals"));
    queue.enqueueFillBuffer(state.deltas, cl_uint(0), 0, 3 * totals.size() * 4, nullptr,
                            run.timings.track("grow", "fill:deltas"));
    if (regions <= labelLevelLocalRegions && labelFused(run, built, levels, histogram))
        return;

    // Two launches a level, on the seeds' means; the deltas again from zero
    // (a launch that gave up may have added to them).
    queue.enqueueFillBuffer(state.deltas, cl_uint(0), 0, totals.size() * 4);
    std::vector<cl_ulong> means(regions);
    for (cl_uint k = 0; k < regions; ++k)
        means[k] = cl_ulong(run.seedLuma[k]) << 8;
    cl::Buffer meanTable = state.scratch(size_t(regions) * 8);
    queue.enqueueWriteBuffer(meanTable, CL_TRUE, 0, means.size() * 8, means.data());

    cl::Kernel& label = state.kernel(built.program, "label_level");
    int a = 3;
    label.setArg(a++, order);
    label.setArg(a++, cl_int(state.width()));
    label.setArg(a++, cl_int(state.height()));
    label.setArg(a++, cl_int(state.sliceHeight()));
    label.setArg(a++, cl_int(run.params.connectivity));
    label.setArg(a++, state.luma);
    label.setArg(a++, state.stamps[0]);
    label.setArg(a++, state.labels[0]);
    label.setArg(a++, meanTable);
    label.setArg(a++, regions);
    label.setArg(a++, state.deltas);
    cl::Kernel& close = state.kernel(built.program, "close_level");
    close.setArg(0, regions);
    close.setArg(1, state.totals);
    close.setArg(2, state.deltas);
    close.setArg(3, meanTable);
    const size_t closeItems = stage::roundUp(regions, 64);
    for (cl_uint level = 1; level < levels; ++level) {
        if (level % 64 == 0) {
            run.deadline.check(level, "levels");
            run.progress(level, perLevel[level]);
        }
        // A work-item a voxel, up to the groups a GPU keeps busy.
        const size_t items = std::min(stage::roundUp(std::max<cl_uint>(perLevel[level], 1), groupSize),
                                      groups * groupSize);
        label.setArg(0, level);
        label.setArg(1, starts[level]);
        label.setArg(2, perLevel[level]);
        queue.enqueueNDRangeKernel(label, cl::NullRange, cl::NDRange(items), cl::NDRange(groupSize), nullptr,
                                   run.timings.track("grow", "label_level", int(level)));
        queue.enqueueNDRangeKernel(close, cl::NullRange, cl::NDRange(closeItems), cl::NullRange, nullptr,
                                   run.timings.track("grow", "close_level", int(level)));
    }
}

} // namespace rgx::grow
