// Every correct variant of every filter stage, on every OpenCL device this
// machine has, equals its CPU reference bit for bit (docs/STAGES.md); the
// pipeline runs the stages around region growing like the reference
// pipeline; the wrong-on-purpose variant is wrong for its documented input.
#include "StageTestInputs.h"
#include "TestImages.h"
#include "Device.h"
#include "Pipeline.h"
#include "reference/BoxMeanReference.h"
#include "reference/DensityFilterReference.h"
#include "reference/GaussianReference.h"
#include "stages/BoxMean.h"
#include "stages/DensityFilter.h"
#include "stages/Gaussian.h"
#include "stages/StageVariants.h"
#include "stages/TimingLog.h"

#include <gtest/gtest.h>
#include <algorithm>
#include <random>

using namespace rgx;

namespace {

struct DeviceStageVariant {
    DeviceInfo device;
    StageVariantInfo variant;
};

// Shown by gtest and CTest instead of a byte dump of the parameter.
void PrintTo(const DeviceStageVariant& value, std::ostream* out)
{
    *out << value.device.id() << " " << value.device.name << " " << value.variant.stage << ":"
         << value.variant.name;
}

std::vector<DeviceStageVariant> correctStageVariantsOnEveryDevice()
{
    std::vector<DeviceStageVariant> cases;
    for (const DeviceInfo& device : listDevices())
        for (const StageVariantInfo& variant : stageVariants())
            if (!variant.wrongOnPurpose)
                cases.push_back({device, variant});
    return cases;
}

std::string caseName(const testing::TestParamInfo<DeviceStageVariant>& info)
{
    std::string name = info.param.device.platformName.substr(0, 12) + "_" + info.param.variant.stage +
                       "_" + info.param.variant.name;
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)))
            c = '_';
    return name;
}

struct Size {
    int width;
    int height;
};

// 1x1, single rows and columns, odd sizes, rows longer than one scan
// work-group (256), images smaller than most windows, and a few random sizes.
std::vector<Size> testSizes()
{
    std::vector<Size> sizes = {{1, 1},     {1, 37},   {53, 1},  {2, 2},    {17, 13},   {64, 48},
                               {127, 129}, {33, 250}, {301, 7}, {513, 20}, {200, 150}, {7, 300}};
    std::mt19937 rng(2026);
    for (int i = 0; i < 4; ++i)
        sizes.push_back({1 + int(rng() % 400), 1 + int(rng() % 300)});
    return sizes;
}

std::string where(int64_t index, int width)
{
    return "(" + std::to_string(index % width) + "," + std::to_string(index / width) + ")";
}

// A window or radius for case `index`: small, even and odd, and larger than the image.
int pickSize(std::mt19937& rng, int index, const Size& size, int largest)
{
    const int span = std::max(size.width, size.height);
    switch (index % 4) {
    case 0: return std::min(largest, 1 + int(rng() % 6));
    case 1: return std::min(largest, 2 * span + 1 + int(rng() % 3)); // larger than the image
    default: return std::min(largest, 1 + int(rng() % uint32_t(std::min(2 * span + 4, largest))));
    }
}

class StageEquivalence : public testing::TestWithParam<DeviceStageVariant> {};

