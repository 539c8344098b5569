// fusion=grid-barrier (host-batched queue): many iterations per launch of
// grow_levels, every work-group meeting the others at a grid barrier
// between iterations (kernels/grid_barrier.h). A batch starts at 32
// iterations and doubles to 1024, so that short runs end early and Cancel
// stays quick. Where the work-groups cannot all be resident (the roll call)
// or stop meeting (one descheduled on a busy CPU), the run goes on with
// driver=host-batched's steps, and its note says so.
#include "Device.h"
#include "GrowDriver.h"
#include "LevelSteps.h"
#include "Run.h"
#include "stages/TimingLog.h"
#include "grow_counters.h"

#include <algorithm>
#include <cstdlib>

namespace rgx::grow {
namespace {

class FusedLevelsDriver final : public GrowDriver {
public:
    void grow(Run& run) override
    {
        LevelSteps levels(run);
        GrowState& state = run.state;
        const DeviceInfo& info = run.info;
        cl::Kernel kernel(levels.program().program, "grow_levels");
        kernel.setArg(2, cl_int(state.width()));
        kernel.setArg(3, cl_int(state.height()));
        kernel.setArg(4, state.frontier[0]);
        kernel.setArg(5, state.frontier[1]);
        kernel.setArg(6, state.luma);
        kernel.setArg(7, state.labels[0]);
        kernel.setArg(8, state.stamps[0]);
        levels.setDecisionArguments(kernel, 9);
        // Measurements of a level's cost against the grid's size set
        // RGX_TEST_LEVEL_GROUPS=n (docs/PERFORMANCE.md); else the fused grid.
        const char* testGroups = std::getenv("RGX_TEST_LEVEL_GROUPS");
        const int asked = testGroups ? std::atoi(testGroups) : 0;
        const size_t fused = fusedGroupCount(info);
        const size_t residentGroups = asked > 0 ? std::min(size_t(asked), fused) : fused;
        const size_t workGroup = levels.geometry().workGroup;
        const std::string fusion = "fusion=" + fusionName(run.variant.fusion);
        uint32_t batch = firstFusedBatch;
        while (levels.goingOn()) {
            run.deadline.check(levels.last());
            const uint32_t first = levels.last() + 1;
            const uint32_t upTo = std::min(run.cap, levels.last() + batch);
            run.clearGridBarrier(int(first));
            kernel.setArg(0, cl_uint(first));
            kernel.setArg(1, cl_uint(upTo));
            run.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(residentGroups * workGroup),
                                           cl::NDRange(workGroup), nullptr,
                                           run.timings.track("grow", "grow_levels", int(first)));
            const size_t record = run.timings.size() - 1;
            run.readCounters(int(upTo));
            if (run.verdict() == RGX_VERDICT_NOT_RESIDENT) {
                // Nothing ran: go on one iteration per launch.
                run.addNote(fusion + ": not all " + std::to_string(residentGroups) + " work-groups ran at once on " +
                            info.name + ", so the run went on with one iteration per launch");
                break;
            }
            const uint32_t last = run.counters[RGX_COUNTER_LAST_LAUNCHED];
            if (run.verdict() == RGX_VERDICT_STALLED) {
                // A work-group stopped coming to the barrier: every group
                // stopped at the same barrier, after the same iteration. Go
                // on from there, one per launch.
                levels.settle(last);
                run.addNote(fusion + ": the work-groups stopped meeting at the grid barrier on " + info.name +
                            " after iteration " + std::to_string(last) +
                            ", so the run went on with one iteration per launch");
                break;
            }
            run.timings.coverIterations(record, int(last),
                                        "iterations " + std::to_string(first) + " to " + std::to_string(last) +
                                            " in one launch, a grid barrier between them");
            batch = std::min(batch * 2, largestFusedBatch);
            levels.reached(last);
        }
        stepHostBatched(run, levels);
        run.result.finalSet = levels.finalSet();
    }
};

} // namespace

std::unique_ptr<GrowDriver> makeFusedLevelsDriver() { return std::make_unique<FusedLevelsDriver>(); }

} // namespace rgx::grow
