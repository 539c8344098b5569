// driver=device-enqueue (OpenCL 2.0): the kernels schedule the iterations
// themselves with enqueue_kernel, a chain of them per host launch
// (grow_chain in kernels/region_growing.cl); the host can time only each
// chain as a whole. The chains are bounded (32 iterations, doubling to
// 1024): between them the host checks Cancel and the time limit, and
// Intel's CPU runtime runs a child kernel on the stack of its parent, so
// an unbounded chain of a long run overflowed the stack of the thread that
// waited for it.
#include "Device.h"
#include "GrowDriver.h"
#include "LevelSteps.h"
#include "Run.h"
#include "stages/TimingLog.h"
#include "grow_counters.h"

#include <algorithm>

namespace rgx::grow {
namespace {

class DeviceEnqueueDriver final : public GrowDriver {
public:
    void grow(Run& run) override
    {
        LevelSteps levels(run);
        GrowState& state = run.state;
        state.device().deviceQueue();
        cl::Kernel chain(levels.program().program, "grow_chain");
        const bool queueFrontier = levels.variant().frontier == Frontier::Queue;
        int a = 2;
        chain.setArg(a++, cl_uint(levels.groupsToFillDevice()));
        chain.setArg(a++, cl_int(state.width()));
        chain.setArg(a++, cl_int(state.height()));
        chain.setArg(a++, queueFrontier ? state.frontier[0] : state.stamps[0]);
        chain.setArg(a++, queueFrontier ? state.frontier[1] : state.stamps[0]);
        chain.setArg(a++, state.luma);
        chain.setArg(a++, state.labels[0]);
        chain.setArg(a++, queueFrontier ? state.labels[0] : state.labels[1]);
        chain.setArg(a++, state.stamps[0]);
        chain.setArg(a++, queueFrontier ? state.stamps[0] : state.stamps[1]);
        levels.setDecisionArguments(chain, a);

        uint32_t chainLength = firstFusedBatch;
        while (levels.goingOn()) {
            run.deadline.check(levels.last());
            const uint32_t first = levels.last() + 1;
            chain.setArg(0, cl_uint(first));
            chain.setArg(1, cl_uint(std::min(run.cap, levels.last() + chainLength)));
            run.queue.enqueueNDRangeKernel(chain, cl::NullRange, cl::NDRange(1), cl::NullRange, nullptr,
                                           run.timings.track("grow", "grow_chain", int(first), true));
            const size_t chainRecord = run.timings.size() - 1;
            run.queue.finish();
            run.readCounters(int(first));
            const uint32_t last = run.counters[RGX_COUNTER_LAST_LAUNCHED];
            run.timings.coverIterations(chainRecord, int(last), {});
            chainLength = std::min(chainLength * 2, largestFusedBatch);
            levels.reached(last);
        }
        run.result.finalSet = levels.finalSet();
    }
};

} // namespace

std::unique_ptr<GrowDriver> makeDeviceEnqueueDriver() { return std::make_unique<DeviceEnqueueDriver>(); }

} // namespace rgx::grow
