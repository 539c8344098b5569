// The launch floor and the grid barrier floor of a device.
#include "Floors.h"
#include "Device.h"
#include "Errors.h"
#include "grow_counters.h"
#include "stages/grow/GrowPrograms.h"
#include "stages/StageSupport.h"

#include <algorithm>
#include <chrono>

namespace rgx::bench {
namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

uint64_t durationNs(const cl::Event& event)
{
    return event.getProfilingInfo<CL_PROFILING_COMMAND_END>() - event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
}

} // namespace

LaunchFloor measureLaunchFloor(ComputeDevice& device, int repeat)
{
    LaunchFloor floor;
    floor.launches = 1000;
    try {
        const BuiltProgram& built = device.programs().get("empty.cl", device.info().openClCStandardOption(false));
        cl::Kernel empty(built.program, "empty");
        cl::Buffer word(device.context(), CL_MEM_READ_WRITE, 4);
        empty.setArg(0, word);
        cl::CommandQueue& queue = device.queue();
        uint32_t value = 0;
        for (int i = 0; i < 20; ++i) // first launches pay for lazy set-up
            queue.enqueueNDRangeKernel(empty, cl::NullRange, cl::NDRange(1), cl::NullRange);
        queue.finish();
        std::vector<double> pipelined, blocking;
        for (int r = 0; r < repeat; ++r) {
            auto start = Clock::now();
            for (int i = 0; i < floor.launches; ++i)
                queue.enqueueNDRangeKernel(empty, cl::NullRange, cl::NDRange(1), cl::NullRange);
            queue.finish();
            pipelined.push_back(millisecondsSince(start) * 1000.0 / floor.launches);
            start = Clock::now();
            for (int i = 0; i < floor.launches; ++i) {
                queue.enqueueNDRangeKernel(empty, cl::NullRange, cl::NDRange(1), cl::NullRange);
                queue.enqueueReadBuffer(word, CL_TRUE, 0, 4, &value);
            }
            blocking.push_back(millisecondsSince(start) * 1000.0 / floor.launches);
        }
        floor.pipelinedUs = spreadOf(pipelined);
        floor.blockingUs = spreadOf(blocking);
    } catch (const cl::Error& error) {
        stage::throwOpenClError("measuring the launch floor", device.info().name, error);
    }
    return floor;
}

GridBarrierFloor measureGridBarrierFloor(ComputeDevice& device, int repeat)
{
    GridBarrierFloor floor;
    floor.barriers = 2000;
    const DeviceInfo& info = device.info();
    const size_t workGroup = stage::largestPowerOfTwoAtMost(std::min<size_t>(256, info.maxWorkGroupSize));
    floor.groups = int(std::max<uint32_t>(1, info.computeUnits));
    floor.fusedGroups = int(fusedGroupCount(info));
    try {
        const BuiltProgram& built =
            device.programs().get("grid_barrier_floor.cl", info.openClCStandardOption(false) + gridBarrierOptions(info));
        cl::Kernel kernel(built.program, "grid_barriers");
        cl::Buffer grid(device.context(), CL_MEM_READ_WRITE, 3 * 4);
        kernel.setArg(0, grid);
        cl::CommandQueue& queue = device.queue();
        // One launch of `barriers` barriers on `groups` work-groups, in ns;
        // nothing when the roll call found them not all resident.
        auto launch = [&](int groups, uint32_t barriers) -> std::optional<uint64_t> {
            queue.enqueueFillBuffer(grid, cl_uint(0), 0, 3 * 4);
            kernel.setArg(1, cl_uint(barriers));
            cl::Event done;
            queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(size_t(groups) * workGroup),
                                       cl::NDRange(workGroup), nullptr, &done);
            uint32_t words[3] = {};
            queue.enqueueReadBuffer(grid, CL_TRUE, 0, sizeof words, words);
            if (words[RGX_GRID_VERDICT] != RGX_VERDICT_GO || words[RGX_GRID_RELEASED] == RGX_BARRIER_STALLED)
                return std::nullopt;
            return durationNs(done);
        };
        auto measure = [&](int groups) -> std::optional<Spread> {
            launch(groups, 16); // warm-up
            std::vector<double> perBarrier;
            for (int r = 0; r < repeat; ++r) {
                const auto none = launch(groups, 0);
                const auto many = launch(groups, uint32_t(floor.barriers));
                if (!none || !many)
                    return std::nullopt;
                perBarrier.push_back(double(*many > *none ? *many - *none : 0) / 1000.0 / floor.barriers);
            }
            return spreadOf(perBarrier);
        };
        floor.us = measure(floor.groups);
        floor.fusedUs = floor.fusedGroups == floor.groups ? floor.us : measure(floor.fusedGroups);
        if (!floor.us || !floor.fusedUs)
            floor.whyNot = "the work-groups of the barrier kernel did not all run at once on " + info.name;
    } catch (const cl::Error& error) {
        stage::throwOpenClError("measuring the grid barrier floor", info.name, error);
    }
    return floor;
}

} // namespace rgx::bench
