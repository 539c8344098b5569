// Host side of region growing: the iteration loop of each driver on the
// buffers of a GrowState, the checks that keep a broken variant from hanging
// the program, and the summary every run ends with.
#include "RegionGrowing.h"
#include "Device.h"
#include "Errors.h"
#include "StageSupport.h"
#include "TimingLog.h"
#include "grow_counters.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <sstream>

namespace rgx {
namespace {

constexpr const char* levelProgram = "region_growing.cl";
constexpr const char* tileProgram = "grow_tiles.cl";
constexpr const char* sessionProgram = "grow_session.cl";
// Iterations (or tile rounds) one fused launch may run: it starts small so
// that short runs end early, and stays short enough to cancel within
// milliseconds.
constexpr uint32_t firstFusedBatch = 32;
constexpr uint32_t largestFusedBatch = 1024;
// Level statistics: three rotating slots of (count, sum low, sum high).
constexpr uint32_t statsWords = 3;

using stage::largestPowerOfTwoAtMost;
using stage::roundUp;

struct Geometry {
    size_t workGroup = 256;   // grow_queue, grow_levels, grow_tiles
    size_t tileWidth = 16;    // grow_sweep
    size_t tileHeight = 16;
};

} // namespace

// How long a work-group waits at the roll call and at a grid barrier before
// it gives up, in reads of a global word: a GPU's read takes about a
// microsecond, a CPU's a nanosecond, and a CPU thread may be descheduled for
// a good part of a second on a busy machine.
std::string gridBarrierOptions(const DeviceInfo& device)
{
    // Tests force a stall: RGX_TEST_STALL_AT_BARRIER=n makes work-group 1
    // late at the n-th grid barrier of a launch, and the others give up soon.
    if (const char* stall = std::getenv("RGX_TEST_STALL_AT_BARRIER"); stall && std::atoi(stall) > 0)
        return " -DRGX_TEST_LATE_GROUP=" + std::to_string(std::atoi(stall)) + " -DRGX_BARRIER_SPINS=(1u<<16)";
    return device.type == "GPU" ? std::string() : " -DRGX_ROLL_CALL_SPINS=(1u<<27) -DRGX_BARRIER_SPINS=(1u<<31)";
}

namespace {

std::string levelBuildOptions(const GrowVariant& variant, const DeviceInfo& device, const Geometry& geometry)
{
    const bool deviceEnqueue = variant.driver == Driver::DeviceEnqueue;
    const bool needsTwoPointZero = variant.collectives == Collectives::Builtin ||
                                   variant.collectives == Collectives::Subgroup || deviceEnqueue;
    const size_t sweepGroup = geometry.tileWidth * geometry.tileHeight;
    std::ostringstream options;
    options << device.openClCStandardOption(needsTwoPointZero)
            << " -DRGX_WG_SIZE=" << (variant.frontier == Frontier::Queue ? geometry.workGroup : sweepGroup)
            << " -DRGX_TILE_W=" << geometry.tileWidth << " -DRGX_TILE_H=" << geometry.tileHeight
            << variant.buildDefines();
    if (variant.fusion != Fusion::None)
        options << gridBarrierOptions(device);
    if (deviceEnqueue)
        options << " -DRGX_DEVICE_ENQUEUE=1 -DRGX_FRONTIER_SWEEP="
                << (variant.frontier == Frontier::Sweep ? 1 : 0);
    return options.str();
}

// The bitmap step (one work-item per tile row) where every classified
// pixel's label follows from its luma; the per-pixel step otherwise.
std::string tileBuildOptions(const DeviceInfo& device, size_t workGroup, bool bits)
{
    return device.openClCStandardOption(false) + " -DRGX_WG_SIZE=" + std::to_string(workGroup) +
           " -DRGX_TILE_SIDE=" + std::to_string(growTileSide) + " -DRGX_TILE_BITS=" + (bits ? "1" : "0") +
           gridBarrierOptions(device);
}

// One region, or rule all in mode range: a classified pixel's label
// depends on its own luma only (grow_tiles.cl's bitmap step).
bool labelsFixed(const GrowParams& params, size_t regions)
{
    return regions == 1 || (params.mode == Mode::Range && params.rule == Rule::All);
}

class Deadline {
public:
    explicit Deadline(const RunControl& control)
        : control_(control), start_(std::chrono::steady_clock::now()) {}

    // what: the plural of the step's name ("iterations", "tile rounds").
    void check(uint32_t step, const std::string& what = "iterations") const
    {
        const std::string steps = std::to_string(step) + " " + (step == 1 ? what.substr(0, what.size() - 1) : what);
        if (control_.cancel && control_.cancel->load())
            throw RunInterrupted("cancelled after " + steps);
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        if (control_.timeoutSeconds > 0 && elapsed > control_.timeoutSeconds) {
            std::ostringstream message;
            message << "stopped after " << steps << ": the run exceeded its "
                    << control_.timeoutSeconds << " s time limit";
            throw RunInterrupted(message.str());
        }
    }

private:
    const RunControl& control_;
    std::chrono::steady_clock::time_point start_;
};

} // namespace

// Work-groups for a fused launch: few enough that all can be resident at
// once (the roll call checks it), enough to keep every compute unit busy;
// two per compute unit on a GPU to hide latency. One compute unit
// (Oclgrind) gets one work-group: its race detector then sees the
// work-group's side of the kernel, the only side the OpenCL 1.2 memory
// model speaks about.
size_t fusedGroupCount(const DeviceInfo& info)
{
    const size_t units = std::max<size_t>(1, info.computeUnits);
    return units == 1 ? 1 : units * (info.type == "GPU" ? 2 : 1);
}

namespace {

// Enough work-groups to keep every compute unit busy, not more: idle groups
// still cost scheduling in every launch.
size_t groupsToFill(const DeviceInfo& info)
{
    return std::max<size_t>(1, size_t(info.computeUnits) * (info.type == "GPU" ? 4 : 2));
}

// What every driver shares during one run.
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
    const Deadline deadline;
    std::vector<uint32_t> counters;
    // The level drivers' first totals and deltas: sources of non-blocking
    // writes, so they live as long as the run (growRegions waits for the
    // queue before a run that throws lets them go).
    std::vector<uint32_t> totals, deltas;
    enum class Summary { None, Stale, Done } summary = Summary::None;
    GrowRun result;

