// fusion=tiles on images made to be hard for it, on every device: corridors
// one pixel wide that cross tile borders again and again (a spiral, a
// maze), a region that leaves its tile and comes back with a shorter path
// than the one inside, seeds on tile edges and corners, many regions
// meeting. Every result equals the CPU reference bit for bit.
#include "TestImages.h"
#include "TestParams.h"
#include "ScopedEnvironment.h"
#include "Device.h"
#include "bench/BenchInputs.h"
#include "Pipeline.h"
#include "reference/RegionGrowingReference.h"
#include "stages/GrowState.h"
#include "stages/RegionGrowing.h"
#include "stages/grow/GrowPrograms.h"

#include <gtest/gtest.h>
#include <algorithm>
#include <array>
#include <atomic>
#include <random>
#include <thread>
#include <tuple>

using namespace rgx;

namespace {

constexpr uint16_t floorLuma = 100; // corridors
constexpr uint16_t wallLuma = 240;

LumaImage filled(int width, int height, uint16_t value)
{
    LumaImage image;
    image.width = width;
    image.height = height;
    image.luma.assign(size_t(width) * size_t(height), value);
    return image;
}

void set(LumaImage& image, int x, int y, uint16_t value)
{
    image.luma[size_t(y) * size_t(image.width) + size_t(x)] = value;
}

// A square spiral corridor one pixel wide, walls one pixel wide, winding
// from the border to the centre: its stamps run to thousands across every
// tile border many times.
LumaImage spiral(int size)
{
    LumaImage image = filled(size, size, wallLuma);
    auto open = [&](int x, int y) { return image.luma[size_t(y) * size_t(size) + size_t(x)] == floorLuma; };
    auto inside = [&](int x, int y) { return x >= 0 && y >= 0 && x < size && y < size; };
    const int dx[4] = {1, 0, -1, 0}, dy[4] = {0, 1, 0, -1};
    int x = 0, y = 0, d = 0;
    set(image, x, y, floorLuma);
    // Walk ahead while the pixel two steps on is not corridor (a wall of one
    // pixel stays between the turns), turning right when blocked.
    for (int turns = 0; turns < 2;) {
        const int nx = x + dx[d], ny = y + dy[d];
        const int farX = x + 2 * dx[d], farY = y + 2 * dy[d];
        if (inside(nx, ny) && !open(nx, ny) && (!inside(farX, farY) || !open(farX, farY))) {
            x = nx;
            y = ny;
            set(image, x, y, floorLuma);
            turns = 0;
        } else {
            d = (d + 1) % 4;
            ++turns;
        }
    }
    return image;
}

LumaImage maze(int cellsX, int cellsY, uint32_t seed)
{
    return test::maze(cellsX, cellsY, seed, floorLuma, wallLuma);
}

// The seed's tile (0..31 square) holds a long corridor to the target, and a
// short way round leaves the tile, runs through the tile to the right and
// comes back: the tile's first pass finds the long path; the shorter one
// arrives rounds later and must win.
LumaImage detour()
{
    LumaImage image = filled(96, 40, wallLuma);
    // Inside tile (0,0): from the seed (2,2) right to x=29, down to y=29,
    // back left to x=2, then down to the target row y=31.
    for (int x = 2; x <= 29; ++x)
        set(image, x, 2, floorLuma);
    for (int y = 2; y <= 29; ++y)
        set(image, 29, y, floorLuma);
    for (int x = 2; x <= 29; ++x)
        set(image, x, 29, floorLuma);
    for (int y = 29; y <= 31; ++y)
        set(image, 2, y, floorLuma);
    // The way round: up from the seed's row at x=2... out through the top
    // row to the right tile, down its column 33, and back along row 31.
    for (int y = 0; y <= 2; ++y)
        set(image, 4, y, floorLuma);
    for (int x = 4; x <= 33; ++x)
        set(image, x, 0, floorLuma);
    for (int y = 0; y <= 31; ++y)
        set(image, 33, y, floorLuma);
    for (int x = 2; x <= 33; ++x)
        set(image, x, 31, floorLuma);
    return image;
}

GrowParams rangeParams(int connectivity, uint32_t range = 10)
{
    return test::rangeParams(range, range, connectivity);
}

void expectTilesEqualTheReference(const LumaImage& image, const std::vector<Seed>& seeds, const GrowParams& grow,
                                  const std::string& what)
{
    PipelineParams params;
    params.grow = grow;
    const GrowResultPtr expected = runReferencePipeline(image, seeds, params);
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        const GrowResultPtr actual = runDevicePipeline(device, image, seeds, params, parseVariant("fusion=tiles"));
        const ResultDiff diff = compareResults(*expected, *actual);
        ASSERT_EQ(diff.differingPixels, 0u)
            << what << " on " << info.name << ": first differing pixel (" << diff.firstDifferingPixel % image.width
            << "," << diff.firstDifferingPixel / image.width << ") expected label "
            << expected->labels[size_t(diff.firstDifferingPixel)] << " stamp "
            << expected->stamps[size_t(diff.firstDifferingPixel)] << ", got label "
            << actual->labels[size_t(diff.firstDifferingPixel)] << " stamp "
            << actual->stamps[size_t(diff.firstDifferingPixel)];
        EXPECT_EQ(expected->iterations, actual->iterations) << what << " on " << info.name;
        EXPECT_EQ(expected->stoppedAtCap, actual->stoppedAtCap) << what << " on " << info.name;
        for (size_t k = 0; k < expected->regions.size(); ++k) {
            EXPECT_EQ(expected->regions[k].count, actual->regions[k].count) << what << ", region " << k + 1;
            EXPECT_EQ(expected->regions[k].sum, actual->regions[k].sum) << what << ", region " << k + 1;
        }
        // Fused, or one round per launch where the device's scheduler kept a
        // work-group waiting (a busy CPU): by tiles either way.
        EXPECT_EQ(actual->note.find("level by level"), std::string::npos) << what << " on " << info.name;
    }
}

} // namespace

