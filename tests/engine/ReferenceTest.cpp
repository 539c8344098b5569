// The CPU reference against SPEC.md's consequences and hand-checked cases.
#include "TestImages.h"
#include "TestParams.h"
#include "Errors.h"
#include "reference/RegionGrowingReference.h"

#include <gtest/gtest.h>
#include <stack>

using namespace rgx;

namespace {

// An independent flood fill with a fixed range around the seed value.
std::vector<uint8_t> stackFill(const LumaImage& image, Seed seed, uint32_t lower, uint32_t upper,
                               int connectivity)
{
    const int dx[8] = {-1, 1, 0, 0, -1, 1, -1, 1};
    const int dy[8] = {0, 0, -1, 1, -1, -1, 1, 1};
    std::vector<uint8_t> filled(image.luma.size(), 0);
    const int64_t s = image.at(seed.x, seed.y);
    std::stack<Seed> todo;
    todo.push(seed);
    filled[size_t(seed.y) * image.width + seed.x] = 1;
    while (!todo.empty()) {
        const Seed p = todo.top();
        todo.pop();
        for (int d = 0; d < connectivity; ++d) {
            const int x = p.x + dx[d], y = p.y + dy[d];
            if (x < 0 || y < 0 || x >= image.width || y >= image.height)
                continue;
            const size_t i = size_t(y) * image.width + x;
            const int64_t v = image.luma[i];
            if (!filled[i] && v >= s - int64_t(lower) && v <= s + int64_t(upper)) {
                filled[i] = 1;
                todo.push({x, y});
            }
        }
    }
    return filled;
}

} // namespace

TEST(Reference, RangeModeWithOneSeedEqualsFloodFill)
{
    for (uint32_t caseSeed = 1; caseSeed <= 24; ++caseSeed) {
        const int width = 1 + int(caseSeed * 37 % 97), height = 1 + int(caseSeed * 53 % 89);
        const auto kind = caseSeed % 2 ? test::PixelKind::Grey8 : test::PixelKind::Grey16;
        const LumaImage image = test::randomImage(width, height, kind, caseSeed);
        const Seed seed = test::randomSeeds(width, height, 1, caseSeed)[0];
        const uint32_t range = kind == test::PixelKind::Grey8 ? 20 : 5000;
        const int connectivity = caseSeed % 3 ? 4 : 8;
        const GrowResult result = growRegionsReference(image.luma, width, height, {seed},
                                                       test::rangeParams(range, range / 2, connectivity));
        const std::vector<uint8_t> expected = stackFill(image, seed, range, range / 2, connectivity);
        for (size_t p = 0; p < expected.size(); ++p)
            ASSERT_EQ(expected[p], result.labels[p])
                << "case seed " << caseSeed << ", pixel (" << p % width << "," << p / width << ")";
    }
}

TEST(Reference, PixelReachedByTwoRegionsInOneIterationGoesToTheSmallerLabelOnATie)
{
    // 3x1: seeds at both ends with the same luma; the middle pixel is equally
    // far from both means, so it joins region 1.
    const std::vector<uint16_t> luma = {10, 20, 30};
    const GrowResult result = growRegionsReference(luma, 3, 1, {{2, 0}, {0, 0}}, GrowParams{});
    // Seed 1 is at x=2 (luma 30), seed 2 at x=0 (luma 10): distance 10 each.
    EXPECT_EQ(result.labels[1], 1);
    EXPECT_EQ(result.stamps[1], 1u);
    EXPECT_EQ(result.iterations, 1u);
}

TEST(Reference, CompetitiveTakesTheNearestMeanAmongAdjacentRegions)
{
    const std::vector<uint16_t> luma = {10, 28, 30};
    const GrowResult result = growRegionsReference(luma, 3, 1, {{0, 0}, {2, 0}}, GrowParams{});
    EXPECT_EQ(result.labels[1], 2);
    EXPECT_EQ(result.regions[1].count, 2u);
    EXPECT_EQ(result.regions[1].sum, 58u);
}

TEST(Reference, SeedRegionFillsTheWholeImage)
{
    const LumaImage image = test::randomImage(31, 17, test::PixelKind::Grey8, 7);
    GrowParams params; // competitive with one seed accepts every candidate
    const GrowResult result = growRegionsReference(image.luma, 31, 17, {{30, 16}}, params);
    EXPECT_TRUE(std::all_of(result.labels.begin(), result.labels.end(), [](uint16_t l) { return l == 1; }));
    EXPECT_EQ(result.regions[0].count, 31u * 17u);
    // Chebyshev/Manhattan distance from the corner seed is the stamp.
    EXPECT_EQ(result.stamps[0], 30u + 16u);
    EXPECT_EQ(result.iterations, 46u);
}

TEST(Reference, OnePixelWideImageGrowsAlongTheLine)
{
    const std::vector<uint16_t> luma(50, 5);
    const GrowResult result = growRegionsReference(luma, 1, 50, {{0, 0}, {0, 49}}, GrowParams{});
    EXPECT_EQ(result.iterations, 24u);
    for (int y = 0; y < 50; ++y)
        EXPECT_EQ(result.labels[size_t(y)], y < 25 ? 1 : 2) << "y=" << y;
}

TEST(Reference, AdaptiveRejectsPixelsBeyondTheTolerance)
{
    const std::vector<uint16_t> luma = {100, 103, 110, 100};
    GrowParams params;
    params.mode = Mode::Adaptive;
    params.tolerance = 5;
    const GrowResult result = growRegionsReference(luma, 4, 1, {{0, 0}}, params);
    EXPECT_EQ(result.labels[1], 1);
    EXPECT_EQ(result.labels[2], 0); // |110*256 - mean| > 5*256
    EXPECT_EQ(result.stamps[2], unclassifiedStamp);
    EXPECT_EQ(result.labels[3], 0); // never reached
}

TEST(Reference, IterationCapStopsTheRunAndSaysSo)
{
    const std::vector<uint16_t> luma(100, 1);
    GrowParams params;
    params.maxIterations = 5;
    const GrowResult result = growRegionsReference(luma, 100, 1, {{0, 0}}, params);
    EXPECT_EQ(result.iterations, 5u);
    EXPECT_TRUE(result.stoppedAtCap);
    EXPECT_EQ(result.labels[6], 0);
}

TEST(Reference, SeedsAtCornersAndEdges)
{
    const LumaImage image = test::randomImage(40, 30, test::PixelKind::Grey8, 3);
    const std::vector<Seed> seeds = {{0, 0}, {39, 0}, {0, 29}, {39, 29}, {20, 0}, {0, 15}};
    const GrowResult result = growRegionsReference(image.luma, 40, 30, seeds, GrowParams{});
    for (size_t k = 0; k < seeds.size(); ++k) {
        const size_t p = size_t(seeds[k].y) * 40 + size_t(seeds[k].x);
        EXPECT_EQ(result.labels[p], k + 1);
        EXPECT_EQ(result.stamps[p], 0u);
    }
    EXPECT_TRUE(std::all_of(result.labels.begin(), result.labels.end(), [](uint16_t l) { return l != 0; }));
}

TEST(Reference, InvalidSeedsAreInputErrors)
{
    const std::vector<uint16_t> luma(16, 0);
    EXPECT_THROW(growRegionsReference(luma, 4, 4, {{4, 0}}, GrowParams{}), InputError);
    EXPECT_THROW(growRegionsReference(luma, 4, 4, {{1, 1}, {1, 1}}, GrowParams{}), InputError);
    EXPECT_THROW(growRegionsReference(luma, 4, 4, {}, GrowParams{}), InputError);
}
