// Host side of density:W:MIN: the bounding box of every region, then per
// region the integral count image of its mask and one launch of the variant.
#include "DensityFilter.h"
#include "Device.h"
#include "Errors.h"
#include "StageSupport.h"
#include "TimingLog.h"

#include <algorithm>
#include <chrono>
#include <sstream>

namespace rgx {
namespace {

constexpr const char* programFile = "density_filter.cl";

std::string buildOptions(const DeviceInfo& device, size_t scanGroup)
{
    std::ostringstream options;
    options << device.openClCStandardOption(false) << " -DRGX_COLLECTIVES=1"
            << " -DRGX_WG_SIZE=" << scanGroup;
    return options.str();
}

struct Box {
    int x0 = 0, y0 = 0, x1 = -1, y1 = -1; // inclusive; empty while x1 < x0
    bool empty() const { return x1 < x0; }
    int width() const { return x1 - x0 + 1; }
    int height() const { return y1 - y0 + 1; }
};

// Bounding box of every label present (index = label; 0 unused).
std::vector<Box> regionBoxes(const std::vector<uint16_t>& labels, int width, int height)
{
    uint16_t largest = 0;
    for (uint16_t label : labels)
        largest = std::max(largest, label);
    std::vector<Box> boxes(size_t(largest) + 1);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const uint16_t label = labels[size_t(y) * size_t(width) + size_t(x)];
            if (label == 0)
                continue;
            Box& box = boxes[label];
            if (box.empty()) {
                box = {x, y, x, y};
            } else {
                box.x0 = std::min(box.x0, x);
                box.x1 = std::max(box.x1, x);
                box.y0 = std::min(box.y0, y);
                box.y1 = std::max(box.y1, y);
            }
        }
    return boxes;
}

} // namespace

DensityFilter::DensityFilter(ComputeDevice& device, int window, int minimum, DensityVariant variant)
    : device_(device), window_(window), minimum_(minimum), variant_(variant)
{
    if (window < 1)
        throw InputError("density window " + std::to_string(window) + " must be at least 1");
    if (minimum < 0)
        throw InputError("density minimum " + std::to_string(minimum) + " must not be negative");
    const DeviceInfo& info = device.info();
    scanGroup_ = stage::largestPowerOfTwoAtMost(std::min<size_t>(256, info.maxWorkGroupSize));
    built_ = &device.programs().get(programFile, buildOptions(info, scanGroup_));
    const size_t limit = stage::workGroupLimit(*built_, "integral_rows");
    if (limit && limit < scanGroup_) {
        scanGroup_ = stage::largestPowerOfTwoAtMost(limit);
        built_ = &device.programs().get(programFile, buildOptions(info, scanGroup_));
    }
}