TEST(TiledGrowing, SpiralCorridorCrossesTileBordersManyTimes)
{
    const LumaImage image = spiral(150);
    for (int connectivity : {4, 8}) {
        const GrowResult reference = growRegionsReference(image.luma, image.width, image.height, {{0, 0}},
                                                          rangeParams(connectivity));
        ASSERT_GT(reference.iterations, 5000u) << "the spiral should be one long corridor";
        expectTilesEqualTheReference(image, {{0, 0}}, rangeParams(connectivity),
                                     "spiral, connectivity " + std::to_string(connectivity));
    }
}

TEST(TiledGrowing, MazeOfOnePixelCorridors)
{
    for (uint32_t seed : {1u, 2u}) {
        const LumaImage image = maze(60, 45, seed);
        expectTilesEqualTheReference(image, {{1, 1}}, rangeParams(4), "maze seed " + std::to_string(seed));
        expectTilesEqualTheReference(image, {{1, 1}, {119, 89}, {61, 45}}, rangeParams(8),
                                     "maze seed " + std::to_string(seed) + ", three seeds, connectivity 8");
    }
}

TEST(TiledGrowing, AShorterPathThatLeavesTheTileAndComesBackWins)
{
    const LumaImage image = detour();
    const GrowResult reference = growRegionsReference(image.luma, image.width, image.height, {{2, 2}},
                                                      rangeParams(4));
    // The target (2,31) is reached the short way round, not along the tile's own corridor.
    ASSERT_LT(reference.stamps[31 * 96 + 2], 100u);
    expectTilesEqualTheReference(image, {{2, 2}}, rangeParams(4), "detour");
}

TEST(TiledGrowing, SeedsOnTileEdgesAndCorners)
{
    const LumaImage image = test::randomImage(130, 100, test::PixelKind::Grey8, 21);
    const int side = growTileSide;
    const std::vector<Seed> corners = {{side - 1, side - 1}, {side, 2 * side - 1}, {2 * side - 1, 0},
                                       {3 * side, 3 * side - 1}, {0, side}, {129, 99}};
    for (int connectivity : {4, 8})
        for (size_t k = 0; k < corners.size(); ++k)
            expectTilesEqualTheReference(image, {corners[k]}, rangeParams(connectivity, 255),
                                         "one seed at a tile corner, connectivity " + std::to_string(connectivity));
    expectTilesEqualTheReference(image, corners, rangeParams(8, 30), "six seeds on tile corners");
}

// Walls all round a seed except across its tile's edge (and, in 8
// connectivity, its corner): the tile beyond is reached only from the seed
// itself, which never changes in its own tile.
TEST(TiledGrowing, ASeedWhoseOnlyWayOutCrossesItsTileEdge)
{
    const int side = growTileSide;
    LumaImage image = filled(3 * side, 3 * side, wallLuma);
    set(image, side - 1, side - 1, floorLuma);               // the seed, at a tile corner
    for (int i = side; i < 3 * side; ++i)                   // the diagonal way out
        set(image, i, i, floorLuma), set(image, i, 3 * side - 1, floorLuma);
    expectTilesEqualTheReference(image, {{side - 1, side - 1}}, rangeParams(8), "seed at a corner, diagonal exit");
    LumaImage edge = filled(3 * side, 2 * side, wallLuma);
    set(edge, side - 1, 10, floorLuma);                     // the seed, on the right edge of tile 0
    for (int x = side; x < 3 * side; ++x)
        set(edge, x, 10, floorLuma);
    expectTilesEqualTheReference(edge, {{side - 1, 10}}, rangeParams(4), "seed on a tile edge");
}

TEST(TiledGrowing, ManyRegionsMeetInRangeMode)
{
    for (uint32_t seed = 40; seed < 46; ++seed) {
        const LumaImage image = test::randomImage(157, 121, seed % 2 ? test::PixelKind::Grey8 : test::PixelKind::Grey16, seed);
        GrowParams params = rangeParams(seed % 3 ? 4 : 8);
        params.lower = image.bitDepth == 16 ? 5000 : 20;
        params.upper = image.bitDepth == 16 ? 3000 : 15;
        params.rule = seed % 2 ? Rule::All : Rule::Adjacent;
        const std::vector<Seed> seeds = test::randomSeeds(image.width, image.height, int(3 + seed % 4 * 9), seed);
        expectTilesEqualTheReference(image, seeds, params, "random image seed " + std::to_string(seed));
    }
}

// Whether the run's tiles took the bitmap step (RGX_TILE_BITS=1).
bool tookTheBitmapStep(const GrowResult& result)
{
    return std::any_of(result.kernels.begin(), result.kernels.end(), [](const KernelReport& kernel) {
        return kernel.kernel == "grow_tiles" && kernel.options.find("-DRGX_TILE_BITS=1") != std::string::npos;
    });
}