    Run(GrowState& state, const std::vector<Seed>& seeds, const GrowParams& params, const GrowVariant& variant,
        const RunControl& control, TimingLog& timings)
        : state(state), seeds(seeds), params(params), variant(variant), control(control), timings(timings),
          info(state.device().info()), queue(state.device().queue()), cap(params.iterationCap(state.pixelCount())),
          deadline(control), counters(RGX_COUNTER_WORDS, 0)
    {
    }

    void readCounters(int step)
    {
        uint32_t* words = state.readBackWords();
        queue.enqueueReadBuffer(state.counters, CL_TRUE, 0, RGX_COUNTER_WORDS * 4, words, nullptr,
                                timings.track("grow", "read:counters", step));
        std::copy(words, words + RGX_COUNTER_WORDS, counters.begin());
    }
    // The fused launch's outcome: not resident (the roll call), stalled (a
    // barrier given up), or go.
    uint32_t verdict() const
    {
        if (counters[RGX_COUNTER_GRID + RGX_GRID_RELEASED] == RGX_BARRIER_STALLED)
            return RGX_VERDICT_STALLED;
        return counters[RGX_COUNTER_GRID + RGX_GRID_VERDICT];
    }
    // The grid barrier's words are zero before a fused launch: start_run
    // left them so for the first.
    bool gridBarrierClear = false;
    void clearGridBarrier(int step)
    {
        if (gridBarrierClear) {
            gridBarrierClear = false;
            return;
        }
        queue.enqueueFillBuffer(state.counters, cl_uint(0), RGX_COUNTER_GRID * 4, 3 * 4, nullptr,
                                timings.track("grow", "fill:grid_barrier", step));
    }
    void progress(uint32_t step, uint64_t size) const
    {
        if (control.progress)
            control.progress(step, size);
    }
    // The maps so far (labels/stamps[set]) to the caller, when it wants a
    // picture now. Its commands are not the run's: they go to a log of their
    // own, so that the run's timings stay what the run did.
    void offerPartial(int set, uint32_t iteration, bool tiles)
    {
        if (!control.partial || !control.partialWanted || !control.partialWanted())
            return;
        PixelBox box{0, 0, uint32_t(state.width() - 1), uint32_t(state.height() - 1)};
        if (tiles)
            box = {counters[RGX_COUNTER_TOUCHED + 0], counters[RGX_COUNTER_TOUCHED + 1],
                   counters[RGX_COUNTER_TOUCHED + 2], counters[RGX_COUNTER_TOUCHED + 3]};
        // On the caller's sample grid: the box starts at a multiple of the step.
        const uint32_t step = uint32_t(std::max(control.partialStep, 1));
        if (!box.empty()) {
            box.x0 -= box.x0 % step;
            box.y0 -= box.y0 % step;
        }
        TimingLog ownLog;
        control.partial(state.readBox(set, box, seeds.size(), iteration == unclassifiedStamp ? cap : iteration, ownLog,
                                      int(step)),
                        iteration);
    }
};


// The start of a run in one launch: the maps reset where the last run
// left pixels, the tile marks and region totals zeroed, the counters set
// (`touched` is where the run may change pixels). The host's copy of the
// counters says the same.
void startRun(Run& run, const GrowState::RunStart& start, const PixelBox& touched)
{
    GrowState& state = run.state;
    std::vector<uint32_t>& counters = run.counters;
    std::fill(counters.begin(), counters.end(), 0);
    counters[RGX_COUNTER_ACCEPTED] = uint32_t(run.seeds.size());
    const cl_uint4 box = {{touched.empty() ? unclassifiedStamp : touched.x0,
                           touched.empty() ? unclassifiedStamp : touched.y0, touched.empty() ? 0 : touched.x1,
                           touched.empty() ? 0 : touched.y1}};
    for (int i = 0; i < 4; ++i)
        counters[RGX_COUNTER_TOUCHED + i] = box.s[i];
    counters[RGX_COUNTER_BOX + 0] = unclassifiedStamp;
    counters[RGX_COUNTER_BOX + 1] = unclassifiedStamp;

    // The maps: in the same launch on a GPU; with two fills on a CPU, whose
    // memset outruns a kernel's loop several times over.
    const bool mapsInKernel = run.info.type == "GPU";
    if (!mapsInKernel && start.pixels > 0) {
        run.queue.enqueueFillBuffer(state.labels[0], cl_ushort(0), start.firstPixel * 2, start.pixels * 2, nullptr,
                                    run.timings.track("upload", "fill:labels"));
        run.queue.enqueueFillBuffer(state.stamps[0], cl_uint(unclassifiedStamp), start.firstPixel * 4,
                                    start.pixels * 4, nullptr, run.timings.track("upload", "fill:stamps"));
    }
    const size_t pixels = mapsInKernel ? start.pixels : 0;
    cl::Kernel& kernel = state.kernel(sessionKernels(state.device()).program, "start_run");
    int a = 0;
    kernel.setArg(a++, state.labels[0]);
    kernel.setArg(a++, state.stamps[0]);
    kernel.setArg(a++, cl_uint(start.firstPixel));
    kernel.setArg(a++, cl_uint(pixels));
    kernel.setArg(a++, start.markWords > 0 ? state.tileMark : state.counters);
    kernel.setArg(a++, cl_uint(start.markWords));
    kernel.setArg(a++, state.regionStats);
    kernel.setArg(a++, cl_uint(start.statWords));
    kernel.setArg(a++, state.counters);
    kernel.setArg(a++, cl_uint(run.seeds.size()));
    kernel.setArg(a++, box);
    const size_t words = std::max({pixels, start.markWords, start.statWords, size_t(RGX_COUNTER_WORDS)});
    const size_t items = std::min(roundUp(words, 256), groupsToFill(run.info) * 256);
    run.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(items), cl::NDRange(256), nullptr,
                                   run.timings.track("upload", "start_run"));
    run.gridBarrierClear = true;
}

