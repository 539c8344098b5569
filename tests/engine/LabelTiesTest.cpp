// The labels of a competitive run of several regions by ties
// (kernels/label_ties.h, kernels/settle_ties.h,
// engine/stages/grow/LabelTies.cpp): seed_distances labels every pixel with
// one seed alone nearest, and one work-group labels the ties, the pixels
// equidistant from several seeds: by passes over every level at once for
// up to 8 regions with a few ties a level, else level by level. Every
// result is checked against the CPU reference on every device, and each
// case says which label pass it must have taken, so that both ties'
// passes, their fallback to every level, and a run without ties are all
// run.
#include "ResultChecks.h"
#include "TestImages.h"
#include "TestVolumes.h"
#include "Device.h"
#include "Pipeline.h"
#include "reference/RegionGrowingReference.h"

#include <gtest/gtest.h>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using namespace rgx;

namespace {

// Which label pass a run must take. Settled: the ties by passes
// (settle_ties); Ties: the ties level by level (label_ties); AnyTies: one
// of those two; Either: the ties alone or every level; TiesOnCpus: the ties
// level by level on a CPU runtime, every level on a GPU.
enum class LabelPass { Settled, Ties, AnyTies, EveryLevel, None, Either, TiesOnCpus };

// Few lumas: many ties whose means differ, or agree, by little.
LumaImage fewLumas(int width, int height, uint32_t seed, int levels)
{
    LumaImage image = test::randomImage(width, height, test::PixelKind::Grey8, seed);
    for (uint16_t& value : image.luma)
        value = uint16_t(value * levels / 256 * (255 / std::max(levels - 1, 1)));
    return image;
}

// One luma everywhere but on the ties between two seeds (equidistant from
// both, 4-connected), which scatter about it: both means start equal, and
// each tie's label hangs on where the ties before it went.
LumaImage flatButTheTies(int width, int height, Seed a, Seed b, uint32_t seed)
{
    LumaImage image;
    image.width = width;
    image.height = height;
    image.bitDepth = 16;
    image.luma.assign(size_t(width) * size_t(height), 1000);
    std::mt19937 rng(seed);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            if (std::abs(x - a.x) + std::abs(y - a.y) == std::abs(x - b.x) + std::abs(y - b.y))
                image.luma[size_t(y) * size_t(width) + size_t(x)] = uint16_t(900 + rng() % 201);
    return image;
}

void expectLabelledBy(const LumaImage& image, const std::vector<Seed>& seeds, const GrowParams& grow,
                      LabelPass pass, const std::string& what)
{
    PipelineParams params;
    params.grow = grow;
    const GrowResultPtr expected = runReferencePipeline(image, seeds, params);
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        const GrowResultPtr actual = runDevicePipeline(device, image, seeds, params, parseVariant("fusion=tiles"));
        const std::string where = what + " on " + info.name;
        const LabelPass wanted =
            pass != LabelPass::TiesOnCpus ? pass : info.type == "GPU" ? LabelPass::EveryLevel : LabelPass::Ties;
        test::expectEqual(*expected, *actual, where);
        EXPECT_EQ(test::commandCount(actual->timings, "seed_distances"), 1) << where;
        const bool levelByLevel = test::commandCount(actual->timings, "label_ties") == 1;
        const bool settled = test::commandCount(actual->timings, "settle_ties") == 1;
        const bool everyLevel = test::commandCount(actual->timings, "label_levels_fused") +
                                    test::commandCount(actual->timings, "label_level") >
                                0;
        EXPECT_LE(int(levelByLevel) + int(settled) + int(everyLevel), 1) << where;
        if (wanted == LabelPass::Either)
            EXPECT_TRUE(levelByLevel || settled || everyLevel) << where;
        else if (wanted == LabelPass::AnyTies)
            EXPECT_TRUE(levelByLevel || settled) << where;
        else
            EXPECT_TRUE(settled == (wanted == LabelPass::Settled) && levelByLevel == (wanted == LabelPass::Ties) &&
                        everyLevel == (wanted == LabelPass::EveryLevel))
                << where;
    }
}

} // namespace