// Seeds of mode range under rule adjacent whose ranges hold no luma in
// common: each region is the flood of its seed inside its own range, and
// the bitmap step grows them all at once, a pixel joining from its own
// region's pixels only. Regions that touch everywhere (a maze's walls and
// corridors, noise of few lumas), that meet along one border across
// tiles, a cap, steps stopped at their level limit, and ranges one luma
// apart against ranges that share one (the per-pixel step).
TEST(TiledGrowing, RegionsWhoseRangesFallApartGrowByTheBitmapStepFromTheirOwnPixels)
{
    struct Case {
        LumaImage image;
        std::vector<Seed> seeds;
        GrowParams params;
        bool apart;
        std::string what;
    };
    std::vector<Case> cases;
    for (int connectivity : {4, 8}) {
        const std::string at = ", connectivity " + std::to_string(connectivity);
        // Walls (240) and corridors (100), ranges +-10: both regions run
        // through every tile of the maze, each beside the other.
        cases.push_back({maze(40, 30, 7), {{1, 1}, {0, 0}}, rangeParams(connectivity), true, "maze, wall and corridor" + at});
        // Two bands meeting at x = 70 (inside a tile), with noise of +-3.
        LumaImage bands = test::randomImage(150, 90, test::PixelKind::Grey8, 11);
        for (int y = 0; y < bands.height; ++y)
            for (int x = 0; x < bands.width; ++x) {
                uint16_t& value = bands.luma[size_t(y) * size_t(bands.width) + size_t(x)];
                value = uint16_t((x < 70 ? 60 : 140) + value % 7);
            }
        cases.push_back({bands, {{149, 89}, {3, 4}}, rangeParams(connectivity, 20), true, "two bands" + at});
        // The widest ranges that share no luma, and the narrowest that share
        // one (the per-pixel step): set from the seeds' lumas below.
        cases.push_back({bands, {{5, 5}, {100, 50}}, rangeParams(connectivity), true, "two bands, nearest ranges" + at});
    }
    // Noise of 16 lumas, 5 seeds of distinct lumas, ranges of one luma: small
    // regions of different labels touching everywhere.
    LumaImage few = test::randomImage(203, 131, test::PixelKind::Grey8, 5);
    for (uint16_t& value : few.luma)
        value = uint16_t(value % 16 * 3);
    std::vector<Seed> distinct;
    std::vector<uint16_t> taken;
    for (int i = 0; i < few.width * few.height && distinct.size() < 5; i += 97) {
        const uint16_t value = few.luma[size_t(i)];
        if (std::find(taken.begin(), taken.end(), value) == taken.end()) {
            taken.push_back(value);
            distinct.push_back({i % few.width, i / few.width});
        }
    }
    GrowParams one = rangeParams(8, 1);
    cases.push_back({few, distinct, one, true, "noise of 16 lumas, 5 seeds"});
    one.connectivity = 4;
    one.maxIterations = 6;
    cases.push_back({few, distinct, one, true, "noise of 16 lumas, 5 seeds, a cap of 6"});
    // 16-bit noise, 40 seeds whose ranges of +-100 fall apart.
    LumaImage deep = test::randomImage(180, 140, test::PixelKind::Grey16, 3);
    std::vector<Seed> spread;
    for (int k = 0; k < 40; ++k) {
        const Seed seed{(k * 37) % deep.width, (k * 53) % deep.height};
        deep.luma[size_t(seed.y) * size_t(deep.width) + size_t(seed.x)] = uint16_t(1000 + 1500 * k);
        spread.push_back(seed);
    }
    for (uint16_t& value : deep.luma)
        value = uint16_t(1000 + value % 40 * 1500 + value % 61);
    for (size_t k = 0; k < spread.size(); ++k)
        deep.luma[size_t(spread[k].y) * size_t(deep.width) + size_t(spread[k].x)] = uint16_t(1000 + 1500 * k);
    cases.push_back({deep, spread, rangeParams(4, 100), true, "16-bit, 40 seeds"});

    for (const Case& c : cases) {
        PipelineParams params;
        params.grow = c.params;
        std::vector<uint32_t> lumas;
        for (const Seed& seed : c.seeds)
            lumas.push_back(c.image.luma[size_t(seed.y) * size_t(c.image.width) + size_t(seed.x)]);
        if (c.what.find("nearest") != std::string::npos) {
            // Lumas d apart: ranges of +-(d - 1) / 2 share no luma, +-(d + 1) / 2 share one.
            const uint32_t d = std::max(lumas[0], lumas[1]) - std::min(lumas[0], lumas[1]);
            params.grow.lower = params.grow.upper = (d - 1) / 2;
            GrowParams sharing = params.grow;
            sharing.lower = sharing.upper = (d + 1) / 2;
            ASSERT_FALSE(grow::rangesApart(sharing, lumas)) << c.what;
            expectTilesEqualTheReference(c.image, c.seeds, sharing, c.what + ", sharing one");
            const test::ScopedEnvironment noRing("RGX_TEST_NO_RING", "1");
            expectTilesEqualTheReference(c.image, c.seeds, sharing, c.what + ", sharing one, per pixel");
        }
        ASSERT_EQ(grow::rangesApart(params.grow, lumas), c.apart) << c.what;
        expectTilesEqualTheReference(c.image, c.seeds, params.grow, c.what + ", ring step");
        // The bitmap step of each region: devices without the ring step's work-groups.
        const test::ScopedEnvironment noRing("RGX_TEST_NO_RING", "1");
        expectTilesEqualTheReference(c.image, c.seeds, params.grow, c.what);
        const GrowResultPtr expected = runReferencePipeline(c.image, c.seeds, params);
        for (const DeviceInfo& info : listDevices()) {
            ComputeDevice device(info);
            const GrowResultPtr actual =
                runDevicePipeline(device, c.image, c.seeds, params, parseVariant("fusion=tiles"));
            EXPECT_TRUE(tookTheBitmapStep(*actual)) << c.what << " on " << info.name;
            GrowResultPtr stopped;
            {
                const test::ScopedEnvironment limit("RGX_TEST_TILE_STEP_LEVELS", "3");
                stopped = runDevicePipeline(device, c.image, c.seeds, params, parseVariant("fusion=tiles"));
            }
            EXPECT_EQ(compareResults(*expected, *stopped).differingPixels, 0u)
                << c.what << ", steps of 3 levels, on " << info.name;
            EXPECT_EQ(expected->iterations, stopped->iterations) << c.what << " on " << info.name;
        }
    }
}

