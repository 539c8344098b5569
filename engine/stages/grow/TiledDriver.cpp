// fusion=tiles (host-batched queue, where no decision looks at a mean):
// many BFS levels per grid barrier, each work-group growing inside 32 x 32
// tiles in local memory, tile borders exchanged between rounds
// (kernels/grow_tiles.cl). Where a label depends on the neighbours' labels
// (several regions of mode range) each round grows ringLevels exact levels
// from a copy of each tile with a ring; where the device cannot take that
// step, regions whose ranges hold no luma in common grow by the bitmap step,
// each from its own pixels, and the others per pixel in windows of
// tileLevelWindow levels. A competitive run of several regions finds the
// stamps by the bitmap step, every seed a source, and its labels in a
// second pass (labelLevels). Where the work-groups cannot all be resident
// or stop meeting, it goes on with one round of tiles per launch, the
// kernel boundary as the barrier. A ring step's run whose last level holds
// one region alone (the others have stopped) goes on as that region's flood
// by the bitmap step, many levels a round (kernels/tile_step_bits.h).
#include "Device.h"
#include "Errors.h"
#include "GrowDriver.h"
#include "GrowPrograms.h"
#include "Neighbourhood.h"
#include "Run.h"
#include "stages/TimingLog.h"
#include "grow_counters.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace rgx::grow {
namespace {

// The first batch of rounds of a fused launch on a GPU (below).
constexpr uint32_t firstTileBatchOnGpu = 512;

// A tile round is not an iteration: the levels of one round differ from
// tile to tile. Its commands carry no iteration (their notes name the
// rounds), so that per-iteration views leave them out.
constexpr int notAnIteration = -1;

class TiledDriver final : public GrowDriver {
public:
    void grow(Run& run) override;

private:
    void setArguments(Run& run);
    bool nextWindow(Run& run, uint32_t next);
    // One launch of rounds `round` to `upTo`; false when the work-groups
    // could not run it fused (then `round` is where to go on).
    bool launchFused(Run& run, uint32_t& round, uint32_t upTo);
    void launchEach(Run& run, uint32_t round, uint32_t upTo);
    // The tile kernel of `step`, its work-group and its fused grid.
    void useStep(Run& run, TileStep step);
    // After ring rounds up to `last`: where one region alone grew at its
    // last level, the run goes on by the bitmap step from round last + 1.
    bool goOnAlone(Run& run, uint32_t last);
    // RGX_TEST_PROFILE_TILES: where the rounds' time went (stderr).
    void printProfile(Run& run);

