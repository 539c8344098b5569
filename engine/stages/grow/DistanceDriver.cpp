// fusion=tiles for a competitive run of several regions (under rule
// adjacent, up to labelLevelLocalRegions seeds): every candidate is
// accepted, so every pixel joins at its distance from the nearest seed in
// the grid graph, which seed_distances (kernels/label_levels.cl) computes
// for every pixel at once, no level after another; the labels follow
// level by level in labelLevels (docs/VARIANTS.md, "Competitive runs of
// many regions"). The seeds are placed before, as the level drivers do.
#include "Device.h"
#include "GrowDriver.h"
#include "GrowPrograms.h"
#include "Run.h"
#include "stages/TimingLog.h"

namespace rgx::grow {
namespace {

constexpr int notAnIteration = -1;

class DistanceDriver final : public GrowDriver {
public:
    void grow(Run& run) override
    {
        GrowState& state = run.state;
        const BuiltProgram& built = labelLevelKernels(state.device(), state.sliceHeight() != state.height());
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
        run.queue.enqueueNDRangeKernel(distances, cl::NullRange, cl::NDRange(labelPassGroups(run.info) * labelLevelGroup),
                                       cl::NDRange(labelLevelGroup), nullptr,
                                       run.timings.track("grow", "seed_distances", notAnIteration));
        labelLevels(run);
        run.result.finalSet = 0;
    }
};

} // namespace

std::unique_ptr<GrowDriver> makeDistanceDriver() { return std::make_unique<DistanceDriver>(); }

bool stampsByDistance(const GrowParams& params, size_t regions)
{
    return labelsInSecondPass(params, regions) && regions <= labelLevelLocalRegions;
}

} // namespace rgx::grow