// Iteration 0: the seeds in the maps; with tiles, their tiles queued for round 1.
void placeSeeds(Run& run, bool tiles, std::vector<uint32_t>& seedPixels, std::vector<uint32_t>& seedLuma,
                const std::vector<uint16_t>& luma)
{
    GrowState& state = run.state;
    const size_t regionTotal = run.seeds.size();
    seedPixels.resize(regionTotal);
    seedLuma.resize(regionTotal);
    for (size_t k = 0; k < regionTotal; ++k) {
        seedPixels[k] = uint32_t(run.seeds[k].y) * uint32_t(state.width()) + uint32_t(run.seeds[k].x);
        seedLuma[k] = luma[seedPixels[k]];
    }
    run.queue.enqueueWriteBuffer(state.seedPixels, CL_FALSE, 0, regionTotal * 4, seedPixels.data(), nullptr,
                                 run.timings.track("upload", "write:seed_pixels"));
    const BuiltProgram& built = sessionKernels(state.device());
    cl::Kernel& place = state.kernel(built.program, "place_seeds");
    const size_t tileCount = size_t(state.tilesX()) * size_t(state.tilesY());
    int a = 0;
    place.setArg(a++, state.seedPixels);
    place.setArg(a++, state.luma);
    place.setArg(a++, state.seedLuma);
    place.setArg(a++, cl_uint(regionTotal));
    place.setArg(a++, cl_uint(state.width()));
    place.setArg(a++, state.labels[0]);
    place.setArg(a++, state.stamps[0]);
    place.setArg(a++, cl_uint(tiles ? growTileSide : 0));
    place.setArg(a++, cl_uint(state.tilesX()));
    place.setArg(a++, cl_uint(state.tilesY()));
    place.setArg(a++, tiles ? state.tileMark : state.counters);
    place.setArg(a++, tiles ? state.tileLists : state.counters);
    place.setArg(a++, cl_uint(tiles ? tileCount : 0));
    place.setArg(a++, state.counters);
    run.queue.enqueueNDRangeKernel(place, cl::NullRange, cl::NDRange(roundUp(regionTotal, 64)), cl::NullRange,
                                   nullptr, run.timings.track("upload", "place_seeds"));
}

// ---------------------------------------------------------------------------
// Level by level: one SPEC iteration per step (kernels/region_growing.cl).

// The level program for a variant, with the largest work-group its kernel
// takes on the device (a kernel may fit fewer work-items than the device:
// registers; then the sizes shrink and it is built again).
const BuiltProgram& levelKernels(ComputeDevice& device, const GrowVariant& variant, Geometry& geometry)
{
    const DeviceInfo& info = device.info();
    geometry.workGroup = largestPowerOfTwoAtMost(std::min<size_t>(256, info.maxWorkGroupSize));
    while (geometry.tileWidth * geometry.tileHeight > info.maxWorkGroupSize && geometry.tileHeight > 1)
        geometry.tileHeight /= 2;
    const std::string kernelName = variant.frontier == Frontier::Queue ? "grow_queue" : "grow_sweep";
    ProgramCache& programs = device.programs();
    const BuiltProgram* built = &programs.get(levelProgram, levelBuildOptions(variant, info, geometry));
    for (const KernelReport& report : built->kernels) {
        if (report.kernel != kernelName || report.workGroupSizeLimit == 0)
            continue;
        if (variant.frontier == Frontier::Queue && report.workGroupSizeLimit < geometry.workGroup) {
            geometry.workGroup = largestPowerOfTwoAtMost(report.workGroupSizeLimit);
            built = &programs.get(levelProgram, levelBuildOptions(variant, info, geometry));
        } else if (variant.frontier == Frontier::Sweep &&
                   report.workGroupSizeLimit < geometry.tileWidth * geometry.tileHeight) {
            while (geometry.tileWidth * geometry.tileHeight > report.workGroupSizeLimit && geometry.tileHeight > 1)
                geometry.tileHeight /= 2;
            built = &programs.get(levelProgram, levelBuildOptions(variant, info, geometry));
        }
    }
    return *built;
}

// The tile program: the bitmap step with one work-item per tile row, or
// the per-pixel step with the largest work-group grow_tiles takes.
const BuiltProgram& tileKernels(ComputeDevice& device, bool bits, size_t& workGroup)
{
    const DeviceInfo& info = device.info();
    ProgramCache& programs = device.programs();
    if (bits) {
        workGroup = growTileSide;
        return programs.get(tileProgram, tileBuildOptions(info, workGroup, true));
    }
    workGroup = largestPowerOfTwoAtMost(std::min<size_t>(256, info.maxWorkGroupSize));
    const BuiltProgram* built = &programs.get(tileProgram, tileBuildOptions(info, workGroup, false));
    const size_t limit = stage::workGroupLimit(*built, "grow_tiles");
    if (limit != 0 && limit < workGroup) {
        workGroup = largestPowerOfTwoAtMost(limit);
        built = &programs.get(tileProgram, tileBuildOptions(info, workGroup, false));
    }
    return *built;
}

// The variant the level drivers run: fusion=tiles falls back to grid-barrier.
GrowVariant levelVariant(GrowVariant variant)
{
    if (variant.fusion == Fusion::Tiles)
        variant.fusion = Fusion::GridBarrier;
    return variant;
}

