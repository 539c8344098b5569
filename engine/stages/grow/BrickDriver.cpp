// fusion=tiles on a volume whose labels follow from the luma (one region,
// mode range or competitive): rounds of 8 x 8 x 8 bricks relaxed to the
// breadth-first distances level by level on bit masks (kernels/grow_bricks.cl),
// a batch of rounds in one launch with a grid barrier between rounds, the
// counters read after each; where the work-groups cannot all be resident
// or stop meeting, one launch per round, as driver=host-batched does.
// Rounds are not iterations: a brick settles many levels in one, and may be
// visited again when a shorter path reaches it.
#include "Device.h"
#include "GrowDriver.h"
#include "GrowPrograms.h"
#include "Run.h"
#include "stages/TimingLog.h"
#include "grow_counters.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace rgx::grow {
namespace {

constexpr int notAnIteration = -1;
constexpr uint32_t firstBrickBatch = 256;

class BrickDriver final : public GrowDriver {
public:
    void grow(Run& run) override
    {
        GrowState& state = run.state;
        const BuiltProgram& built = brickKernels(state.device());
        run.result.kernels.insert(run.result.kernels.end(), built.kernels.begin(), built.kernels.end());
        bricks_ = &state.kernel(built.program, "grow_bricks");
        cl::Kernel& bricks = *bricks_;
        const uint32_t seed = run.seedLuma.front();
        // Competitive accepts every voxel it reaches, whatever the regions:
        // their stamps are the distances from the nearest seed.
        const bool range = run.params.mode == Mode::Range;
        const uint32_t lowest = range ? (seed > run.params.lower ? seed - run.params.lower : 0) : 0;
        const uint32_t highest = range ? std::min<uint64_t>(uint64_t(seed) + run.params.upper, 0xFFFF) : 0xFFFF;
        int a = 2;
        bricks.setArg(a++, cl_int(state.width()));
        bricks.setArg(a++, cl_int(state.height()));
        bricks.setArg(a++, cl_int(state.sliceHeight()));
        bricks.setArg(a++, state.luma);
        bricks.setArg(a++, state.labels[0]);
        bricks.setArg(a++, state.stamps[0]);
        bricks.setArg(a++, cl_uint(lowest));
        bricks.setArg(a++, cl_uint(highest));
        bricks.setArg(a++, cl_int(run.params.connectivity));
        bricks.setArg(a++, state.tileLists);
        bricks.setArg(a++, state.tileMark);
        bricks.setArg(a++, state.counters);
        bricks.setArg(a++, cl_uint(state.tileCount()));
        listSeedBricks(run);

        // Fused: all the rounds of a batch in one launch, a grid barrier
        // between them, on groups that can all be resident (a few per
        // multiprocessor of a GPU); where they cannot, or stop meeting, one
        // round per launch on enough groups for every multiprocessor to keep
        // 32 bricks going.
        const bool gpu = run.info.type == "GPU";
        // H100 (docs/PERFORMANCE.md): 8 groups of 64 per multiprocessor (4
        // fused groups' worth) beat 12 by 1 to 3 %; 16 and 24 were not all
        // resident, and a roll call that fails waits seconds there.
        residentGroups_ = std::max<size_t>(1, fusedGroupCount(run.info) * (gpu ? 4 : 1));
        eachGroups_ = std::max<size_t>(1, fusedGroupCount(run.info) * (gpu ? 16 : 1));
        fused_ = !state.bricksNotResident;
        if (!fused_)
            run.addNote("fusion=tiles: not all " + std::to_string(residentGroups_) + " work-groups ran at once on " +
                        run.info.name +
                        " in an earlier run of this session, so the run went one round of bricks per launch");
        uint32_t round = 1;
        // A fused launch ends at the first round that queues nothing: the
        // first batch is long enough for a whole 512^3 volume (124 rounds),
        // so that most clicks are one launch and one summary, and short
        // enough to cancel within tens of milliseconds.
        uint32_t batch = firstBrickBatch;
        for (;;) {
            run.deadline.check(round - 1, "brick rounds");
            const uint32_t upTo = round + batch - 1;
            if (fused_) {
                if (!launchFused(run, round, upTo)) {
                    batch = 4;
                    if (stopped_)
                        break;
                    continue;
                }
            } else {
                launchEach(run, round, upTo);
            }
            const uint32_t last = run.counters[RGX_COUNTER_LAST_LAUNCHED];
            const uint32_t queued = run.counters[RGX_COUNTER_TILES + (last + 1) % 3];
            run.progress(last, queued);
            if (queued == 0) {
                if (fused_ && round == 1 && run.seeds.size() == 1)
                    run.summary = Run::Summary::Done;
                break;
            }
            round = last + 1;
            batch = std::min<uint32_t>(batch * 2, fused_ ? largestFusedBatch : 64);
        }
        if (run.seeds.size() > 1)
            labelLevels(run);
        run.result.finalSet = 0;
    }

private:
    // One launch of rounds `round` to `upTo`; false when the work-groups
    // could not run it fused (then `round` is where to go on).
    bool launchFused(Run& run, uint32_t& round, uint32_t upTo)
    {
        cl::Kernel& bricks = *bricks_;
        run.clearGridBarrier(notAnIteration);
        bricks.setArg(0, cl_uint(round));
        bricks.setArg(1, cl_uint(upTo));
        run.queue.enqueueNDRangeKernel(bricks, cl::NullRange, cl::NDRange(residentGroups_ * groupSize),
                                       cl::NDRange(groupSize), nullptr, run.timings.track("grow", "grow_bricks"));
        const size_t record = run.timings.size() - 1;
        // A click often ends in its first launch: its summary then comes
        // back with the same read (and is redone if it did not).
        if (round == 1 && run.seeds.size() == 1) {
            enqueueSummary(run);
            run.summary = Run::Summary::Stale;
        }
        run.readCounters(notAnIteration);
        switch (run.noteFusedRounds(record, round, "brick", residentGroups_)) {
        case RGX_VERDICT_NOT_RESIDENT:
            run.state.bricksNotResident = true;
            fused_ = false;
            return false;
        case RGX_VERDICT_STALLED: {
            // Go on from the round after the last every group finished.
            fused_ = false;
            const uint32_t last = run.counters[RGX_COUNTER_LAST_LAUNCHED];
            if (run.counters[RGX_COUNTER_TILES + (last + 1) % 3] == 0)
                stopped_ = true;
            else
                round = last + 1;
            return false;
        }
        default:
            return true;
        }
    }

