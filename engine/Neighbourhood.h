// The neighbourhoods of SPEC.md, for images (4, 8) and volumes (6, 18, 26),
// in one table whose order kernels/grow_common.h repeats: the 4
// neighbours in the slice, then the 4 diagonals in the slice (so that the
// first 4 or 8 entries are the 2D neighbourhoods), then the 2 across
// slices, the 8 across slices that differ in one more coordinate, and the
// 8 corners.
#pragma once

#include <cstddef>

namespace rgx {

struct NeighbourOffset {
    int dx;
    int dy;
    int dz;
};

constexpr int maxNeighbours = 26;
constexpr NeighbourOffset neighbourOffsets[maxNeighbours] = {
    {-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0},                          // 4: faces in the slice
    {-1, -1, 0}, {1, -1, 0}, {-1, 1, 0}, {1, 1, 0},                        // 8: diagonals in the slice
    {0, 0, -1}, {0, 0, 1},                                                 // faces across slices
    {-1, 0, -1}, {1, 0, -1}, {0, -1, -1}, {0, 1, -1},                      // edges across slices
    {-1, 0, 1}, {1, 0, 1}, {0, -1, 1}, {0, 1, 1},                          // (18 with the above)
    {-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},                    // corners (26)
    {-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}, {1, 1, 1},
};

// Whether entry d of the table belongs to the neighbourhood of `connectivity`.
constexpr bool neighbourInUse(int d, int connectivity)
{
    return connectivity == 6 ? (d < 4 || d == 8 || d == 9) : d < connectivity;
}

// Whether a connectivity is one of SPEC's for a volume of `depth` slices
// (4 and 8 only for depth 1; 6, 18 and 26 for any depth).
constexpr bool connectivityFits(int connectivity, int depth)
{
    return connectivity == 6 || connectivity == 18 || connectivity == 26
           || ((connectivity == 4 || connectivity == 8) && depth == 1);
}

// The neighbourhood of `connectivity` within one slice: 4 for 6, 8 for 18
// and 26 (their in-plane neighbours), 4 and 8 themselves. Kernels that know
// images only (the 2D tiles) take this for a volume of one slice.
constexpr int inPlaneConnectivity(int connectivity)
{
    return connectivity == 6 ? 4 : connectivity == 18 || connectivity == 26 ? 8 : connectivity;
}

// Visits the neighbours (index, x, y, z) of voxel (x, y, z) that exist in
// a width x height x depth volume.
template <typename Visit>
void forEachNeighbour(int x, int y, int z, int width, int height, int depth, int connectivity, Visit visit)
{
    for (int d = 0; d < maxNeighbours; ++d) {
        if (!neighbourInUse(d, connectivity))
            continue;
        const int nx = x + neighbourOffsets[d].dx;
        const int ny = y + neighbourOffsets[d].dy;
        const int nz = z + neighbourOffsets[d].dz;
        if (nx >= 0 && ny >= 0 && nz >= 0 && nx < width && ny < height && nz < depth)
            visit((size_t(nz) * size_t(height) + size_t(ny)) * size_t(width) + size_t(nx), nx, ny, nz);
    }
}

} // namespace rgx
