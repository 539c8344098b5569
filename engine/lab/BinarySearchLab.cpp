// Host side of the binary-search lab: buffers, the round loop per driver.
#include "BinarySearchLab.h"
#include "Device.h"
#include "Errors.h"
#include "stages/StageSupport.h"
#include "stages/TimingLog.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <sstream>

namespace rgx {

std::vector<uint32_t> makeSortedValues(size_t size, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::vector<uint32_t> values(size);
    uint32_t value = 10;
    for (uint32_t& v : values) {
        // Steps of 0 (repeats) to 6 (gaps) keep every kind of key meaningful.
        value += rng() % 7;
        v = value;
    }
    return values;
}

std::vector<uint32_t> makeSearchKeys(size_t count, const std::vector<uint32_t>& values, uint32_t seed)
{
    std::mt19937 rng(seed);
    const uint32_t top = values.empty() ? 100 : values.back() + 20;
    std::vector<uint32_t> keys(count);
    for (size_t i = 0; i < count; ++i) {
        if (i % 3 == 0 && !values.empty())
            keys[i] = values[rng() % values.size()]; // present
        else
            keys[i] = rng() % top;                   // anything, below and above included
    }
    return keys;
}

std::vector<uint32_t> lowerBoundsReference(const std::vector<uint32_t>& values,
                                           const std::vector<uint32_t>& keys)
{
    std::vector<uint32_t> positions;
    positions.reserve(keys.size());
    for (uint32_t key : keys)
        positions.push_back(uint32_t(std::lower_bound(values.begin(), values.end(), key) - values.begin()));
    return positions;
}

BinarySearchResult runBinarySearchLab(ComputeDevice& device, const std::vector<uint32_t>& values,
                                      const std::vector<uint32_t>& keys, Driver driver,
                                      const RunControl& control)
{
    const DeviceInfo& info = device.info();
    if (values.empty() || keys.empty())
        throw InputError("the binary-search lab needs --size >= 1 and --keys >= 1");
    if (driver == Driver::DeviceEnqueue && !info.deviceEnqueue)
        throw InputError("driver device-enqueue cannot run on " + info.name +
                         ": needs device-side enqueue (OpenCL C 2.0, or the 3.0 feature "
                         "__opencl_c_device_enqueue); this device has " + info.openClCVersion);
    if (values.size() * 4 > info.maxAllocationBytes || values.size() >= 0xFFFFFFFFull)
        throw InputError("an array of " + std::to_string(values.size()) + " values does not fit in one buffer of " + info.name);

    const size_t chunks = stage::largestPowerOfTwoAtMost(std::min<size_t>(64, info.maxWorkGroupSize));
    const bool deviceEnqueue = driver == Driver::DeviceEnqueue;
    std::ostringstream options;
    options << info.openClCStandardOption(deviceEnqueue) << " -DRGX_CHUNKS=" << chunks
            << " -DRGX_DEVICE_ENQUEUE=" << (deviceEnqueue ? 1 : 0);
    const BuiltProgram& built = device.programs().get("binary_search.cl", options.str());

    BinarySearchResult result;
    result.chunksPerKey = chunks;
    result.device = info.name;
    result.variant = "driver=" + driverName(driver);
    TimingLog timings;
    const auto hostStart = std::chrono::steady_clock::now();
    const size_t keyCount = keys.size();
    try {
        cl::Context& context = device.context();
        cl::CommandQueue& queue = device.queue();
        cl::Buffer valueBuffer(context, CL_MEM_READ_ONLY, values.size() * 4);
        cl::Buffer keyBuffer(context, CL_MEM_READ_ONLY, keyCount * 4);
        cl::Buffer rangeBuffers[2] = {cl::Buffer(context, CL_MEM_READ_WRITE, keyCount * 8),
                                      cl::Buffer(context, CL_MEM_READ_WRITE, keyCount * 8)};
        cl::Buffer counterBuffer(context, CL_MEM_READ_WRITE, 3 * 4);
        std::vector<cl_uint> ranges(2 * keyCount);
        for (size_t k = 0; k < keyCount; ++k) {
            ranges[2 * k] = 0;
            ranges[2 * k + 1] = cl_uint(values.size());
        }
        std::vector<cl_uint> counters(3, 0);
        queue.enqueueWriteBuffer(valueBuffer, CL_FALSE, 0, values.size() * 4, values.data(), nullptr, timings.track("upload", "write:values"));
        queue.enqueueWriteBuffer(keyBuffer, CL_FALSE, 0, keyCount * 4, keys.data(), nullptr, timings.track("upload", "write:keys"));
        queue.enqueueWriteBuffer(rangeBuffers[0], CL_FALSE, 0, keyCount * 8, ranges.data(), nullptr, timings.track("upload", "write:ranges"));
        queue.enqueueWriteBuffer(counterBuffer, CL_FALSE, 0, 3 * 4, counters.data(), nullptr, timings.track("upload", "write:counters"));

        auto readCounters = [&](int round) {
            queue.enqueueReadBuffer(counterBuffer, CL_TRUE, 0, 3 * 4, counters.data(), nullptr,
                                    timings.track("search", "read:counters", round));
        };
        uint32_t last = 0;
        if (deviceEnqueue) {
            device.deviceQueue();
            cl::Kernel chain(built.program, "search_chain");
            chain.setArg(0, valueBuffer);
            chain.setArg(1, cl_uint(values.size()));
            chain.setArg(2, keyBuffer);
            chain.setArg(3, cl_uint(keyCount));
            chain.setArg(4, rangeBuffers[0]);
            chain.setArg(5, rangeBuffers[1]);
            chain.setArg(6, counterBuffer);
            queue.enqueueNDRangeKernel(chain, cl::NullRange, cl::NDRange(1), cl::NullRange, nullptr,
                                       timings.track("search", "search_chain", -1, true));
            queue.finish();
            readCounters(-1);
            last = counters[2];
        } else {
            cl::Kernel round(built.program, "search_round");
            round.setArg(1, valueBuffer);
            round.setArg(2, cl_uint(values.size()));
            round.setArg(3, keyBuffer);
            round.setArg(4, cl_uint(keyCount));
            round.setArg(7, counterBuffer);
            const auto start = std::chrono::steady_clock::now();
            // Each round divides the live range by the chunk count: this many always suffice.
            uint32_t enough = 1;
            for (uint64_t span = values.size() + 1; span > 1; span = (span + chunks - 1) / chunks)
                ++enough;
            uint32_t batch = driver == Driver::HostSync ? 1 : enough;
            bool open = true;
            while (open) {
                if (control.cancel && control.cancel->load())
                    throw RunInterrupted("cancelled after " + std::to_string(last) + " rounds");
                if (control.timeoutSeconds > 0 &&
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > control.timeoutSeconds)
                    throw RunInterrupted("stopped after " + std::to_string(last) + " rounds: time limit exceeded");
                for (uint32_t j = 0; j < batch; ++j) {
                    ++last;
                    round.setArg(0, cl_uint(last));
                    round.setArg(5, rangeBuffers[(last - 1) & 1]);
                    round.setArg(6, rangeBuffers[last & 1]);
                    queue.enqueueNDRangeKernel(round, cl::NullRange, cl::NDRange(keyCount * chunks),
                                               cl::NDRange(chunks), nullptr,
                                               timings.track("search", "search_round", int(last)));
                }
                readCounters(int(last));
                open = counters[last & 1] != 0 && last < enough + 1;
                if (control.progress)
                    control.progress(last, counters[last & 1]);
            }
        }
        // The answers sit in the buffer the last round wrote.
        queue.enqueueReadBuffer(rangeBuffers[last & 1], CL_TRUE, 0, keyCount * 8, ranges.data(), nullptr,
                                timings.track("download", "read:ranges"));
        result.positions.resize(keyCount);
        for (size_t k = 0; k < keyCount; ++k)
            result.positions[k] = ranges[2 * k];
        result.rounds = last;
    } catch (const cl::Error& error) {
        stage::throwOpenClError("the binary-search lab", info.name, error);
    }
    result.hostMilliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - hostStart).count();
    result.timings = timings.records();
    return result;
}

} // namespace rgx
