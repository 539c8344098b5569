// Iteration 0 of a run for seed k: the seed starts region k + 1, its luma
// becomes the region's seed_luma (read here from the device's luma: the
// host has the same value, and no second upload is needed), the touched box
// takes its pixel (row y % slice_height of slice y / slice_height: an
// image's slice_height is its height), and with tile_side > 0 (fusion=tiles) its tile and the
// tiles beyond the edges it lies on are queued for round 1 (a seed never
// changes in its own tile, so that tile would not queue them; the ring step
// of grow_tiles.cl queues those within RGX_SEED_REACH pixels). Used by
// place_seeds (grow_session.cl) and by the first launch of grow_tiles.
#ifndef RGX_SEED_PLACEMENT_H
#define RGX_SEED_PLACEMENT_H

#include "grow_common.h"

#ifndef RGX_SEED_REACH
#define RGX_SEED_REACH 1
#endif

inline void place_seed(const uint k, __global const uint* seed_pixels, __global const ushort* luma,
                       __global uint* seed_luma, const uint width, const uint slice_height,
                       volatile __global ushort* labels, volatile __global uint* stamps, const uint tile_side, const uint tiles_x, const uint tiles_y,
                       volatile __global uint* tile_mark, volatile __global uint* round_one_list,
                       volatile __global uint* counters)
{
    const uint p = seed_pixels[k];
    seed_luma[k] = luma[p];
    labels[p] = (ushort)(k + 1);
    stamps[p] = 0;
    const uint x = p % width, y = p / width;
    volatile __global uint* touched = counters + RGX_COUNTER_TOUCHED;
    atomic_min(&touched[0], x);
    atomic_min(&touched[1], y % slice_height);
    atomic_max(&touched[2], x);
    atomic_max(&touched[3], y % slice_height);
    atomic_min(&counters[RGX_COUNTER_TOUCHED_Z + 0], y / slice_height);
    atomic_max(&counters[RGX_COUNTER_TOUCHED_Z + 1], y / slice_height);
    if (tile_side == 0)
        return;
    const int tile_x = (int)(x / tile_side), tile_y = (int)(y / tile_side);
    const uint px = x % tile_side, py = y % tile_side;
    for (int d = -1; d < 8; ++d) {
        const int dx = d < 0 ? 0 : neighbour_dx[d];
        const int dy = d < 0 ? 0 : neighbour_dy[d];
        if ((dx < 0 && px >= RGX_SEED_REACH) || (dx > 0 && px + RGX_SEED_REACH < tile_side) ||
            (dy < 0 && py >= RGX_SEED_REACH) || (dy > 0 && py + RGX_SEED_REACH < tile_side))
            continue;
        const int nx = tile_x + dx, ny = tile_y + dy;
        if (nx < 0 || ny < 0 || nx >= (int)tiles_x || ny >= (int)tiles_y)
            continue;
        const uint tile = (uint)ny * tiles_x + (uint)nx;
        if (atomic_xchg(&tile_mark[tile], 1u) != 1u)
            round_one_list[atomic_inc(&counters[RGX_COUNTER_TILES + 1])] = tile;
    }
}

#endif
