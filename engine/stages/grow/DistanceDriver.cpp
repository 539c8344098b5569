// fusion=tiles for a competitive run (one region, or several under rule
// adjacent, up to labelLevelLocalRegions seeds): every candidate is
// accepted, so every pixel joins at its distance from the nearest seed in
// the grid graph, which seed_distances (kernels/seed_distances.h) computes
// for every pixel at once, no level after another, with the label of
// every pixel that has one seed alone nearest; the ties between seeds
// follow level by level (labelTies, LabelTies.cpp; docs/VARIANTS.md,
// "Competitive runs of many regions"). The seeds are placed before, as
// the level drivers do. One region in mode range whose range holds every
// luma of the image grows the same way (rangeTakesEveryLuma): every pixel
// joins.
#include "Device.h"
#include "GrowDriver.h"
#include "GrowPrograms.h"
#include "Run.h"
#include "stages/TimingLog.h"

#include <algorithm>
#include <array>

namespace rgx::grow {
namespace {

constexpr int notAnIteration = -1;

// The largest stamp a run can have: no pixel lies farther from its nearest
// seed than from any one seed, and none farther from a seed than the
// image's farthest corner (the distances grow with each coordinate's
// difference); the cap cuts it.
uint32_t largestStampBound(const Run& run)
{
    const GrowState& state = run.state;
    const int depth = state.height() / state.sliceHeight();
    uint64_t bound = UINT64_MAX;
    for (const Seed& seed : run.seeds) {
        const std::array<int64_t, 3> far{std::max<int64_t>(seed.x, state.width() - 1 - seed.x),
                                         std::max<int64_t>(seed.y, state.sliceHeight() - 1 - seed.y),
                                         std::max<int64_t>(seed.z, depth - 1 - seed.z)};
        const int64_t largest = std::max({far[0], far[1], far[2]});
        const int64_t sum = far[0] + far[1] + far[2];
        const int connectivity = run.params.connectivity;
        const int64_t distance = connectivity == 4 || connectivity == 6 ? sum
                                 : connectivity == 18                  ? std::max(largest, (sum + 1) / 2)
                                                                       : largest;
        bound = std::min<uint64_t>(bound, uint64_t(distance));
    }
    return uint32_t(std::min<uint64_t>(bound, run.cap));
}

class DistanceDriver final : public GrowDriver {
public:
    void grow(Run& run) override
    {
        GrowState& state = run.state;
        const BuiltProgram& built = labelLevelKernels(state.device(), state.sliceHeight() != state.height());
        run.result.kernels.insert(run.result.kernels.end(), built.kernels.begin(), built.kernels.end());
        const TieLimits limits = tieLimits(run, largestStampBound(run) + 1);
        cl::Buffer& counts = state.tieBuffer(GrowState::TieBuffer::Counts, (size_t(limits.levels) + 2) * 4);
        cl::Buffer& unique = state.tieBuffer(GrowState::TieBuffer::Unique, limits.uniqueWords() * 4);
        cl::Buffer& ties = state.tieBuffer(GrowState::TieBuffer::List, size_t(limits.tieCapacity) * 4);
        if (limits.collect) {
            run.queue.enqueueFillBuffer(counts, cl_uint(0), 0, (size_t(limits.levels) + 2) * 4, nullptr,
                                        run.timings.track("grow", "fill:tie_counts"));
            run.queue.enqueueFillBuffer(unique, cl_uint(0), 0, limits.uniqueWords() * 4, nullptr,
                                        run.timings.track("grow", "fill:unique_totals"));
        }
        cl::Kernel& distances = state.kernel(built.program, "seed_distances");
        int a = 0;
        distances.setArg(a++, state.seedPixels);
        distances.setArg(a++, cl_uint(run.seeds.size()));
        distances.setArg(a++, cl_int(state.width()));
        distances.setArg(a++, cl_int(state.height()));
        distances.setArg(a++, cl_int(state.sliceHeight()));
        distances.setArg(a++, cl_int(run.params.connectivity));
        distances.setArg(a++, cl_uint(run.cap));
        distances.setArg(a++, state.stamps[0]);
        distances.setArg(a++, state.labels[0]);
        distances.setArg(a++, state.luma);
        distances.setArg(a++, cl_uint(limits.collect ? 1 : 0));
        distances.setArg(a++, counts);
        distances.setArg(a++, unique);
        distances.setArg(a++, limits.levels);
        distances.setArg(a++, ties);
        distances.setArg(a++, limits.tieCapacity);
        run.queue.enqueueNDRangeKernel(distances, cl::NullRange, cl::NDRange(labelPassGroups(run.info) * labelLevelGroup),
                                       cl::NDRange(labelLevelGroup), nullptr,
                                       run.timings.track("grow", "seed_distances", notAnIteration));
        run.result.finalSet = 0;
        // One region: every pixel within the cap has its label already.
        if (run.seeds.size() == 1)
            return;
        if (!limits.collect) {
            labelLevels(run);
            return;
        }
        labelTies(run, limits);
    }
};

} // namespace

std::unique_ptr<GrowDriver> makeDistanceDriver() { return std::make_unique<DistanceDriver>(); }

bool stampsByDistance(const GrowParams& params, size_t regions)
{
    return (regions == 1 && params.mode == Mode::Competitive) ||
           (labelsInSecondPass(params, regions) && regions <= labelLevelLocalRegions);
}

bool rangeTakesEveryLuma(const GrowParams& params, const std::vector<uint32_t>& seedLuma, uint32_t lumaLimit)
{
    return seedLuma.size() == 1 && params.mode == Mode::Range && seedLuma[0] <= params.lower &&
           uint64_t(seedLuma[0]) + params.upper >= lumaLimit;
}

bool rangeMayTakeEveryLuma(const GrowParams& params, size_t regions)
{
    // The smallest image's limit, 255: lower + upper covers it at least.
    return regions == 1 && params.mode == Mode::Range && uint64_t(params.lower) + params.upper >= 0xFF;
}

} // namespace rgx::grow
