// How a device run is watched and stopped: what the caller hands down
// through the pipeline to the stages and their drivers.
#pragma once

#include "Result.h"
#include <atomic>
#include <cstdint>
#include <functional>

namespace rgx {

// How a run is watched and stopped. The engine checks cancel and the timeout
// between launches; progress is called from the running thread.
struct RunControl {
    const std::atomic<bool>* cancel = nullptr;
    double timeoutSeconds = 120.0;
    std::function<void(uint32_t iteration, uint64_t frontierSize)> progress;
    // A picture of the region growing so far, between launches: when
    // partialWanted() says so, the maps as they stand go to partial() (the
    // box of the pixels touched so far) with the last iteration that ran
    // (0xFFFFFFFF where a driver does not know it: tiles run rounds).
    std::function<bool()> partialWanted;
    std::function<void(const BoxMaps& maps, uint32_t iteration)> partial;
    int partialStep = 1; // every partialStep-th pixel each way (BoxMaps::step), on the step grid
};

} // namespace rgx
