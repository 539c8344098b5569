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
#include "TestVolumes.h"

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

// Points into `grids`: never a temporary's (the deleted overload below).
const WorkGroupGrid* gridOf(const std::vector<WorkGroupGrid>& grids, const std::string& kernel)
{
    for (const WorkGroupGrid& grid : grids)
        if (grid.kernel == kernel)
            return &grid;
    return nullptr;
}
const WorkGroupGrid* gridOf(std::vector<WorkGroupGrid>&& grids, const std::string& kernel) = delete;

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

// fusion=tiles in mode competitive computes the distances from the seeds a
// block of 32 x 32 pixels at a time: no tiles ran, the map shows the blocks.
TEST(WorkGroupGrid, CompetitiveDistancesAreMappedByTheirBlocks)
{
    ComputeDevice device(selectDevice("Portable Computing Language"));
    const PipelineParams params;
    const GrowResultPtr result = runOnPocl(device, coins(), params, "fusion=tiles");
    const std::vector<WorkGroupGrid> grids = workGroupGrids(*result, params);
    ASSERT_EQ(grids.size(), 1u);
    EXPECT_EQ(grids[0].kernel, "seed_distances");
    EXPECT_TRUE(grids[0].byPlace);
    EXPECT_EQ(grids[0].cellWidth, 32);
    EXPECT_EQ(grids[0].cellHeight, 32);
    EXPECT_EQ(grids[0].cellDepth, 1);
    EXPECT_NE(grids[0].description.find("distance from the nearest seed"), std::string::npos) << grids[0].description;
}

TEST(WorkGroupGrid, GaussianTilesCarryTheRadiusAsHalo)
{
    ComputeDevice device(selectDevice("Portable Computing Language"));
    PipelineParams params;
    params.prefilter = parsePrefilter("gaussian:3");
    const GrowResultPtr result = runOnPocl(device, coins(), params, "driver=host-batched");
    const std::vector<WorkGroupGrid> grids = workGroupGrids(*result, params); // outlives the pointer below
    const WorkGroupGrid* grid = gridOf(grids, "gaussian_async_halo");
    ASSERT_NE(grid, nullptr);
    EXPECT_TRUE(grid->byPlace);
    EXPECT_FALSE(grid->wrongOnPurpose);
    EXPECT_GT(grid->cellWidth, 1);
    EXPECT_EQ(grid->haloLeft, 3);
    EXPECT_EQ(grid->haloBottom, 3);
}

TEST(WorkGroupGrid, TheCpuReferenceHasNone)
{
    const PipelineParams params;
    const GrowResultPtr reference = runReferencePipeline(coins(), coinSeeds, params);
    EXPECT_TRUE(workGroupGrids(*reference, params).empty());
    GrowResult volume = *reference;
    volume.depth = 3;
    EXPECT_TRUE(workGroupGrids(volume, params).empty());
}

// A volume's level kernels see its slices stacked (voxel (x, y, z) is row
// z * sliceHeight + y: kernels/grow_common.h, voxel_of), and the sweep
// launches its tiles over that image (grow::LevelSteps: a global size of
// the width by all rows, rounded up to tiles, from the corner): a 16 x 16
// tile over slices of 20 rows holds the last 4 rows of one slice and the
// first 12 of the next, and copies the row before and the row after too.
TEST(WorkGroupGrid, AVolumesVoxelLiesInTheTileOfItsRowInTheStackedSlices)
{
    WorkGroupGrid grid;
    grid.byPlace = true;
    grid.cellWidth = grid.cellHeight = 16;
    grid.haloLeft = grid.haloTop = grid.haloRight = grid.haloBottom = 1;
    grid.sliceHeight = 20;
    const int width = 40, height = 20, depth = 4;
    EXPECT_EQ(grid.cellOf(17, 5, 1), (std::array<int, 3>{1, 1, 0})); // row 25
    const std::optional<VoxelCell> cell = voxelCell(grid, Seed{17, 5, 1}, width, height, depth);
    ASSERT_TRUE(cell);
    EXPECT_EQ(cell->index, (std::array<int, 3>{1, 1, 0}));
    // Rows 16..31: slice 0's rows 16..19 and slice 1's rows 0..11.
    ASSERT_EQ(cell->cell.size(), 2u);
    EXPECT_EQ(cell->cell[0], (VoxelBox{16, 16, 0, 31, 19, 0}));
    EXPECT_EQ(cell->cell[1], (VoxelBox{16, 0, 1, 31, 11, 1}));
    // Its halo: rows 15..32, columns 15..32.
    ASSERT_EQ(cell->halo.size(), 2u);
    EXPECT_EQ(cell->halo[0], (VoxelBox{15, 15, 0, 32, 19, 0}));
    EXPECT_EQ(cell->halo[1], (VoxelBox{15, 0, 1, 32, 12, 1}));
    // Every voxel of the cell's boxes is in the cell, and its neighbours
    // outside them are not.
    for (const VoxelBox& box : cell->cell)
        for (int z = box.z0; z <= box.z1; ++z)
            for (int y = box.y0; y <= box.y1; ++y)
                for (int x = box.x0; x <= box.x1; ++x)
                    EXPECT_EQ(grid.cellOf(x, y, z), cell->index) << x << "," << y << "," << z;
    EXPECT_NE(grid.cellOf(17, 15, 0), cell->index);
    EXPECT_NE(grid.cellOf(17, 12, 1), cell->index);
    // The last tile row is cut at the volume's end (80 rows: tiles 0..4),
    // and the right column at its width.
    const std::optional<VoxelCell> last = voxelCell(grid, Seed{39, 19, 3}, width, height, depth);
    ASSERT_TRUE(last);
    EXPECT_EQ(last->index, (std::array<int, 3>{2, 4, 0}));
    ASSERT_EQ(last->cell.size(), 1u);
    EXPECT_EQ(last->cell[0], (VoxelBox{32, 4, 3, 39, 19, 3}));
    EXPECT_EQ(last->halo[0], (VoxelBox{31, 3, 3, 39, 19, 3}));
    EXPECT_FALSE(voxelCell(grid, Seed{40, 0, 0}, width, height, depth));
    EXPECT_FALSE(voxelCell(grid, Seed{0, 0, 4}, width, height, depth));
    // A tile taller than a slice covers whole slices: one box.
    grid.sliceHeight = 4;
    const std::optional<VoxelCell> tall = voxelCell(grid, Seed{3, 2, 5}, 20, 4, 8);
    ASSERT_TRUE(tall);
    ASSERT_EQ(tall->cell.size(), 1u);
    EXPECT_EQ(tall->cell[0], (VoxelBox{0, 0, 4, 15, 3, 7}));
}