void growByLevels(Run& run, const GrowVariant& variant, const std::vector<uint32_t>& seedPixels,
                  const std::vector<uint32_t>& seedLuma)
{
    GrowState& state = run.state;
    const DeviceInfo& info = run.info;
    cl::CommandQueue& queue = run.queue;
    const int width = state.width(), height = state.height();
    const uint64_t pixelCount = state.pixelCount();
    const size_t regionTotal = run.seeds.size();

    Geometry geometry;
    const BuiltProgram* built = &levelKernels(state.device(), variant, geometry);
    const std::string kernelName = variant.frontier == Frontier::Queue ? "grow_queue" : "grow_sweep";
    run.result.kernels.insert(run.result.kernels.end(), built->kernels.begin(), built->kernels.end());

    // Iteration 0's statistics enter as the deltas of slot 0 (totals of
    // "iteration -1", slot 2, are zero): see kernels/region_growing.cl.
    std::vector<uint32_t>& totals = run.totals;
    std::vector<uint32_t>& deltas = run.deltas;
    totals.assign(3 * statsWords * regionTotal, 0);
    deltas.assign(3 * statsWords * regionTotal, 0);
    for (size_t k = 0; k < regionTotal; ++k) {
        deltas[statsWords * k] = 1;
        deltas[statsWords * k + 1] = seedLuma[k];
    }
    queue.enqueueWriteBuffer(state.totals, CL_FALSE, 0, totals.size() * 4, totals.data(), nullptr,
                             run.timings.track("upload", "write:totals"));
    queue.enqueueWriteBuffer(state.deltas, CL_FALSE, 0, deltas.size() * 4, deltas.data(), nullptr,
                             run.timings.track("upload", "write:deltas"));
    // The queue frontier's first list is the seeds themselves.
    if (variant.frontier == Frontier::Queue)
        queue.enqueueWriteBuffer(state.frontier[0], CL_FALSE, 0, regionTotal * 4, seedPixels.data(), nullptr,
                                 run.timings.track("upload", "write:frontier"));

    cl::Kernel grow(built->program, kernelName.c_str());
    const cl_ulong threshold = run.params.toleranceThreshold();
    grow.setArg(0, cl_uint(0));
    grow.setArg(1, cl_int(width));
    grow.setArg(2, cl_int(height));
    int arg = 3;
    if (variant.frontier == Frontier::Queue) {
        arg += 2; // frontier, next_frontier: per iteration
        grow.setArg(arg++, state.luma);
        grow.setArg(arg++, state.labels[0]);
        grow.setArg(arg++, state.stamps[0]);
    } else {
        arg += 4; // stamps_in, labels_in, stamps_out, labels_out: per iteration
        grow.setArg(arg++, state.luma);
    }
    // The arguments every grow kernel and the device chain end with.
    auto setDecisionArguments = [&](cl::Kernel& kernel, int first) {
        kernel.setArg(first++, state.seedLuma);
        kernel.setArg(first++, cl_uint(regionTotal));
        kernel.setArg(first++, state.totals);
        kernel.setArg(first++, state.deltas);
        kernel.setArg(first++, state.counters);
        kernel.setArg(first++, threshold);
        kernel.setArg(first++, cl_uint(run.params.lower));
        kernel.setArg(first++, cl_uint(run.params.upper));
        kernel.setArg(first++, cl_uint(run.params.mode));
        kernel.setArg(first++, cl_uint(run.params.rule == Rule::All ? 1 : 0));
        kernel.setArg(first++, cl_int(run.params.connectivity));
    };
    setDecisionArguments(grow, arg);

    // Launch sizes. The queue kernel loops over the frontier, so its global
    // size only needs to cover the device (batched) or the known frontier
    // (host-sync); the sweep covers the image in tiles.
    const size_t groupsForImage = (pixelCount + geometry.workGroup - 1) / geometry.workGroup;
    const size_t batchedGroups = std::min(groupsToFill(info), groupsForImage);
    const cl::NDRange sweepLocal(geometry.tileWidth, geometry.tileHeight);
    const cl::NDRange sweepGlobal(roundUp(size_t(width), geometry.tileWidth),
                                  roundUp(size_t(height), geometry.tileHeight));

    auto enqueueIteration = [&](uint32_t iteration, uint32_t knownFrontier) {
        grow.setArg(0, cl_uint(iteration));
        const int in = int((iteration - 1) & 1);
        const int out = int(iteration & 1);
        if (variant.frontier == Frontier::Queue) {
            grow.setArg(3, state.frontier[in]);
            grow.setArg(4, state.frontier[out]);
            const size_t groups = variant.driver == Driver::HostSync
                ? std::max<size_t>(1, std::min<size_t>((knownFrontier + geometry.workGroup - 1) / geometry.workGroup, 65535))
                : batchedGroups;
            queue.enqueueNDRangeKernel(grow, cl::NullRange, cl::NDRange(groups * geometry.workGroup),
                                       cl::NDRange(geometry.workGroup), nullptr,
                                       run.timings.track("grow", kernelName, int(iteration)));
        } else {
            grow.setArg(3, state.stamps[in]);
            grow.setArg(4, state.labels[in]);
            grow.setArg(5, state.stamps[out]);
            grow.setArg(6, state.labels[out]);
            queue.enqueueNDRangeKernel(grow, cl::NullRange, sweepGlobal, sweepLocal, nullptr,
                                       run.timings.track("grow", kernelName, int(iteration)));
        }
    };

    std::vector<uint32_t>& counters = run.counters;
    const uint32_t cap = run.cap;
    uint32_t last = 0; // last iteration enqueued
    uint32_t batch = 4;
    bool finished = false;
    if (variant.driver == Driver::DeviceEnqueue) {
        // The device schedules the iterations itself, a chain of them per
        // host launch; the host can time only each chain as a whole. The
        // chains are bounded: between them the host checks cancel and time
        // limit, and Intel's CPU runtime runs a child kernel on the stack of
        // its parent, so an unbounded chain of a long run overflowed the
        // stack of the thread that waited for it.
        state.device().deviceQueue();
        cl::Kernel chain(built->program, "grow_chain");
        int a = 2;
        chain.setArg(a++, cl_uint(batchedGroups));
        chain.setArg(a++, cl_int(width));
        chain.setArg(a++, cl_int(height));
        const bool queueFrontier = variant.frontier == Frontier::Queue;
        chain.setArg(a++, queueFrontier ? state.frontier[0] : state.stamps[0]);
        chain.setArg(a++, queueFrontier ? state.frontier[1] : state.stamps[0]);
        chain.setArg(a++, state.luma);
        chain.setArg(a++, state.labels[0]);
        chain.setArg(a++, queueFrontier ? state.labels[0] : state.labels[1]);
        chain.setArg(a++, state.stamps[0]);
        chain.setArg(a++, queueFrontier ? state.stamps[0] : state.stamps[1]);
        setDecisionArguments(chain, a);
        uint32_t chainLength = firstFusedBatch;
        while (!finished && last < cap) {
            run.deadline.check(last);
            const uint32_t first = last + 1;
            chain.setArg(0, cl_uint(first));
            chain.setArg(1, cl_uint(std::min(cap, last + chainLength)));
            queue.enqueueNDRangeKernel(chain, cl::NullRange, cl::NDRange(1), cl::NullRange, nullptr,
                                       run.timings.track("grow", "grow_chain", int(first), true));
            const size_t chainRecord = run.timings.size() - 1;
            queue.finish();
            run.readCounters(int(first));
            last = counters[RGX_COUNTER_LAST_LAUNCHED];
            run.timings.coverIterations(chainRecord, int(last), {});
            finished = counters[RGX_COUNTER_ACCEPTED + last % 3] == 0;
            chainLength = std::min(chainLength * 2, largestFusedBatch);
            run.progress(last, counters[RGX_COUNTER_ACCEPTED + last % 3]);
            if (!finished)
                run.offerPartial(variant.frontier == Frontier::Queue ? 0 : int(last & 1), last, false);
        }
    }
    if (variant.fusion == Fusion::GridBarrier) {
        cl::Kernel levels(built->program, "grow_levels");
        levels.setArg(2, cl_int(width));
        levels.setArg(3, cl_int(height));
        levels.setArg(4, state.frontier[0]);
        levels.setArg(5, state.frontier[1]);
        levels.setArg(6, state.luma);
        levels.setArg(7, state.labels[0]);
        levels.setArg(8, state.stamps[0]);
        setDecisionArguments(levels, 9);
        const size_t residentGroups = fusedGroupCount(info);
        uint32_t levelBatch = firstFusedBatch;
        while (!finished && last < cap) {
            run.deadline.check(last);
            const uint32_t first = last + 1;
            const uint32_t upTo = std::min(cap, last + levelBatch);
            run.clearGridBarrier(int(first));
            levels.setArg(0, cl_uint(first));
            levels.setArg(1, cl_uint(upTo));
            queue.enqueueNDRangeKernel(levels, cl::NullRange, cl::NDRange(residentGroups * geometry.workGroup),
                                       cl::NDRange(geometry.workGroup), nullptr,
                                       run.timings.track("grow", "grow_levels", int(first)));
            const size_t levelsRecord = run.timings.size() - 1;
            run.readCounters(int(upTo));
            if (run.verdict() == RGX_VERDICT_NOT_RESIDENT) {
                // Nothing ran: go on one iteration per launch.
                run.result.note = "fusion=" + fusionName(run.variant.fusion) + ": not all " +
                                  std::to_string(residentGroups) + " work-groups ran at once on " + info.name +
                                  ", so the run went on with one iteration per launch";
                break;
            }
            if (run.verdict() == RGX_VERDICT_STALLED) {
                // A work-group stopped coming to the barrier (descheduled on a
                // busy CPU, say): every group stopped at the same barrier, after
                // the same iteration. Go on from there, one per launch.
                last = counters[RGX_COUNTER_LAST_LAUNCHED];
                finished = counters[RGX_COUNTER_ACCEPTED + last % 3] == 0;
                run.result.note = "fusion=" + fusionName(run.variant.fusion) + ": the work-groups stopped meeting "
                                  "at the grid barrier on " + info.name + " after iteration " + std::to_string(last) +
                                  ", so the run went on with one iteration per launch";
                break;
            }
            last = counters[RGX_COUNTER_LAST_LAUNCHED];
            run.timings.coverIterations(levelsRecord, int(last),
                                        "iterations " + std::to_string(first) + " to " + std::to_string(last) +
                                            " in one launch, a grid barrier between them");
            finished = counters[RGX_COUNTER_ACCEPTED + last % 3] == 0;
            levelBatch = std::min(levelBatch * 2, largestFusedBatch);
            run.progress(last, counters[RGX_COUNTER_ACCEPTED + last % 3]);
            if (!finished)
                run.offerPartial(0, last, false);
        }
    }
    while (!finished && last < cap) {
        run.deadline.check(last);
        const uint32_t count = variant.driver == Driver::HostSync ? 1 : std::min(batch, cap - last);
        for (uint32_t j = 0; j < count; ++j) {
            last += 1;
            enqueueIteration(last, counters[RGX_COUNTER_ACCEPTED + (last - 1) % 3]);
        }
        run.readCounters(int(last));
        finished = counters[RGX_COUNTER_ACCEPTED + last % 3] == 0;
        batch = std::min<uint32_t>(batch * 2, 64);
        run.progress(last, counters[RGX_COUNTER_ACCEPTED + last % 3]);
        if (!finished)
            run.offerPartial(variant.frontier == Frontier::Queue ? 0 : int(last & 1), last, false);
    }
    // The final state: in place for the queue; for the sweep in the buffers
    // written by the last iteration enqueued (the ones after the last
    // growth only copied it or did nothing).
    run.result.finalSet = variant.frontier == Frontier::Queue ? 0 : int(last & 1);
}

