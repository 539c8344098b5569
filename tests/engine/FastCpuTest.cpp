// The fast multi-threaded CPU implementation equals the CPU reference bit for
// bit: labels, stamps, region sums, iteration count, on random cases of
// every mode, rule and connectivity, with one thread and with several.
#include "TestImages.h"
#include "Errors.h"
#include "reference/FastCpuGrowing.h"
#include "reference/RegionGrowingReference.h"

#include <gtest/gtest.h>
#include <sstream>

using namespace rgx;

namespace {

struct Case {
    int width;
    int height;
    test::PixelKind kind;
    int seeds;
    int threads;
};

// Mode, rule and connectivity rotate with the case index, as in the device tests.
GrowParams paramsFor(int index, test::PixelKind kind)
{
    GrowParams params;
    params.mode = Mode(index % 3);
    params.rule = (index / 3) % 2 ? Rule::All : Rule::Adjacent;
    params.connectivity = (index / 6) % 2 ? 8 : 4;
    const bool sixteenBit = kind == test::PixelKind::Grey16;
    params.tolerance = sixteenBit ? 3000.5 : 12.25;
    params.lower = sixteenBit ? 4000 : 15;
    params.upper = sixteenBit ? 2500 : 10;
    return params;
}

std::string describeCase(uint32_t caseSeed, const Case& c, const GrowParams& params)
{
    std::ostringstream text;
    text << "case seed " << caseSeed << " (" << c.width << "x" << c.height << ", " << c.seeds
         << " seeds, " << c.threads << " threads, mode " << modeName(params.mode) << ", rule "
         << ruleName(params.rule) << ", connectivity " << params.connectivity << ")";
    return text.str();
}

void expectSameResult(const GrowResult& expected, const GrowResult& actual, const std::string& what)
{
    const ResultDiff diff = compareResults(expected, actual);
    if (diff.differingPixels > 0) {
        const size_t p = size_t(diff.firstDifferingPixel);
        FAIL() << what << ": " << diff.differingPixels << " pixels differ, the first at ("
               << p % size_t(expected.width) << "," << p / size_t(expected.width) << "): expected label "
               << expected.labels[p] << " stamp " << expected.stamps[p] << ", got label "
               << actual.labels[p] << " stamp " << actual.stamps[p];
    }
    EXPECT_EQ(expected.iterations, actual.iterations) << what;
    EXPECT_EQ(expected.stoppedAtCap, actual.stoppedAtCap) << what;
    ASSERT_EQ(expected.regions.size(), actual.regions.size()) << what;
    for (size_t k = 0; k < expected.regions.size(); ++k) {
        EXPECT_EQ(expected.regions[k].count, actual.regions[k].count) << "region " << k + 1 << ", " << what;
        EXPECT_EQ(expected.regions[k].sum, actual.regions[k].sum) << "region " << k + 1 << ", " << what;
    }
}

void checkCases(const Case* cases, size_t caseCount, uint32_t firstCaseSeed)
{
    for (size_t index = 0; index < caseCount; ++index) {
        const Case& c = cases[index];
        const uint32_t caseSeed = firstCaseSeed + uint32_t(index);
        const GrowParams params = paramsFor(int(index), c.kind);
        const LumaImage image = test::randomImage(c.width, c.height, c.kind, caseSeed);
        const std::vector<Seed> seeds = test::randomSeeds(c.width, c.height, c.seeds, caseSeed);
        const GrowResult expected = growRegionsReference(image.luma, c.width, c.height, seeds, params);
        const GrowResult actual =
            growRegionsFastCpu(image.luma, c.width, c.height, seeds, params, c.threads);
        expectSameResult(expected, actual, describeCase(caseSeed, c, params));
    }
}

} // namespace

