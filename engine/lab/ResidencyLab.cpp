// Host side of the residency lab: the roll-call probes of grow_levels, the
// search over their group counts, and the two region-growing runs that show
// the fallback's cost.
#include "ResidencyLab.h"
#include "Device.h"
#include "Errors.h"
#include "Pipeline.h"
#include "Variant.h"
#include "stages/StageSupport.h"
#include "stages/grow/GrowPrograms.h"
#include "grow_counters.h"

#include <algorithm>
#include <chrono>
#include <limits>

namespace rgx {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// The variant whose fused kernel RGX launches: the default axes (host-batched,
// queue, atomics) with fusion=grid-barrier.
const char* fusedVariantText = "fusion=grid-barrier";

// On a GPU the roll call waits 2^24 reads of a global word (seconds on an
// H100), and every count the search finds not resident pays that wait; the
// probes wait 2^18 reads instead (milliseconds: resident groups arrive within
// microseconds). The bound is a loop count only: the kernel's work-group
// size, local memory and registers stay those of RGX's build. CPUs keep
// RGX's own wait (gridBarrierOptions: 2^27 reads, a fraction of a second).
std::string probeOptionsFor(const DeviceInfo& info, const std::string& options)
{
    if (info.type != "GPU" || options.find("RGX_ROLL_CALL_SPINS") != std::string::npos)
        return options;
    return options + " -DRGX_ROLL_CALL_SPINS=(1u<<18)";
}

// grow_levels launched with first_iteration > last_iteration: the roll call
// and nothing else. Any buffer does for the pointers the loop would use.
class RollCall {
public:
    RollCall(ComputeDevice& device, const BuiltProgram& program, size_t workGroup)
        : device_(device), kernel_(program.program, "grow_levels"), workGroup_(workGroup),
          counters_(device.context(), CL_MEM_READ_WRITE, RGX_COUNTER_WORDS * sizeof(cl_uint)),
          spare_(device.context(), CL_MEM_READ_WRITE, 64 * sizeof(cl_uint))
    {
        int a = 0;
        kernel_.setArg(a++, cl_uint(1));  // first_iteration
        kernel_.setArg(a++, cl_uint(0));  // last_iteration: no iteration
        kernel_.setArg(a++, cl_int(1));   // width
        kernel_.setArg(a++, cl_int(1));   // height
        for (int buffer = 0; buffer < 6; ++buffer) // frontiers, luma, labels, stamps, seed luma
            kernel_.setArg(a++, spare_);
        kernel_.setArg(a++, cl_uint(1));  // region_total
        kernel_.setArg(a++, spare_);      // totals
        kernel_.setArg(a++, spare_);      // deltas
        kernel_.setArg(a++, counters_);
        kernel_.setArg(a++, cl_ulong(0)); // threshold
        for (int word = 0; word < 4; ++word) // lower, upper, mode, rule_all
            kernel_.setArg(a++, cl_uint(0));
        kernel_.setArg(a++, cl_int(4));   // connectivity
        kernel_.setArg(a++, cl_int(1));   // slice_height
    }

    ResidencyProbe launch(size_t groups)
    {
        cl::CommandQueue& queue = device_.queue();
        queue.enqueueFillBuffer(counters_, cl_uint(0), 0, RGX_COUNTER_WORDS * sizeof(cl_uint));
        cl::Event done;
        queue.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(groups * workGroup_), cl::NDRange(workGroup_),
                                   nullptr, &done);
        cl_uint grid[3] = {};
        queue.enqueueReadBuffer(counters_, CL_TRUE, RGX_COUNTER_GRID * sizeof(cl_uint), sizeof grid, grid);
        ResidencyProbe probe;
        probe.groups = groups;
        probe.resident = grid[RGX_GRID_VERDICT] == RGX_VERDICT_GO;
        const uint64_t start = done.getProfilingInfo<CL_PROFILING_COMMAND_START>();
        const uint64_t end = done.getProfilingInfo<CL_PROFILING_COMMAND_END>();
        probe.milliseconds = end > start ? double(end - start) / 1e6 : 0.0;
        return probe;
    }

private:
    ComputeDevice& device_;
    cl::Kernel kernel_;
    size_t workGroup_;
    cl::Buffer counters_;
    cl::Buffer spare_;
};

