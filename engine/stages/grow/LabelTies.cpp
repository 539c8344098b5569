// The second pass of a competitive run of several regions whose stamps
// seed_distances found (DistanceDriver.cpp): it labelled every pixel with
// one seed alone nearest and listed the ties, the pixels equidistant from
// several seeds; here the ties are labelled in one work-group: by passes
// over every level at once for a few regions with a few ties a level
// (kernels/settle_ties.h), else level by level (kernels/label_ties.h). The
// host waits once, for the ties per stamp; where they are too many for one
// work-group, labelLevels labels every level as before.
#include "Device.h"
#include "GrowDriver.h"
#include "GrowPrograms.h"
#include "Run.h"
#include "stages/RegionGrowing.h"
#include "stages/StageSupport.h"
#include "stages/TimingLog.h"

#include <algorithm>
#include <string>
#include <vector>

namespace rgx::grow {

namespace {

constexpr size_t groupSize = labelLevelGroup;
constexpr int notAnIteration = -1;
// label_ties' work-group takes a level's ties in steps of its size: beyond
// this many ties a level on average, labelLevels' grid of work-groups
// takes them (a guess at where the one group falls behind, not measured;
// a 512^3 volume's grid of 64 seeds ties on 12 500 voxels a level).
constexpr uint64_t tiesPerLevel = 4 * groupSize;
// settle_ties (kernels/settle_ties.h) takes up to SETTLE_REGIONS regions.
// A work-item decides the ties of a level in its run one after the other,
// up to bigLimit of them; the whole group decides a level of more, a few
// barriers each, so that at most settleBigLevels of those go to settle_ties
// (8-connected seeds tie on wedges, more ties each level).
constexpr size_t settleRegions = 8;
constexpr cl_uint bigLimit = 16;
constexpr size_t settleBigLevels = 64;
constexpr size_t settleTotalWords = settleRegions * 3; // a region's count and 64-bit sum
constexpr cl_uint tieRing = 2048;                      // TIE_RING, kernels/label_ties.h

size_t refWords(const GrowState& state) { return state.sliceHeight() != state.height() ? 27 : 9; }

} // namespace

TieLimits tieLimits(const Run& run, uint32_t levels)
{
    const GrowState& state = run.state;
    TieLimits limits;
    limits.levels = levels;
    limits.regions = run.seeds.size();
    const uint64_t pixels = state.pixelCount();
    // The totals per stamp and region, and the list of ties, within a few
    // bytes a pixel (regionGrowingDeviceBytes counts them).
    limits.collect = limits.regions > 1 &&
                     uint64_t(levels) * limits.regions <= std::max<uint64_t>(uint64_t(1) << 18, pixels / 16);
    const bool volume = refWords(state) == 27;
    // On a CPU runtime label_ties takes every tie of a volume that fits the
    // list (a slot per 16 voxels): its one work-group beat labelLevels'
    // grid meeting at a barrier each level 4x at 256^3 with 64 seeds on a
    // 2-core machine (docs/PERFORMANCE.md). GPUs keep the bound per level.
    limits.anyPerLevel = volume && run.info.type != "GPU";
    // No more ties than the device takes in one buffer of their neighbours.
    const uint64_t bufferTies = run.info.maxAllocationBytes > 0
                                    ? run.info.maxAllocationBytes / (uint64_t(refWords(state)) * 4)
                                    : UINT64_MAX;
    if (limits.collect)
        limits.tieCapacity = uint32_t(
            std::min<uint64_t>(bufferTies, std::max<uint64_t>(65536, pixels / tieSlotPixels(volume, run.info))));
    return limits;
}

void labelTies(Run& run, const TieLimits& limits)
{
    GrowState& state = run.state;
    const BuiltProgram& built = labelLevelKernels(state.device(), state.sliceHeight() != state.height());
    cl::CommandQueue& queue = run.queue;
    using Tie = GrowState::TieBuffer;
    cl::Buffer& countBuffer = state.tieBuffer(Tie::Counts, (size_t(limits.levels) + 2) * 4);
    std::vector<cl_uint> counts(size_t(limits.levels) + 2);
    queue.enqueueReadBuffer(countBuffer, CL_TRUE, 0, counts.size() * 4, counts.data(), nullptr,
                            run.timings.track("grow", "read:tie_counts"));
    const cl_uint last = counts[0], tieTotal = counts[1];
    const cl_uint levels = last + 1;
    if (tieTotal > limits.tieCapacity || (!limits.anyPerLevel && tieTotal > tiesPerLevel * levels)) {
        labelLevels(run, last);
        return;
    }
    // Below the cap every pixel has its stamp: a click's stamps travel
    // while the ties are labelled.
    if (last < run.cap)
        state.readStampsAhead(0, last, run.timings);
    if (tieTotal == 0)
        return;

    // Each stamp's ties at the scan's starts; the stamps with ties.
    std::vector<uint32_t>& starts = run.tieStarts;
    std::vector<uint32_t>& tieLevels = run.tieLevels;
    starts.assign(levels, 0);
    tieLevels.clear();
    // settle_ties' levels of many ties: each tie level's place among them.
    std::vector<uint32_t>& bigIndex = run.tieBigIndex;
    std::vector<uint32_t>& bigLevels = run.tieBigLevels;
    bigIndex.clear();
    bigLevels.clear();
    cl_uint next = 0;
    for (cl_uint s = 0; s < levels; ++s) {
        const cl_uint here = counts[2 + s];
        starts[s] = next;
        if (here != 0) {
            bigIndex.push_back(here > bigLimit ? uint32_t(bigLevels.size()) : ~0u);
            if (here > bigLimit)
                bigLevels.push_back(uint32_t(tieLevels.size() / 3));
            tieLevels.insert(tieLevels.end(), {s, next, here});
        }
        next += here;
    }
    const bool settle = limits.regions <= settleRegions && bigLevels.size() <= settleBigLevels;
    cl::Buffer& startBuffer = state.tieBuffer(Tie::Starts, size_t(levels) * 4);
    cl::Buffer& cursor = state.tieBuffer(Tie::Cursor, size_t(levels) * 4);
    cl::Buffer& levelBuffer = state.tieBuffer(Tie::Levels, tieLevels.size() * 4);
    queue.enqueueWriteBuffer(startBuffer, CL_FALSE, 0, size_t(levels) * 4, starts.data(), nullptr,
                             run.timings.track("grow", "write:tie_starts"));
    queue.enqueueCopyBuffer(startBuffer, cursor, 0, 0, size_t(levels) * 4);
    queue.enqueueWriteBuffer(levelBuffer, CL_FALSE, 0, tieLevels.size() * 4, tieLevels.data(), nullptr,
                             run.timings.track("grow", "write:tie_levels"));

    cl::Buffer& ties = state.tieBuffer(Tie::List, size_t(limits.tieCapacity) * 4);
    cl::Buffer& order = state.tieBuffer(Tie::Order, size_t(tieTotal) * 4);
    cl::Buffer& place = state.levelInfo();
    cl::Buffer& refs = state.tieBuffer(Tie::Refs, size_t(tieTotal) * refWords(state) * 4);
    // settle_ties keeps two passes' labels.
    cl::Buffer& tieLabels = state.tieBuffer(Tie::Labels, size_t(tieTotal) * (settle ? 4 : 2));
    const size_t tieItems = std::min(stage::roundUp(tieTotal, groupSize), labelPassGroups(run.info) * groupSize);

    cl::Kernel& sort = state.kernel(built.program, "sort_ties");
    int a = 0;
    sort.setArg(a++, ties);
    sort.setArg(a++, tieTotal);
    sort.setArg(a++, state.stamps[0]);
    sort.setArg(a++, cursor);
    sort.setArg(a++, order);
    sort.setArg(a++, place);
    queue.enqueueNDRangeKernel(sort, cl::NullRange, cl::NDRange(tieItems), cl::NDRange(groupSize), nullptr,
                               run.timings.track("grow", "sort_ties", notAnIteration));

    cl::Kernel& where = state.kernel(built.program, "tie_refs");
    a = 0;
    where.setArg(a++, order);
    where.setArg(a++, tieTotal);
    where.setArg(a++, startBuffer);
    where.setArg(a++, countBuffer);
    where.setArg(a++, place);
    where.setArg(a++, state.stamps[0]);
    where.setArg(a++, state.labels[0]);
    where.setArg(a++, state.luma);
    where.setArg(a++, cl_int(state.width()));
    where.setArg(a++, cl_int(state.height()));
    where.setArg(a++, cl_int(state.sliceHeight()));
    where.setArg(a++, cl_int(run.params.connectivity));
    where.setArg(a++, settle ? cl_uint(0) : tieRing);
    where.setArg(a++, settle ? bigLimit : ~cl_uint(0));
    where.setArg(a++, refs);
    queue.enqueueNDRangeKernel(where, cl::NullRange, cl::NDRange(tieItems), cl::NDRange(groupSize), nullptr,
                               run.timings.track("grow", "tie_refs", notAnIteration));

    cl::Buffer& unique = state.tieBuffer(Tie::Unique, limits.uniqueWords() * 4);
    cl::Kernel& scan = state.kernel(built.program, "scan_unique");
    a = 0;
    scan.setArg(a++, unique);
    scan.setArg(a++, levels);
    scan.setArg(a++, cl_uint(limits.regions));
    scan.setArg(a++, state.seedLuma);
    queue.enqueueNDRangeKernel(scan, cl::NullRange,
                               cl::NDRange(std::min(limits.regions, labelPassGroups(run.info)) * groupSize),
                               cl::NDRange(groupSize), nullptr,
                               run.timings.track("grow", "scan_unique", notAnIteration));

    const std::string what = std::to_string(tieTotal) + " pixels equidistant from several seeds, on " +
                             std::to_string(tieLevels.size() / 3) + " levels, in one work-group";
    cl::Kernel& label = state.kernel(built.program, settle ? "settle_ties" : "label_ties");
    a = 0;
    label.setArg(a++, cl_uint(tieLevels.size() / 3));
    label.setArg(a++, levelBuffer);
    label.setArg(a++, order);
    label.setArg(a++, refs);
    label.setArg(a++, unique);
    label.setArg(a++, cl_uint(limits.regions));
    if (settle) {
        cl::Buffer& indexBuffer = state.tieBuffer(Tie::BigIndex, bigIndex.size() * 4);
        cl::Buffer& bigBuffer = state.tieBuffer(Tie::BigLevels, std::max<size_t>(bigLevels.size(), 1) * 4);
        const size_t totalBytes = std::max<size_t>(bigLevels.size(), 1) * settleTotalWords * 4;
        queue.enqueueWriteBuffer(indexBuffer, CL_FALSE, 0, bigIndex.size() * 4, bigIndex.data(), nullptr,
                                 run.timings.track("grow", "write:tie_big_index"));
        if (!bigLevels.empty())
            queue.enqueueWriteBuffer(bigBuffer, CL_FALSE, 0, bigLevels.size() * 4, bigLevels.data(), nullptr,
                                     run.timings.track("grow", "write:tie_big_levels"));
        label.setArg(a++, tieTotal);
        label.setArg(a++, bigLimit);
        label.setArg(a++, indexBuffer);
        label.setArg(a++, cl_uint(bigLevels.size()));
        label.setArg(a++, bigBuffer);
        label.setArg(a++, state.tieBuffer(Tie::BigPrefix, totalBytes));
        label.setArg(a++, state.tieBuffer(Tie::BigTotals, totalBytes));
    }
    label.setArg(a++, state.labels[0]);
    label.setArg(a++, tieLabels);
    queue.enqueueNDRangeKernel(label, cl::NullRange, cl::NDRange(groupSize), cl::NDRange(groupSize), nullptr,
                               run.timings.track("grow", settle ? "settle_ties" : "label_ties", notAnIteration));
    run.timings.coverIterations(run.timings.size() - 1, -1,
                                what + (settle ? ", every level at once until a pass changes nothing"
                                               : ", level by level"));
}

} // namespace rgx::grow
