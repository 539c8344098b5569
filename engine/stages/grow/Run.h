// One run of region growing as every driver sees it: the GrowState's
// buffers, the inputs, the host's copy of the counters, and the steps every
// run shares whatever its driver: its start and seeds (Seeding.cpp), the
// summary it ends with (Summary.cpp).
#pragma once

#include "GrowParams.h"
#include "Seeds.h"
#include "Variant.h"
#include "stages/GrowState.h"
#include "stages/RegionGrowing.h"
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace rgx {
struct DeviceInfo;
}

namespace rgx::grow {

// Iterations (or tile rounds) one fused launch may run: it starts small so
// that short runs end early, and stays short enough to cancel within
// milliseconds.
constexpr uint32_t firstFusedBatch = 32;
constexpr uint32_t largestFusedBatch = 1024;

// Cancel and the time limit, checked by the drivers between launches.
class Deadline {
public:
    explicit Deadline(const RunControl& control);
    // Throws RunInterrupted. what: the plural of the step's name
    // ("iterations", "tile rounds").
    void check(uint32_t step, const std::string& what = "iterations") const;
    // Time that is not the run's (a program's build on the way): the limit
    // moves on by it.
    void allow(std::chrono::steady_clock::duration time) { start_ += time; }

private:
    const RunControl& control_;
    std::chrono::steady_clock::time_point start_;
};

struct Run {
    GrowState& state;
    const std::vector<Seed>& seeds;
    const GrowParams& params;
    const GrowVariant& variant;
    const RunControl& control;
    TimingLog& timings;
    const DeviceInfo& info;
    cl::CommandQueue& queue;
    const uint32_t cap;
    Deadline deadline;
    // The host's copy of the counters (kernels/grow_counters.h), as of the
    // last readCounters.
    std::vector<uint32_t> counters;
    // Sources of non-blocking writes (the seeds, the level drivers' first
    // totals and deltas): they live as long as the run, and RegionGrowing::run
    // waits for the queue before a run that throws lets them go.
    std::vector<uint32_t> seedPixels, seedLuma;
    // Seeds that the tile driver's first launch places (placeSeeds left them).
    uint32_t seedsToPlace = 0;
    std::vector<uint32_t> totals, deltas;
    // ... and labelTies' stamps' starts and levels with ties, and
    // settle_ties' places of its levels of many ties.
    std::vector<uint32_t> tieStarts, tieLevels, tieBigIndex, tieBigLevels;
    // Whether a driver enqueued the summary already: it may be the run's
    // result (Done) or too early (Stale: summarize redoes it).
    enum class Summary { None, Stale, Done } summary = Summary::None;
    // The grid barrier's words are zero before a fused launch: start_run
    // left them so for the first.
    bool gridBarrierClear = false;
    GrowRun result;

    Run(GrowState& state, const std::vector<Seed>& seeds, const GrowParams& params, const GrowVariant& variant,
        const RunControl& control, TimingLog& timings);

    // A blocking read of the counters into `counters`, timed as `step`.
    void readCounters(int step);
    // The fused launch's outcome: RGX_VERDICT_NOT_RESIDENT (the roll call),
    // RGX_VERDICT_STALLED (a barrier given up), or go.
    uint32_t verdict() const;
    // Zeroes the grid barrier's words before a fused launch.
    void clearGridBarrier(int step);
    // After the read of a fused launch of rounds (`unit`: "tile", "brick")
    // from `round` on, on `groups` work-groups, whose command is timing
    // record `record`: the record's note names the rounds it ran, and where
    // its groups were not all resident or stopped meeting, the run's note
    // says so (the driver goes on one round per launch). The verdict.
    uint32_t noteFusedRounds(size_t record, uint32_t round, const std::string& unit, size_t groups);
    // Adds `text` to the run's note (how it deviated from its variant),
    // after what is there: a fallback's reason and a later stall both stay.
    void addNote(const std::string& text);
    // Rounds `round` to `upTo` of a tile or brick kernel (`name`, its
    // first two arguments the first and last round), one launch each of
    // `groups` groups of `groupSize`: the kernel boundary is the barrier.
    // Then the counters are read back; each launch's record names its
    // round, and those past the last round that found work queued (the
    // counters' last launched round) say they found none.
    void launchEachRound(cl::Kernel& kernel, const char* name, size_t groups, size_t groupSize, uint32_t round,
                         uint32_t upTo, const std::string& unit);
    void progress(uint32_t step, uint64_t size) const;
    // The maps so far (labels/stamps[set]) to the caller, when it wants a
    // picture now; with tiles, only the box touched so far.
    void offerPartial(int set, uint32_t iteration, bool tiles);
};

// The start of a run in one launch: the maps reset where the last run left
// pixels, the tile marks and region totals zeroed, the counters set
// (`touched`: where the run may change pixels). Seeding.cpp.
void startRun(Run& run, const GrowState::RunStart& start, const PixelBox& touched);
// Iteration 0: the seeds in the maps (their pixels and luma in
// run.seedPixels and run.seedLuma) by place_seeds; with tiles, by the tile
// driver's first launch (run.seedsToPlace), which also queues their tiles
// for round 1. Seeding.cpp.
void placeSeeds(Run& run, bool tiles, const std::vector<uint32_t>& seedLuma);

// The summary of the final maps (run.result.finalSet): the box of the
// classified pixels and the largest stamp into the counters, the region
// totals into the pinned words after them, once a blocking read of the
// counters has passed it. Summary.cpp.
void enqueueSummary(Run& run);
// After every driver: the summary into run.result (enqueued again where a
// driver's was too early, not at all where it was the last). Summary.cpp.
void summarize(Run& run);

// Enough work-groups to keep every compute unit busy, not more: idle groups
// still cost scheduling in every launch.
size_t groupsToFill(const DeviceInfo& info);

} // namespace rgx::grow
