// The work-group map's geometry (engine/WorkGroupGrid.h) is the launch the
// engine made: the sizes it chose for the device, read back from the run's
// result, and for the box mean's wrong-on-purpose variant on PoCL the cells
// explain the corruption (docs/STAGES.md: all but work-item 0 of each
// work-group differ).
#include "Device.h"
#include "Image.h"
#include "Pipeline.h"
#include "WorkGroupGrid.h"
#include "reference/BoxMeanReference.h"
#include "stages/GrowWindow.h"
#include "stages/StageSupport.h"
#include "stages/grow/GrowPrograms.h"

#include <gtest/gtest.h>
#include <algorithm>

using namespace rgx;

namespace {

const std::vector<Seed> coinSeeds = {{10, 10}, {100, 100}, {200, 150}};

LumaImage coins() { return loadLumaImage(QStringLiteral(RGX_SAMPLES_DIR "/coins.png")); }

GrowResultPtr runOnPocl(ComputeDevice& device, const LumaImage& image, const PipelineParams& params,
                        const std::string& variant)
{
    return runDevicePipeline(device, image, coinSeeds, params, parseVariant(variant));
}

const WorkGroupGrid* gridOf(const std::vector<WorkGroupGrid>& grids, const std::string& kernel)
{
    for (const WorkGroupGrid& grid : grids)
        if (grid.kernel == kernel)
            return &grid;
    return nullptr;
}

} // namespace

TEST(WorkGroupGrid, ReadsIntegerDefinesFromBuildOptions)
{
    const std::string options = "-cl-std=CL1.2 -DRGX_WG_SIZE=256 -DRGX_TILE_W=16 -DRGX_TILE_H=8 -D\"RGX_BARRIER(f)=\"";
    EXPECT_EQ(buildOptionValue(options, "RGX_TILE_W"), 16);
    EXPECT_EQ(buildOptionValue(options, "RGX_TILE_H"), 8);
    EXPECT_EQ(buildOptionValue(options, "RGX_WG_SIZE"), 256);
    EXPECT_EQ(buildOptionValue(options, "RGX_SEGMENT"), -1);
}

TEST(WorkGroupGrid, BoxMeanAsyncNoBarrierCorruptsAllButTheFirstPixelOfEachRowSegmentOnPocl)
{
    ComputeDevice device(selectDevice("Portable Computing Language"));
    const LumaImage image = coins();
    PipelineParams params;
    params.prefilter = parsePrefilter("boxmean:5:async-nobarrier");
    const GrowResultPtr result = runOnPocl(device, image, params, "driver=host-batched");
    const std::vector<WorkGroupGrid> grids = workGroupGrids(*result, params);
    const WorkGroupGrid* grid = gridOf(grids, "box_mean_async");
    ASSERT_NE(grid, nullptr);
    EXPECT_EQ(grid->stage, "prefilter");
    EXPECT_TRUE(grid->byPlace);
    EXPECT_TRUE(grid->wrongOnPurpose);
    // BoxMean's segment: the largest power of two up to 256 the device takes.
    const size_t segment = stage::largestPowerOfTwoAtMost(std::min<size_t>(256, device.info().maxWorkGroupSize));
    EXPECT_EQ(grid->cellWidth, int(segment));
    EXPECT_EQ(grid->cellHeight, 1);
    // The 5 x 5 windows reach 2 pixels either side.
    EXPECT_EQ(grid->haloLeft, 2);
    EXPECT_EQ(grid->haloRight, 2);
    EXPECT_EQ(grid->haloTop, 2);
    EXPECT_EQ(grid->haloBottom, 2);

    ASSERT_TRUE(result->filteredLuma);
    const std::vector<uint16_t> expected = boxMeanReference(image.luma, image.width, image.height, 5);
    uint64_t agreeing = 0, cells = 0;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            const size_t p = size_t(y) * size_t(image.width) + size_t(x);
            const bool first = x % grid->cellWidth == 0;
            cells += first ? 1 : 0;
            if ((*result->filteredLuma)[p] == expected[p]) {
                ++agreeing;
                EXPECT_TRUE(first) << "pixel " << x << "," << y << " agrees but is not its segment's first";
            } else {
                EXPECT_FALSE(first) << "pixel " << x << "," << y << " is its segment's first and differs";
            }
        }
    EXPECT_EQ(agreeing, cells);
}

TEST(WorkGroupGrid, SweepTilesAreTheLevelProgramsLaunchShapeOnTheDevice)
{
    ComputeDevice device(selectDevice("Portable Computing Language"));
    const LumaImage image = coins();
    const PipelineParams params;
    const std::string text = "driver=host-sync,frontier=sweep,collectives=atomics,tile=async-nobarrier";
    const GrowResultPtr result = runOnPocl(device, image, params, text);
    grow::LevelGeometry geometry;
    grow::levelKernels(device, grow::levelVariant(parseVariant(text)), geometry);
    const std::vector<WorkGroupGrid> grids = workGroupGrids(*result, params);
    ASSERT_EQ(grids.size(), 1u);
    EXPECT_EQ(grids[0].kernel, "grow_sweep");
    EXPECT_TRUE(grids[0].byPlace);
    EXPECT_TRUE(grids[0].wrongOnPurpose);
    EXPECT_EQ(grids[0].cell, "tile");
    EXPECT_EQ(grids[0].cellWidth, int(geometry.tileWidth));
    EXPECT_EQ(grids[0].cellHeight, int(geometry.tileHeight));
    EXPECT_EQ(grids[0].haloLeft, 1);
    EXPECT_EQ(grids[0].haloBottom, 1);
    EXPECT_EQ(grids[0].column(int(geometry.tileWidth) - 1), 0);
    EXPECT_EQ(grids[0].column(int(geometry.tileWidth)), 1);
}