    // One round per launch: the kernel boundary is the barrier.
    void launchEach(Run& run, uint32_t round, uint32_t upTo)
    {
        run.launchEachRound(*bricks_, "grow_bricks", eachGroups_, groupSize, round, upTo, "brick");
    }

    // A work-item per row of the brick.
    static constexpr size_t groupSize = size_t(growBrickSide) * growBrickSide;
    cl::Kernel* bricks_ = nullptr;
    size_t residentGroups_ = 1;
    size_t eachGroups_ = 1;
    bool fused_ = true;
    bool stopped_ = false; // a stalled launch found nothing left to do

    // Round 1's list: the bricks of the seeds, each once, and the bricks
    // beyond the faces, edges and corners a seed lies on. A seed's stamp
    // never falls, so its own brick queues no brick for it: where the seed
    // is the only open voxel of its face (a column one voxel wide), the
    // brick beyond would never be visited.
    void listSeedBricks(Run& run)
    {
        GrowState& state = run.state;
        const uint32_t width = uint32_t(state.width()), sliceHeight = uint32_t(state.sliceHeight());
        const uint32_t depth = uint32_t(state.height()) / sliceHeight;
        const std::array<uint32_t, 3> bricks{uint32_t(brickCountAlong(state.width())),
                                             uint32_t(brickCountAlong(state.sliceHeight())),
                                             uint32_t(brickCountAlong(int(depth)))};
        const uint32_t side = growBrickSide;
        std::vector<uint32_t> firstBricks;
        for (const uint32_t pixel : run.seedPixels) {
            const uint32_t row = pixel / width;
            const std::array<uint32_t, 3> at{pixel % width, row % sliceHeight, row / sliceHeight};
            // Per axis, the bricks the seed's voxel touches: its own, and the
            // one beyond where it lies on the brick's first or last layer.
            std::array<std::vector<uint32_t>, 3> touched;
            for (int axis = 0; axis < 3; ++axis) {
                const uint32_t brick = at[axis] / side;
                touched[axis].push_back(brick);
                if (at[axis] % side == 0 && brick > 0)
                    touched[axis].push_back(brick - 1);
                if (at[axis] % side == side - 1 && brick + 1 < bricks[axis])
                    touched[axis].push_back(brick + 1);
            }
            for (const uint32_t bz : touched[2])
                for (const uint32_t by : touched[1])
                    for (const uint32_t bx : touched[0])
                        firstBricks.push_back((bz * bricks[1] + by) * bricks[0] + bx);
        }
        std::sort(firstBricks.begin(), firstBricks.end());
        firstBricks.erase(std::unique(firstBricks.begin(), firstBricks.end()), firstBricks.end());
        const uint32_t count = uint32_t(firstBricks.size());
        // Round r reads list r % 2 and counter RGX_COUNTER_TILES + r % 3.
        // Blocking writes: their sources are this function's.
        run.queue.enqueueWriteBuffer(state.tileLists, CL_TRUE, state.tileCount() * 4, firstBricks.size() * 4,
                                     firstBricks.data(), nullptr, run.timings.track("grow", "write:first_bricks"));
        run.queue.enqueueWriteBuffer(state.counters, CL_TRUE, (RGX_COUNTER_TILES + 1) * 4, 4, &count, nullptr,
                                     run.timings.track("grow", "write:first_count"));
    }
};

} // namespace

std::unique_ptr<GrowDriver> makeBrickDriver() { return std::make_unique<BrickDriver>(); }

} // namespace rgx::grow