// The rounds a tiled run took, from its grow_tiles records: their notes
// name their rounds ("tile rounds A to B" for a fused launch, "tile round
// R" for one a round), not their iteration (a round is not one). Launches
// of one round each come in batches: those past the run's end say
// "nothing queued" and are no rounds of the run.
int tileRounds(const GrowResult& result)
{
    int last = 0;
    for (const TimingRecord& record : result.timings) {
        if (record.kernel != "grow_tiles")
            continue;
        EXPECT_EQ(record.iteration, -1);
        if (record.note.rfind("tile rounds ", 0) == 0)
            last = std::max(last, std::stoi(record.note.substr(record.note.find(" to ") + 4)));
        else if (record.note.rfind("tile round ", 0) == 0 && record.note.find("nothing queued") == std::string::npos)
            last = std::max(last, std::stoi(record.note.substr(11)));
    }
    return last;
}

// 64 regions of mode range on smooth noise, where a pixel's region depends
// on its neighbours' labels: a wrong label held up across tile borders used
// to climb one level per round to the iteration cap (65 000 rounds for 124
// levels). In windows of levels it falls away at the window's end: the run
// takes at most its levels, one window and two rounds per window.
// Whether the run's tiles took the ring step (RGX_TILE_RING).
bool tookTheRingStep(const GrowResult& result)
{
    return std::any_of(result.kernels.begin(), result.kernels.end(), [](const KernelReport& kernel) {
        return kernel.kernel == "grow_tiles" && kernel.options.find("-DRGX_TILE_RING=") != std::string::npos;
    });
}

// The ring step grows exactly ringLevels levels a round: a run of `levels`
// levels takes at most this many rounds (the last finds nothing more).
int ringRoundLimit(uint32_t levels)
{
    return int(levels / grow::ringLevels) + 1;
}

// Where regions meet and their ranges share lumas, a pixel's region depends
// on its neighbours' labels. The ring step grows exactly ringLevels levels a
// round, from a copy of each tile with a ring around it, so a run of L
// levels takes L / ringLevels + 1 rounds (the last finds nothing more),
// whatever the regions do at the tile borders. 64 regions of smooth noise
// meet everywhere; a maze's corridors hold three regions that block each
// other; 16-bit noise of two lumas; seeds on a tile's corners; a cap.
TEST(TiledGrowing, RegionsSharingLumasGrowExactLevelsARoundFromACopyWithARing)
{
    struct Case {
        std::string what;
        LumaImage image;
        std::vector<Seed> seeds;
        GrowParams grow;
    };
    std::vector<Case> cases;
    cases.push_back({"64 regions of smooth noise, 4 neighbours", bench::smoothNoise(256, 1),
                     bench::gridSeeds(256, 256, 64), rangeParams(4, 40)});
    cases.push_back({"64 regions of smooth noise, 8 neighbours", bench::smoothNoise(256, 2),
                     bench::gridSeeds(256, 256, 64), rangeParams(8, 40)});
    LumaImage corridors = maze(24, 18, 7);
    cases.push_back({"three regions in a maze", corridors, {{1, 1}, {47, 35}, {1, 35}}, rangeParams(4, 10)});
    LumaImage two = test::randomImage(150, 97, test::PixelKind::Grey16, 3);
    for (uint16_t& value : two.luma)
        value = value % 2 ? 40000 : 20000;
    GrowParams wide = rangeParams(8, 20000); // both regions take both lumas
    cases.push_back({"two lumas, two regions, 8 neighbours", two, {{0, 0}, {149, 96}}, wide});
    cases.push_back({"seeds on tile corners", bench::smoothNoise(128, 3), {{31, 31}, {32, 32}, {63, 0}, {0, 95}},
                     rangeParams(8, 60)});
    GrowParams capped = rangeParams(4, 40);
    capped.maxIterations = 37;
    cases.push_back({"a cap of 37 levels", bench::smoothNoise(256, 4), bench::gridSeeds(256, 256, 9), capped});

    for (const Case& c : cases) {
        PipelineParams params;
        params.grow = c.grow;
        const GrowResultPtr expected = runReferencePipeline(c.image, c.seeds, params);
        for (const DeviceInfo& info : listDevices()) {
            ComputeDevice device(info);
            const GrowResultPtr actual =
                runDevicePipeline(device, c.image, c.seeds, params, parseVariant("fusion=tiles"));
            EXPECT_EQ(compareResults(*expected, *actual).differingPixels, 0u) << c.what << " on " << info.name;
            EXPECT_EQ(expected->iterations, actual->iterations) << c.what << " on " << info.name;
            EXPECT_TRUE(tookTheRingStep(*actual)) << c.what << " on " << info.name;
            // Also where the work-groups stopped meeting (a CPU busy with other
            // tests) and the run went on one round per launch.
            EXPECT_LE(tileRounds(*actual), ringRoundLimit(expected->iterations))
                << c.what << " on " << info.name << " (" << actual->note << ")";
        }
    }
}

