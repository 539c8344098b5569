// fusion=tiles on a volume whose labels follow from the luma (one region,
// mode range or competitive): rounds of 8 x 8 x 8 bricks relaxed to the
// breadth-first distances level by level on bit masks (kernels/grow_bricks.cl), one
// launch per round, the counters read after a batch of rounds as
// driver=host-batched does. Rounds are not iterations: a brick settles many
// levels in one, and may be visited again when a shorter path reaches it.
#include "Device.h"
#include "GrowDriver.h"
#include "GrowPrograms.h"
#include "Run.h"
#include "stages/TimingLog.h"
#include "grow_counters.h"

#include <algorithm>
#include <array>
#include <vector>

namespace rgx::grow {
namespace {

constexpr int notAnIteration = -1;

class BrickDriver final : public GrowDriver {
public:
    void grow(Run& run) override
    {
        GrowState& state = run.state;
        const BuiltProgram& built = brickKernels(state.device());
        run.result.kernels.insert(run.result.kernels.end(), built.kernels.begin(), built.kernels.end());
        cl::Kernel& bricks = state.kernel(built.program, "grow_bricks");
        const uint32_t seed = run.seedLuma.front();
        // Competitive accepts every voxel it reaches, whatever the regions:
        // their stamps are the distances from the nearest seed.
        const bool range = run.params.mode == Mode::Range;
        const uint32_t lowest = range ? (seed > run.params.lower ? seed - run.params.lower : 0) : 0;
        const uint32_t highest = range ? std::min<uint64_t>(uint64_t(seed) + run.params.upper, 0xFFFF) : 0xFFFF;
        const int width = state.width(), sliceHeight = state.sliceHeight();
        int a = 1;
        bricks.setArg(a++, cl_int(width));
        bricks.setArg(a++, cl_int(state.height()));
        bricks.setArg(a++, cl_int(sliceHeight));
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

        // A work-item per row of the brick (64); on a GPU enough groups for
        // every one of its multiprocessors to keep 32 bricks going.
        const size_t groupSize = size_t(growBrickSide) * growBrickSide;
        const size_t groups = std::max<size_t>(1, fusedGroupCount(run.info) * (run.info.type == "GPU" ? 16 : 1));
        listSeedBricks(run);
        uint32_t round = 1;
        uint32_t batch = 4;
        for (;;) {
            run.deadline.check(round - 1, "brick rounds");
            const uint32_t upTo = round + batch - 1;
            for (; round <= upTo; ++round) {
                bricks.setArg(0, cl_uint(round));
                run.queue.enqueueNDRangeKernel(bricks, cl::NullRange, cl::NDRange(groups * groupSize),
                                               cl::NDRange(groupSize), nullptr,
                                               run.timings.track("grow", "grow_bricks", notAnIteration));
            }
            run.readCounters(notAnIteration);
            const uint32_t queued = run.counters[RGX_COUNTER_TILES + round % 3];
            run.progress(round - 1, queued);
            if (queued == 0)
                break;
            batch = std::min<uint32_t>(batch * 2, 64);
        }
        if (run.seeds.size() > 1)
            labelLevels(run);
        run.result.finalSet = 0;
    }

private:
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
