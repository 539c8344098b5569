// The cost of the grid barrier alone (rgx-cli bench, "grid barrier floor"):
// after the roll call, `barriers` grid barriers with nothing between them.
#include "grid_barrier.h"

__kernel void grid_barriers(volatile __global uint* grid, const uint barriers)
{
    __local uint verdict;
    if (!grid_roll_call(grid, &verdict))
        return;
    uint passed = 0;
    for (uint i = 0; i < barriers; ++i)
        if (!grid_barrier(grid, &passed, &verdict, i, &grid[RGX_GRID_ARRIVALS])) // nothing to resume: any word
            return;
}
