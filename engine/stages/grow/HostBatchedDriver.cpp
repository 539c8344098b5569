// driver=host-batched (OpenCL 1.2): the host enqueues a batch of
// iterations without reading back (4 at first, doubling to 64), then reads
// the counters once; a kernel whose frontier is empty does nothing, so a
// batch may run past the end of growth at the cost of empty launches.
#include "GrowDriver.h"
#include "LevelSteps.h"
#include "Run.h"

#include <algorithm>

namespace rgx::grow {

void stepHostBatched(Run& run, LevelSteps& levels)
{
    uint32_t batch = 4;
    while (levels.goingOn()) {
        run.deadline.check(levels.last());
        const uint32_t count = std::min(batch, run.cap - levels.last());
        const uint32_t first = levels.last() + 1;
        // The kernel loops over whatever frontier it finds: a grid that fills the device.
        for (uint32_t iteration = first; iteration < first + count; ++iteration)
            levels.enqueue(iteration, levels.groupsToFillDevice());
        const uint32_t last = first + count - 1;
        run.readCounters(int(last));
        batch = std::min<uint32_t>(batch * 2, 64);
        levels.reached(last);
    }
}

namespace {

class HostBatchedDriver final : public GrowDriver {
public:
    void grow(Run& run) override
    {
        LevelSteps levels(run);
        stepHostBatched(run, levels);
        run.result.finalSet = levels.finalSet();
    }
};

} // namespace

std::unique_ptr<GrowDriver> makeHostBatchedDriver() { return std::make_unique<HostBatchedDriver>(); }

} // namespace rgx::grow
