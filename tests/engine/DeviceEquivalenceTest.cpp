// Every correct variant on every OpenCL device this machine has equals the
// CPU reference bit for bit (labels, stamps, region sums, iteration count).
#include "DeviceVariants.h"
#include "ResultChecks.h"
#include "TestImages.h"
#include "Device.h"
#include "Pipeline.h"
#include "reference/RegionGrowingReference.h"

#include <gtest/gtest.h>
#include <algorithm>

using namespace rgx;

namespace {

using test::DeviceVariant;
using test::caseName;
using test::correctVariantsOnEveryDevice;

struct Case {
    int width;
    int height;
    test::PixelKind kind;
    int seeds;
};

// Sizes from 1x1 to 1024x768, odd ones among them; the largest with many
// seeds so that the sweep frontier (a full image pass per iteration) stays quick.
const Case cases[] = {
    {1, 1, test::PixelKind::Grey8, 1},       {53, 1, test::PixelKind::Colour8, 3},
    {1, 37, test::PixelKind::Grey16, 2},     {127, 129, test::PixelKind::Colour8, 17},
    {256, 200, test::PixelKind::Grey16, 64}, {95, 61, test::PixelKind::Grey8, 300},
    {301, 7, test::PixelKind::Grey16, 9},    {1024, 768, test::PixelKind::Grey8, 300},
};

class DeviceEquivalence : public testing::TestWithParam<DeviceVariant> {
protected:
    static void SetUpTestSuite() {}
};

TEST_P(DeviceEquivalence, EqualsTheCpuReferenceBitForBit)
{
    const DeviceVariant& param = GetParam();
    ComputeDevice device(param.device);
    // Each variant meets every mode x rule (six cases in a row), with the
    // connectivity and the pairing of sizes to parameters shifted per
    // variant, so that across the variants every combination is met.
    const std::vector<GrowVariant> variants = allVariants();
    const int shift = int(std::find(variants.begin(), variants.end(), param.variant) - variants.begin());
    int index = 0;
    for (const Case& c : cases) {
        const uint32_t caseSeed = 1000u + uint32_t(index);
        const int combination = (index + shift) % 12;
        PipelineParams params;
        params.grow.mode = Mode(combination % 3);
        params.grow.rule = (combination / 3) % 2 ? Rule::All : Rule::Adjacent;
        params.grow.connectivity = (combination / 6) % 2 ? 8 : 4;
        const bool sixteenBit = c.kind == test::PixelKind::Grey16;
        params.grow.tolerance = sixteenBit ? 3000.5 : 12.25;
        params.grow.lower = sixteenBit ? 4000 : 15;
        params.grow.upper = sixteenBit ? 2500 : 10;
        ++index;

        const LumaImage image = test::randomImage(c.width, c.height, c.kind, caseSeed);
        const std::vector<Seed> seeds = test::randomSeeds(c.width, c.height, c.seeds, caseSeed);
        const GrowResultPtr expected = runReferencePipeline(image, seeds, params);
        const GrowResultPtr actual = runDevicePipeline(device, image, seeds, params, param.variant);

        const ResultDiff diff = compareResults(*expected, *actual);
        ASSERT_EQ(diff.differingPixels, 0u)
            << "case seed " << caseSeed << " (" << c.width << "x" << c.height << ", " << c.seeds
            << " seeds, mode " << modeName(params.grow.mode) << ", rule " << ruleName(params.grow.rule)
            << ", connectivity " << params.grow.connectivity << "): first differing pixel ("
            << diff.firstDifferingPixel % c.width << "," << diff.firstDifferingPixel / c.width
            << ") expected label " << expected->labels[size_t(diff.firstDifferingPixel)] << " stamp "
            << expected->stamps[size_t(diff.firstDifferingPixel)] << ", got label "
            << actual->labels[size_t(diff.firstDifferingPixel)] << " stamp "
            << actual->stamps[size_t(diff.firstDifferingPixel)];
        ASSERT_EQ(expected->iterations, actual->iterations) << "case seed " << caseSeed;
        ASSERT_EQ(expected->stoppedAtCap, actual->stoppedAtCap) << "case seed " << caseSeed;
        for (size_t k = 0; k < expected->regions.size(); ++k) {
            ASSERT_EQ(expected->regions[k].count, actual->regions[k].count) << "region " << k + 1 << ", case seed " << caseSeed;
            ASSERT_EQ(expected->regions[k].sum, actual->regions[k].sum) << "region " << k + 1 << ", case seed " << caseSeed;
        }
    }
}

TEST_P(DeviceEquivalence, IterationCapStopsLikeTheReference)
{
    ComputeDevice device(GetParam().device);
    const LumaImage image = test::randomImage(90, 70, test::PixelKind::Grey8, 77);
    PipelineParams params;
    params.grow.maxIterations = 9;
    const std::vector<Seed> seeds = {{0, 0}, {89, 69}};
    const GrowResultPtr expected = runReferencePipeline(image, seeds, params);
    const GrowResultPtr actual = runDevicePipeline(device, image, seeds, params, GetParam().variant);
    EXPECT_TRUE(actual->stoppedAtCap);
    EXPECT_EQ(actual->iterations, 9u);
    EXPECT_EQ(compareResults(*expected, *actual).differingPixels, 0u);
}

TEST_P(DeviceEquivalence, EveryLaunchHasATimingRecord)
{
    ComputeDevice device(GetParam().device);
    const LumaImage image = test::randomImage(40, 40, test::PixelKind::Grey8, 5);
    // Tiles grow mode range (competitive with one region takes its stamps
    // as distances, in one launch).
    const bool tiles = GetParam().variant.fusion == Fusion::Tiles;
    PipelineParams params;
    if (tiles) {
        params.grow.mode = Mode::Range;
        params.grow.lower = params.grow.upper = 255;
    }
    const GrowResultPtr result = runDevicePipeline(device, image, {{20, 20}}, params, GetParam().variant);
    int growLaunches = 0;
    if (GetParam().variant.driver == Driver::DeviceEnqueue) {
        // The device launches the iterations itself: the host sees one
        // command spanning each chain, and says so; the chains cover the
        // run without gaps.
        int next = 1;
        for (const TimingRecord& record : result->timings)
            if (record.kernel == "grow_chain") {
                EXPECT_EQ(record.iteration, next);
                EXPECT_GE(record.lastIteration, record.iteration);
                EXPECT_LT(record.start, record.end);
                EXPECT_NE(record.note.find("not visible to host profiling"), std::string::npos);
                next = record.lastIteration + 1;
            }
        EXPECT_GE(next, int(result->iterations) + 1);
        return;
    }
    if (tiles) {
        // Mode range grows by tiles: rounds of tiles, one
        // launch for many or, after a fallback, one each; a note says which
        // (a round is no iteration: the records carry none; a fused launch
        // whose roll call failed ran none), and together they cover round 1
        // to the last without gaps.
        int next = 1;
        for (const TimingRecord& record : result->timings) {
            if (record.kernel != "grow_tiles")
                continue;
            EXPECT_EQ(record.iteration, -1);
            EXPECT_LT(record.start, record.end);
            if (record.note.rfind("tile rounds ", 0) == 0) {
                EXPECT_EQ(std::stoi(record.note.substr(12)), next) << record.note;
                next = std::stoi(record.note.substr(record.note.find(" to ") + 4)) + 1;
            } else if (record.note.rfind("no tile round", 0) != 0) {
                ASSERT_EQ(record.note.rfind("tile round ", 0), 0u) << record.note;
                EXPECT_EQ(std::stoi(record.note.substr(11)), next) << record.note;
                next = next + 1;
            }
        }
        EXPECT_GT(next, 1);
        // Competitive with one region: one launch of the distances, no round.
        const GrowResultPtr competitive =
            runDevicePipeline(device, image, {{20, 20}}, PipelineParams{}, GetParam().variant);
        EXPECT_EQ(test::commandCount(competitive->timings, "seed_distances"), 1);
        EXPECT_EQ(test::commandCount(competitive->timings, "grow_tiles"), 0);
        return;
    }
    if (GetParam().variant.fusion == Fusion::GridBarrier && result->note.empty()) {
        // One record per launch of many iterations; its note says which,
        // and together they cover the run without gaps.
        uint32_t next = 1;
        for (const TimingRecord& record : result->timings) {
            if (record.kernel != "grow_levels")
                continue;
            EXPECT_EQ(record.iteration, int(next));
            EXPECT_LT(record.start, record.end);
            EXPECT_GE(record.lastIteration, record.iteration);
            EXPECT_EQ(record.note.rfind("iterations " + std::to_string(next) + " to " +
                                            std::to_string(record.lastIteration), 0), 0u) << record.note;
            next = uint32_t(record.lastIteration) + 1;
        }
        EXPECT_GE(next, result->iterations + 1);
        return;
    }
    for (const TimingRecord& record : result->timings) {
        EXPECT_TRUE(record.measured) << record.kernel;
        EXPECT_LE(record.queued, record.submit) << record.kernel;
        EXPECT_LE(record.start, record.end) << record.kernel;
        if (record.kernel == "grow_queue" || record.kernel == "grow_sweep") {
            ++growLaunches;
            EXPECT_GE(record.iteration, 1);
        }
        // A fused run that fell back partway (its note says so: a work-group
        // came late to the grid barrier, seen on Intel's runtime under
        // AddressSanitizer) has fused launches of several iterations before
        // its one-iteration launches: each covers its iterations.
        if (record.kernel == "grow_levels" && record.lastIteration >= record.iteration) {
            growLaunches += record.lastIteration - record.iteration + 1;
            EXPECT_GE(record.iteration, 1);
        }
    }
    EXPECT_GE(growLaunches, int(result->iterations)) << result->note;
}

// Only the box of the classified pixels comes back from the device; the
// other pixels must read label 0 and stamp "never" all the same. A band of
// rows 28 to 33 in a 70 x 64 image is the only region range mode can grow.
TEST(PartialDownload, RowsWithoutClassifiedPixelsAreUnclassified)
{
    LumaImage image;
    image.width = 70;
    image.height = 64;
    image.luma.assign(size_t(image.width) * image.height, 200);
    for (int y = 28; y <= 33; ++y)
        for (int x = 0; x < image.width; ++x)
            image.luma[size_t(y) * image.width + x] = uint16_t(100 + (x % 3));
    PipelineParams params;
    params.grow.mode = Mode::Range;
    params.grow.lower = 2;
    params.grow.upper = 2;
    const std::vector<Seed> seeds = {{10, 30}};
    const GrowResult expected = growRegionsReference(image.luma, image.width, image.height, seeds, params.grow);
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        for (const char* variant : {"driver=host-sync", "frontier=sweep,tile=direct"}) {
            const GrowResultPtr result = runDevicePipeline(device, image, seeds, params, parseVariant(variant));
            EXPECT_EQ(compareResults(expected, *result).differingPixels, 0u) << info.name << " " << variant;
            EXPECT_EQ(result->stamps.front(), unclassifiedStamp);
            EXPECT_EQ(result->stamps.back(), unclassifiedStamp);
            EXPECT_EQ(result->labels.back(), 0);
            bool summarized = false;
            for (const TimingRecord& record : result->timings)
                summarized = summarized || record.kernel == "summarize";
            EXPECT_TRUE(summarized);
        }
    }
}