TEST_P(StageEquivalence, EqualsTheCpuReferenceBitForBit)
{
    const DeviceStageVariant& param = GetParam();
    const std::string& stage = param.variant.stage;
    ComputeDevice device(param.device);
    int index = 0;
    for (const Size& size : testSizes()) {
        const uint32_t caseSeed = 5000u + uint32_t(index);
        std::mt19937 rng(caseSeed);
        const test::PixelKind kind = index % 2 ? test::PixelKind::Grey16 : test::PixelKind::Grey8;
        const std::string label = "case seed " + std::to_string(caseSeed) + " (" + std::to_string(size.width) +
                                  "x" + std::to_string(size.height) + ", " +
                                  (kind == test::PixelKind::Grey16 ? "16" : "8") + "-bit";
        TimingLog timings;
        if (stage == "boxmean" || stage == "gaussian") {
            const LumaImage image = test::randomImage(size.width, size.height, kind, caseSeed);
            std::vector<uint16_t> expected, actual;
            int parameter = 0;
            if (stage == "boxmean") {
                parameter = pickSize(rng, index, size, maxBoxMeanWindow);
                expected = boxMeanReference(image.luma, size.width, size.height, parameter);
                BoxMean filter(device, parameter, parseBoxMeanVariant(param.variant.name));
                actual = filter.run(image.luma, size.width, size.height, timings);
            } else {
                parameter = pickSize(rng, index, size, maxGaussianRadius);
                expected = gaussianReference(image.luma, size.width, size.height, parameter);
                Gaussian filter(device, parameter, parseGaussianVariant(param.variant.name));
                actual = filter.run(image.luma, size.width, size.height, timings);
            }
            const int64_t first = test::firstDifference(expected, actual);
            ASSERT_EQ(first, -1) << label << ", " << stage << ":" << parameter << "): "
                                 << test::countDifferences(expected, actual)
                                 << " pixels differ, the first at " << where(first, size.width)
                                 << ": expected " << expected[size_t(first)] << ", got "
                                 << actual[size_t(first)];
        } else {
            const int regions = 1 + int(rng() % 12);
            test::LabelMap expected = test::randomLabelMap(size.width, size.height, regions, caseSeed);
            test::LabelMap actual = expected;
            const int window = pickSize(rng, index, size, 1000);
            const int minimum = int(rng() % uint32_t(std::min(window * window, 4 * window) + 2));
            densityFilterReference(expected.labels, expected.stamps, size.width, size.height, window, minimum);
            DensityFilter filter(device, window, minimum, parseDensityVariant(param.variant.name));
            filter.run(actual.labels, actual.stamps, size.width, size.height, timings);
            const int64_t first = test::firstDifference(expected.labels, actual.labels);
            ASSERT_EQ(first, -1) << label << ", " << regions << " regions, density:" << window << ":"
                                 << minimum << "): " << test::countDifferences(expected.labels, actual.labels)
                                 << " labels differ, the first at " << where(first, size.width)
                                 << ": expected " << expected.labels[size_t(first)] << ", got "
                                 << actual.labels[size_t(first)];
            ASSERT_EQ(test::firstDifference(expected.stamps, actual.stamps), -1) << label << ")";
        }
        ++index;
    }
}

// The extremes: all-white 16-bit luma with the largest window (a box sum
// just below 2^32) and the largest radius (a gaussian sum near 2^64) must
// come back white; a window far larger than the image counts the whole
// region (exactly MIN pixels: kept; one more needed: removed).
TEST_P(StageEquivalence, LargestWindowsAreExact)
{
    const DeviceStageVariant& param = GetParam();
    ComputeDevice device(param.device);
    const int width = 300, height = 270;
    const size_t pixels = size_t(width) * height;
    TimingLog timings;
    if (param.variant.stage == "density") {
        for (const int minimum : {int(pixels), int(pixels) + 1}) {
            std::vector<uint16_t> labels(pixels, 1);
            std::vector<uint32_t> stamps(pixels, 7);
            DensityFilter filter(device, 100000, minimum, parseDensityVariant(param.variant.name));
            filter.run(labels, stamps, width, height, timings);
            const uint16_t expected = minimum == int(pixels) ? 1 : 0;
            EXPECT_EQ(size_t(std::count(labels.begin(), labels.end(), expected)), pixels) << "minimum " << minimum;
        }
        return;
    }
    const std::vector<uint16_t> white(pixels, 65535);
    std::vector<uint16_t> filtered;
    if (param.variant.stage == "boxmean") {
        BoxMean filter(device, maxBoxMeanWindow, parseBoxMeanVariant(param.variant.name));
        filtered = filter.run(white, width, height, timings);
    } else {
        Gaussian filter(device, maxGaussianRadius, parseGaussianVariant(param.variant.name));
        filtered = filter.run(white, width, height, timings);
    }
    EXPECT_EQ(test::firstDifference(white, filtered), -1);
}

TEST_P(StageEquivalence, PipelineWithTheStageEqualsTheReferencePipeline)
{
    const DeviceStageVariant& param = GetParam();
    ComputeDevice device(param.device);
    const LumaImage image = test::randomImage(97, 61, test::PixelKind::Grey16, 42);
    const std::vector<Seed> seeds = test::randomSeeds(image.width, image.height, 6, 42);
    PipelineParams params;
    params.grow.mode = Mode::Adaptive;
    params.grow.tolerance = 4000;
    if (param.variant.stage == "boxmean")
        params.prefilter = {PrefilterSpec::Kind::BoxMean, 4, param.variant.name};
    else
        params.prefilter = {PrefilterSpec::Kind::Gaussian, 2,
                            param.variant.stage == "gaussian" ? param.variant.name : std::string()};
    params.postfilter = {true, 5, 9, param.variant.stage == "density" ? param.variant.name : std::string()};

    const GrowResultPtr expected = runReferencePipeline(image, seeds, params);
    const GrowResultPtr actual =
        runDevicePipeline(device, image, seeds, params, parseVariant("driver=host-batched,frontier=queue"));
    ASSERT_TRUE(expected->filteredLuma && actual->filteredLuma);
    EXPECT_EQ(test::firstDifference(*expected->filteredLuma, *actual->filteredLuma), -1);
    EXPECT_EQ(test::firstDifference(expected->labelsBeforePostfilter, actual->labelsBeforePostfilter), -1);
    const ResultDiff diff = compareResults(*expected, *actual);
    EXPECT_EQ(diff.differingPixels, 0u) << "first at " << where(diff.firstDifferingPixel, image.width);
    EXPECT_EQ(expected->iterations, actual->iterations);
    ASSERT_EQ(expected->regions.size(), actual->regions.size());
    for (size_t k = 0; k < expected->regions.size(); ++k) {
        EXPECT_EQ(expected->regions[k].count, actual->regions[k].count) << "region " << k + 1;
        EXPECT_EQ(expected->regions[k].sum, actual->regions[k].sum) << "region " << k + 1;
    }
    // The filter really removed something, so the comparison means something.
    EXPECT_NE(test::firstDifference(actual->labelsBeforePostfilter, actual->labels), -1);
}