// Whether a ring step's run went on as region `region`'s alone, by the
// bitmap step (its launches' notes name the region's rounds).
bool wentOnAlone(const GrowResult& result, uint32_t region)
{
    const std::string rounds = "region " + std::to_string(region) + "'s tile round";
    return std::any_of(result.timings.begin(), result.timings.end(), [&](const TimingRecord& record) {
        return record.kernel == "grow_tiles" && record.note.rfind(rounds, 0) == 0;
    });
}

// A serpentine corridor (rows y = 2 mod 4, joined at alternate ends) and two
// pockets of one pixel each in the wall rows between, a seed of luma 60
// beside a pixel of the corridor's luma that nothing else reaches: one
// pocket inside a tile, one across a tile border. The pockets' regions stop
// at once, so after the first ring round the corridor's region grows alone,
// by the bitmap step; the pixels beside the pockets must stay unclassified
// (the pockets' ranges do not hold them, and their pixels, seeds and halo
// are no sources for the corridor's region), and the corridor's levels run
// on from the ring's last.
TEST(TiledGrowing, ARegionLeftAloneGrowsOnByTheBitmapStepFromItsOwnPixels)
{
    LumaImage image = filled(128, 96, wallLuma);
    for (int y = 2; y < 96; y += 4) {
        for (int x = 2; x <= 125; ++x)
            set(image, x, y, floorLuma);
        const int end = (y / 4) % 2 == 0 ? 125 : 2;
        for (int dy = 1; dy < 4 && y + 4 < 96; ++dy)
            set(image, end, y + dy, floorLuma);
    }
    const Seed acrossBorder{31, 44}, insideTile{41, 40}, corridor{2, 2};
    for (const Seed pocket : {acrossBorder, insideTile}) {
        set(image, pocket.x, pocket.y, 60);
        set(image, pocket.x + 1, pocket.y, floorLuma);
    }
    const GrowParams shared = rangeParams(4, 25); // [35, 85] and [75, 125]: ranges that share lumas
    // The corridor's rounds hold a tile or two: left to the bitmap step
    // whatever their size, on every device (by default GPUs alone do it).
    const test::ScopedEnvironment anyRound("RGX_TEST_RING_ALONE_FROM", "1");
    for (const std::vector<Seed>& seeds :
         {std::vector<Seed>{acrossBorder, corridor, insideTile}, std::vector<Seed>{corridor, insideTile, acrossBorder}}) {
        const uint32_t alone = seeds[0].x == corridor.x ? 1u : 2u;
        for (const int connectivity : {4, 8}) {
            GrowParams grow = shared;
            grow.connectivity = connectivity;
            const GrowResult reference = growRegionsReference(image.luma, image.width, image.height, seeds, grow);
            ASSERT_GT(reference.iterations, 2000u) << "the corridor should be long";
            for (const Seed pocket : {acrossBorder, insideTile})
                ASSERT_EQ(reference.labels[size_t(pocket.y) * 128 + size_t(pocket.x) + 1], 0)
                    << "nothing should reach the pixel beside a pocket";
            PipelineParams params;
            params.grow = grow;
            for (const char* stepLevels : {"", "3"}) {
                // "3": steps stop after 3 levels and resume (every device takes the rows' vector reads).
                const test::ScopedEnvironment limit("RGX_TEST_TILE_STEP_LEVELS", stepLevels);
                const std::string what = "connectivity " + std::to_string(connectivity) + ", region " +
                                         std::to_string(alone) + " alone, step levels '" + stepLevels + "'";
                for (const DeviceInfo& info : listDevices()) {
                    ComputeDevice device(info);
                    const GrowResultPtr actual =
                        runDevicePipeline(device, image, seeds, params, parseVariant("fusion=tiles"));
                    const ResultDiff diff = compareResults(*runReferencePipeline(image, seeds, params), *actual);
                    EXPECT_EQ(diff.differingPixels, 0u)
                        << what << " on " << info.name << ": first at (" << diff.firstDifferingPixel % 128 << ","
                        << diff.firstDifferingPixel / 128 << ")";
                    EXPECT_EQ(reference.iterations, actual->iterations) << what << " on " << info.name;
                    EXPECT_TRUE(tookTheRingStep(*actual)) << what << " on " << info.name;
                    EXPECT_TRUE(wentOnAlone(*actual, alone)) << what << " on " << info.name;
                    // The ring's rounds stopped after the first: the pockets had stopped at level 0.
                    EXPECT_LE(tileRounds(*actual), 1) << what << " on " << info.name;
                }
            }
        }
    }
}

// Devices whose work-groups cannot take the ring step go per pixel, in
// windows of levels (RGX_TEST_NO_RING makes every device do so here).
TEST(TiledGrowing, WrongLabelsHoldingEachOtherUpAcrossTilesStopAtTheWindow)
{
    test::ScopedEnvironment pixels("RGX_TEST_NO_RING", "1");
    const LumaImage image = bench::smoothNoise(256, 1);
    const std::vector<Seed> seeds = bench::gridSeeds(256, 256, 64);
    PipelineParams params;
    params.grow = rangeParams(4, 40);
    const GrowResultPtr expected = runReferencePipeline(image, seeds, params);
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        const GrowResultPtr actual = runDevicePipeline(device, image, seeds, params, parseVariant("fusion=tiles"));
        EXPECT_EQ(compareResults(*expected, *actual).differingPixels, 0u) << info.name;
        EXPECT_FALSE(tookTheRingStep(*actual)) << info.name;
        const int windows = int(expected->iterations / tileLevelWindow) + 1;
        EXPECT_LE(tileRounds(*actual), int(expected->iterations + tileLevelWindow) + 2 * windows) << info.name;
    }
}