// 4-connected seeds an even number of steps apart meet on a line of ties;
// an odd number apart, nowhere (every pixel has one seed nearest).
TEST(LabelTies, TiesBetweenSeedsAreLabelledLevelByLevelInOneWorkGroup)
{
    GrowParams competitive;
    competitive.connectivity = 4;
    const LumaImage noise = test::randomImage(160, 120, test::PixelKind::Grey8, 31);
    expectLabelledBy(noise, {{40, 60}, {120, 60}}, competitive, LabelPass::Settled, "two seeds 80 apart");
    expectLabelledBy(noise, {{40, 60}, {121, 60}}, competitive, LabelPass::None, "two seeds 81 apart");
    expectLabelledBy(noise, {{10, 10}, {150, 110}, {80, 20}, {30, 100}, {81, 61}}, competitive, LabelPass::Settled,
                     "five seeds");
    // Ties whose regions' means are close: a few lumas only, 8 and 16 bits.
    for (uint32_t seed = 40; seed < 44; ++seed) {
        const LumaImage image = seed % 2 ? fewLumas(150, 110, seed, 3)
                                         : test::randomImage(150, 110, test::PixelKind::Grey16, seed);
        for (const int count : {2, 9, 40}) {
            const std::vector<Seed> seeds = test::randomSeeds(image.width, image.height, count, seed * 7 + count);
            // Random seeds may fall an odd number of steps apart everywhere.
            PipelineParams params;
            params.grow = competitive;
            ComputeDevice device(listDevices().front());
            const GrowResultPtr first = runDevicePipeline(device, image, seeds, params, parseVariant("fusion=tiles"));
            const bool ties = test::commandCount(first->timings, "label_ties") +
                                  test::commandCount(first->timings, "settle_ties") >
                              0;
            const LabelPass pass = !ties ? LabelPass::None : count <= 8 ? LabelPass::Settled : LabelPass::Ties;
            expectLabelledBy(image, seeds, competitive, pass,
                             std::to_string(count) + " seeds on image " + std::to_string(seed));
        }
    }
    // A grid of seeds: lines of ties along every cell border, four-way ties
    // at the corners; stopped by a cap half-way.
    std::vector<Seed> grid;
    for (int y = 10; y < 120; y += 20)
        for (int x = 10; x < 160; x += 20)
            grid.push_back({x, y});
    expectLabelledBy(fewLumas(160, 120, 50, 4), grid, competitive, LabelPass::Ties, "a grid of 48 seeds");
    GrowParams capped = competitive;
    capped.maxIterations = 12;
    expectLabelledBy(fewLumas(160, 120, 51, 4), grid, capped, LabelPass::Ties, "a grid of 48 seeds, a cap of 12");
}

// settle_ties gives each of its 256 work-items a run of levels: two seeds
// across a tall image tie on a line of 1200 levels, runs of several levels
// each, whose ties take their neighbours' labels from their own run as well
// as from the run before. Seeds apart in x and y as well tie on a diagonal
// too, all of one level, which the whole group decides (more than 16 ties).
// Few lumas, so that labels hang on the ties counted before them; a cap
// stops it half-way.
TEST(LabelTies, TiesOnManyLevelsSettleByPasses)
{
    GrowParams competitive;
    competitive.connectivity = 4;
    for (uint32_t seed = 90; seed < 93; ++seed) {
        const LumaImage image = fewLumas(48, 1300, seed, 2 + int(seed % 3));
        const std::string which = " " + std::to_string(seed);
        expectLabelledBy(image, {{4, 650}, {40, 650}}, competitive, LabelPass::Settled,
                         "two seeds across a tall image" + which);
        expectLabelledBy(image, {{4, 20}, {40, 20}, {22, 1290}}, competitive, LabelPass::Settled,
                         "three seeds across a tall image" + which);
        expectLabelledBy(image, {{2, 640}, {46, 660}}, competitive, LabelPass::Settled,
                         "two seeds apart in x and y: a diagonal of 21 ties on one level, 641 levels" + which);
        expectLabelledBy(image, {{2, 100}, {46, 124}, {3, 700}, {45, 730}}, competitive, LabelPass::Settled,
                         "four seeds apart in x and y: diagonals of ties, 572 levels" + which);
        const Seed a{2, 640}, b{46, 660};
        expectLabelledBy(flatButTheTies(48, 1300, a, b, seed), {a, b}, competitive, LabelPass::Settled,
                         "two seeds on a flat image, their ties scattered about its luma" + which);
    }
    GrowParams capped = competitive;
    capped.maxIterations = 400;
    expectLabelledBy(fewLumas(48, 1300, 95, 3), {{4, 650}, {40, 650}}, capped, LabelPass::Settled,
                     "two seeds across a tall image, a cap of 400");
}