// ---------------------------------------------------------------------------
// By tiles: many levels per grid barrier (kernels/grow_tiles.cl).

void enqueueSummary(Run& run); // with summarize, below

void growByTiles(Run& run)
{
    GrowState& state = run.state;
    const DeviceInfo& info = run.info;
    cl::CommandQueue& queue = run.queue;
    const bool bits = labelsFixed(run.params, run.seeds.size());
    size_t workGroup = 0;
    const BuiltProgram* built = &tileKernels(state.device(), bits, workGroup);
    run.result.kernels.insert(run.result.kernels.end(), built->kernels.begin(), built->kernels.end());

    cl::Kernel& tiles = state.kernel(built->program, "grow_tiles");
    int a = 2;
    tiles.setArg(a++, cl_int(state.width()));
    tiles.setArg(a++, cl_int(state.height()));
    tiles.setArg(a++, cl_uint(state.tilesX()));
    tiles.setArg(a++, cl_uint(state.tilesY()));
    tiles.setArg(a++, state.luma);
    tiles.setArg(a++, state.labels[0]);
    tiles.setArg(a++, state.stamps[0]);
    tiles.setArg(a++, state.seedLuma);
    tiles.setArg(a++, cl_uint(run.seeds.size()));
    tiles.setArg(a++, cl_uint(run.params.lower));
    tiles.setArg(a++, cl_uint(run.params.upper));
    tiles.setArg(a++, cl_uint(run.params.mode));
    tiles.setArg(a++, cl_uint(run.params.rule == Rule::All ? 1 : 0));
    tiles.setArg(a++, cl_int(run.params.connectivity));
    tiles.setArg(a++, cl_uint(run.cap));
    // Where a label depends on the neighbours' labels, the run goes in
    // windows of levels (grow_tiles.cl): no stamp above the horizon yet.
    const bool windowed = !bits;
    uint32_t horizon = windowed ? uint32_t(std::min<uint64_t>(run.cap, tileLevelWindow)) : run.cap;
    const int horizonArg = a;
    tiles.setArg(a++, cl_uint(horizon));
    tiles.setArg(a++, state.tileMark);
    tiles.setArg(a++, state.tileLists);
    tiles.setArg(a++, state.counters);

    std::vector<uint32_t>& counters = run.counters;
    // A group of the bitmap step is one warp's worth: more of them per
    // compute unit of a GPU. One compute unit (Oclgrind) keeps one group.
    const size_t residentGroups = fusedGroupCount(info) * (bits && info.type == "GPU" && info.computeUnits > 1 ? 4 : 1);
    bool fused = true;
    uint32_t round = 1; // the next round to run
    uint32_t batch = firstFusedBatch;
    // Each round settles at least one more level everywhere (grow_tiles.cl):
    // a window takes at most its levels + 2 rounds, a run without windows
    // its largest stamp + 2. Past that, a kernel is broken; stop rather than
    // loop.
    uint32_t windowStart = 1;
    const uint64_t roundLimit = (windowed ? uint64_t(tileLevelWindow) : uint64_t(run.cap)) + 3;
    // The window is done: the next starts with its deferred tiles as the
    // list of round `next`. False when nothing was deferred (the run is over).
    const size_t tileCount = size_t(state.tilesX()) * size_t(state.tilesY());
    auto nextWindow = [&](uint32_t next) {
        const uint32_t deferred = counters[RGX_COUNTER_DEFERRED];
        if (deferred == 0 || horizon >= run.cap)
            return false;
        horizon = uint32_t(std::min<uint64_t>(run.cap, uint64_t(horizon) + tileLevelWindow));
        tiles.setArg(horizonArg, cl_uint(horizon));
        queue.enqueueCopyBuffer(state.tileLists, state.tileLists, 2 * tileCount * 4, (next % 2) * tileCount * 4,
                                deferred * 4, nullptr, run.timings.track("grow", "copy:deferred_tiles", int(next)));
        counters[RGX_COUNTER_TILES + next % 3] = deferred;
        counters[RGX_COUNTER_DEFERRED] = 0;
        for (const uint32_t word : {uint32_t(RGX_COUNTER_TILES + next % 3), uint32_t(RGX_COUNTER_DEFERRED)})
            queue.enqueueWriteBuffer(state.counters, CL_FALSE, word * 4, 4, &counters[word], nullptr,
                                     run.timings.track("grow", "write:counters", int(next)));
        windowStart = next;
        return true;
    };
    for (;;) {
        run.deadline.check(round - 1, "tile rounds");
        if (round - windowStart >= roundLimit)
            throw OpenClError("region growing on " + info.name + ": the tiles did not settle within " +
                              std::to_string(roundLimit) + " rounds");
        const uint32_t upTo = round + batch - 1;
        if (fused) {
            run.clearGridBarrier(int(round));
            tiles.setArg(0, cl_uint(round));
            tiles.setArg(1, cl_uint(upTo));
            queue.enqueueNDRangeKernel(tiles, cl::NullRange, cl::NDRange(residentGroups * workGroup),
                                       cl::NDRange(workGroup), nullptr, run.timings.track("grow", "grow_tiles", int(round)));
            const size_t record = run.timings.size() - 1;
            // A click often ends in its first launch: its summary then
            // comes back with the same read (and is redone if it did not).
            if (round == 1) {
                enqueueSummary(run);
                run.summary = Run::Summary::Stale;
            }
            run.readCounters(int(upTo));
            if (run.verdict() == RGX_VERDICT_NOT_RESIDENT) {
                run.result.note = "fusion=tiles: not all " + std::to_string(residentGroups) +
                                  " work-groups ran at once on " + info.name +
                                  ", so the run went on with one round of tiles per launch";
                fused = false;
                batch = 4;
                continue;
            }
            if (run.verdict() == RGX_VERDICT_STALLED) {
                // A work-group stopped coming to the barrier (descheduled on a
                // busy CPU, say): every group stopped at the same barrier, after
                // the same round. Go on from there, one round per launch.
                run.result.note = "fusion=tiles: the work-groups stopped meeting at the grid barrier on " + info.name +
                                  ", so the run went on with one round of tiles per launch";
                fused = false;
                batch = 4;
                const uint32_t last = counters[RGX_COUNTER_LAST_LAUNCHED];
                if (counters[RGX_COUNTER_TILES + (last + 1) % 3] == 0 && !nextWindow(last + 1))
                    break;
                round = last + 1;
                continue;
            }
            run.timings.coverIterations(record, -1,
                                        "tile rounds " + std::to_string(round) + " to " +
                                            std::to_string(counters[RGX_COUNTER_LAST_LAUNCHED]) +
                                            " in one launch, a grid barrier between them");
        } else {
            // One round per launch: the kernel boundary is the barrier.
            const size_t groups = info.computeUnits > 1 ? std::min(groupsToFill(info), tileCount) : 1;
            for (uint32_t r = round; r <= upTo; ++r) {
                tiles.setArg(0, cl_uint(r));
                tiles.setArg(1, cl_uint(r));
                queue.enqueueNDRangeKernel(tiles, cl::NullRange, cl::NDRange(groups * workGroup), cl::NDRange(workGroup),
                                           nullptr, run.timings.track("grow", "grow_tiles", int(r)));
            }
            run.readCounters(int(upTo));
        }
        const uint32_t last = counters[RGX_COUNTER_LAST_LAUNCHED];
        const uint32_t queued = counters[RGX_COUNTER_TILES + (last + 1) % 3];
        run.progress(last, queued);
        if (queued == 0 && !nextWindow(last + 1)) {
            if (fused && round == 1)
                run.summary = Run::Summary::Done;
            break;
        }
        run.offerPartial(0, unclassifiedStamp, true);
        round = last + 1;
        batch = std::min(batch * 2, fused ? largestFusedBatch : 64);
    }
    run.result.finalSet = 0;
}