TEST(TiledGrowing, OneRegionInCompetitiveModeGrowsByTiles)
{
    const LumaImage image = test::randomImage(200, 77, test::PixelKind::Grey16, 8);
    GrowParams params;
    for (int connectivity : {4, 8}) {
        params.connectivity = connectivity;
        expectTilesEqualTheReference(image, {{150, 40}}, params, "competitive, one seed");
    }
}

// Several regions in mode competitive under rule adjacent: every pixel's
// stamp is its distance from the nearest seed, computed directly up to 256
// seeds (seed_distances) and by the tiles beyond (every seed a source), and
// the labels follow level by level in a second pass (label_levels.cl; up to
// 256 seeds the ties alone, label_ties.h). On
// images whose lumas make the labels hard (a maze, a spiral), seeds on tile
// corners, a cap, and random images with 2 to 300 seeds; every region's
// count and sum are checked too.
TEST(TiledGrowing, ManyRegionsInCompetitiveModeGrowByTilesThenLabelsByLevel)
{
    GrowParams competitive;
    competitive.mode = Mode::Competitive;
    competitive.rule = Rule::Adjacent;
    for (int connectivity : {4, 8}) {
        competitive.connectivity = connectivity;
        const std::string at = ", connectivity " + std::to_string(connectivity);
        expectTilesEqualTheReference(maze(60, 45, 2), {{1, 1}, {119, 89}, {61, 45}, {1, 89}}, competitive,
                                     "maze, four seeds" + at);
        expectTilesEqualTheReference(spiral(150), {{0, 0}, {75, 75}}, competitive, "spiral, both ends" + at);
        const int side = growTileSide;
        expectTilesEqualTheReference(test::randomImage(130, 100, test::PixelKind::Grey8, 21),
                                     {{side - 1, side - 1}, {side, 2 * side - 1}, {2 * side - 1, 0}, {129, 99}},
                                     competitive, "seeds on tile corners" + at);
    }
    GrowParams capped = competitive;
    capped.maxIterations = 9;
    expectTilesEqualTheReference(maze(30, 30, 3), {{1, 1}, {59, 59}}, capped, "maze with a cap of 9");
    for (uint32_t seed = 60; seed < 66; ++seed) {
        const LumaImage image =
            test::randomImage(157, 121, seed % 2 ? test::PixelKind::Grey8 : test::PixelKind::Grey16, seed);
        competitive.connectivity = seed % 3 ? 4 : 8;
        const int count = std::array<int, 6>{2, 256, 17, 300, 5, 130}[seed - 60];
        const std::vector<Seed> seeds = test::randomSeeds(image.width, image.height, count, seed);
        expectTilesEqualTheReference(image, seeds, competitive,
                                     std::to_string(count) + " seeds on random image " + std::to_string(seed));
        // Which first pass ran: the distances up to 256 seeds, the tiles beyond.
        PipelineParams params;
        params.grow = competitive;
        ComputeDevice device(listDevices().front());
        const GrowResultPtr actual = runDevicePipeline(device, image, seeds, params, parseVariant("fusion=tiles"));
        auto ran = [&actual](const char* kernel) {
            return std::any_of(actual->timings.begin(), actual->timings.end(),
                               [kernel](const TimingRecord& r) { return r.kernel == kernel; });
        };
        EXPECT_EQ(ran("seed_distances"), count <= 256) << count << " seeds";
        EXPECT_EQ(ran("grow_tiles"), count > 256) << count << " seeds";
        // Up to 256 regions the ties alone in one work-group (LabelTiesTest)
        // or every level in one launch; two launches a level beyond.
        EXPECT_TRUE(count <= 256 ? ran("label_ties") || ran("settle_ties") || ran("label_levels_fused") : ran("label_level"))
            << count << " seeds";
    }
}

// A corridor that winds through every row (a serpentine) enters each tile
// again and again, each time at a later level: the tile is recomputed from
// that level, keeping what it settled before (grow_tiles.cl, bitmap step).
TEST(TiledGrowing, ASerpentineReEntersEveryTileAtLaterLevels)
{
    const int size = 100;
    LumaImage image = filled(size, size, wallLuma);
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x)
            if (y % 2 == 0 || x == ((y / 2) % 2 == 0 ? size - 1 : 0))
                set(image, x, y, floorLuma);
    for (int connectivity : {4, 8})
        expectTilesEqualTheReference(image, {{size / 2, size / 2}}, rangeParams(connectivity),
                                     "serpentine, connectivity " + std::to_string(connectivity));
}