TEST_P(StageEquivalence, StageLaunchesAreTimedAndItsKernelsReported)
{
    const DeviceStageVariant& param = GetParam();
    ComputeDevice device(param.device);
    const LumaImage image = test::randomImage(40, 30, test::PixelKind::Grey8, 9);
    PipelineParams params;
    std::string stageName = "prefilter";
    std::string kernel;
    if (param.variant.stage == "boxmean") {
        params.prefilter = {PrefilterSpec::Kind::BoxMean, 3, param.variant.name};
        kernel = boxMeanKernel(parseBoxMeanVariant(param.variant.name));
    } else if (param.variant.stage == "gaussian") {
        params.prefilter = {PrefilterSpec::Kind::Gaussian, 1, param.variant.name};
        kernel = gaussianKernel(parseGaussianVariant(param.variant.name));
    } else {
        params.postfilter = {true, 3, 2, param.variant.name};
        stageName = "postfilter";
        kernel = densityKernel(parseDensityVariant(param.variant.name));
    }
    const GrowResultPtr result = runDevicePipeline(device, image, {{20, 15}, {3, 3}}, params, GrowVariant{});
    int launches = 0;
    for (const TimingRecord& record : result->timings) {
        EXPECT_TRUE(record.measured) << record.kernel;
        EXPECT_LE(record.start, record.end) << record.kernel;
        if (record.stage == stageName && record.kernel == kernel)
            ++launches;
    }
    EXPECT_GE(launches, 1) << "no " << stageName << " record of " << kernel;
    const auto reported = std::find_if(result->kernels.begin(), result->kernels.end(),
                                       [&](const KernelReport& report) { return report.kernel == kernel; });
    ASSERT_NE(reported, result->kernels.end()) << kernel << " missing from the kernel report";
    EXPECT_GT(reported->workGroupSizeLimit, 0u);
}

INSTANTIATE_TEST_SUITE_P(AllDevices, StageEquivalence,
                         testing::ValuesIn(correctStageVariantsOnEveryDevice()), caseName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(StageEquivalence);

// docs/STAGES.md, "The documented input": coins.png through boxmean:5 on
// PoCL. Without the barrier, the bottom corner row overwrites the top one
// while (on PoCL: before) the other work-items read it.
std::vector<uint16_t> boxMeanOnPocl(BoxMeanVariant variant, const LumaImage& image)
{
    ComputeDevice device(selectDevice("pocl"));
    BoxMean filter(device, 5, variant);
    TimingLog timings;
    return filter.run(image.luma, image.width, image.height, timings);
}

TEST(StagesWrongOnPurpose, BoxMeanAsyncNoBarrierIsWrongOnPocl)
{
    const LumaImage image = loadLumaImage(QStringLiteral(RGX_SAMPLES_DIR "/coins.png"));
    const std::vector<uint16_t> expected = boxMeanReference(image.luma, image.width, image.height, 5);
    const uint64_t differing = test::countDifferences(expected, boxMeanOnPocl(BoxMeanVariant::AsyncNoBarrier, image));
    std::cout << "boxmean:5:async-nobarrier on PoCL, coins.png: " << differing << " of "
              << image.pixelCount() << " pixels differ from the reference\n";
    EXPECT_GT(differing, image.pixelCount() / 2);
}

TEST(StagesWrongOnPurpose, TheCorrectTwinMatchesOnTheSameInput)
{
    const LumaImage image = loadLumaImage(QStringLiteral(RGX_SAMPLES_DIR "/coins.png"));
    const std::vector<uint16_t> expected = boxMeanReference(image.luma, image.width, image.height, 5);
    EXPECT_EQ(test::countDifferences(expected, boxMeanOnPocl(BoxMeanVariant::Async, image)), 0u);
}

} // namespace
