// driver=host-sync (OpenCL 1.2): one launch per iteration, and after each
// the host reads the counters: the size of the new frontier sizes the next
// launch, and an empty one ends the run. The simplest driver, and the one
// that pays the launch floor and a blocking read per iteration.
#include "GrowDriver.h"
#include "LevelSteps.h"
#include "Run.h"

namespace rgx::grow {
namespace {

class HostSyncDriver final : public GrowDriver {
public:
    void grow(Run& run) override
    {
        LevelSteps levels(run);
        while (levels.goingOn()) {
            run.deadline.check(levels.last());
            const uint32_t next = levels.last() + 1;
            // The queue launch covers the frontier just read, no more.
            levels.enqueue(next, levels.groupsForFrontier(levels.accepted(next - 1)));
            run.readCounters(int(next));
            levels.reached(next);
        }
        run.result.finalSet = levels.finalSet();
    }
};

} // namespace

std::unique_ptr<GrowDriver> makeHostSyncDriver() { return std::make_unique<HostSyncDriver>(); }

} // namespace rgx::grow
