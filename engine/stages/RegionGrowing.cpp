// Host side of region growing: buffers, the iteration loop of each driver,
// and the checks that keep a broken variant from hanging the program.
#include "RegionGrowing.h"
#include "Device.h"
#include "Errors.h"
#include "StageSupport.h"
#include "TimingLog.h"

#include <algorithm>
#include <chrono>
#include <future>
#include <sstream>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace rgx {
namespace {

constexpr const char* programFile = "region_growing.cl";
// accepted in iterations i % 3 == 0, 1, 2; overflow; last launched by the
// device; grid barrier arrivals and verdict (fusion=grid-barrier); the last
// iteration known to have grown; the first and last row with a classified
// pixel (classified_rows).
constexpr uint32_t counterSlots = 10;
constexpr uint32_t lastLaunchedSlot = 4;
constexpr uint32_t gridArrivalsSlot = 5;
constexpr uint32_t gridVerdictSlot = 6;
constexpr uint32_t lastGrownSlot = 7;
constexpr uint32_t firstRowSlot = 8;
constexpr uint32_t lastRowSlot = 9;
enum GridVerdict : uint32_t { verdictGo = 1, verdictNotResident = 2, verdictStalled = 3 };
// Iterations one grow_levels launch may run: it starts small so that short
// runs end early, and stays short enough to cancel within milliseconds.
constexpr uint32_t firstFusedBatch = 32;
constexpr uint32_t largestFusedBatch = 1024;
// Region statistics: three rotating slots of (count, sum low, sum high).
constexpr uint32_t statsWords = 3;

using stage::largestPowerOfTwoAtMost;
using stage::roundUp;

struct Geometry {
    size_t workGroup = 256;   // grow_queue
    size_t tileWidth = 16;    // grow_sweep
    size_t tileHeight = 16;
};

std::string buildOptions(const GrowVariant& variant,
                         const DeviceInfo& device, const Geometry& geometry)
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
    if (deviceEnqueue)
        options << " -DRGX_DEVICE_ENQUEUE=1 -DRGX_FRONTIER_SWEEP="
                << (variant.frontier == Frontier::Sweep ? 1 : 0);
    return options.str();
}

class Deadline {
public:
    explicit Deadline(const RunControl& control)
        : control_(control), start_(std::chrono::steady_clock::now()) {}

    void check(uint32_t iteration) const
    {
        if (control_.cancel && control_.cancel->load())
            throw RunInterrupted("cancelled after " + std::to_string(iteration) + " iterations");
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        if (control_.timeoutSeconds > 0 && elapsed > control_.timeoutSeconds) {
            std::ostringstream message;
            message << "stopped after " << iteration << " iterations: the run exceeded its "
                    << control_.timeoutSeconds << " s time limit";
            throw RunInterrupted(message.str());
        }
    }

private:
    const RunControl& control_;
    std::chrono::steady_clock::time_point start_;
};

// Work-groups for grow_levels: few enough that all can be resident at once
// (the roll call checks it), enough to keep every compute unit busy; two
// per compute unit on a GPU to hide latency. One compute unit (Oclgrind)
// gets one work-group: its race detector then sees the work-group's side of
// the kernel, the only side the OpenCL 1.2 memory model speaks about.
size_t gridBarrierGroups(const DeviceInfo& info)
{
    const size_t units = std::max<size_t>(1, info.computeUnits);
    return units == 1 ? 1 : units * (info.type == "GPU" ? 2 : 1);
}

// A result map filled with `value`. Fresh memory costs a page fault per
// 4 KiB page on first touch (tens of milliseconds for 4096 x 4096 maps);
// on Linux the memory is offered for transparent huge pages first, so that
// touching it faults once per 2 MiB where the system allows.
template <typename T>
std::vector<T> hostMap(size_t count, T value)
{
    std::vector<T> map;
    map.reserve(count);
#ifdef __linux__
    constexpr uintptr_t hugePage = 2u << 20;
    const uintptr_t begin = (reinterpret_cast<uintptr_t>(map.data()) + hugePage - 1) & ~(hugePage - 1);
    const uintptr_t end = (reinterpret_cast<uintptr_t>(map.data() + count)) & ~(hugePage - 1);
    if (end > begin)
        madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE); // advice only: failure is harmless