// ---------------------------------------------------------------------------
// After every driver: where the classified pixels are, the largest stamp,
// the region statistics (kernels/grow_session.cl).

// The summary of the maps: the box of the classified pixels, the largest
// stamp (in the counters) and the region totals (in run.stats once the
// queue reached the next blocking read).
void enqueueSummary(Run& run)
{
    GrowState& state = run.state;
    const int set = run.result.finalSet;
    const BuiltProgram& built = sessionKernels(state.device());
    cl::Kernel& kernel = state.kernel(built.program, "summarize");
    const size_t regionTotal = run.seeds.size();
    int a = 0;
    kernel.setArg(a++, state.stamps[set]);
    kernel.setArg(a++, state.labels[set]);
    kernel.setArg(a++, state.luma);
    kernel.setArg(a++, cl_uint(state.width()));
    kernel.setArg(a++, cl_uint(regionTotal));
    kernel.setArg(a++, state.counters);
    kernel.setArg(a++, state.regionStats);
    const size_t groups = std::min<size_t>(groupsToFill(run.info), size_t(state.height()));
    run.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(groups * 256), cl::NDRange(256), nullptr,
                                   run.timings.track("download", "summarize"));
    // Into the pinned words after the counters: summarize takes them once a
    // blocking read of the counters has passed this one.
    run.queue.enqueueReadBuffer(state.regionStats, CL_FALSE, 0, RGX_REGION_STATS_WORDS * regionTotal * 4,
                                state.readBackWords() + RGX_COUNTER_WORDS, nullptr,
                                run.timings.track("download", "read:region_stats"));
}