    // Whether a ring step's run may go on alone (goOnAlone, ringGoesOnAlone).
    bool aloneAllowed_ = false;
    uint32_t aloneFrom_ = 0; // the ring's `alone` argument (grow_tiles.cl)
    TileStep step_ = TileStep::Bits;
    std::string unit_ = "tile"; // of the launches' notes
    bool bits_ = false;
    bool labelsAfter_ = false; // the labels come from a second pass (labelLevels)
    size_t workGroup_ = 0;
    cl::Kernel* tiles_ = nullptr;
    size_t tileCount_ = 0;
    size_t residentGroups_ = 1;
    // Where a label depends on the neighbours' labels, the run goes in
    // windows of levels (grow_tiles.cl): no stamp above the horizon yet.
    bool windowed_ = false;
    uint32_t horizon_ = 0;
    int horizonArgument_ = 0;
    int seedsArgument_ = 0;
    int aloneArgument_ = 0;
    uint32_t windowStart_ = 1;
    bool fused_ = true;
    bool stopped_ = false; // a stalled launch found nothing left to do
};

void TiledDriver::grow(Run& run)
{
    const DeviceInfo& info = run.info;
    labelsAfter_ = labelsInSecondPass(run.params, run.seeds.size());
    tileCount_ = size_t(run.state.tilesX()) * size_t(run.state.tilesY());
    // The ring step leaves a run's one region left to the bitmap step where
    // a round has more tiles than the launch has work-groups (a ring round
    // of fewer is one visit a group, at the step's floor; H100,
    // docs/PERFORMANCE.md); tests leave it at every round of n tiles or
    // more, on any device: RGX_TEST_RING_ALONE_FROM=n.
    aloneAllowed_ = ringGoesOnAlone(info);
    const char* aloneFrom = std::getenv("RGX_TEST_RING_ALONE_FROM");
    aloneFrom_ = aloneFrom ? uint32_t(std::max(0, std::atoi(aloneFrom))) : 0;
    useStep(run, tileStep(run.params, run.seedLuma, info));
    windowed_ = step_ == TileStep::Pixels;
    horizon_ = windowed_ ? uint32_t(std::min<uint64_t>(run.cap, tileLevelWindow)) : run.cap;
    setArguments(run);

    uint32_t round = 1; // the next round to run
    // A fused launch ends at the first round that queues nothing. On a GPU
    // the first batch is long enough for most clicks (64 seeds in mode
    // range: 245 rounds at 4096², 324 at 8192²), so that they are one
    // launch and one summary
    // (the summary enqueued behind a first launch that did not end the run
    // is done again); a CPU's rounds are slower: it starts with short
    // batches, to cancel and show the growth sooner.
    uint32_t batch = info.type == "GPU" ? firstTileBatchOnGpu : firstFusedBatch;
    // Each round settles at least one more level everywhere (grow_tiles.cl):
    // a window takes at most its levels + 2 rounds, a run without windows
    // its largest stamp + 2, a run of ring steps exactly ringLevels levels a
    // round. Past that, a kernel is broken; stop rather than loop.
    uint64_t roundLimit = windowed_                 ? uint64_t(tileLevelWindow) + 3
                          : step_ == TileStep::Ring ? uint64_t(run.cap) / ringLevels + 3
                                                    : uint64_t(run.cap) + 3;
    std::vector<uint32_t>& counters = run.counters;
    for (;;) {
        run.deadline.check(round - 1, "tile rounds");
        if (round - windowStart_ >= roundLimit)
            throw OpenClError("region growing on " + info.name + ": the tiles did not settle within " +
                              std::to_string(roundLimit) + " rounds");
        const uint32_t upTo = round + batch - 1;
        if (fused_) {
            if (!launchFused(run, round, upTo)) {
                batch = 4;
                if (stopped_)
                    break;
                continue;
            }
        } else {
            launchEach(run, round, upTo);
        }
        const uint32_t last = counters[RGX_COUNTER_LAST_LAUNCHED];
        const uint32_t queued = counters[RGX_COUNTER_TILES + (last + 1) % 3];
        run.progress(last, queued);
        if (queued != 0 && step_ == TileStep::Ring && aloneAllowed_ && goOnAlone(run, last)) {
            // Each round settles at least one more level, from the ring's last.
            roundLimit = uint64_t(last) + uint64_t(run.cap) + 3;
            batch = info.type == "GPU" ? firstTileBatchOnGpu : firstFusedBatch;
        }
        if (queued == 0 && !nextWindow(run, last + 1)) {
            if (fused_ && round == 1 && !labelsAfter_)
                run.summary = Run::Summary::Done;
            break;
        }
        // Until the second pass every pixel's label is 1: no partial picture.
        if (!labelsAfter_)
            run.offerPartial(0, unclassifiedStamp, true);
        round = last + 1;
        batch = std::min(batch * 2, fused_ ? largestFusedBatch : 64);
    }
    if (profilesTiles(info))
        printProfile(run);
    if (labelsAfter_)
        labelLevels(run);
    run.result.finalSet = 0;
}

// The phases of kernels/tile_profile.h: cycles per visit (per group and
// round for the round's start and its barrier), in us at the device's clock.
void TiledDriver::printProfile(Run& run)
{
    const auto word = [&](int i) {
        return uint64_t(run.counters[RGX_COUNTER_PROFILE + 2 * i]) |
               uint64_t(run.counters[RGX_COUNTER_PROFILE + 2 * i + 1]) << 32;
    };
    const double mhz = double(run.state.device().device().getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>());
    const double visits = double(std::max<uint64_t>(1, word(RGX_PROFILE_VISITS)));
    const double rounds = double(std::max<uint64_t>(1, word(RGX_PROFILE_ROUNDS)));
    const auto us = [&](int i, double per) { return double(word(i)) / per / mhz; };
    std::fprintf(stderr,
                 "tile profile (%s, %zu groups): %llu visits, %.1f levels a visit, %.1f rounds a group; "
                 "us a visit: read %.2f, setup %.2f, levels %.2f, write %.2f, queue %.2f; "
                 "us a group's round: start %.2f, grid barrier %.2f; bitmap reads: halo issued %.2f, rows %.2f, "
                 "halo used %.2f\n",
                 unit_.c_str(), residentGroups_, (unsigned long long)word(RGX_PROFILE_VISITS),
                 double(word(RGX_PROFILE_STEPS)) / visits, rounds / double(residentGroups_),
                 us(RGX_PROFILE_READ, visits), us(RGX_PROFILE_SETUP, visits), us(RGX_PROFILE_LEVELS, visits),
                 us(RGX_PROFILE_WRITE, visits), us(RGX_PROFILE_QUEUE, visits), us(RGX_PROFILE_ROUND, rounds),
                 us(RGX_PROFILE_BARRIER, rounds), us(RGX_PROFILE_HALO, visits), us(RGX_PROFILE_ROWS, visits),
                 us(RGX_PROFILE_HALO_USE, visits));
    // The next step's phases from zero.
    run.queue.enqueueFillBuffer(run.state.counters, cl_uint(0), RGX_COUNTER_PROFILE * 4, RGX_PROFILE_WORDS * 8);
    std::fill_n(run.counters.begin() + RGX_COUNTER_PROFILE, 2 * RGX_PROFILE_WORDS, 0u);
}

void TiledDriver::useStep(Run& run, TileStep step)
{
    GrowState& state = run.state;
    const DeviceInfo& info = run.info;
    // A program's build (seconds on a CPU runtime, the first time) is not
    // the run's time. A ring step's run may go on by the bitmap step
    // (goOnAlone): that program is had now, not built in the middle of the
    // run (the explorer builds a run's programs ahead, by a small run of the
    // same kind).
    const auto building = std::chrono::steady_clock::now();
    const BuiltProgram& built = tileKernels(state.device(), step, workGroup_);
    if (step == TileStep::Ring && aloneAllowed_) {
        TileStep bits = TileStep::Bits;
        size_t bitsGroup = 0;
        tileKernels(state.device(), bits, bitsGroup);
    }
    run.deadline.allow(std::chrono::steady_clock::now() - building);
    step_ = step;
    bits_ = step == TileStep::Bits || step == TileStep::BitsApart;
    run.result.kernels.insert(run.result.kernels.end(), built.kernels.begin(), built.kernels.end());
    tiles_ = &state.kernel(built.program, "grow_tiles");
    // A group of the bitmap step is one warp's worth: more of them per
    // compute unit of a GPU, as many as the largest rounds of a whole image
    // need (a front of about twice the tile rows and columns): two fused
    // grids' worth, four where the tile rows and columns together outnumber
    // the fused grid. H100 (docs/PERFORMANCE.md): 528 groups beat 1056 by
    // 3 to 4 % at 4096², 1056 beat 528 by 14 % at 8192². One compute unit
    // (Oclgrind) keeps one group.
    residentGroups_ = fusedGroupCount(info);
    if (bits_ && info.type == "GPU" && info.computeUnits > 1)
        residentGroups_ *= size_t(state.tilesX()) + size_t(state.tilesY()) > residentGroups_ ? 4 : 2;
    // The ring step's rounds visit thousands of tiles: four groups of 256 per
    // compute unit of a GPU, as many as the H100 keeps resident (six were
    // not; 4096², 64 seeds: 18.6 ms against 24.5 ms with two, the step's
    // first version, docs/PERFORMANCE.md).
    if (step == TileStep::Ring && info.type == "GPU" && info.computeUnits > 1)
        residentGroups_ *= 2;
}

bool TiledDriver::goOnAlone(Run& run, uint32_t last)
{
    const uint32_t* words = &run.counters[RGX_COUNTER_LAST_LABELS + 2 * (last % 3)];
    const uint32_t region = RGX_LONE_LABEL(words[0], words[1]);
    if (region == 0)
        return false;
    // The bitmap step with `alone` (kernels/tile_step_bits.h): its first
    // visit of every tile grows from the ring's last level, whose pixels
    // are the region's alone; the other steps' marks are not its own.
    const uint64_t level = std::min<uint64_t>(uint64_t(last) * ringLevels, run.cap);
    if (profilesTiles(run.info))
        printProfile(run);
    run.queue.enqueueFillBuffer(run.state.tileMark, cl_uint(level + 1), tileCount_ * 4, tileCount_ * 4, nullptr,
                                run.timings.track("grow", "fill:resume_marks"));
    useStep(run, TileStep::Bits);
    setArguments(run);
    tiles_->setArg(aloneArgument_, cl_uint(region));
    unit_ = "region " + std::to_string(region) + "'s tile";
    return true;
}

void TiledDriver::setArguments(Run& run)
{
    GrowState& state = run.state;
    cl::Kernel& tiles = *tiles_;
    int a = 2;
    tiles.setArg(a++, cl_int(state.width()));
    tiles.setArg(a++, cl_int(state.height()));
    tiles.setArg(a++, cl_uint(state.tilesX()));
    tiles.setArg(a++, cl_uint(state.tilesY()));
    tiles.setArg(a++, state.luma);
    tiles.setArg(a++, state.labels[0]);
    tiles.setArg(a++, state.stamps[0]);
    tiles.setArg(a++, state.seedPixels);
    seedsArgument_ = a;
    tiles.setArg(a++, cl_uint(0));
    tiles.setArg(a++, state.seedLuma);
    tiles.setArg(a++, cl_uint(run.seeds.size()));
    tiles.setArg(a++, cl_uint(run.params.lower));
    tiles.setArg(a++, cl_uint(run.params.upper));
    tiles.setArg(a++, cl_uint(run.params.mode));
    tiles.setArg(a++, cl_uint(run.params.rule == Rule::All ? 1 : 0));
    // The 2D tiles know 4 and 8: a volume of one slice grows here too.
    tiles.setArg(a++, cl_int(inPlaneConnectivity(run.params.connectivity)));
    tiles.setArg(a++, cl_uint(run.cap));
    horizonArgument_ = a;
    tiles.setArg(a++, cl_uint(horizon_));
    tiles.setArg(a++, state.tileMark);
    tiles.setArg(a++, state.tileLists);
    tiles.setArg(a++, state.counters);
    tiles.setArg(a++, state.ringRows);
    aloneArgument_ = a;
    tiles.setArg(a++, cl_uint(step_ == TileStep::Ring ? aloneFrom_ : 0));
}

// The window is done: the next starts with its deferred tiles as the list
// of round `next`. False when nothing was deferred (the run is over).
bool TiledDriver::nextWindow(Run& run, uint32_t next)
{
    GrowState& state = run.state;
    std::vector<uint32_t>& counters = run.counters;
    const uint32_t deferred = counters[RGX_COUNTER_DEFERRED];
    if (deferred == 0 || horizon_ >= run.cap)
        return false;
    horizon_ = uint32_t(std::min<uint64_t>(run.cap, uint64_t(horizon_) + tileLevelWindow));
    tiles_->setArg(horizonArgument_, cl_uint(horizon_));
    run.queue.enqueueCopyBuffer(state.tileLists, state.tileLists, 2 * tileCount_ * 4, (next % 2) * tileCount_ * 4,
                                deferred * 4, nullptr, run.timings.track("grow", "copy:deferred_tiles"));
    counters[RGX_COUNTER_TILES + next % 3] = deferred;
    counters[RGX_COUNTER_DEFERRED] = 0;
    for (const uint32_t word : {uint32_t(RGX_COUNTER_TILES + next % 3), uint32_t(RGX_COUNTER_DEFERRED)})
        run.queue.enqueueWriteBuffer(state.counters, CL_FALSE, word * 4, 4, &counters[word], nullptr,
                                     run.timings.track("grow", "write:counters"));
    windowStart_ = next;
    return true;
}

bool TiledDriver::launchFused(Run& run, uint32_t& round, uint32_t upTo)
{
    cl::Kernel& tiles = *tiles_;
    run.clearGridBarrier(notAnIteration);
    tiles.setArg(0, cl_uint(round));
    tiles.setArg(1, cl_uint(upTo));
    // The run's seeds, placed before the roll call of its first launch.
    tiles.setArg(seedsArgument_, cl_uint(run.seedsToPlace));
    run.queue.enqueueNDRangeKernel(tiles, cl::NullRange, cl::NDRange(residentGroups_ * workGroup_),
                                   cl::NDRange(workGroup_), nullptr, run.timings.track("grow", "grow_tiles"));
    if (run.seedsToPlace != 0) {
        tiles.setArg(seedsArgument_, cl_uint(0));
        run.seedsToPlace = 0;
    }
    const size_t record = run.timings.size() - 1;
    // A click often ends in its first launch: its summary then comes back
    // with the same read (and is redone if it did not). Not before a second pass.
    if (round == 1 && !labelsAfter_) {
        enqueueSummary(run);
        run.summary = Run::Summary::Stale;
    }
    run.readCounters(notAnIteration);
    switch (run.noteFusedRounds(record, round, unit_, residentGroups_)) {
    case RGX_VERDICT_NOT_RESIDENT:
        fused_ = false;
        return false;
    case RGX_VERDICT_STALLED: {
        // A work-group stopped coming to the barrier (descheduled on a busy
        // CPU, say): go on from the round after the last every group
        // finished, one round per launch.
        fused_ = false;
        const uint32_t last = run.counters[RGX_COUNTER_LAST_LAUNCHED];
        if (run.counters[RGX_COUNTER_TILES + (last + 1) % 3] == 0 && !nextWindow(run, last + 1))
            stopped_ = true;
        else
            round = last + 1;
        return false;
    }
    default:
        return true;
    }
}

// One round per launch: the kernel boundary is the barrier.
void TiledDriver::launchEach(Run& run, uint32_t round, uint32_t upTo)
{
    const DeviceInfo& info = run.info;
    const size_t groups = info.computeUnits > 1 ? std::min(groupsToFill(info), tileCount_) : 1;
    run.launchEachRound(*tiles_, "grow_tiles", groups, workGroup_, round, upTo, unit_);
}

} // namespace

std::unique_ptr<GrowDriver> makeTiledDriver() { return std::make_unique<TiledDriver>(); }

} // namespace rgx::grow