TEST(WorkGroupGrid, AVolumesSweepTilesAreTheLaunchOverItsStackedSlicesOnPocl)
{
    ComputeDevice device(selectDevice("Portable Computing Language"));
    const int width = 37, height = 21, depth = 9;
    const LumaImage volume = test::randomVolume(width, height, depth, false, 5);
    PipelineParams params;
    params.grow.connectivity = 6;
    const std::string text = "driver=host-batched,frontier=sweep,collectives=atomics,tile=async-nobarrier";
    const GrowResultPtr result =
        runDevicePipeline(device, volume, test::randomVoxelSeeds(width, height, depth, 5, 5), params, parseVariant(text));
    const std::vector<WorkGroupGrid> grids = workGroupGrids(*result, params);
    ASSERT_EQ(grids.size(), 1u);
    const WorkGroupGrid& grid = grids[0];
    EXPECT_EQ(grid.kernel, "grow_sweep");
    EXPECT_TRUE(grid.byPlace);
    EXPECT_TRUE(grid.wrongOnPurpose);
    EXPECT_EQ(grid.sliceHeight, height);
    EXPECT_EQ(grid.cellDepth, 0);
    const KernelReport* report = nullptr;
    for (const KernelReport& kernel : result->kernels)
        if (kernel.kernel == "grow_sweep")
            report = &kernel;
    ASSERT_NE(report, nullptr);
    const int tileWidth = int(buildOptionValue(report->options, "RGX_TILE_W"));
    const int tileHeight = int(buildOptionValue(report->options, "RGX_TILE_H"));
    EXPECT_EQ(grid.cellWidth, tileWidth);
    EXPECT_EQ(grid.cellHeight, tileHeight);
    // The work-group of voxel (x, y, z) is the one whose global ids hold
    // pixel (x, z * height + y) of the stacked image.
    for (int z = 0; z < depth; ++z)
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; x += 5) {
                const std::optional<VoxelCell> cell = voxelCell(grid, Seed{x, y, z}, width, height, depth);
                ASSERT_TRUE(cell);
                ASSERT_EQ(cell->index, (std::array<int, 3>{x / tileWidth, (z * height + y) / tileHeight, 0}))
                    << x << "," << y << "," << z;
                ASSERT_TRUE(std::any_of(cell->cell.begin(), cell->cell.end(),
                                        [&](const VoxelBox& box) { return box.contains(x, y, z); }));
            }
}

TEST(WorkGroupGrid, AVolumesBricksAreCellsOfEightCubedVoxels)
{
    ComputeDevice device(selectDevice("Portable Computing Language"));
    const int width = 30, height = 20, depth = 12;
    LumaImage volume;
    volume.width = width;
    volume.height = height;
    volume.depth = depth;
    volume.bitDepth = 8;
    volume.luma.assign(size_t(width) * height * depth, 100);
    PipelineParams params;
    params.grow.connectivity = 6;
    params.grow.mode = Mode::Range;
    params.grow.lower = params.grow.upper = 5;
    const GrowResultPtr result = runDevicePipeline(device, volume, {Seed{3, 4, 5}}, params, parseVariant("fusion=tiles"));
    const std::vector<WorkGroupGrid> grids = workGroupGrids(*result, params);
    ASSERT_EQ(grids.size(), 1u);
    const WorkGroupGrid& grid = grids[0];
    EXPECT_EQ(grid.kernel, "grow_bricks");
    EXPECT_EQ(grid.cell, "brick");
    EXPECT_FALSE(grid.wrongOnPurpose);
    EXPECT_EQ(grid.cellWidth, 8);
    EXPECT_EQ(grid.cellHeight, 8);
    EXPECT_EQ(grid.cellDepth, 8);
    EXPECT_EQ(grid.cellOf(9, 17, 3), (std::array<int, 3>{1, 2, 0}));
    EXPECT_EQ(grid.cellOf(9, 7, 8), (std::array<int, 3>{1, 0, 1}));
    const std::optional<VoxelCell> cell = voxelCell(grid, Seed{9, 17, 10}, width, height, depth);
    ASSERT_TRUE(cell);
    ASSERT_EQ(cell->cell.size(), 1u);
    EXPECT_EQ(cell->cell[0], (VoxelBox{8, 16, 8, 15, 19, 11}));
    EXPECT_EQ(cell->halo[0], (VoxelBox{7, 15, 7, 16, 19, 11}));
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
