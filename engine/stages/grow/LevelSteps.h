// What the level-by-level drivers share (kernels/region_growing.cl: one
// SPEC iteration per step): the level program of the run's variant, the
// first statistics and frontier on the device, the grow kernel with its
// arguments, and where the run stands after each read of the counters.
#pragma once

#include "GrowPrograms.h"
#include "OpenCl.h"
#include <cstdint>
#include <string>

namespace rgx::grow {

struct Run;

class LevelSteps {
public:
    // Builds (or takes from the cache) the level program of the run's
    // variant (fusion=tiles runs as grid-barrier here), adds its kernels'
    // reports to the run, and uploads iteration 0's statistics and, for the
    // queue frontier, the first list: the seeds.
    explicit LevelSteps(Run& run);

    const GrowVariant& variant() const { return variant_; }
    const BuiltProgram& program() const { return *built_; }
    const LevelGeometry& geometry() const { return geometry_; }

    // One grow_queue or grow_sweep launch of `iteration`; a queue launch
    // has `queueGroups` work-groups.
    void enqueue(uint32_t iteration, size_t queueGroups);
    // Work-groups of a queue launch whose frontier size is known, and of one
    // whose kernel loops over a frontier of unknown size.
    size_t groupsForFrontier(uint64_t frontierSize) const;
    size_t groupsToFillDevice() const { return batchedGroups_; }
    // The arguments every grow kernel and the device chain end with, from
    // argument `first` on.
    void setDecisionArguments(cl::Kernel& kernel, int first) const;

    // The last iteration that ran, and whether growth stopped there.
    uint32_t last() const { return last_; }
    bool goingOn() const;
    // The pixels accepted in `iteration`, as of the last read of the counters.
    uint32_t accepted(uint32_t iteration) const;
    // After a read of the counters: the run reached `last`.
    void settle(uint32_t last);
    // settle, then the caller told (progress; a picture while it goes on).
    void reached(uint32_t last);
    // The maps of the final state: in place for the queue; for the sweep in
    // the buffers of the last iteration enqueued (those after the last
    // growth only copied it).
    int finalSet() const;

private:
    Run& run_;
    GrowVariant variant_;
    LevelGeometry geometry_;
    const BuiltProgram* built_ = nullptr;
    std::string kernelName_;
    cl::Kernel grow_;
    size_t batchedGroups_ = 1;
    cl::NDRange sweepGlobal_, sweepLocal_;
    uint32_t last_ = 0;
    bool finished_ = false;
};

// The host's steps of driver=host-batched from where `levels` stands to the
// end (HostBatchedDriver.cpp): a fused driver goes on with them when its
// work-groups cannot meet at a grid barrier.
void stepHostBatched(Run& run, LevelSteps& levels);

} // namespace rgx::grow