void DensityFilter::run(std::vector<uint16_t>& labels, std::vector<uint32_t>& stamps, int width,
                        int height, TimingLog& timings, const std::atomic<bool>* cancel)
{
    const DeviceInfo& info = device_.info();
    const size_t pixelCount = size_t(width) * size_t(height);
    // A window reaching past the image on both sides of every pixel counts
    // the same as any larger one: keep the integral image small.
    const int window = int(std::min<int64_t>(window_, 2 * int64_t(std::max(width, height)) + 1));
    const std::vector<Box> boxes = regionBoxes(labels, width, height);
    uint64_t integralEntries = 1;
    for (const Box& box : boxes)
        if (!box.empty())
            integralEntries = std::max<uint64_t>(
                integralEntries, uint64_t(box.height() + 1) * (stage::roundUp(size_t(box.width()), 8) + size_t(window)));
    if (integralEntries * 4 > info.maxAllocationBytes || pixelCount * 4 > info.maxAllocationBytes)
        throw InputError("the " + std::to_string(width) + "x" + std::to_string(height) +
                         " image needs a " + std::to_string(integralEntries * 4 / (1024 * 1024)) +
                         " MiB integral image for the density filter; " + info.name +
                         " allows at most " + std::to_string(info.maxAllocationBytes / (1024 * 1024)) +
                         " MiB per buffer");

    const auto start = std::chrono::steady_clock::now();
    try {
        cl::Context& context = device_.context();
        cl::CommandQueue& queue = device_.queue();
        cl::Buffer labelsIn(context, CL_MEM_READ_ONLY, pixelCount * 2);
        cl::Buffer labelsOut(context, CL_MEM_READ_WRITE, pixelCount * 2);
        cl::Buffer stampBuffer(context, CL_MEM_READ_WRITE, pixelCount * 4);
        cl::Buffer integral(context, CL_MEM_READ_WRITE, integralEntries * 4);
        queue.enqueueWriteBuffer(labelsIn, CL_FALSE, 0, pixelCount * 2, labels.data(), nullptr,
                                 timings.track("upload", "write:postfilter_labels"));
        queue.enqueueWriteBuffer(stampBuffer, CL_FALSE, 0, pixelCount * 4, stamps.data(), nullptr,
                                 timings.track("upload", "write:postfilter_stamps"));
        // Decisions read the labels before the filter; removals go to the copy.
        queue.enqueueCopyBuffer(labelsIn, labelsOut, 0, 0, pixelCount * 2, nullptr,
                                timings.track("postfilter", "copy:labels"));

        cl::Kernel rows(built_->program, "integral_rows");
        rows.setArg(0, labelsIn);
        rows.setArg(1, cl_int(width));
        rows.setArg(6, integral);
        rows.setArg(8, cl_int(window / 2));
        cl::Kernel columns(built_->program, "integral_columns");
        columns.setArg(0, integral);
        const std::string kernelName = densityKernel(variant_);
        cl::Kernel counts(built_->program, kernelName.c_str());
        counts.setArg(0, integral);
        counts.setArg(6, cl_int(window));
        counts.setArg(7, cl_int(width));
        counts.setArg(9, cl_uint(minimum_));
        counts.setArg(10, labelsIn);
        counts.setArg(11, labelsOut);
        counts.setArg(12, stampBuffer);
        const size_t pixelsPerItem = variant_ == DensityVariant::Scalar ? 1 : 8;

        for (size_t region = 1; region < boxes.size(); ++region) {
            const Box& box = boxes[region];
            if (box.empty())
                continue;
            if (cancel && cancel->load()) {
                queue.finish(); // nothing may still write into labels and stamps
                throw RunInterrupted("cancelled in the density postfilter");
            }
            const size_t pitch = stage::roundUp(size_t(box.width()), 8) + size_t(window);
            rows.setArg(2, cl_int(box.x0));
            rows.setArg(3, cl_int(box.y0));
            rows.setArg(4, cl_int(box.width()));
            rows.setArg(5, cl_uint(region)); // the mask label == region
            rows.setArg(7, cl_int(pitch));
            queue.enqueueNDRangeKernel(rows, cl::NullRange, cl::NDRange(scanGroup_, size_t(box.height())),
                                       cl::NDRange(scanGroup_, 1), nullptr,
                                       timings.track("postfilter", "integral_rows"));
            columns.setArg(1, cl_int(pitch));
            columns.setArg(2, cl_int(box.height()));
            queue.enqueueNDRangeKernel(columns, cl::NullRange, cl::NDRange(pitch), cl::NullRange, nullptr,
                                       timings.track("postfilter", "integral_columns"));
            counts.setArg(1, cl_int(pitch));
            counts.setArg(2, cl_int(box.x0));
            counts.setArg(3, cl_int(box.y0));
            counts.setArg(4, cl_int(box.width()));
            counts.setArg(5, cl_int(box.height()));
            counts.setArg(8, cl_uint(region));
            const size_t items = (size_t(box.width()) + pixelsPerItem - 1) / pixelsPerItem;
            queue.enqueueNDRangeKernel(counts, cl::NullRange, cl::NDRange(items, size_t(box.height())),
                                       cl::NullRange, nullptr, timings.track("postfilter", kernelName));
        }

        stage::readBackAndWait(queue, timings,
                               {{labelsOut, labels, "read:filtered_labels"}, {stampBuffer, stamps, "read:filtered_stamps"}});
    } catch (const cl::Error& error) {
        stage::throwOpenClError("the density postfilter", info.name, error);
    }
    lastMilliseconds_ = stage::millisecondsSince(start);
}

} // namespace rgx