// A tile step stopped at its level limit writes the levels it settled and
// goes on from there in the next round (grow_tiles.cl, RGX_TILE_STEP_LEVELS;
// on GPUs in rounds of few tiles). Forced in every round with a limit of 3
// levels, with the GPUs' row reads on every device, on images whose rows
// take the vector loads (widths of multiples of 8) and others: exact, and
// in more rounds than without it.
TEST(TiledGrowing, StepsStoppedAtTheirLevelLimitGoOnFromThere)
{
    struct Case {
        LumaImage image;
        std::vector<Seed> seeds;
        GrowParams params;
        std::string what;
    };
    GrowParams ruleAll = rangeParams(8, 40);
    ruleAll.rule = Rule::All;
    const std::vector<Case> cases = {
        {spiral(64), {{0, 0}}, rangeParams(4), "spiral 64"},
        {detour(), {{2, 2}}, rangeParams(4), "detour"},
        {maze(25, 20, 9), {{1, 1}}, rangeParams(8), "maze 51x41"},
        {bench::smoothNoise(120, 2), bench::gridSeeds(120, 120, 4), ruleAll, "noise, 4 regions, rule all"}};
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        for (const Case& c : cases) {
            PipelineParams params;
            params.grow = c.params;
            const GrowResultPtr expected = runReferencePipeline(c.image, c.seeds, params);
            const GrowResultPtr whole = runDevicePipeline(device, c.image, c.seeds, params, parseVariant("fusion=tiles"));
            GrowResultPtr stopped;
            {
                const test::ScopedEnvironment limit("RGX_TEST_TILE_STEP_LEVELS", "3");
                stopped = runDevicePipeline(device, c.image, c.seeds, params, parseVariant("fusion=tiles"));
            }
            EXPECT_EQ(compareResults(*expected, *stopped).differingPixels, 0u) << c.what << " on " << info.name;
            EXPECT_EQ(expected->iterations, stopped->iterations) << c.what << " on " << info.name;
            bool limited = false;
            for (const KernelReport& kernel : stopped->kernels)
                limited |= kernel.kernel == "grow_tiles" &&
                           kernel.options.find("-DRGX_TILE_STEP_LEVELS=3 ") != std::string::npos &&
                           kernel.options.find("-DRGX_TILE_ROW_VECTORS=1") != std::string::npos;
            EXPECT_TRUE(limited) << c.what << " on " << info.name;
            EXPECT_GT(tileRounds(*stopped), tileRounds(*whole)) << c.what << " on " << info.name;
        }
    }
}

// The bitmap step's rows meet through a warp's shuffles on NVIDIA GPUs and
// through local memory elsewhere (kernels/tile_rows.h): the build options
// of the kernel that ran say which, and the results are the same.
TEST(TiledGrowing, NvidiaGpusExchangeRowsThroughWarpShuffles)
{
    const LumaImage image = maze(20, 20, 5);
    PipelineParams params;
    params.grow = rangeParams(4);
    const GrowResultPtr expected = runReferencePipeline(image, {{1, 1}}, params);
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        const GrowResultPtr actual = runDevicePipeline(device, image, {{1, 1}}, params, parseVariant("fusion=tiles"));
        EXPECT_EQ(compareResults(*expected, *actual).differingPixels, 0u) << info.name;
        const bool nvidiaGpu = info.type == "GPU" && info.vendor.find("NVIDIA") != std::string::npos;
        bool found = false;
        for (const KernelReport& kernel : actual->kernels)
            if (kernel.kernel == "grow_tiles") {
                found = true;
                EXPECT_EQ(kernel.options.find("-DRGX_WARP_PTX=1") != std::string::npos, nvidiaGpu)
                    << info.name << ": " << kernel.options;
            }
        EXPECT_TRUE(found) << info.name;
    }
}

TEST(TiledGrowing, IterationCapStopsLikeTheReference)
{
    const LumaImage image = maze(30, 30, 3);
    GrowParams params = rangeParams(4);
    params.maxIterations = 77;
    expectTilesEqualTheReference(image, {{1, 1}}, params, "maze with a cap of 77");
}

// A work-group that stops coming to the grid barrier (forced: it arrives
// at the third barrier of a launch only after the others gave it up) never
// fails a correct run: every group stops after the same step, the run goes
// on one step per launch from there, bit-exact, and says so.
TEST(GridBarrierStall, AFusedRunGoesOnOneStepPerLaunchAndStaysExact)
{
    const test::ScopedEnvironment stall("RGX_TEST_STALL_AT_BARRIER", "3");
    const LumaImage corridor = spiral(90); // many rounds of tiles, many levels
    const LumaImage noise = test::randomImage(90, 70, test::PixelKind::Grey8, 31);
    PipelineParams range;
    range.grow = rangeParams(4);
    PipelineParams competitive;
    // Seeds on a diagonal tie on two quadrants: too many ties for their
    // list, so every level is labelled with a grid barrier between.
    const LumaImage wide = test::randomImage(600, 600, test::PixelKind::Grey8, 32);
    int checked = 0;
    for (const DeviceInfo& info : listDevices()) {
        if (info.computeUnits < 2)
            continue; // one work-group: nobody to be late
        ComputeDevice device(info);
        struct Case {
            const LumaImage& image;
            std::vector<Seed> seeds;
            const PipelineParams& params;
            const char* variant;
            const char* said = "stopped meeting at the grid barrier";
        };
        const Case cases[] = {{corridor, {{0, 0}}, range, "fusion=tiles"},
                              {corridor, {{0, 0}, {45, 45}}, range, "fusion=tiles"},
                              {noise, {{5, 5}, {80, 60}}, competitive, "collectives=local,fusion=grid-barrier"},
                              {noise, {{45, 35}}, competitive, "fusion=grid-barrier"},
                              // Two passes: the labels' levels stall (every level: too many ties).
                              {wide, {{100, 100}, {200, 200}}, competitive, "fusion=tiles",
                               "stopped meeting at the grid barrier of the labels"}};
        for (const Case& c : cases) {
            const GrowResultPtr expected = runReferencePipeline(c.image, c.seeds, c.params);
            // On a loaded machine a work-group can be late to the roll call
            // already (then the run goes one step per launch from the start,
            // exact too): the stall itself is reached within some tries. Five
            // were not enough once under AddressSanitizer on a 2-core machine
            // (CI rehearsal of 7cb4242: the roll call failed five times on
            // PoCL, with the Intel runtime's threads about).
            std::string note;
            for (int attempt = 0; attempt < 20 && note.find(c.said) == std::string::npos; ++attempt) {
                const GrowResultPtr actual =
                    runDevicePipeline(device, c.image, c.seeds, c.params, parseVariant(c.variant));
                EXPECT_EQ(compareResults(*expected, *actual).differingPixels, 0u) << info.name << " " << c.variant;
                EXPECT_EQ(expected->iterations, actual->iterations) << info.name << " " << c.variant;
                // The launches of one round each redo no round and find no
                // tiles left over from an earlier one: the ring step's runs
                // keep their bound (its exact levels make it one).
                if (tookTheRingStep(*actual))
                    EXPECT_LE(tileRounds(*actual), ringRoundLimit(actual->iterations))
                        << info.name << " " << c.variant << ": " << actual->note;
                note = actual->note;
            }
            EXPECT_NE(note.find(c.said), std::string::npos)
                << info.name << " " << c.variant << ": " << note;
            ++checked;
        }
    }
    EXPECT_GT(checked, 0) << "no device with two compute units";
}