// A corridor one pixel wide that snakes down the image row by row (walls on
// the odd rows, a gap at alternate ends): one region-growing level per
// corridor pixel, about size * size / 2 levels of one pixel each, where a
// launch per level costs the most against one launch for many.
LumaImage serpentine(int size)
{
    constexpr uint16_t floor = 200, wall = 40;
    LumaImage image;
    image.width = image.height = size;
    image.luma.assign(size_t(size) * size_t(size), wall);
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
            const bool corridor = y % 2 == 0;
            const bool gap = (y % 4 == 1 && x == size - 1) || (y % 4 == 3 && x == 0);
            if (corridor || gap)
                image.luma[size_t(y) * size_t(size) + size_t(x)] = floor;
        }
    return image;
}

ResidencyRun describeRun(const GrowResult& result, const GrowResult& reference, size_t groups)
{
    ResidencyRun run;
    run.groups = groups;
    run.levels = result.iterations;
    run.note = result.note;
    run.hostMilliseconds = result.hostMilliseconds;
    const ResultDiff diff = compareResults(reference, result);
    run.exact = diff.differingPixels == 0 && result.iterations == reference.iterations;
    uint64_t first = std::numeric_limits<uint64_t>::max(), last = 0;
    bool firstFused = true;
    for (const TimingRecord& record : result.timings) {
        if (record.stage != "grow" || !record.measured)
            continue;
        first = std::min(first, record.queued != 0 ? record.queued : record.start);
        last = std::max(last, record.end);
        if (record.kernel == "grow_levels" || record.kernel == "grow_queue")
            ++run.launches;
        if (record.kernel == "grow_queue")
            run.fellBack = true;
        if (record.kernel == "grow_levels" && firstFused) {
            run.firstLaunchMilliseconds = double(record.duration()) / 1e6;
            firstFused = false;
        }
    }
    run.growMilliseconds = last > first ? double(last - first) / 1e6 : 0.0;
    return run;
}

// fusedGroupCount() of a device that had `units` compute units.
DeviceInfo withFusedGroupsAtLeast(DeviceInfo info, size_t groups)
{
    const size_t perUnit = info.type == "GPU" ? 2 : 1;
    info.computeUnits = uint32_t(std::max<size_t>(2, (groups + perUnit - 1) / perUnit));
    return info;
}

} // namespace

std::string residencyRule()
{
    return "A barrier between the work-groups of one launch deadlocks unless every work-group is resident "
           "at once: a group waiting at the barrier keeps its compute unit, and a group not yet started "
           "waits for one to finish (Sorensen et al., OOPSLA 2016). OpenCL promises no residency, so RGX's "
           "fused launches begin with a roll call: when not every group arrives within a bounded wait, "
           "the launch does nothing and the run goes on with one launch per level, never hanging.";
}