TEST(FastCpu, EqualsTheReferenceOnSmallRandomCases)
{
    // Twelve consecutive cases cover every mode x rule x connectivity; the
    // list runs through them twice with other sizes, kinds and thread counts.
    const Case cases[] = {
        {1, 1, test::PixelKind::Grey8, 1, 1},      {1, 37, test::PixelKind::Grey16, 2, 2},
        {53, 1, test::PixelKind::Colour8, 3, 3},   {17, 13, test::PixelKind::Grey8, 5, 1},
        {64, 48, test::PixelKind::Grey16, 1, 4},   {127, 129, test::PixelKind::Colour8, 17, 2},
        {33, 250, test::PixelKind::Grey8, 40, 3},  {256, 200, test::PixelKind::Grey16, 64, 8},
        {95, 61, test::PixelKind::Colour8, 300, 2}, {200, 150, test::PixelKind::Grey8, 2, 1},
        {301, 7, test::PixelKind::Grey16, 9, 5},   {120, 90, test::PixelKind::Grey8, 30, 2},
        {2, 2, test::PixelKind::Grey8, 4, 3},      {9, 40, test::PixelKind::Grey16, 3, 1},
        {77, 3, test::PixelKind::Colour8, 1, 2},   {40, 40, test::PixelKind::Grey8, 12, 4},
        {150, 100, test::PixelKind::Grey16, 7, 3}, {61, 95, test::PixelKind::Colour8, 25, 1},
        {100, 100, test::PixelKind::Grey8, 100, 6}, {5, 300, test::PixelKind::Grey16, 6, 2},
        {180, 130, test::PixelKind::Colour8, 2, 8}, {230, 170, test::PixelKind::Grey8, 11, 3},
        {13, 17, test::PixelKind::Grey16, 50, 2},  {250, 250, test::PixelKind::Grey8, 1, 4},
    };
    checkCases(cases, std::size(cases), 2000u);
}

TEST(FastCpu, EqualsTheReferenceWhenThreadsShareTheFrontier)
{
    // Frontiers of many thousand pixels, so that every thread gets a part of
    // each iteration and pixels are claimed across threads. Rule `all` keeps
    // few regions: the reference compares each candidate with all of them.
    const Case cases[] = {
        {700, 500, test::PixelKind::Grey8, 400, 4},   {640, 480, test::PixelKind::Grey16, 300, 8},
        {600, 600, test::PixelKind::Colour8, 500, 3}, {800, 400, test::PixelKind::Grey8, 12, 4},
        {512, 512, test::PixelKind::Grey16, 10, 8},   {700, 300, test::PixelKind::Colour8, 8, 2},
        {640, 480, test::PixelKind::Grey8, 350, 6},   {500, 700, test::PixelKind::Grey16, 250, 4},
        {600, 500, test::PixelKind::Colour8, 450, 8}, {512, 512, test::PixelKind::Grey8, 9, 3},
        {800, 500, test::PixelKind::Grey16, 12, 4},   {700, 700, test::PixelKind::Grey8, 6, 8},
    };
    checkCases(cases, std::size(cases), 3000u);
}

TEST(FastCpu, StopsAtTheIterationCapLikeTheReference)
{
    const LumaImage image = test::randomImage(300, 200, test::PixelKind::Grey8, 77);
    GrowParams params;
    params.maxIterations = 9;
    const std::vector<Seed> seeds = {{0, 0}, {299, 199}, {150, 100}};
    const GrowResult expected = growRegionsReference(image.luma, 300, 200, seeds, params);
    const GrowResult actual = growRegionsFastCpu(image.luma, 300, 200, seeds, params, 3);
    EXPECT_TRUE(actual.stoppedAtCap);
    EXPECT_EQ(actual.iterations, 9u);
    expectSameResult(expected, actual, "cap 9");
}

TEST(FastCpu, RejectsTheSeedsTheReferenceRejects)
{
    const std::vector<uint16_t> luma(12, 7);
    EXPECT_THROW(growRegionsFastCpu(luma, 4, 3, {}, GrowParams{}), InputError);
    EXPECT_THROW(growRegionsFastCpu(luma, 4, 3, {{4, 0}}, GrowParams{}), InputError);
    EXPECT_THROW(growRegionsFastCpu(luma, 4, 3, {{1, 1}, {1, 1}}, GrowParams{}), InputError);
}