#endif
    map.resize(count, value);
    return map;
}

} // namespace

uint64_t regionGrowingDeviceBytes(uint64_t pixelCount, uint64_t regionCount, Frontier frontier)
{
    // luma (2) + labels (2) + stamps (4) per pixel; the queue adds two
    // frontier lists (4 + 4), the sweep a second labels/stamps pair (2 + 4).
    const uint64_t perPixel = frontier == Frontier::Queue ? 2 + 2 + 4 + 8 : 2 + 2 + 4 + 6;
    // seed luma (4) and two sets of three rotating (count, sum) slots (2 x 3 x 12) per region.
    return pixelCount * perPixel + regionCount * 76 + counterSlots * 4;
}

GrowResult growRegionsOnDevice(ComputeDevice& device, const std::vector<uint16_t>& luma, int width,
                               int height, const std::vector<Seed>& seeds, const GrowParams& params,
                               const GrowVariant& variant, const RunControl& control,
                               TimingLog& timings)
{
    validateSeeds(seeds, width, height);
    const DeviceInfo& info = device.info();
    if (auto reason = whyUnavailable(variant, info))
        throw InputError("variant " + variant.text() + " cannot run on " + info.name + ": " + *reason);
    if (params.connectivity != 4 && params.connectivity != 8)
        throw InputError("connectivity must be 4 or 8, not " + std::to_string(params.connectivity));

    const uint64_t pixelCount = uint64_t(width) * uint64_t(height);
    const uint64_t needed = regionGrowingDeviceBytes(pixelCount, seeds.size(), variant.frontier);
    if (pixelCount * 4 > info.maxAllocationBytes || needed > info.globalMemoryBytes ||
        pixelCount >= 0xFFFFFFFEull) {
        std::ostringstream message;
        message << "the " << width << "x" << height << " image needs " << needed / (1024 * 1024)
                << " MiB of device memory (largest buffer " << pixelCount * 4 / (1024 * 1024)
                << " MiB); " << info.name << " has " << info.globalMemoryBytes / (1024 * 1024)
                << " MiB, at most " << info.maxAllocationBytes / (1024 * 1024) << " MiB per buffer";
        throw InputError(message.str());
    }

    Geometry geometry;
    geometry.workGroup = largestPowerOfTwoAtMost(std::min<size_t>(256, info.maxWorkGroupSize));
    while (geometry.tileWidth * geometry.tileHeight > info.maxWorkGroupSize && geometry.tileHeight > 1)
        geometry.tileHeight /= 2;

    const std::string kernelName = variant.frontier == Frontier::Queue ? "grow_queue" : "grow_sweep";
    const BuiltProgram* built = &device.programs().get(programFile, buildOptions(variant, info, geometry));
    // A kernel may fit fewer work-items than the device (registers): shrink and rebuild.
    for (const KernelReport& report : built->kernels) {
        if (report.kernel != kernelName || report.workGroupSizeLimit == 0)
            continue;
        if (variant.frontier == Frontier::Queue && report.workGroupSizeLimit < geometry.workGroup) {
            geometry.workGroup = largestPowerOfTwoAtMost(report.workGroupSizeLimit);
            built = &device.programs().get(programFile, buildOptions(variant, info, geometry));
        } else if (variant.frontier == Frontier::Sweep &&
                   report.workGroupSizeLimit < geometry.tileWidth * geometry.tileHeight) {
            while (geometry.tileWidth * geometry.tileHeight > report.workGroupSizeLimit && geometry.tileHeight > 1)
                geometry.tileHeight /= 2;
            built = &device.programs().get(programFile, buildOptions(variant, info, geometry));
        }
    }

    // Host time counts from the upload to the result: building (or loading
    // from the cache) is reported separately by the program cache.
    const auto hostStart = std::chrono::steady_clock::now();
    const size_t regionTotal = seeds.size();
    cl::Context& context = device.context();
    cl::CommandQueue& queue = device.queue();

    // Iteration 0, prepared on the host: seeds labelled, stamps 0, sums.
    // The maps start as fills on the device; only the seeds travel.
    std::vector<uint32_t> seedFrontier(regionTotal);
    std::vector<uint32_t> seedLuma(regionTotal);
    // Iteration 0's statistics enter as the deltas of slot 0 (totals of
    // "iteration -1", slot 2, are zero): see kernels/region_growing.cl.
    std::vector<uint32_t> totals(3 * statsWords * regionTotal, 0);
    std::vector<uint32_t> deltas(3 * statsWords * regionTotal, 0);
    for (size_t k = 0; k < regionTotal; ++k) {
        const uint32_t p = uint32_t(seeds[k].y) * uint32_t(width) + uint32_t(seeds[k].x);
        seedFrontier[k] = p;
        seedLuma[k] = luma[p];
        deltas[statsWords * k] = 1;
        deltas[statsWords * k + 1] = luma[p];
    }
    std::vector<uint32_t> counters(counterSlots, 0);
    counters[0] = uint32_t(regionTotal);
    counters[firstRowSlot] = unclassifiedStamp;

    // The result's maps are allocated (and their pages touched) on another
    // thread while this one drives the device: at 4096 x 4096 that is 96 MB
    // and tens of milliseconds the device would otherwise sit idle for.
    // Only the rows with classified pixels are read back into them: the
    // rest keeps these initial values (label 0, stamp "never").
    auto labelMap = std::async(std::launch::async, [pixelCount] { return hostMap<uint16_t>(pixelCount, 0); });
    auto stampMap = std::async(std::launch::async,
                               [pixelCount] { return hostMap<uint32_t>(pixelCount, unclassifiedStamp); });

    GrowResult result;
    result.width = width;
    result.height = height;
    result.device = info.name;
    result.variant = variant.text();
    result.kernels = built->kernels;

    try {
        auto makeBuffer = [&](size_t bytes) { return cl::Buffer(context, CL_MEM_READ_WRITE, std::max<size_t>(bytes, 4)); };
        auto upload = [&](cl::Buffer& buffer, const void* data, size_t bytes, const std::string& name) {
            queue.enqueueWriteBuffer(buffer, CL_FALSE, 0, bytes, data, nullptr, timings.track("upload", "write:" + name));
        };
        cl::Buffer lumaBuffer = makeBuffer(pixelCount * 2);
        cl::Buffer labelBuffers[2] = {makeBuffer(pixelCount * 2), cl::Buffer()};
        cl::Buffer stampBuffers[2] = {makeBuffer(pixelCount * 4), cl::Buffer()};
        cl::Buffer frontierBuffers[2];
        if (variant.frontier == Frontier::Queue) {
            frontierBuffers[0] = makeBuffer(pixelCount * 4);
            frontierBuffers[1] = makeBuffer(pixelCount * 4);
        } else {
            labelBuffers[1] = makeBuffer(pixelCount * 2);
            stampBuffers[1] = makeBuffer(pixelCount * 4);
        }
        cl::Buffer seedLumaBuffer = makeBuffer(regionTotal * 4);
        cl::Buffer totalsBuffer = makeBuffer(totals.size() * 4);
        cl::Buffer deltasBuffer = makeBuffer(deltas.size() * 4);
        cl::Buffer counterBuffer = makeBuffer(counterSlots * 4);

        upload(lumaBuffer, luma.data(), pixelCount * 2, "luma");
        queue.enqueueFillBuffer(labelBuffers[0], cl_ushort(0), 0, pixelCount * 2, nullptr,
                                timings.track("upload", "fill:labels"));
        queue.enqueueFillBuffer(stampBuffers[0], cl_uint(unclassifiedStamp), 0, pixelCount * 4, nullptr,
                                timings.track("upload", "fill:stamps"));
        // The queue frontier's first list is the seeds themselves; the sweep
        // needs them only to place the seeds.
        cl::Buffer seedPixels = variant.frontier == Frontier::Queue ? frontierBuffers[0] : makeBuffer(regionTotal * 4);
        upload(seedPixels, seedFrontier.data(), regionTotal * 4, "seed_pixels");
        upload(seedLumaBuffer, seedLuma.data(), regionTotal * 4, "seed_luma");
        upload(totalsBuffer, totals.data(), totals.size() * 4, "totals");
        upload(deltasBuffer, deltas.data(), deltas.size() * 4, "deltas");
        upload(counterBuffer, counters.data(), counterSlots * 4, "counters");

        cl::Kernel placeSeeds(built->program, "place_seeds");
        placeSeeds.setArg(0, seedPixels);
        placeSeeds.setArg(1, cl_uint(regionTotal));
        placeSeeds.setArg(2, labelBuffers[0]);
        placeSeeds.setArg(3, stampBuffers[0]);
        queue.enqueueNDRangeKernel(placeSeeds, cl::NullRange, cl::NDRange(roundUp(regionTotal, 64)),
                                   cl::NullRange, nullptr, timings.track("upload", "place_seeds"));

        cl::Kernel grow(built->program, kernelName.c_str());
        const cl_ulong threshold = params.toleranceThreshold();
        grow.setArg(0, cl_uint(0));
        grow.setArg(1, cl_int(width));
        grow.setArg(2, cl_int(height));
        int arg = 3;
        if (variant.frontier == Frontier::Queue) {
            arg += 2; // frontier, next_frontier: per iteration
            grow.setArg(arg++, lumaBuffer);
            grow.setArg(arg++, labelBuffers[0]);
            grow.setArg(arg++, stampBuffers[0]);
        } else {
            arg += 4; // stamps_in, labels_in, stamps_out, labels_out: per iteration
            grow.setArg(arg++, lumaBuffer);
        }
        // The arguments every grow kernel and the device chain end with.
        auto setDecisionArguments = [&](cl::Kernel& kernel, int first) {
            kernel.setArg(first++, seedLumaBuffer);
            kernel.setArg(first++, cl_uint(regionTotal));
            kernel.setArg(first++, totalsBuffer);
            kernel.setArg(first++, deltasBuffer);
            kernel.setArg(first++, counterBuffer);
            kernel.setArg(first++, threshold);
            kernel.setArg(first++, cl_uint(params.lower));
            kernel.setArg(first++, cl_uint(params.upper));
            kernel.setArg(first++, cl_uint(params.mode));
            kernel.setArg(first++, cl_uint(params.rule == Rule::All ? 1 : 0));
            kernel.setArg(first++, cl_int(params.connectivity));
        };
        setDecisionArguments(grow, arg);

        // Launch sizes. The queue kernel loops over the frontier, so its
        // global size only needs to cover the device (batched) or the known
        // frontier (host-sync); the sweep covers the image in tiles.
        // Enough work-groups to keep every compute unit busy, not more: idle
        // groups still cost scheduling in every batched launch.
        const size_t groupsToFill = std::max<size_t>(1, size_t(info.computeUnits) * (info.type == "GPU" ? 4 : 2));
        const size_t groupsForImage = (pixelCount + geometry.workGroup - 1) / geometry.workGroup;
        const size_t batchedGroups = std::min(groupsToFill, groupsForImage);
        const cl::NDRange sweepLocal(geometry.tileWidth, geometry.tileHeight);
        const cl::NDRange sweepGlobal(roundUp(size_t(width), geometry.tileWidth),
                                      roundUp(size_t(height), geometry.tileHeight));

        auto enqueueIteration = [&](uint32_t iteration, uint32_t knownFrontier) {
            grow.setArg(0, cl_uint(iteration));
            const int in = int((iteration - 1) & 1);
            const int out = int(iteration & 1);
            if (variant.frontier == Frontier::Queue) {
                grow.setArg(3, frontierBuffers[in]);
                grow.setArg(4, frontierBuffers[out]);
                const size_t groups = variant.driver == Driver::HostSync
                    ? std::max<size_t>(1, std::min<size_t>((knownFrontier + geometry.workGroup - 1) / geometry.workGroup, 65535))
                    : batchedGroups;
                queue.enqueueNDRangeKernel(grow, cl::NullRange, cl::NDRange(groups * geometry.workGroup),
                                           cl::NDRange(geometry.workGroup), nullptr,
                                           timings.track("grow", kernelName, int(iteration)));
            } else {
                grow.setArg(3, stampBuffers[in]);
                grow.setArg(4, labelBuffers[in]);
                grow.setArg(5, stampBuffers[out]);
                grow.setArg(6, labelBuffers[out]);
                queue.enqueueNDRangeKernel(grow, cl::NullRange, sweepGlobal, sweepLocal, nullptr,
                                           timings.track("grow", kernelName, int(iteration)));
            }
        };
        auto readCounters = [&](uint32_t iteration) {
            queue.enqueueReadBuffer(counterBuffer, CL_TRUE, 0, counterSlots * 4, counters.data(),
                                    nullptr, timings.track("grow", "read:counters", int(iteration)));
        };

        const uint32_t cap = params.iterationCap(pixelCount);
        const Deadline deadline(control);
        uint32_t last = 0; // last iteration enqueued
        uint32_t batch = 4;
        bool finished = false;
        if (variant.driver == Driver::DeviceEnqueue) {
            // One launch from the host; the device schedules every iteration
            // itself. The host can time only the whole chain.
            device.deviceQueue();
            cl::Kernel chain(built->program, "grow_chain");
            int a = 0;
            chain.setArg(a++, cl_uint(1));
            chain.setArg(a++, cl_uint(cap));
            chain.setArg(a++, cl_uint(batchedGroups));
            chain.setArg(a++, cl_int(width));
            chain.setArg(a++, cl_int(height));
            const bool queueFrontier = variant.frontier == Frontier::Queue;
            chain.setArg(a++, queueFrontier ? frontierBuffers[0] : stampBuffers[0]);
            chain.setArg(a++, queueFrontier ? frontierBuffers[1] : stampBuffers[0]);
            chain.setArg(a++, lumaBuffer);
            chain.setArg(a++, labelBuffers[0]);
            chain.setArg(a++, queueFrontier ? labelBuffers[0] : labelBuffers[1]);
            chain.setArg(a++, stampBuffers[0]);
            chain.setArg(a++, queueFrontier ? stampBuffers[0] : stampBuffers[1]);
            setDecisionArguments(chain, a);
            queue.enqueueNDRangeKernel(chain, cl::NullRange, cl::NDRange(1), cl::NullRange, nullptr,
                                       timings.track("grow", "grow_chain", -1, true));
            queue.finish();
            readCounters(0);
            last = counters[lastLaunchedSlot];
            finished = last < cap || counters[last % 3] == 0;
            if (control.progress)
                control.progress(last, counters[last % 3]);
        }
        if (variant.fusion == Fusion::GridBarrier) {
            cl::Kernel levels(built->program, "grow_levels");
            levels.setArg(2, cl_int(width));
            levels.setArg(3, cl_int(height));
            levels.setArg(4, frontierBuffers[0]);
            levels.setArg(5, frontierBuffers[1]);
            levels.setArg(6, lumaBuffer);
            levels.setArg(7, labelBuffers[0]);
            levels.setArg(8, stampBuffers[0]);
            setDecisionArguments(levels, 9);
            const size_t residentGroups = gridBarrierGroups(info);
            uint32_t levelBatch = firstFusedBatch;
            while (!finished && last < cap) {
                deadline.check(last);
                const uint32_t first = last + 1;
                const uint32_t upTo = std::min(cap, last + levelBatch);
                queue.enqueueFillBuffer(counterBuffer, cl_uint(0), gridArrivalsSlot * 4, 2 * 4, nullptr,
                                        timings.track("grow", "fill:grid_barrier", int(first)));
                levels.setArg(0, cl_uint(first));
                levels.setArg(1, cl_uint(upTo));
                queue.enqueueNDRangeKernel(levels, cl::NullRange, cl::NDRange(residentGroups * geometry.workGroup),
                                           cl::NDRange(geometry.workGroup), nullptr,
                                           timings.track("grow", "grow_levels", int(first)));
                const size_t levelsRecord = timings.size() - 1;
                readCounters(upTo);
                if (counters[gridVerdictSlot] == verdictNotResident) {
                    // Nothing ran: go on one iteration per launch.
                    result.note = "fusion=grid-barrier: not all " + std::to_string(residentGroups) +
                                  " work-groups ran at once on " + info.name +
                                  ", so the run went on with one iteration per launch";
                    break;
                }
                if (counters[gridVerdictSlot] != verdictGo)
                    throw OpenClError("region growing on " + info.name + ": the work-groups of grow_levels "
                                      "stopped meeting at the grid barrier after iteration " +
                                      std::to_string(counters[lastLaunchedSlot]));
                last = counters[lastLaunchedSlot];
                timings.coverIterations(levelsRecord, int(last),
                                        "iterations " + std::to_string(first) + " to " + std::to_string(last) +
                                            " in one launch, a grid barrier between them");
                finished = counters[last % 3] == 0;
                levelBatch = std::min(levelBatch * 2, largestFusedBatch);
                if (control.progress)
                    control.progress(last, counters[last % 3]);
            }
        }
        while (!finished && last < cap) {
            deadline.check(last);
            const uint32_t count = variant.driver == Driver::HostSync ? 1 : std::min(batch, cap - last);
            for (uint32_t j = 0; j < count; ++j) {
                last += 1;
                enqueueIteration(last, counters[(last - 1) % 3]);
            }
            readCounters(last);
            finished = counters[last % 3] == 0;
            batch = std::min<uint32_t>(batch * 2, 64);
            if (control.progress)
                control.progress(last, counters[last % 3]);
        }
        result.stoppedAtCap = !finished;

        // The final state: in place for the queue; for the sweep in the
        // buffers written by the last iteration enqueued (the ones after the
        // last growth only copied it or did nothing).
        const int finalSet = variant.frontier == Frontier::Queue ? 0 : int(last & 1);
        // Read back only the rows that hold classified pixels (the seeds
        // at least); the maps already hold label 0 and stamp "never" elsewhere.
        cl::Kernel rows(built->program, "classified_rows");
        rows.setArg(0, stampBuffers[finalSet]);
        rows.setArg(1, cl_uint(pixelCount));
        rows.setArg(2, cl_uint(width));
        rows.setArg(3, counterBuffer);
        queue.enqueueNDRangeKernel(rows, cl::NullRange, cl::NDRange(batchedGroups * geometry.workGroup),
                                   cl::NDRange(geometry.workGroup), nullptr,
                                   timings.track("download", "classified_rows"));
        queue.enqueueReadBuffer(counterBuffer, CL_TRUE, firstRowSlot * 4, 2 * 4, &counters[firstRowSlot], nullptr,
                                timings.track("download", "read:rows"));
        const uint32_t firstRow = counters[firstRowSlot];
        const uint32_t lastRow = std::min<uint32_t>(counters[lastRowSlot], uint32_t(height - 1));
        result.labels = labelMap.get();
        result.stamps = stampMap.get();
        if (firstRow <= lastRow) {
            const size_t offset = size_t(firstRow) * size_t(width);
            const size_t count = size_t(lastRow - firstRow + 1) * size_t(width);
            queue.enqueueReadBuffer(labelBuffers[finalSet], CL_FALSE, offset * 2, count * 2,
                                    result.labels.data() + offset, nullptr, timings.track("download", "read:labels"));
            queue.enqueueReadBuffer(stampBuffers[finalSet], CL_FALSE, offset * 4, count * 4,
                                    result.stamps.data() + offset, nullptr, timings.track("download", "read:stamps"));
        }
        queue.enqueueReadBuffer(totalsBuffer, CL_FALSE, 0, totals.size() * 4, totals.data(),
                                nullptr, timings.track("download", "read:totals"));
        queue.enqueueReadBuffer(deltasBuffer, CL_FALSE, 0, deltas.size() * 4, deltas.data(),
                                nullptr, timings.track("download", "read:deltas"));
        queue.finish();

        result.regions.resize(regionTotal);
        for (size_t k = 0; k < regionTotal; ++k)
        {
            // Launch `last` folded the totals up to last-1 into slot
            // (last-1)%3; its own pixels are in the deltas of slot last%3.
            const uint32_t* total = &totals[(statsWords * regionTotal) * ((last + 2) % 3) + statsWords * k];
            const uint32_t* delta = &deltas[(statsWords * regionTotal) * (last % 3) + statsWords * k];
            result.regions[k] = {uint64_t(total[0]) + delta[0],
                                 ((uint64_t(total[2]) << 32) | total[1]) + ((uint64_t(delta[2]) << 32) | delta[1])};
        }
        // The largest stamp: the last iteration that accepted a pixel. Every
        // launch notes whether the one before it grew; the last one itself
        // is known from its count.
        result.iterations = last == 0 ? 0 : counters[last % 3] != 0 ? last : counters[lastGrownSlot];
        result.hostMilliseconds =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - hostStart).count();
    } catch (const cl::Error& error) {
        stage::throwOpenClError("region growing", info.name, error);
    }
    return result;
}

} // namespace rgx
