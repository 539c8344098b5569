// Host side of boxmean:W: buffers, the integral image, one launch of the
// variant's kernel.
#include "BoxMean.h"
#include "Device.h"
#include "Errors.h"
#include "PipelineParams.h"
#include "StageSupport.h"
#include "TimingLog.h"

#include <algorithm>
#include <chrono>
#include <sstream>

namespace rgx {
namespace {

constexpr const char* programFile = "box_mean.cl";

std::string buildOptions(const DeviceInfo& device, BoxMeanVariant variant, size_t scanGroup,
                         size_t segment)
{
    std::ostringstream options;
    options << device.openClCStandardOption(false) << " -DRGX_COLLECTIVES=1"
            << " -DRGX_WG_SIZE=" << scanGroup << " -DRGX_SEGMENT=" << segment
            << " -DRGX_MAX_WINDOW=" << maxBoxMeanWindow << boxMeanDefines(variant);
    return options.str();
}

} // namespace

BoxMean::BoxMean(ComputeDevice& device, int window, BoxMeanVariant variant)
    : device_(device), window_(window), variant_(variant)
{
    if (window < 1 || window > maxBoxMeanWindow)
        throw InputError("boxmean window " + std::to_string(window) + " is outside 1.." +
                         std::to_string(maxBoxMeanWindow) +
                         " (larger windows could overflow the 32-bit integral image)");
    const DeviceInfo& info = device.info();
    scanGroup_ = stage::largestPowerOfTwoAtMost(std::min<size_t>(256, info.maxWorkGroupSize));
    segment_ = scanGroup_;
    built_ = &device.programs().get(programFile, buildOptions(info, variant, scanGroup_, segment_));
    // A kernel may take fewer work-items than the device (registers): shrink and rebuild.
    const size_t scanLimit = stage::workGroupLimit(*built_, "integral_rows");
    const size_t segmentLimit = stage::workGroupLimit(*built_, "box_mean_async");
    if ((scanLimit && scanLimit < scanGroup_) || (segmentLimit && segmentLimit < segment_)) {
        if (scanLimit)
            scanGroup_ = std::min(scanGroup_, stage::largestPowerOfTwoAtMost(scanLimit));
        if (segmentLimit)
            segment_ = std::min(segment_, stage::largestPowerOfTwoAtMost(segmentLimit));
        built_ = &device.programs().get(programFile, buildOptions(info, variant, scanGroup_, segment_));
    }
}

std::vector<uint16_t> BoxMean::run(const std::vector<uint16_t>& luma, int width, int height,
                                   TimingLog& timings)
{
    const DeviceInfo& info = device_.info();
    const size_t pixelCount = size_t(width) * size_t(height);
    // Integral columns: pixel x reads x and x + W (see integral_image.h).
    const size_t pitch = stage::roundUp(size_t(width), 8) + size_t(window_);
    const uint64_t integralBytes = uint64_t(height + 1) * pitch * 4;
    if (integralBytes > info.maxAllocationBytes || integralBytes / 4 >= 0xFFFFFFFFull)
        throw InputError("the " + std::to_string(width) + "x" + std::to_string(height) +
                         " image needs a " + std::to_string(integralBytes / (1024 * 1024)) +
                         " MiB integral image for boxmean; " + info.name + " allows at most " +
                         std::to_string(info.maxAllocationBytes / (1024 * 1024)) + " MiB per buffer");

    const auto start = std::chrono::steady_clock::now();
    std::vector<uint16_t> filtered(pixelCount);
    try {
        cl::Context& context = device_.context();
        cl::CommandQueue& queue = device_.queue();
        cl::Buffer lumaBuffer(context, CL_MEM_READ_ONLY, pixelCount * 2);
        cl::Buffer integral(context, CL_MEM_READ_WRITE, integralBytes);
        cl::Buffer filteredBuffer(context, CL_MEM_WRITE_ONLY, pixelCount * 2);
        queue.enqueueWriteBuffer(lumaBuffer, CL_FALSE, 0, pixelCount * 2, luma.data(), nullptr,
                                 timings.track("upload", "write:prefilter_luma"));

        cl::Kernel rows(built_->program, "integral_rows");
        rows.setArg(0, lumaBuffer);
        rows.setArg(1, cl_int(width));
        rows.setArg(2, cl_int(0));
        rows.setArg(3, cl_int(0));
        rows.setArg(4, cl_int(width));
        rows.setArg(5, cl_uint(0)); // the values themselves, not a mask
        rows.setArg(6, integral);
        rows.setArg(7, cl_int(pitch));
        rows.setArg(8, cl_int(window_ / 2));
        queue.enqueueNDRangeKernel(rows, cl::NullRange, cl::NDRange(scanGroup_, size_t(height)),
                                   cl::NDRange(scanGroup_, 1), nullptr,
                                   timings.track("prefilter", "integral_rows"));

        cl::Kernel columns(built_->program, "integral_columns");
        columns.setArg(0, integral);
        columns.setArg(1, cl_int(pitch));
        columns.setArg(2, cl_int(height));
        queue.enqueueNDRangeKernel(columns, cl::NullRange, cl::NDRange(pitch), cl::NullRange, nullptr,
                                   timings.track("prefilter", "integral_columns"));

        const std::string kernelName = boxMeanKernel(variant_);
        cl::Kernel mean(built_->program, kernelName.c_str());
        mean.setArg(0, integral);
        mean.setArg(1, cl_int(pitch));
        mean.setArg(2, cl_int(width));
        mean.setArg(3, cl_int(height));
        mean.setArg(4, cl_int(window_));
        mean.setArg(5, filteredBuffer);
        if (variant_ == BoxMeanVariant::Direct)
            queue.enqueueNDRangeKernel(mean, cl::NullRange, cl::NDRange(size_t(width), size_t(height)),
                                       cl::NullRange, nullptr, timings.track("prefilter", kernelName));
        else
            queue.enqueueNDRangeKernel(mean, cl::NullRange,
                                       cl::NDRange(stage::roundUp(size_t(width), segment_), size_t(height)),
                                       cl::NDRange(segment_, 1), nullptr, timings.track("prefilter", kernelName));

        stage::readBackAndWait(queue, timings, {{filteredBuffer, filtered, "read:filtered_luma"}});
    } catch (const cl::Error& error) {
        stage::throwOpenClError("the boxmean prefilter", info.name, error);
    }
    lastMilliseconds_ = stage::millisecondsSince(start);
    return filtered;
}

} // namespace rgx
