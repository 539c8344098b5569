// Host side of gaussian:R: the weights, buffers and one launch.
#include "Gaussian.h"
#include "Device.h"
#include "Errors.h"
#include "PipelineParams.h"
#include "StageSupport.h"
#include "TimingLog.h"

#include <chrono>
#include <sstream>

namespace rgx {
namespace {

constexpr const char* programFile = "gaussian.cl";

std::string buildOptions(const DeviceInfo& device, size_t tileWidth, size_t tileHeight)
{
    std::ostringstream options;
    options << device.openClCStandardOption(false) << " -DRGX_TILE_W=" << tileWidth
            << " -DRGX_TILE_H=" << tileHeight << " -DRGX_MAX_RADIUS=" << maxGaussianRadius;
    return options.str();
}

} // namespace

std::vector<uint32_t> binomialWeights(int radius)
{
    // C(n, j) = C(n, j - 1) * (n - j + 1) / j, exact at every step.
    const uint64_t n = uint64_t(2 * radius);
    std::vector<uint32_t> weights(size_t(n + 1));
    uint64_t value = 1;
    for (uint64_t j = 0; j <= n; ++j) {
        weights[size_t(j)] = uint32_t(value);
        value = value * (n - j) / (j + 1);
    }
    return weights;
}

Gaussian::Gaussian(ComputeDevice& device, int radius, GaussianVariant variant)
    : device_(device), radius_(radius), variant_(variant)
{
    if (radius < 1 || radius > maxGaussianRadius)
        throw InputError("gaussian radius " + std::to_string(radius) + " is outside 1.." +
                         std::to_string(maxGaussianRadius) +
                         " (the exact weighted sums of 16-bit luma must fit in 64 bits)");
    const DeviceInfo& info = device.info();
    while (tileWidth_ * tileHeight_ > info.maxWorkGroupSize && tileHeight_ > 1)
        tileHeight_ /= 2;
    built_ = &device.programs().get(programFile, buildOptions(info, tileWidth_, tileHeight_));
    const size_t limit = stage::workGroupLimit(*built_, "gaussian_async_halo");
    if (limit && limit < tileWidth_ * tileHeight_) {
        while (tileWidth_ * tileHeight_ > limit && tileHeight_ > 1)
            tileHeight_ /= 2;
        built_ = &device.programs().get(programFile, buildOptions(info, tileWidth_, tileHeight_));
    }
}

std::vector<uint16_t> Gaussian::run(const std::vector<uint16_t>& luma, int width, int height,
                                    TimingLog& timings)
{
    const DeviceInfo& info = device_.info();
    const size_t pixelCount = size_t(width) * size_t(height);
    if (pixelCount * 2 > info.maxAllocationBytes)
        throw InputError("the " + std::to_string(width) + "x" + std::to_string(height) +
                         " image is larger than " + info.name + " allows per buffer");
    const std::vector<uint32_t> weights = binomialWeights(radius_);

    const auto start = std::chrono::steady_clock::now();
    std::vector<uint16_t> filtered(pixelCount);
    try {
        cl::Context& context = device_.context();
        cl::CommandQueue& queue = device_.queue();
        cl::Buffer lumaBuffer(context, CL_MEM_READ_ONLY, pixelCount * 2);
        cl::Buffer weightBuffer(context, CL_MEM_READ_ONLY, weights.size() * 4);
        cl::Buffer filteredBuffer(context, CL_MEM_WRITE_ONLY, pixelCount * 2);
        queue.enqueueWriteBuffer(lumaBuffer, CL_FALSE, 0, pixelCount * 2, luma.data(), nullptr,
                                 timings.track("upload", "write:prefilter_luma"));
        queue.enqueueWriteBuffer(weightBuffer, CL_FALSE, 0, weights.size() * 4, weights.data(), nullptr,
                                 timings.track("upload", "write:gaussian_weights"));

        const std::string kernelName = gaussianKernel(variant_);
        cl::Kernel kernel(built_->program, kernelName.c_str());
        kernel.setArg(0, lumaBuffer);
        kernel.setArg(1, cl_int(width));
        kernel.setArg(2, cl_int(height));
        kernel.setArg(3, cl_int(radius_));
        kernel.setArg(4, weightBuffer);
        kernel.setArg(5, filteredBuffer);
        if (variant_ == GaussianVariant::Direct)
            queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(size_t(width), size_t(height)),
                                       cl::NullRange, nullptr, timings.track("prefilter", kernelName));
        else
            queue.enqueueNDRangeKernel(kernel, cl::NullRange,
                                       cl::NDRange(stage::roundUp(size_t(width), tileWidth_),
                                                   stage::roundUp(size_t(height), tileHeight_)),
                                       cl::NDRange(tileWidth_, tileHeight_), nullptr,
                                       timings.track("prefilter", kernelName));

        stage::readBackAndWait(queue, timings, {{filteredBuffer, filtered, "read:filtered_luma"}});
    } catch (const cl::Error& error) {
        stage::throwOpenClError("the gaussian prefilter", info.name, error);
    }
    lastMilliseconds_ = stage::millisecondsSince(start);
    return filtered;
}

} // namespace rgx
