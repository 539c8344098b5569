// The work-group grids of a run, read from the build options its kernels ran
// with (the engine's own choice of sizes on the device: see
// stages/BoxMean.cpp, stages/Gaussian.cpp, stages/grow/GrowPrograms.cpp) and
// from the timing records (which kernel launched).
#include "WorkGroupGrid.h"

#include "Errors.h"
#include "Variant.h"
#include "stages/GrowState.h"
#include "stages/StageVariants.h"

#include <algorithm>
#include <cstdlib>

namespace rgx {
namespace {

bool launched(const GrowResult& result, const std::string& stage, const std::string& kernel)
{
    return std::any_of(result.timings.begin(), result.timings.end(), [&](const TimingRecord& record) {
        return record.stage == stage && record.kernel == kernel;
    });
}

const KernelReport* reportOf(const GrowResult& result, const std::string& kernel)
{
    for (const KernelReport& report : result.kernels)
        if (report.kernel == kernel)
            return &report;
    return nullptr;
}

std::string sizeText(int width, int height) { return std::to_string(width) + " x " + std::to_string(height); }

WorkGroupGrid notByPlace(const std::string& stage, const std::string& kernel, const std::string& why)
{
    WorkGroupGrid grid;
    grid.stage = stage;
    grid.kernel = kernel;
    grid.description = kernel + ": " + why;
    return grid;
}

// A cell of width x height pixels whose work-group reads `halo` pixels
// around it on every side.
WorkGroupGrid byPlace(const std::string& stage, const std::string& kernel, int width, int height, int halo,
                      const std::string& cell)
{
    WorkGroupGrid grid;
    grid.stage = stage;
    grid.kernel = kernel;
    grid.byPlace = width > 0 && height > 0;
    grid.cellWidth = width;
    grid.cellHeight = height;
    grid.haloLeft = grid.haloTop = grid.haloRight = grid.haloBottom = halo;
    grid.cell = cell;
    return grid;
}

// boxmean:W: box_mean_async takes one row segment of RGX_SEGMENT pixels per
// work-group and copies the integral rows of its windows (the window's
// pixels around the segment: W/2 before, W - 1 - W/2 after, in both
// directions); box_mean_direct leaves the local size to the runtime.
std::vector<WorkGroupGrid> boxMeanGrids(const GrowResult& result, const PrefilterSpec& spec)
{
    const BoxMeanVariant variant = parseBoxMeanVariant(spec.variant);
    const std::string kernel = boxMeanKernel(variant);
    if (!launched(result, "prefilter", kernel))
        return {};
    if (variant == BoxMeanVariant::Direct)
        return {notByPlace("prefilter", kernel, "one work-item per pixel, the work-group size left to the runtime "
                                                 "(no local memory: a pixel's neighbours do not share a work-group's copy)")};
    const KernelReport* report = reportOf(result, kernel);
    const long segment = report ? buildOptionValue(report->options, "RGX_SEGMENT") : -1;
    if (segment <= 0)
        return {};
    const int window = spec.size;
    WorkGroupGrid grid = byPlace("prefilter", kernel, int(segment), 1, 0, "row segment");
    grid.haloLeft = grid.haloTop = window / 2;
    grid.haloRight = grid.haloBottom = window - 1 - window / 2;
    grid.wrongOnPurpose = variant == BoxMeanVariant::AsyncNoBarrier;
    grid.description = kernel + ": one work-group per row segment of " + std::to_string(segment) +
                       " pixels; it copies the top, then the bottom integral row of its " + std::to_string(window) +
                       " x " + std::to_string(window) + " windows into one local buffer" +
                       (grid.wrongOnPurpose ? " (no barrier between the copies: wrong on purpose)" : "");
    return {grid};
}

// gaussian:R: gaussian_async_halo takes one RGX_TILE_W x RGX_TILE_H tile
// per work-group with an R-pixel halo in local memory.
std::vector<WorkGroupGrid> gaussianGrids(const GrowResult& result, const PrefilterSpec& spec)
{
    const GaussianVariant variant = parseGaussianVariant(spec.variant);
    const std::string kernel = gaussianKernel(variant);
    if (!launched(result, "prefilter", kernel))
        return {};
    const KernelReport* report = reportOf(result, kernel);
    const long width = report ? buildOptionValue(report->options, "RGX_TILE_W") : -1;
    const long height = report ? buildOptionValue(report->options, "RGX_TILE_H") : -1;
    if (variant == GaussianVariant::Direct || width <= 0 || height <= 0)
        return {notByPlace("prefilter", kernel, "one work-item per pixel, the work-group size left to the runtime")};
    WorkGroupGrid grid = byPlace("prefilter", kernel, int(width), int(height), spec.size, "tile");
    grid.description = kernel + ": one work-group per " + sizeText(int(width), int(height)) + " tile, its " +
                       std::to_string(spec.size) + "-pixel halo copied into local memory with it";
    return {grid};
}

std::vector<WorkGroupGrid> growGrids(const GrowResult& result)
{
    GrowVariant variant;
    try {
        variant = parseVariant(result.variant);
    } catch (const InputError&) {
        return {}; // the CPU reference
    }
    if (launched(result, "grow", "grow_bricks")) {
        WorkGroupGrid grid = byPlace("grow", "grow_bricks", growBrickSide, growBrickSide, 1, "brick");
        grid.cellDepth = growBrickSide;
        grid.haloFront = grid.haloBack = 1;
        const std::string side = std::to_string(growBrickSide);
        grid.description = "grow_bricks: " + side + " x " + side + " x " + side +
                           " bricks, each grown by one work-group of " + std::to_string(growBrickSide * growBrickSide) +
                           " at a time in local memory with its one-voxel halo; a brick that lowers a neighbour's "
                           "halo queues it for the next round";
        return {grid};
    }
    if (launched(result, "grow", "seed_distances")) {
        // kernels/seed_distances.h: BLOCK_X, BLOCK_Y, BLOCK_Z.
        const bool volume = result.depth > 1;
        const int side = volume ? 16 : 32;
        WorkGroupGrid grid = byPlace("grow", "seed_distances", side, side, 0, "block");
        grid.cellDepth = volume ? 8 : 1;
        grid.description = "seed_distances: " + sizeText(side, side) + (volume ? " x 8" : "") +
                           " blocks, one work-group at a time: in mode competitive every pixel joins at its "
                           "distance from the nearest seed, compared among the few seeds that can be nearest in "
                           "the block; a pixel with one seed alone nearest takes its label, and the pixels "
                           "equidistant from several seeds are labelled afterwards, level by level";
        return {grid};
    }
    if (launched(result, "grow", "grow_tiles")) {
        const KernelReport* report = reportOf(result, "grow_tiles");
        const long side = report ? buildOptionValue(report->options, "RGX_TILE_SIDE") : -1;
        if (side <= 0)
            return {};
        WorkGroupGrid grid = byPlace("grow", "grow_tiles", int(side), int(side), 1, "tile");
        grid.description = "grow_tiles: " + sizeText(int(side), int(side)) +
                           " tiles, each grown by one work-group at a time in local memory with its one-pixel "
                           "halo; tiles exchange their borders at grid barriers";
        return {grid};
    }
    const std::string kernel = variant.frontier == Frontier::Sweep ? "grow_sweep" : "grow_queue";
    if (variant.frontier == Frontier::Queue) {
        WorkGroupGrid grid = notByPlace("grow", variant.fusion == Fusion::None ? kernel : "grow_levels",
                                        "each work-item takes one entry of the frontier list, in list order: a "
                                        "pixel's work-group is that of the frontier pixel that claimed it, which "
                                        "changes every iteration (no map by place)");
        grid.wrongOnPurpose = variant.wrongOnPurpose();
        return {grid};
    }
    const KernelReport* report = reportOf(result, "grow_sweep");
    const long width = report ? buildOptionValue(report->options, "RGX_TILE_W") : -1;
    const long height = report ? buildOptionValue(report->options, "RGX_TILE_H") : -1;
    if (width <= 0 || height <= 0)
        return {};
    const bool tile = variant.tile == Tile::Async || variant.tile == Tile::AsyncNoBarrier;
    WorkGroupGrid grid = byPlace("grow", kernel, int(width), int(height), 1, tile ? "tile" : "work-group");
    grid.wrongOnPurpose = variant.wrongOnPurpose();
    grid.description =
        kernel + ": one work-group per " + sizeText(int(width), int(height)) + " tile" +
        (tile ? std::string(", the stamps, then the labels of the tile and its one-pixel halo copied into one "
                            "local buffer") +
                    (variant.tile == Tile::AsyncNoBarrier ? " (no barrier between them: wrong on purpose)" : "")
              : std::string(", neighbours (the one-pixel halo) read from global memory")) +
        (variant.collectives == Collectives::LocalNoBarrier
             ? "; its counts summed in local memory without barriers (wrong on purpose)"
             : "");
    return {grid};
}

// density:W:MIN: each work-item decides 8 pixels of a row; the work-group
// size is the runtime's choice.
std::vector<WorkGroupGrid> densityGrids(const GrowResult& result, const PostfilterSpec& spec)
{
    const std::string kernel = densityKernel(parseDensityVariant(spec.variant));
    if (!launched(result, "postfilter", kernel))
        return {};
    return {notByPlace("postfilter", kernel,
                       "each work-item decides 8 pixels of a row; the work-group size is left to the runtime")};
}

} // namespace

long buildOptionValue(const std::string& options, const std::string& name)
{
    const std::string key = "-D" + name + "=";
    const size_t at = options.find(key);
    if (at == std::string::npos)
        return -1;
    const char* start = options.c_str() + at + key.size();
    char* end = nullptr;
    const long value = std::strtol(start, &end, 10);
    return end == start ? -1 : value;
}

namespace {

// Stacked rows first..last (clipped to the volume) as boxes of columns
// x0..x1: one box per slice, slices of the same rows in one.
std::vector<VoxelBox> stackedRowsAsBoxes(int first, int last, int x0, int x1, int sliceHeight, int depth)
{
    first = std::max(first, 0);
    last = std::min(last, sliceHeight * depth - 1);
    std::vector<VoxelBox> boxes;
    if (first > last || x0 > x1)
        return boxes;
    for (int z = first / sliceHeight; z <= last / sliceHeight; ++z) {
        const int y0 = std::max(first, z * sliceHeight) - z * sliceHeight;
        const int y1 = std::min(last, z * sliceHeight + sliceHeight - 1) - z * sliceHeight;
        if (!boxes.empty() && boxes.back().y0 == y0 && boxes.back().y1 == y1 && boxes.back().z1 == z - 1)
            boxes.back().z1 = z;
        else
            boxes.push_back(VoxelBox{x0, y0, z, x1, y1, z});
    }
    return boxes;
}

} // namespace

std::optional<VoxelCell> voxelCell(const WorkGroupGrid& grid, const Seed& voxel, int width, int height, int depth)
{
    if (!grid.byPlace || grid.cellWidth <= 0 || grid.cellHeight <= 0 || voxel.x < 0 || voxel.y < 0 || voxel.z < 0 ||
        voxel.x >= width || voxel.y >= height || voxel.z >= depth)
        return std::nullopt;
    VoxelCell found;
    found.index = grid.cellOf(voxel.x, voxel.y, voxel.z);
    const int column0 = grid.x0 + found.index[0] * grid.cellWidth;
    // The part the kernel ran on, in columns and (stacked) rows.
    const int partLeft = std::max(grid.x0, 0);
    const int partRight = grid.width > 0 ? std::min(grid.x0 + grid.width, width) - 1 : width - 1;
    const int x0 = std::max(column0, partLeft), x1 = std::min(column0 + grid.cellWidth - 1, partRight);
    const int haloX0 = std::max(x0 - grid.haloLeft, partLeft), haloX1 = std::min(x1 + grid.haloRight, partRight);
    if (grid.cellDepth > 0) {
        // Bricks: boxes in each slice's own rows.
        const int y0 = found.index[1] * grid.cellHeight, z0 = found.index[2] * grid.cellDepth;
        const VoxelBox cell{x0, y0, z0, x1, std::min(y0 + grid.cellHeight, height) - 1,
                            std::min(z0 + grid.cellDepth, depth) - 1};
        found.cell = {cell};
        found.halo = {VoxelBox{haloX0, std::max(cell.y0 - grid.haloTop, 0), std::max(cell.z0 - grid.haloFront, 0),
                               haloX1, std::min(cell.y1 + grid.haloBottom, height - 1),
                               std::min(cell.z1 + grid.haloBack, depth - 1)}};
        return found;
    }
    const int sliceHeight = grid.sliceHeight > 0 ? grid.sliceHeight : height;
    const int rows = sliceHeight * depth;
    const int row = grid.stackedRow(voxel.y, voxel.z);
    if (!grid.covers(voxel.x, row) || row >= rows)
        return std::nullopt;
    const int partTop = std::max(grid.y0, 0);
    const int partBottom = grid.height > 0 ? std::min(grid.y0 + grid.height, rows) - 1 : rows - 1;
    const int row0 = grid.y0 + found.index[1] * grid.cellHeight;
    const int first = std::max(row0, partTop), last = std::min(row0 + grid.cellHeight - 1, partBottom);
    found.cell = stackedRowsAsBoxes(first, last, x0, x1, sliceHeight, depth);
    found.halo = stackedRowsAsBoxes(std::max(first - grid.haloTop, partTop), std::min(last + grid.haloBottom, partBottom),
                                    haloX0, haloX1, sliceHeight, depth);
    return found;
}

std::vector<WorkGroupGrid> workGroupGrids(const GrowResult& result, const PipelineParams& params)
{
    std::vector<WorkGroupGrid> grids;
    auto add = [&grids](std::vector<WorkGroupGrid> more) { grids.insert(grids.end(), more.begin(), more.end()); };
    if (params.prefilter.kind == PrefilterSpec::Kind::BoxMean)
        add(boxMeanGrids(result, params.prefilter));
    else if (params.prefilter.kind == PrefilterSpec::Kind::Gaussian)
        add(gaussianGrids(result, params.prefilter));
    std::vector<WorkGroupGrid> growing = growGrids(result);
    for (WorkGroupGrid& grid : growing) {
        grid.x0 = result.grownIn.x0;
        grid.y0 = result.grownIn.y0;
        grid.width = result.grownIn.width;
        grid.height = result.grownIn.height;
        if (grid.byPlace && grid.width > 0)
            grid.description += " (this run grew in the window " + std::to_string(grid.width) + " x " +
                                std::to_string(grid.height) + " at " + std::to_string(grid.x0) + "," +
                                std::to_string(grid.y0) + " around the seeds: its tiles start there)";
    }
    if (result.depth > 1)
        for (WorkGroupGrid& grid : growing)
            if (grid.byPlace && grid.cellDepth == 0) {
                // The level kernels see the slices stacked (kernels/grow_common.h, voxel_of).
                grid.sliceHeight = result.height;
                grid.description += " (on a volume the tiles lie over its slices stacked, voxel x, y, z as row z * " +
                                    std::to_string(result.height) +
                                    " + y, so a tile may span two slices; neighbours in the slices before and after "
                                    "are read from global memory)";
            }
    add(std::move(growing));
    if (params.postfilter.enabled)
        add(densityGrids(result, params.postfilter));
    for (WorkGroupGrid& grid : grids)
        if (grid.byPlace && grid.description.empty())
            grid.description = grid.kernel;
    return grids;
}

} // namespace rgx
