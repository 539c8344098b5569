// Which work-group handled which pixel: the launch geometry of each stage's
// kernel as it ran (its build options and launch shape), for the explorer's
// work-group map, so that corruption at work-group and tile borders shows
// as such (issue 29, item 2).
#pragma once

#include "PipelineParams.h"
#include "Result.h"
#include "Seeds.h"
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace rgx {

// How one kernel of a run cut the image among its work-groups. Cells are
// laid from the top-left pixel of the part the kernel ran on (the image, or
// a first run's window: GrowResult::grownIn): cell (i, j) covers the pixels
// x = x0 + i * cellWidth .. x0 + (i + 1) * cellWidth - 1, y likewise; it
// reads the cell and the halo around it (clipped at the part's edge).
struct WorkGroupGrid {
    std::string stage;       // "prefilter", "grow", "postfilter" (as timing records name it)
    std::string kernel;      // e.g. "grow_sweep", "box_mean_async"
    bool wrongOnPurpose = false; // the kernel ran a wrong-on-purpose variant
    // False: work-groups are not tied to places (the queue frontier takes
    // its list in order; the runtime chose the local size): no cells.
    bool byPlace = false;
    int cellWidth = 0;       // pixels of a cell (a work-group's pixels, or a tile's)
    int cellHeight = 0;
    int haloLeft = 0;        // pixels around a cell that its work-group reads too
    int haloTop = 0;
    int haloRight = 0;
    int haloBottom = 0;
    int x0 = 0;              // the part the kernel ran on (width 0: the whole image)
    int y0 = 0;
    int width = 0;
    int height = 0;
    std::string cell;        // what a cell is: "work-group", "tile", "row segment", "brick"
    std::string description; // one line: the cells, the halo and why, or why there are none

    // Volumes (SPEC "Volumes (3D)"). The kernels see a volume's slices
    // stacked, as its maps are stored: voxel (x, y, z) is pixel
    // (x, z * sliceHeight + y) of an image of depth * sliceHeight rows, and
    // the cells above are laid over that image (a tile may span two slices;
    // y0 and height count its rows). 0: an image.
    int sliceHeight = 0;
    // Bricks: cells of cellWidth x cellHeight x cellDepth voxels laid from
    // voxel (0, 0, 0) in each slice's own rows, with haloFront slices before
    // and haloBack after. 0: the cells are laid over the stacked rows.
    int cellDepth = 0;
    int haloFront = 0;
    int haloBack = 0;

    // The cell of pixel x (y), counted from the part's corner (negative before it).
    int column(int x) const { return floorDivide(x - x0, cellWidth); }
    int row(int y) const { return floorDivide(y - y0, cellHeight); }
    // The cell of voxel (x, y, z): column, row and layer (0 but for bricks).
    std::array<int, 3> cellOf(int x, int y, int z) const
    {
        if (cellDepth > 0)
            return {column(x), row(y), floorDivide(z, cellDepth)};
        return {column(x), row(z * sliceHeight + y), 0};
    }
    // The row of the stacked image that voxel row y of slice z is.
    int stackedRow(int y, int z) const { return cellDepth > 0 ? y : z * sliceHeight + y; }
    // Whether a work-group of this kernel handled pixel (x, y).
    bool covers(int x, int y) const
    {
        return x >= x0 && y >= y0 && (width == 0 || x < x0 + width) && (height == 0 || y < y0 + height);
    }

private:
    static int floorDivide(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
};

// Voxels x0..x1, y0..y1, z0..z1 (inclusive).
struct VoxelBox {
    int x0 = 0, y0 = 0, z0 = 0;
    int x1 = -1, y1 = -1, z1 = -1;
    bool contains(int x, int y, int z) const { return x >= x0 && x <= x1 && y >= y0 && y <= y1 && z >= z0 && z <= z1; }
    bool operator==(const VoxelBox& other) const
    {
        return x0 == other.x0 && y0 == other.y0 && z0 == other.z0 && x1 == other.x1 && y1 == other.y1 && z1 == other.z1;
    }
};

// Which cell of a grid handled a voxel, and the voxels its work-group read.
struct VoxelCell {
    std::array<int, 3> index{0, 0, 0}; // column, row, layer (WorkGroupGrid::cellOf)
    // The cell's voxels, and those its work-group copies into local memory
    // (the cell and its halo), clipped to the volume and to the part the
    // kernel ran on: a box per run of slices of the same rows (a tile over
    // the stacked slices that spans two of them is two boxes).
    std::vector<VoxelBox> cell;
    std::vector<VoxelBox> halo;
};

// The cell of voxel `voxel` of a width x height x depth volume (height: one
// slice's rows; an image: depth 1); none where the grid has no cells by
// place or its kernel did not handle the voxel.
std::optional<VoxelCell> voxelCell(const WorkGroupGrid& grid, const Seed& voxel, int width, int height, int depth);

// The grids of the kernels that made `result`, in pipeline order: the
// prefilter's main kernel (where it ran in this run), region growing's, the
// postfilter's. The sizes come from the build options the kernels ran with
// (result.kernels: RGX_TILE_W/H, RGX_SEGMENT, RGX_TILE_SIDE) and which
// kernel ran from the timing records; the halos from the stage's window or
// radius in `params`. A volume's (region growing only: the filters are 2D)
// carry its sliceHeight; its bricks (grow_bricks) are cells of 8^3 voxels.
std::vector<WorkGroupGrid> workGroupGrids(const GrowResult& result, const PipelineParams& params);

// The value of -DNAME=VALUE in build options; -1 where it is not there.
long buildOptionValue(const std::string& options, const std::string& name);

} // namespace rgx