ResidencyResult runResidencyLab(ComputeDevice& device, const ResidencyOptions& options, const RunControl& control)
{
    const DeviceInfo& info = device.info();
    ResidencyResult result;
    result.device = info.name;
    result.deviceType = info.type;
    result.computeUnits = info.computeUnits;
    result.fusedGroups = fusedGroupCount(info);
    const GrowVariant variant = parseVariant(fusedVariantText);
    result.variant = variant.text();
    if (auto reason = whyUnavailable(variant, info))
        throw InputError("the residency lab runs " + result.variant + ", which cannot run on " + info.name + ": " +
                         *reason);
    auto checkCancel = [&](const std::string& when) {
        if (control.cancel && control.cancel->load())
            throw RunInterrupted("the residency lab was cancelled " + when);
    };

    grow::LevelGeometry geometry;
    const BuiltProgram& rgxProgram = grow::levelKernels(device, variant, geometry);
    result.options = rgxProgram.options;
    result.probeOptions = probeOptionsFor(info, rgxProgram.options);
    result.workGroupSize = geometry.workGroup;
    const BuiltProgram& probeProgram = result.probeOptions == result.options
                                           ? rgxProgram
                                           : device.programs().get(result.program, result.probeOptions);
    for (const KernelReport& report : rgxProgram.kernels)
        if (report.kernel == result.kernel) {
            result.localMemoryBytes = report.localMemoryBytes;
            result.registers = report.registers;
        }

    const auto searchStart = Clock::now();
    try {
        RollCall probe(device, probeProgram, geometry.workGroup);
        const size_t units = std::max<size_t>(1, info.computeUnits);
        result.searchCap = options.cap != 0 ? options.cap : std::max<size_t>(256, 64 * units);
        // A count passes once its roll call passes (every group was there);
        // it fails only after `tries` failures, so that a group descheduled
        // on a busy machine does not end the search too low.
        auto resident = [&](size_t groups) {
            for (int attempt = 0; attempt < std::max(1, options.tries); ++attempt) {
                checkCancel("during the search");
                result.probes.push_back(probe.launch(groups));
                if (result.probes.back().resident)
                    return true;
            }
            return false;
        };
        auto outOfTime = [&] { return secondsSince(searchStart) > options.searchSeconds; };
        size_t low = 0, high = 0; // largest resident count, smallest not resident (0: none yet)
        for (size_t groups = 1; high == 0 && low < result.searchCap;
             groups = std::min(groups * 2, result.searchCap)) {
            if (outOfTime())
                break;
            if (resident(groups))
                low = groups;
            else
                high = groups;
        }
        while (high != 0 && high - low > 1 && !outOfTime()) {
            const size_t middle = low + (high - low) / 2;
            if (resident(middle))
                low = middle;
            else
                high = middle;
        }
        result.residentGroups = low;
        result.firstNotResident = high;
        result.searchComplete = high != 0 && high == low + 1;
        if (low == 0)
            throw OpenClError("the roll call of grow_levels failed with a single work-group on " + info.name +
                              ": the device did not run the fused kernel at all");
        if (high == 0 && low >= result.searchCap)
            result.searchNote = "every count up to the cap of " + std::to_string(result.searchCap) +
                                " work-groups was resident; the device keeps at least that many";
        else if (!result.searchComplete)
            result.searchNote = "the search's time limit (" + std::to_string(int(options.searchSeconds)) +
                                " s) ended it between " + std::to_string(low) + " and " +
                                (high != 0 ? std::to_string(high) : std::string("the cap")) + " work-groups";
        result.searchSeconds = secondsSince(searchStart);

        // RGX's own program (its own roll-call wait) with more groups than resident.
        if (high != 0) {
            checkCancel("before the launch with more groups");
            RollCall rgxRollCall(device, rgxProgram, geometry.workGroup);
            result.over = rgxRollCall.launch(high);
        }
    } catch (const cl::Error& error) {
        stage::throwOpenClError("the residency lab's roll call", info.name, error);
    }

    if (!options.runs || result.over.groups == 0)
        return result;
    // What RGX does with such a launch: the fused driver's own runs, once
    // with its group count and once on the same device described with more
    // compute units, so that fusedGroupCount() exceeds what is resident.
    const int size = std::max(8, options.corridorSize);
    const LumaImage image = serpentine(size);
    const std::vector<Seed> seeds = {{0, 0}};
    PipelineParams params;
    params.grow.mode = Mode::Range;
    params.grow.lower = 10;
    params.grow.upper = 10;
    params.grow.connectivity = 4;
    result.runImage = std::to_string(size) + "x" + std::to_string(size) +
                      " serpentine corridor, one seed, mode range, 4-connected";
    const GrowResultPtr reference = runReferencePipeline(image, seeds, params);
    // The median of three runs (a CPU runtime's threads share the machine
    // with everything else), or one where a run takes seconds (a GPU's
    // failed roll call waits that long).
    auto measure = [&](ComputeDevice& on, size_t groups) {
        std::vector<ResidencyRun> runs;
        for (int repeat = 0; repeat < 3; ++repeat) {
            checkCancel("between the region-growing runs");
            runs.push_back(describeRun(*runDevicePipeline(on, image, seeds, params, variant, control), *reference,
                                       groups));
            if (runs.back().hostMilliseconds > 2000)
                break;
        }
        std::sort(runs.begin(), runs.end(), [](const ResidencyRun& a, const ResidencyRun& b) {
            return a.growMilliseconds < b.growMilliseconds;
        });
        ResidencyRun median = runs[runs.size() / 2];
        for (const ResidencyRun& run : runs)
            median.exact = median.exact && run.exact;
        return median;
    };
    checkCancel("before the region-growing runs");
    runDevicePipeline(device, image, seeds, params, variant, control); // builds and warms up
    result.fused = measure(device, result.fusedGroups);
    const DeviceInfo forcedInfo = withFusedGroupsAtLeast(info, result.over.groups);
    ComputeDevice forcedDevice(forcedInfo);
    // Its programs come from the disk cache before the timed runs start.
    grow::LevelGeometry forcedGeometry;
    grow::levelKernels(forcedDevice, variant, forcedGeometry);
    sessionKernels(forcedDevice);
    result.forced = measure(forcedDevice, fusedGroupCount(forcedInfo));
    result.runsDone = true;
    return result;
}

} // namespace rgx
