// Small helpers shared by the filter stages: launch sizes, the work-group a
// built kernel can really take, and turning OpenCL failures into OpenClError.
#pragma once

#include "Errors.h"
#include "OpenCl.h"
#include "ProgramCache.h"
#include <cstddef>
#include <string>

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

[[noreturn]] inline void throwOpenClError(const std::string& what, const std::string& device,
                                          const cl::Error& error)
{
    throw OpenClError(what + " failed on " + device + ": " + error.what() + " returned " +
                          openClErrorName(error.err()),
                      error.err());
}

} // namespace rgx::stage