// A run can deviate from its variant twice: tiles that fall back to levels
// (the means decide) and then a stall of those levels. The note keeps both.
TEST(GridBarrierStall, AStallKeepsTheNoteOfAnEarlierFallback)
{
    const test::ScopedEnvironment stall("RGX_TEST_STALL_AT_BARRIER", "3");
    const LumaImage image = bench::smoothNoise(96, 5);
    PipelineParams params;
    params.grow.mode = Mode::Adaptive;
    params.grow.tolerance = 12;
    const std::vector<Seed> seeds = {{5, 5}, {80, 70}};
    const GrowResultPtr expected = runReferencePipeline(image, seeds, params);
    ASSERT_GT(expected->iterations, 3u);
    int checked = 0;
    for (const DeviceInfo& info : listDevices()) {
        if (info.computeUnits < 2)
            continue; // one work-group: nobody to be late
        ComputeDevice device(info);
        std::string note;
        for (int attempt = 0; attempt < 5 && note.find("stopped meeting") == std::string::npos; ++attempt) {
            const GrowResultPtr actual = runDevicePipeline(device, image, seeds, params, parseVariant("fusion=tiles"));
            EXPECT_EQ(compareResults(*expected, *actual).differingPixels, 0u) << info.name;
            note = actual->note;
        }
        EXPECT_NE(note.find("level by level"), std::string::npos) << info.name << ": " << note;
        EXPECT_NE(note.find("stopped meeting at the grid barrier"), std::string::npos) << info.name << ": " << note;
        ++checked;
    }
    EXPECT_GT(checked, 0) << "no device with two compute units";
}

// The same with no help: every core kept busy by spinning threads while
// the fused variants run, so that work-groups are descheduled for real.
TEST(GridBarrierStall, FusedRunsStayExactWhileEveryCoreIsBusy)
{
    std::atomic<bool> stop{false};
    std::vector<std::thread> load;
    for (unsigned i = 0; i < std::max(2u, std::thread::hardware_concurrency()); ++i)
        load.emplace_back([&] {
            volatile uint64_t spin = 0;
            while (!stop.load(std::memory_order_relaxed))
                spin = spin + 1;
        });
    const LumaImage corridor = spiral(80);
    const LumaImage noise = test::randomImage(160, 120, test::PixelKind::Grey8, 32);
    PipelineParams range;
    range.grow = rangeParams(8);
    PipelineParams competitive;
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        for (const char* variant : {"fusion=tiles", "collectives=local,fusion=grid-barrier"}) {
            for (const auto& [image, seeds, params] :
                 {std::tuple{&corridor, std::vector<Seed>{{0, 0}}, &range},
                  std::tuple{&noise, std::vector<Seed>{{10, 10}, {150, 100}, {80, 60}}, &competitive}}) {
                const GrowResultPtr expected = runReferencePipeline(*image, seeds, *params);
                GrowResultPtr actual;
                ASSERT_NO_THROW(actual = runDevicePipeline(device, *image, seeds, *params, parseVariant(variant)))
                    << info.name << " " << variant;
                EXPECT_EQ(compareResults(*expected, *actual).differingPixels, 0u)
                    << info.name << " " << variant << " (" << actual->note << ")";
            }
        }
    }
    stop = true;
    for (std::thread& thread : load)
        thread.join();
}

TEST(TiledGrowing, FallsBackToLevelsWhereMeansDecideAndSaysSo)
{
    const LumaImage image = test::randomImage(64, 48, test::PixelKind::Grey8, 3);
    PipelineParams params;
    params.grow.mode = Mode::Adaptive;
    const std::vector<Seed> seeds = {{5, 5}, {50, 40}};
    const GrowResultPtr expected = runReferencePipeline(image, seeds, params);
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        const GrowResultPtr actual = runDevicePipeline(device, image, seeds, params, parseVariant("fusion=tiles"));
        EXPECT_EQ(compareResults(*expected, *actual).differingPixels, 0u) << info.name;
        EXPECT_NE(actual->note.find("level by level"), std::string::npos) << actual->note;
    }
}