// After every driver: the summary into the result. A driver may have
// summarised already (its last launch may be the run's last: then the
// summary saves a wait), or have summarised too early (then its totals and
// box are reset first).
void summarize(Run& run)
{
    if (run.summary == Run::Summary::Stale) {
        GrowState& state = run.state;
        run.queue.enqueueFillBuffer(state.regionStats, cl_uint(0), 0, RGX_REGION_STATS_WORDS * run.seeds.size() * 4, nullptr,
                                    run.timings.track("download", "fill:region_stats"));
        std::vector<uint32_t>& counters = run.counters;
        counters[RGX_COUNTER_BOX + 0] = counters[RGX_COUNTER_BOX + 1] = unclassifiedStamp;
        counters[RGX_COUNTER_BOX + 2] = counters[RGX_COUNTER_BOX + 3] = counters[RGX_COUNTER_MAX_STAMP] = 0;
        run.queue.enqueueWriteBuffer(state.counters, CL_FALSE, RGX_COUNTER_BOX * 4, 5 * 4,
                                     &counters[RGX_COUNTER_BOX], nullptr, run.timings.track("download", "write:counters"));
    }
    if (run.summary != Run::Summary::Done) {
        enqueueSummary(run);
        run.readCounters(-1);
    }

    const size_t regionTotal = run.seeds.size();
    GrowRun& result = run.result;
    result.regions.resize(regionTotal);
    for (size_t k = 0; k < regionTotal; ++k) {
        const uint32_t* words = run.state.readBackWords() + RGX_COUNTER_WORDS + RGX_REGION_STATS_WORDS * k;
        result.regions[k] = {words[0], (uint64_t(words[2]) << 32) | words[1]};
    }
    const std::vector<uint32_t>& counters = run.counters;
    result.box = {counters[RGX_COUNTER_BOX + 0], counters[RGX_COUNTER_BOX + 1], counters[RGX_COUNTER_BOX + 2],
                  counters[RGX_COUNTER_BOX + 3]};
    result.iterations = counters[RGX_COUNTER_MAX_STAMP];
    result.stoppedAtCap = result.iterations == run.cap && result.iterations > 0;
    // Only a broken variant overflows: its result is shown, damage and all.
    if (counters[RGX_COUNTER_OVERFLOW] != 0)
        result.note += std::string(result.note.empty() ? "" : "; ") +
                       "a frontier ran past its buffer: the writes beyond it were dropped";
}

} // namespace

