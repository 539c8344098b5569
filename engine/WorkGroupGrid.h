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
// laid from the image's top-left pixel: cell (i, j) covers the pixels
// x = i * cellWidth .. (i + 1) * cellWidth - 1, y likewise; it reads the
// cell and the halo around it (clipped at the image edge).
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
    std::string cell;        // what a cell is: "work-group", "tile", "row segment"
    std::string description; // one line: the cells, the halo and why, or why there are none

    int column(int x) const { return x / cellWidth; }
    int row(int y) const { return y / cellHeight; }
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
