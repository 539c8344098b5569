// The filter references against hand-checked cases of docs/STAGES.md, the
// filter syntax of the command line, and the stage variant list.
#include "InputErrors.h"
#include "Errors.h"
#include "Pipeline.h"
#include "reference/BoxMeanReference.h"
#include "reference/DensityFilterReference.h"
#include "reference/GaussianReference.h"
#include "stages/Gaussian.h"
#include "stages/StageVariants.h"

#include <gtest/gtest.h>

using namespace rgx;

namespace {

using rgx::test::inputErrorOf;

TEST(BoxMeanReference, OddAndEvenWindowsClipAtTheEdgeAndRoundHalfUp)
{
    const std::vector<uint16_t> row = {1, 2, 4, 8};
    // W = 2: pixel x averages [x - 1, x]; 1.5 rounds to 2.
    EXPECT_EQ(boxMeanReference(row, 4, 1, 2), (std::vector<uint16_t>{1, 2, 3, 6}));
    // W = 3: [x - 1, x + 1]; 7/3 -> 2, 14/3 -> 5.
    EXPECT_EQ(boxMeanReference(row, 4, 1, 3), (std::vector<uint16_t>{2, 2, 5, 6}));
    // The same along a column.
    EXPECT_EQ(boxMeanReference(row, 1, 4, 3), (std::vector<uint16_t>{2, 2, 5, 6}));
    // W = 1 is the identity.
    EXPECT_EQ(boxMeanReference(row, 2, 2, 1), row);
}

TEST(BoxMeanReference, WindowLargerThanTheImageIsTheImageMean)
{
    const std::vector<uint16_t> image = {0, 65535, 65535, 65535, 0, 0};
    // Sum 196605 over 6 pixels = 32767.5 -> 32768 everywhere.
    EXPECT_EQ(boxMeanReference(image, 3, 2, 99), std::vector<uint16_t>(6, 32768));
}

TEST(GaussianReference, BinomialWeightsSpreadADelta)
{
    std::vector<uint16_t> delta(9, 0);
    delta[4] = 16;
    // Weights 1 2 1 in each direction, divided by 16; the edge clamp folds
    // no extra weight onto the centre here.
    EXPECT_EQ(gaussianReference(delta, 3, 3, 1), (std::vector<uint16_t>{1, 2, 1, 2, 4, 2, 1, 2, 1}));
    EXPECT_EQ(binomialWeights(2), (std::vector<uint32_t>{1, 4, 6, 4, 1}));
    EXPECT_EQ(binomialWeights(12)[12], 2704156u);
}

TEST(GaussianReference, ClampsToTheEdgeAndRoundsHalfUp)
{
    // A 2x1 image {0, 8}, R = 1: pixel 0 sees taps (0, 0, 8) with weights
    // (1, 2, 1) in x, the clamped rows add nothing new: 8/4 = 2; pixel 1
    // sees (0, 8, 8): 24/4 = 6.
    EXPECT_EQ(gaussianReference({0, 8}, 2, 1, 1), (std::vector<uint16_t>{2, 6}));
    // {0, 2}: 2/4 = 0.5 rounds up to 1; 6/4 = 1.5 rounds up to 2.
    EXPECT_EQ(gaussianReference({0, 2}, 2, 1, 1), (std::vector<uint16_t>{1, 2}));
    // One pixel: every tap is that pixel.
    EXPECT_EQ(gaussianReference({12345}, 1, 1, 12), (std::vector<uint16_t>{12345}));
}

TEST(DensityFilterReference, RemovesPixelsWithTooFewOfTheirRegionInTheWindow)
{
    std::vector<uint16_t> labels = {1, 1, 2, 1, 1};
    std::vector<uint32_t> stamps = {0, 1, 1, 2, 3};
    densityFilterReference(labels, stamps, 5, 1, 3, 2);
    EXPECT_EQ(labels, (std::vector<uint16_t>{1, 1, 0, 1, 1}));
    EXPECT_EQ(stamps, (std::vector<uint32_t>{0, 1, 0xFFFFFFFFu, 2, 3}));
}

TEST(DensityFilterReference, DecidesOnTheLabelsBeforeTheFilter)
{
    // MIN 3, W 3: the ends see 2 pixels and go; the middle ones see 3 in
    // the labels before the filter (a filter reading its own output would
    // remove them too).
    std::vector<uint16_t> labels = {1, 1, 1, 1};
    std::vector<uint32_t> stamps = {5, 6, 7, 8};
    densityFilterReference(labels, stamps, 4, 1, 3, 3);
    EXPECT_EQ(labels, (std::vector<uint16_t>{0, 1, 1, 0}));
}

TEST(DensityFilterReference, EvenWindowsReachOneFurtherBackThanForward)
{
    // W = 2 covers [x - 1, x]: pixel 0 counts itself only, pixel 1 both.
    std::vector<uint16_t> labels = {3, 3};
    std::vector<uint32_t> stamps = {0, 1};
    densityFilterReference(labels, stamps, 1, 2, 2, 2);
    EXPECT_EQ(labels, (std::vector<uint16_t>{0, 3}));
}

TEST(FilterSyntax, DesignFormsAndOptionalVariants)
{
    EXPECT_EQ(parsePrefilter("none").kind, PrefilterSpec::Kind::None);
    const PrefilterSpec box = parsePrefilter("boxmean:5");
    EXPECT_EQ(box.kind, PrefilterSpec::Kind::BoxMean);
    EXPECT_EQ(box.size, 5);
    EXPECT_EQ(box.variant, "");
    EXPECT_EQ(parsePrefilter("boxmean:5:direct").variant, "direct");
    EXPECT_EQ(parsePrefilter("gaussian:3:async-halo").size, 3);
    const PostfilterSpec density = parsePostfilter("density:7:12:scalar");
    EXPECT_TRUE(density.enabled);
    EXPECT_EQ(density.window, 7);
    EXPECT_EQ(density.minimum, 12);
    EXPECT_EQ(density.variant, "scalar");
    EXPECT_EQ(parsePostfilter("density:7:12").variant, "");
    for (const std::string text : {"boxmean:5", "boxmean:5:async-nobarrier", "gaussian:12:direct"})
        EXPECT_EQ(prefilterText(parsePrefilter(text)), text);
    for (const std::string text : {"none", "density:3:0", "density:9:40:vload8-serial"})
        EXPECT_EQ(postfilterText(parsePostfilter(text)), text);
}

TEST(FilterSyntax, UnknownVariantsAndSizesOutOfRangeAreInputErrors)
{
    EXPECT_NE(inputErrorOf([] { parsePrefilter("boxmean:5:warp"); })
                  .find("expected one of: async, async-nobarrier, direct"), std::string::npos);
    EXPECT_NE(inputErrorOf([] { parsePrefilter("gaussian:2:async"); }).find("async-halo, direct"),
              std::string::npos);
    EXPECT_NE(inputErrorOf([] { parsePostfilter("density:3:3:vector"); })
                  .find("vload8-expr, vload8-serial, scalar"), std::string::npos);
    EXPECT_NE(inputErrorOf([] { parsePrefilter("boxmean:256"); }).find("255"), std::string::npos);
    EXPECT_NE(inputErrorOf([] { parsePrefilter("gaussian:13"); }).find("12"), std::string::npos);
    EXPECT_NE(inputErrorOf([] { parsePrefilter("boxmean"); }).find("unknown prefilter"), std::string::npos);
    EXPECT_NE(inputErrorOf([] { parsePostfilter("density:3"); }).find("unknown postfilter"), std::string::npos);
    PipelineParams params;
    params.prefilter = {PrefilterSpec::Kind::Gaussian, 40, ""};
    EXPECT_NE(inputErrorOf([&] { checkFilters(params); }).find("outside 1..12"), std::string::npos);
    params.prefilter = {PrefilterSpec::Kind::BoxMean, 3, "nope"};
    EXPECT_NE(inputErrorOf([&] { checkFilters(params); }).find("unknown boxmean variant"), std::string::npos);
}

TEST(StageVariants, EachStageHasOneDefaultAndOnlyTheMissingBarrierIsWrongOnPurpose)
{
    int defaults = 0;
    std::vector<std::string> wrong;
    for (const StageVariantInfo& info : stageVariants()) {
        defaults += info.isDefault ? 1 : 0;
        if (info.wrongOnPurpose)
            wrong.push_back(info.stage + ":" + info.name);
        EXPECT_FALSE(info.description.empty()) << info.name;
    }
    EXPECT_EQ(defaults, 3);
    EXPECT_EQ(wrong, std::vector<std::string>{"boxmean:async-nobarrier"});
    EXPECT_EQ(boxMeanVariantName(parseBoxMeanVariant("")), "async");
    EXPECT_EQ(gaussianVariantName(parseGaussianVariant("")), "async-halo");
    EXPECT_EQ(densityVariantName(parseDensityVariant("")), "vload8-expr");
}

TEST(StageVariants, NoBarrierIsTheSameKernelWithOneMacroEmpty)
{
    EXPECT_EQ(boxMeanKernel(BoxMeanVariant::Async), boxMeanKernel(BoxMeanVariant::AsyncNoBarrier));
    EXPECT_EQ(boxMeanDefines(BoxMeanVariant::Async), "");
    EXPECT_EQ(boxMeanDefines(BoxMeanVariant::AsyncNoBarrier), " -D\"RGX_BOX_BARRIER(flags)=\"");
}

} // namespace
