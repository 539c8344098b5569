// kernels/region_mean.h: a region's mean, floor(256 sum / count), from a
// float quotient corrected by its remainder, equals the exact floor on
// every device, over sums and counts where the float quotient alone is
// off (the ties' levels compare these means, and a mean one off can change
// a tie's label).
#include "Device.h"
#include "EmbeddedKernels.h"

#include <gtest/gtest.h>
#include <algorithm>
#include <random>
#include <string>
#include <vector>

using namespace rgx;

namespace {

const char* meansKernel = R"(
__kernel void means(__global const ulong* sums, __global const uint* counts, __global uint* means)
{
    const size_t i = get_global_id(0);
    means[i] = mean_of(sums[i], counts[i]);
}
)";

} // namespace

TEST(RegionMean, TheCorrectedFloatQuotientIsTheExactFloorOnEveryDevice)
{
    // Sums of `count` 16-bit lumas, up to a 512³ volume's voxels, and the
    // edges: one voxel, every luma the largest, a sum one short of a
    // multiple of the count.
    std::mt19937_64 random(27);
    std::vector<cl_ulong> sums{65535, 0, uint64_t(65535) << 27, (uint64_t(1000) << 20) - 1};
    std::vector<cl_uint> counts{1, 1, 1u << 27, 1u << 20};
    while (sums.size() < 65536) {
        const uint32_t count = 1 + uint32_t(random() % (uint64_t(1) << 27));
        const uint64_t mean = random() % 65536;
        sums.push_back(std::min<uint64_t>(mean * count + random() % count, uint64_t(65535) * count));
        counts.push_back(count);
    }
    std::vector<cl_uint> exact(sums.size());
    size_t floatAloneOff = 0;
    for (size_t i = 0; i < sums.size(); ++i) {
        exact[i] = cl_uint((sums[i] << 8) / counts[i]);
        const float quotient = float(sums[i] << 8) / float(counts[i]);
        floatAloneOff += cl_uint(std::min(quotient, 16777215.0f)) != exact[i] ? 1 : 0;
    }
    ASSERT_GT(floatAloneOff, 1000u) << "the cases must hold quotients that the float alone gets wrong";

    const std::string source = embeddedKernel("region_mean.h") + meansKernel;
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        cl::Program program(device.context(), source);
        try {
            program.build(std::vector<cl::Device>{device.device()});
        } catch (const cl::Error&) {
            FAIL() << info.name << ": " << program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device.device());
        }
        const size_t n = sums.size();
        cl::Buffer sumBuffer(device.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 8, sums.data());
        cl::Buffer countBuffer(device.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, counts.data());
        cl::Buffer meanBuffer(device.context(), CL_MEM_WRITE_ONLY, n * 4);
        cl::Kernel kernel(program, "means");
        kernel.setArg(0, sumBuffer);
        kernel.setArg(1, countBuffer);
        kernel.setArg(2, meanBuffer);
        device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n));
        std::vector<cl_uint> means(n);
        device.queue().enqueueReadBuffer(meanBuffer, CL_TRUE, 0, n * 4, means.data());
        size_t wrong = 0;
        for (size_t i = 0; i < n; ++i)
            if (means[i] != exact[i] && ++wrong <= 3)
                ADD_FAILURE() << info.name << ": mean_of(" << sums[i] << ", " << counts[i] << ") = " << means[i]
                              << ", not " << exact[i];
        EXPECT_EQ(wrong, 0u) << info.name;
    }
}