// fusion=grid-barrier really runs many iterations per launch where the
// work-groups are resident together: Intel's CPU runtime (set up on every CI
// machine) runs them on its thread pool at once. Elsewhere the roll call
// may fall back, which the equivalence tests above cover.
TEST(GridBarrier, RunsManyIterationsPerLaunchOnIntelsCpuRuntime)
{
    bool found = false;
    for (const DeviceInfo& info : listDevices()) {
        if (info.platformName.find("Intel") == std::string::npos)
            continue;
        found = true;
        ComputeDevice device(info);
        const LumaImage image = test::randomImage(200, 150, test::PixelKind::Grey8, 11);
        PipelineParams params;
        const std::vector<Seed> seeds = {{100, 75}, {3, 3}};
        const GrowResultPtr result = runDevicePipeline(device, image, seeds, params,
                                                       parseVariant("collectives=local,fusion=grid-barrier"));
        EXPECT_EQ(result->note, "");
        const GrowResult expected = growRegionsReference(image.luma, image.width, image.height, seeds, params.grow);
        EXPECT_EQ(compareResults(expected, *result).differingPixels, 0u);
        int launches = 0;
        for (const TimingRecord& record : result->timings) {
            EXPECT_NE(record.kernel, "grow_queue");
            launches += record.kernel == "grow_levels" ? 1 : 0;
        }
        // Batches of 32, 64, 128, ... iterations.
        EXPECT_GE(result->iterations, 150u);
        EXPECT_LE(launches, 4);
    }
    if (!found)
        GTEST_SKIP() << "Intel's CPU runtime is not registered (scripts/setup.sh installs it)";
}

INSTANTIATE_TEST_SUITE_P(AllDevices, DeviceEquivalence, testing::ValuesIn(correctVariantsOnEveryDevice()),
                         caseName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(DeviceEquivalence);

} // namespace
