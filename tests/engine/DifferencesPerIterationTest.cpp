// The corruption as it happens: how many pixels differ from the CPU reference
// at each iteration (ResultDiff::perIteration), checked against a replay of
// both runs' frames one by one (SPEC.md: frame k is every pixel with stamp
// <= k in its region), and the corruption view's frame k lighting exactly
// the pixels that differ at k.
#include "Device.h"
#include "Image.h"
#include "Overlay.h"
#include "Pipeline.h"
#include "TestImages.h"
#include "TestVolumes.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

using namespace rgx;

namespace {

// The label of pixel p in frame k of a run, replayed from its maps.
uint16_t stateAt(const GrowResult& result, size_t p, uint32_t k)
{
    return result.stamps[p] <= k ? result.labels[p] : 0;
}

// Pixels whose frame-k states differ, for every k up to `last`, the slow way.
std::vector<uint64_t> replayedCounts(const GrowResult& expected, const GrowResult& actual, uint32_t last)
{
    std::vector<uint64_t> counts(size_t(last) + 1, 0);
    for (uint32_t k = 0; k <= last; ++k)
        for (size_t p = 0; p < expected.labels.size(); ++p)
            counts[k] += stateAt(expected, p, k) != stateAt(actual, p, k) ? 1 : 0;
    return counts;
}

std::string firstMismatch(const std::vector<uint64_t>& expected, const std::vector<uint64_t>& actual)
{
    for (size_t k = 0; k < std::min(expected.size(), actual.size()); ++k)
        if (expected[k] != actual[k])
            return "iteration " + std::to_string(k) + ": replayed " + std::to_string(expected[k]) + ", counted " +
                   std::to_string(actual[k]);
    return "lengths " + std::to_string(expected.size()) + " and " + std::to_string(actual.size());
}

void expectCountsOfReplay(const GrowResult& expected, const GrowResult& actual, const std::string& what)
{
    const ResultDiff diff = compareResults(expected, actual);
    const uint32_t last = std::max(expected.iterations, actual.iterations);
    const std::vector<uint64_t> replayed = replayedCounts(expected, actual, last);
    ASSERT_EQ(diff.perIteration, replayed) << what << ": " << firstMismatch(replayed, diff.perIteration);
    // The first iteration with a count is the first differing iteration.
    int64_t first = -1;
    for (size_t k = 0; k < replayed.size() && first < 0; ++k)
        first = replayed[k] > 0 ? int64_t(k) : -1;
    EXPECT_EQ(diff.firstDifferingIteration, first) << what;
}

// Random maps of a finished run: label 0 exactly where the stamp is "never".
GrowResult randomRun(int width, int height, uint32_t iterations, std::mt19937& rng)
{
    GrowResult run;
    run.width = width;
    run.height = height;
    run.iterations = iterations;
    run.regions.resize(3);
    for (int p = 0; p < width * height; ++p) {
        const bool classified = rng() % 5 != 0;
        run.labels.push_back(classified ? uint16_t(1 + rng() % 3) : 0);
        run.stamps.push_back(classified ? rng() % (iterations + 1) : unclassifiedStamp);
    }
    return run;
}

// The same run with some pixels changed in the ways a lost barrier changes
// them: another stamp, another label, never classified, or classified.
GrowResult damaged(GrowResult run, std::mt19937& rng)
{
    for (size_t p = 0; p < run.labels.size(); ++p) {
        switch (rng() % 8) {
        case 0: run.stamps[p] = run.labels[p] ? rng() % (run.iterations + 1) : run.stamps[p]; break;
        case 1: run.labels[p] = run.labels[p] ? uint16_t(1 + run.labels[p] % 3) : 0; break;
        case 2: run.labels[p] = 0; run.stamps[p] = unclassifiedStamp; break;
        case 3:
            if (!run.labels[p]) {
                run.labels[p] = uint16_t(1 + rng() % 3);
                run.stamps[p] = rng() % (run.iterations + 1);
            }
            break;
        default: break;
        }
    }
    return run;
}

TEST(DifferencesPerIteration, EqualRunsDifferNowhere)
{
    std::mt19937 rng(7);
    const GrowResult run = randomRun(9, 7, 6, rng);
    const ResultDiff diff = compareResults(run, run);
    EXPECT_EQ(diff.perIteration, std::vector<uint64_t>(7, 0));
    EXPECT_EQ(diff.firstDifferingIteration, -1);
}

TEST(DifferencesPerIteration, AStampAloneDiffersBetweenTheTwoStamps)
{
    // One pixel of region 1, classified at 2 by the reference and at 5 by the run.
    GrowResult expected;
    expected.width = 1;
    expected.height = 1;
    expected.labels = {1};
    expected.stamps = {2};
    expected.iterations = 5;
    GrowResult actual = expected;
    actual.stamps = {5};
    const ResultDiff diff = compareResults(expected, actual);
    EXPECT_EQ(diff.perIteration, (std::vector<uint64_t>{0, 0, 1, 1, 1, 0}));
    EXPECT_EQ(diff.mask, std::vector<uint8_t>{stampDifference});
}

TEST(DifferencesPerIteration, AnotherLabelDiffersFromTheEarlierStampOn)
{
    GrowResult expected;
    expected.width = 2;
    expected.height = 1;
    expected.labels = {1, 2};
    expected.stamps = {3, 1};
    expected.iterations = 4;
    GrowResult actual = expected;
    actual.labels = {2, 0};             // another region at the same stamp; never classified
    actual.stamps = {3, unclassifiedStamp};
    const ResultDiff diff = compareResults(expected, actual);
    EXPECT_EQ(diff.perIteration, (std::vector<uint64_t>{0, 1, 1, 2, 2}));
    EXPECT_EQ(diff.mask, (std::vector<uint8_t>{labelDifference, labelDifference}));
}

TEST(DifferencesPerIteration, RandomDamageCountsAsItsReplay)
{
    for (uint32_t seed = 1; seed <= 20; ++seed) {
        std::mt19937 rng(seed);
        const uint32_t iterations = 1 + rng() % 12;
        const GrowResult expected = randomRun(1 + int(rng() % 17), 1 + int(rng() % 13), iterations, rng);
        GrowResult actual = damaged(expected, rng);
        // A wrong run may also stop earlier or later than the reference.
        actual.iterations = iterations + rng() % 3;
        expectCountsOfReplay(expected, actual, "seed " + std::to_string(seed));
    }
}

TEST(DifferencesPerIteration, AStampPastBothRunsIsNeverReached)
{
    GrowResult expected;
    expected.width = 2;
    expected.height = 1;
    expected.labels = {1, 1};
    expected.stamps = {1, 2};
    expected.iterations = 2;
    GrowResult actual = expected;
    actual.stamps = {1, 0x7FFFFFFFu}; // what a race may write
    expectCountsOfReplay(expected, actual, "a stamp past the last iteration");
}

// The corruption view's frame k: the magenta pixels are those that differ at k.
TEST(DifferencesPerIteration, TheCorruptionViewLightsThePixelsThatDifferAtEachFrame)
{
    std::mt19937 rng(11);
    const GrowResult expected = randomRun(12, 10, 8, rng);
    const GrowResult actual = damaged(expected, rng);
    const ResultDiff diff = compareResults(expected, actual);
    QImage base(12, 10, QImage::Format_Grayscale8);
    base.fill(0);
    ViewLayers layers;
    layers.regions = false;
    layers.baseDivisor = 3;
    layers.differences = &diff.mask;
    layers.referenceStamps = &expected.stamps;
    const QRgb magenta = qRgb(191, 0, 191);
    for (uint32_t k = 0; k < expected.iterations; ++k) {
        OverlayStyle style;
        style.frame = k;
        QImage out(12, 10, QImage::Format_RGB32);
        renderOverlayView(base, &actual, style, layers, QRectF(0, 0, 12, 10), out);
        for (int y = 0; y < 10; ++y)
            for (int x = 0; x < 12; ++x) {
                const size_t p = size_t(y) * 12 + size_t(x);
                EXPECT_EQ(out.pixel(x, y) == magenta, stateAt(expected, p, k) != stateAt(actual, p, k))
                    << "frame " << k << ", pixel " << x << "," << y;
            }
    }
}

// Every wrong-on-purpose variant PoCL runs, on the bundled coins image cut
// down to a small size, and on a small volume: the counts are the replay's,
// and where the variant corrupts, the chart has a first differing iteration.
LumaImage smallCoins()
{
    const LumaImage coins = loadLumaImage(QStringLiteral(RGX_SAMPLES_DIR "/coins.png"));
    LumaImage cut;
    cut.width = 128;
    cut.height = 96;
    cut.bitDepth = coins.bitDepth;
    for (int y = 0; y < cut.height; ++y)
        for (int x = 0; x < cut.width; ++x)
            cut.luma.push_back(coins.at(x + 60, y + 60));
    return cut;
}

std::vector<GrowVariant> wrongVariantsOn(const DeviceInfo& info)
{
    std::vector<GrowVariant> wrong;
    for (const GrowVariant& variant : allVariants())
        if (variant.wrongOnPurpose() && !whyUnavailable(variant, info))
            wrong.push_back(variant);
    return wrong;
}

TEST(DifferencesPerIteration, EveryWrongVariantOnPoclCountsAsItsReplay)
{
    const DeviceInfo info = selectDevice("Portable Computing Language");
    ComputeDevice device(info);
    const LumaImage image = smallCoins();
    const std::vector<Seed> seeds = {{5, 5}, {60, 40}, {110, 80}};
    const PipelineParams params;
    const GrowResultPtr expected = runReferencePipeline(image, seeds, params);
    const std::vector<GrowVariant> wrong = wrongVariantsOn(info);
    ASSERT_FALSE(wrong.empty());
    uint64_t corrupted = 0;
    for (const GrowVariant& variant : wrong) {
        const GrowResultPtr actual = runDevicePipeline(device, image, seeds, params, variant);
        expectCountsOfReplay(*expected, *actual, variant.text());
        corrupted += compareResults(*expected, *actual).differingPixels;
    }
    EXPECT_GT(corrupted, 0u) << "no wrong variant corrupted the image: the counts were not put to the test";
    // The box mean's wrong-on-purpose prefilter, under a correct growing.
    PipelineParams filtered;
    filtered.prefilter = parsePrefilter("boxmean:5:async-nobarrier");
    PipelineParams correctFilter = filtered;
    correctFilter.prefilter = parsePrefilter("boxmean:5");
    const GrowResultPtr filteredExpected = runReferencePipeline(image, seeds, correctFilter);
    const GrowResultPtr filteredActual = runDevicePipeline(device, image, seeds, filtered, GrowVariant());
    expectCountsOfReplay(*filteredExpected, *filteredActual, "boxmean:5:async-nobarrier");
}

TEST(DifferencesPerIteration, AWrongVariantOnAVolumeCountsAsItsReplay)
{
    const DeviceInfo info = selectDevice("Portable Computing Language");
    ComputeDevice device(info);
    const LumaImage volume = test::randomVolume(32, 32, 10, false, 5);
    const std::vector<Seed> seeds = test::randomVoxelSeeds(32, 32, 10, 6, 5);
    PipelineParams params;
    params.grow.connectivity = 6;
    const GrowResultPtr expected = runReferencePipeline(volume, seeds, params);
    uint64_t corrupted = 0;
    for (const char* text : {"driver=host-batched,frontier=queue,collectives=local-nobarrier",
                             "driver=host-batched,frontier=sweep,collectives=atomics,tile=async-nobarrier"}) {
        const GrowResultPtr actual = runDevicePipeline(device, volume, seeds, params, parseVariant(text));
        expectCountsOfReplay(*expected, *actual, text);
        corrupted += compareResults(*expected, *actual).differingPixels;
    }
    // Not a test of equal runs alone: the volume run differs somewhere.
    EXPECT_GT(corrupted, 0u);
}

} // namespace
