// Which work-group handled which pixel: the launch geometry of each stage's
// kernel as it ran (its build options and launch shape), for the explorer's
// work-group map, so that corruption at work-group and tile borders shows
// as such (issue 29, item 2).
#pragma once

#include "PipelineParams.h"
#include "Result.h"
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
    std::string cell;        // what a cell is: "work-group", "tile", "row segment"
    std::string description; // one line: the cells, the halo and why, or why there are none

    // The cell of pixel x (y), counted from the part's corner (negative before it).
    int column(int x) const { return floorDivide(x - x0, cellWidth); }
    int row(int y) const { return floorDivide(y - y0, cellHeight); }
    // Whether a work-group of this kernel handled pixel (x, y).
    bool covers(int x, int y) const
    {
        return x >= x0 && y >= y0 && (width == 0 || x < x0 + width) && (height == 0 || y < y0 + height);
    }

private:
    static int floorDivide(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
};

// The grids of the kernels that made `result` (2D images: depth 1), in
// pipeline order: the prefilter's main kernel (where it ran in this run),
// region growing's, the postfilter's. The sizes come from the build options
// the kernels ran with (result.kernels: RGX_TILE_W/H, RGX_SEGMENT,
// RGX_TILE_SIDE) and which kernel ran from the timing records; the halos
// from the stage's window or radius in `params`. Empty for volumes.
std::vector<WorkGroupGrid> workGroupGrids(const GrowResult& result, const PipelineParams& params);

// The value of -DNAME=VALUE in build options; -1 where it is not there.
long buildOptionValue(const std::string& options, const std::string& name);

} // namespace rgx