TEST(WorkGroupGrid, TheQueueFrontierHasNoMapByPlaceAndSaysWhy)
{
    ComputeDevice device(selectDevice("Portable Computing Language"));
    const PipelineParams params;
    const GrowResultPtr result =
        runOnPocl(device, coins(), params, "driver=host-batched,frontier=queue,collectives=local-nobarrier");
    const std::vector<WorkGroupGrid> grids = workGroupGrids(*result, params);
    ASSERT_EQ(grids.size(), 1u);
    EXPECT_EQ(grids[0].kernel, "grow_queue");
    EXPECT_FALSE(grids[0].byPlace);
    EXPECT_TRUE(grids[0].wrongOnPurpose);
    EXPECT_NE(grids[0].description.find("frontier list"), std::string::npos) << grids[0].description;
}

TEST(WorkGroupGrid, GaussianTilesCarryTheRadiusAsHalo)
{
    ComputeDevice device(selectDevice("Portable Computing Language"));
    PipelineParams params;
    params.prefilter = parsePrefilter("gaussian:3");
    const GrowResultPtr result = runOnPocl(device, coins(), params, "driver=host-batched");
    const WorkGroupGrid* grid = gridOf(workGroupGrids(*result, params), "gaussian_async_halo");
    ASSERT_NE(grid, nullptr);
    EXPECT_TRUE(grid->byPlace);
    EXPECT_FALSE(grid->wrongOnPurpose);
    EXPECT_GT(grid->cellWidth, 1);
    EXPECT_EQ(grid->haloLeft, 3);
    EXPECT_EQ(grid->haloBottom, 3);
}

TEST(WorkGroupGrid, TheCpuReferenceAndVolumesHaveNone)
{
    const PipelineParams params;
    const GrowResultPtr reference = runReferencePipeline(coins(), coinSeeds, params);
    EXPECT_TRUE(workGroupGrids(*reference, params).empty());
    GrowResult volume = *reference;
    volume.depth = 3;
    EXPECT_TRUE(workGroupGrids(volume, params).empty());
}

TEST(WorkGroupGrid, AFirstRunInAWindowLaysItsTilesFromTheWindowsCorner)
{
    // A 2000 x 2000 image, dark but for a disk around the seed: mode range
    // grows the disk in a window around the seed (engine/stages/GrowWindow.h).
    LumaImage image;
    image.width = image.height = 2000;
    image.bitDepth = 8;
    image.luma.assign(size_t(image.width) * size_t(image.height), 0);
    const Seed seed{1503, 1497};
    for (int y = seed.y - 40; y <= seed.y + 40; ++y)
        for (int x = seed.x - 40; x <= seed.x + 40; ++x)
            if ((x - seed.x) * (x - seed.x) + (y - seed.y) * (y - seed.y) <= 40 * 40)
                image.luma[size_t(y) * size_t(image.width) + size_t(x)] = 100;
    PipelineParams params;
    params.grow.mode = Mode::Range;
    params.grow.lower = params.grow.upper = 10;
    const GrowVariant variant = parseVariant("driver=host-batched,frontier=sweep,collectives=atomics,tile=async");
    const std::optional<GrowWindow> window = firstRunWindow(image, {seed}, params.grow, variant, 1);
    ASSERT_TRUE(window);
    ASSERT_GT(window->x0, 0);

    ComputeDevice device(selectDevice("Portable Computing Language"));
    const GrowResultPtr result = runDevicePipeline(device, image, {seed}, params, variant);
    EXPECT_EQ(result->grownIn.x0, window->x0);
    EXPECT_EQ(result->grownIn.y0, window->y0);
    EXPECT_EQ(result->grownIn.width, window->width);
    const std::vector<WorkGroupGrid> grids = workGroupGrids(*result, params);
    ASSERT_EQ(grids.size(), 1u);
    const WorkGroupGrid& grid = grids[0];
    EXPECT_EQ(grid.x0, window->x0);
    EXPECT_EQ(grid.y0, window->y0);
    EXPECT_EQ(grid.width, window->width);
    EXPECT_EQ(grid.height, window->height);
    EXPECT_EQ(grid.column(window->x0), 0);
    EXPECT_EQ(grid.column(window->x0 - 1), -1);
    EXPECT_EQ(grid.column(window->x0 + grid.cellWidth), 1);
    EXPECT_EQ(grid.row(window->y0 + grid.cellHeight - 1), 0);
    EXPECT_TRUE(grid.covers(seed.x, seed.y));
    EXPECT_FALSE(grid.covers(window->x0 - 1, seed.y));
    EXPECT_FALSE(grid.covers(seed.x, window->y0 + window->height));
}