// Two 4-connected seeds on a diagonal (|dx| = |dy|) tie on two whole
// quadrants; more ties than the list holds (65536 here) go level by level
// as before. 8-connected seeds in a row tie on wedges, which one
// work-group takes.
TEST(LabelTies, TooManyTiesForTheListGoLevelByLevel)
{
    GrowParams competitive;
    competitive.connectivity = 4;
    expectLabelledBy(fewLumas(600, 600, 60, 5), {{100, 100}, {200, 200}}, competitive, LabelPass::EveryLevel,
                     "two seeds on a diagonal: 80 000 ties");
    competitive.connectivity = 8;
    expectLabelledBy(fewLumas(200, 200, 61, 5), {{50, 100}, {150, 100}}, competitive, LabelPass::Settled,
                     "two seeds in a row, 8-connected: wedges of ties, levels of many ties by the group");
    expectLabelledBy(fewLumas(400, 400, 63, 5), {{100, 200}, {300, 200}}, competitive, LabelPass::Ties,
                     "two seeds in a row, 8-connected: more than 64 levels of many ties, level by level");
    expectLabelledBy(fewLumas(120, 120, 62, 5), {{20, 30}, {90, 100}}, competitive, LabelPass::AnyTies,
                     "two seeds on a diagonal, 8-connected");
}

// A grid of 4 x 4 x 4 seeds 48 voxels apart in a 192^3 volume ties on nine
// planes, 331 776 voxels, about 4600 a level: more than a GPU's one work-group
// takes (every level goes through labelLevels), within a CPU runtime's list
// of a slot per 16 voxels (the ties alone).
TEST(LabelTies, AVolumesPlanesOfTiesGoToTheTiesPassOnTheCpuRuntimes)
{
    const int side = 192;
    LumaImage volume = test::randomVolume(side, side, side, false, 97);
    std::vector<Seed> seeds;
    for (int k = 0; k < 4; ++k)
        for (int j = 0; j < 4; ++j)
            for (int i = 0; i < 4; ++i)
                seeds.push_back({(2 * i + 1) * side / 8, (2 * j + 1) * side / 8, (2 * k + 1) * side / 8});
    GrowParams competitive;
    competitive.connectivity = 6;
    expectLabelledBy(volume, seeds, competitive, LabelPass::TiesOnCpus, "a 192^3 volume's grid of 64 seeds");
}

// Volumes: the same, on planes of ties between seeds.
TEST(LabelTies, TiesInVolumesAreLabelledLikeTheReference)
{
    GrowParams competitive;
    for (const int connectivity : {6, 18, 26}) {
        competitive.connectivity = connectivity;
        const LumaImage volume = test::randomVolume(24, 20, 16, connectivity == 18, uint32_t(70 + connectivity));
        expectLabelledBy(volume, test::randomVoxelSeeds(24, 20, 16, 5, uint32_t(80 + connectivity)), competitive,
                         LabelPass::Either, "volume, connectivity " + std::to_string(connectivity));
    }
}
