// Small helpers shared by the stages: launch sizes, the work-group a built
// kernel can really take, the read-back a filter stage ends with, and
// turning OpenCL failures into OpenClError.
#pragma once

#include "Errors.h"
#include "OpenCl.h"
#include "ProgramCache.h"
#include <chrono>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

namespace rgx {
class TimingLog;
}

namespace rgx::stage {

inline size_t largestPowerOfTwoAtMost(size_t value)
{
    size_t power = 1;
    while (power * 2 <= value)
        power *= 2;
    return power;
}

inline size_t roundUp(size_t value, size_t multiple)
{
    return (value + multiple - 1) / multiple * multiple;
}

// CL_KERNEL_WORK_GROUP_SIZE of one kernel of a program; 0 where unknown.
inline size_t workGroupLimit(const BuiltProgram& built, const std::string& kernel)
{
    for (const KernelReport& report : built.kernels)
        if (report.kernel == kernel)
            return report.workGroupSizeLimit;
    return 0;
}

// One output of a stage to read back: the whole of `buffer` into `host`
// (as many bytes as the vector holds), recorded as `name` ("read:...").
struct ReadBack {
    template <typename T>
    ReadBack(const cl::Buffer& buffer, std::vector<T>& host, const char* name)
        : buffer(buffer), host(host.data()), bytes(host.size() * sizeof(T)), name(name)
    {
    }
    const cl::Buffer& buffer;
    void* host;
    size_t bytes;
    const char* name;
};

// The tail every filter stage ends with: its outputs read back (recorded
// under stage "download"), then a wait for the queue, so that the host
// vectors hold the result when it returns. Throws cl::Error.
void readBackAndWait(cl::CommandQueue& queue, TimingLog& timings, std::initializer_list<ReadBack> outputs);

inline double millisecondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

[[noreturn]] inline void throwOpenClError(const std::string& what, const std::string& device,
                                          const cl::Error& error)
{
    throw OpenClError(what + " failed on " + device + ": " + error.what() + " returned " +
                          openClErrorName(error.err()),
                      error.err());
}

} // namespace rgx::stage