const BuiltProgram& sessionKernels(ComputeDevice& device)
{
    return device.programs().get(sessionProgram, device.info().openClCStandardOption(false) + " -DRGX_WG_SIZE=256");
}

void buildGrowPrograms(ComputeDevice& device, const GrowVariant& variant, const GrowParams& params,
                       size_t regions)
{
    sessionKernels(device);
    if (variant.fusion == Fusion::Tiles && tilesApply(params, regions)) {
        size_t workGroup = 0;
        tileKernels(device, labelsFixed(params, regions), workGroup);
    } else {
        Geometry geometry;
        levelKernels(device, levelVariant(variant), geometry);
    }
}

bool tilesApply(const GrowParams& params, size_t regions)
{
    return params.mode == Mode::Range || (params.mode == Mode::Competitive && regions == 1);
}

void checkGrowInputs(const DeviceInfo& info, int width, int height, const std::vector<Seed>& seeds,
                     const GrowParams& params, const GrowVariant& variant)
{
    validateSeeds(seeds, width, height);
    if (auto reason = whyUnavailable(variant, info))
        throw InputError("variant " + variant.text() + " cannot run on " + info.name + ": " + *reason);
    if (params.connectivity != 4 && params.connectivity != 8)
        throw InputError("connectivity must be 4 or 8, not " + std::to_string(params.connectivity));
    const uint64_t pixelCount = uint64_t(width) * uint64_t(height);
    const uint64_t needed = regionGrowingDeviceBytes(pixelCount, seeds.size(), variant);
    if (pixelCount * 4 > info.maxAllocationBytes || needed > info.globalMemoryBytes ||
        pixelCount >= 0x7FFFFFFFull) {
        std::ostringstream message;
        message << "the " << width << "x" << height << " image needs " << needed / (1024 * 1024)
                << " MiB of device memory (largest buffer " << pixelCount * 4 / (1024 * 1024)
                << " MiB); " << info.name << " has " << info.globalMemoryBytes / (1024 * 1024)
                << " MiB, at most " << info.maxAllocationBytes / (1024 * 1024) << " MiB per buffer";
        if (pixelCount >= 0x7FFFFFFFull)
            message << " (and RGX handles images of fewer than 2^31 pixels)";
        throw InputError(message.str());
    }
}

uint64_t regionGrowingDeviceBytes(uint64_t pixelCount, uint64_t regionCount, const GrowVariant& variant)
{
    // luma (2) + labels (2) + stamps (4) per pixel; the queue adds two
    // frontier lists (4 + 4), the sweep a second labels/stamps pair (2 + 4);
    // tiles two marks and three list entries (20 bytes) per tile of 32 x 32.
    // fusion=tiles can fall back to levels, so it counts the queue too.
    uint64_t perPixel = 2 + 2 + 4;
    if (variant.frontier == Frontier::Sweep)
        perPixel += 6;
    else
        perPixel += 8;
    uint64_t bytes = pixelCount * perPixel;
    if (variant.fusion == Fusion::Tiles)
        bytes += (pixelCount + growTileSide * growTileSide - 1) / (growTileSide * growTileSide) * 20;
    // Per region of the buffers' capacity: seed pixel and luma (8), two sets
    // of three rotating (count, sum) slots (72), the summary's (count, sum) (12).
    bytes += regionCapacityFor(regionCount) * 92 + RGX_COUNTER_WORDS * 4;
    // The read-back's narrow maps on the device: at most 2 + 4 per pixel.
    bytes += pixelCount * 6;
    return bytes;
}

GrowRun growRegions(GrowState& state, const std::vector<uint16_t>& luma, const std::vector<Seed>& seeds,
                    const GrowParams& params, const GrowVariant& variant, const RunControl& control,
                    TimingLog& timings)
{
    const DeviceInfo& info = state.device().info();
    checkGrowInputs(info, state.width(), state.height(), seeds, params, variant);
    const bool tiles = variant.fusion == Fusion::Tiles && tilesApply(params, seeds.size());
    Run run(state, seeds, params, variant, control, timings);
    // Host memory that non-blocking writes read from: it outlives the queue's
    // use of it, a run that throws included (see waitForTheQueue).
    std::vector<uint32_t> seedPixels, seedLuma;
    // A run that stops half-way (an error, Cancel, the time limit) may leave
    // commands in the queue that read run.counters and the seed vectors:
    // they finish before those go.
    auto waitForTheQueue = [&] {
        try {
            run.queue.finish();
        } catch (const cl::Error&) {
            // The queue is broken too: nothing of it runs any more.
        }
    };
    try {
        const GrowState::RunStart start = state.prepareRun(variant, tiles, seeds.size());
        PixelBox touched;
        if (!tiles)
            touched = {0, 0, uint32_t(state.width() - 1), uint32_t(state.height() - 1)};
        startRun(run, start, touched);
        placeSeeds(run, tiles, seedPixels, seedLuma, luma);
        if (tiles) {
            growByTiles(run);
        } else if (variant.fusion == Fusion::Tiles) {
            // The means change between iterations: one step per level is the limit.
            run.result.note = "fusion=tiles: in mode " + modeName(params.mode) + " with " +
                              std::to_string(seeds.size()) +
                              " regions a decision depends on the means of the previous iteration, so the "
                              "run went level by level with a grid barrier between levels";
            growByLevels(run, levelVariant(variant), seedPixels, seedLuma);
        } else {
            growByLevels(run, variant, seedPixels, seedLuma);
        }
        summarize(run);
        state.finishRun(run.result.box);
    } catch (const cl::Error& error) {
        waitForTheQueue();
        state.markFailed();
        stage::throwOpenClError("region growing", info.name, error);
    } catch (...) {
        waitForTheQueue();
        state.markFailed();
        throw;
    }
    return std::move(run.result);
}

} // namespace rgx
