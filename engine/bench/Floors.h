// The floors a device puts under any region-growing run: what a kernel
// launch costs that does nothing, and what a grid barrier costs between
// resident work-groups that do nothing else (rgx-cli bench prints both).
#pragma once

#include "Measure.h"
#include <optional>
#include <string>

namespace rgx {
class ComputeDevice;
}

namespace rgx::bench {

struct LaunchFloor {
    int launches = 0;
    Spread pipelinedUs;  // per launch, enqueued back to back, one finish at the end
    Spread blockingUs;   // per launch, each followed by a blocking 4-byte read
};

// kernels/empty.cl enqueued 1000 times back to back, then as often with a
// blocking read after each (what a host-sync loop pays per iteration at the
// least), `repeat` times each. Throws OpenClError.
LaunchFloor measureLaunchFloor(ComputeDevice& device, int repeat);

struct GridBarrierFloor {
    int barriers = 0;
    int groups = 0;            // one work-group of 256 per compute unit
    std::optional<Spread> us;  // per barrier; empty where the groups were not all resident
    int fusedGroups = 0;       // the grid of the fused drivers (two per compute unit on a GPU)
    std::optional<Spread> fusedUs;
    std::string whyNot;        // when a figure is missing
};

// kernels/grid_barrier_floor.cl: one launch of `barriers` grid barriers
// against one of none, timed by the device, `repeat` times, for one
// work-group per compute unit and for the fused drivers' grid.
GridBarrierFloor measureGridBarrierFloor(ComputeDevice& device, int repeat);

} // namespace rgx::bench
