// What every region-growing kernel file shares: the neighbourhood, the
// growing modes, the range test and atomics on 64-bit sums.
#ifndef RGX_GROW_COMMON_H
#define RGX_GROW_COMMON_H

#include "grow_counters.h"

#define UNCLASSIFIED RGX_UNCLASSIFIED

#define RGX_MODE_COMPETITIVE 0
#define RGX_MODE_ADAPTIVE 1
#define RGX_MODE_RANGE 2

// Neighbour offsets, in engine/Neighbourhood.h's order: the first four are
// the 4-neighbourhood, the first eight the 8-neighbourhood, then those
// across slices of a volume (6: the first four and entries 8 and 9; 18 and
// 26: the first 18 or all).
__constant int neighbour_dx[26] = {-1, 1, 0, 0, -1, 1, -1, 1, 0, 0, -1, 1, 0, 0, -1, 1, 0, 0,
                                   -1, 1, -1, 1, -1, 1, -1, 1};
__constant int neighbour_dy[26] = {0, 0, -1, 1, -1, -1, 1, 1, 0, 0, 0, 0, -1, 1, 0, 0, -1, 1,
                                   -1, -1, 1, 1, -1, -1, 1, 1};
__constant int neighbour_dz[26] = {0, 0, 0, 0, 0, 0, 0, 0, -1, 1, -1, -1, -1, -1, 1, 1, 1, 1,
                                   -1, -1, -1, -1, 1, 1, 1, 1};

// The neighbours a program visits at most: 8 for images, 26 for volumes
// (engine/stages/grow/GrowPrograms.cpp builds one program of each).
#ifndef RGX_NEIGHBOURS
#define RGX_NEIGHBOURS 8
#endif

// The n stamps of a line lowered along it, forward and back: each at most
// one more than its neighbours on the line (a 1D city-block distance
// transform). A 6-connected brick or a 4-connected tile whose voxels are
// all open finds its distances by one sweep along each axis (grow_bricks.cl,
// tile_step_bits.h); n is a constant where they call it, so the loops
// unroll and the line stays in registers. (PoCL's compiler took 46 s over
// grow_tiles with a tile's sweeps, 15 s without: PoCL keeps the levels.)
#define RGX_SWEEP_LONGEST 32
inline void sweep_line(uint* d, const int n)
{
#pragma unroll
    for (int i = 1; i < n; ++i)
        d[i] = min(d[i], add_sat(d[i - 1], 1u));
#pragma unroll
    for (int i = n - 2; i >= 0; --i)
        d[i] = min(d[i], add_sat(d[i + 1], 1u));
}

// sweep_line on a line of local memory, `stride` words apart.
inline void sweep_local(__local uint* line, const int stride, const int n)
{
    uint d[RGX_SWEEP_LONGEST];
#pragma unroll
    for (int i = 0; i < n; ++i)
        d[i] = line[i * stride];
    sweep_line(d, n);
#pragma unroll
    for (int i = 0; i < n; ++i)
        line[i * stride] = d[i];
}

inline bool neighbour_in_use(int d, int connectivity)
{
    return connectivity == 6 ? (d < 4 || d == 8 || d == 9) : d < connectivity;
}

// One past the last entry of the table a connectivity uses, at most the
// program's RGX_NEIGHBOURS: loops stop there (an image's 4 neighbours cost
// 4 steps, not 8).
inline int neighbour_end(int connectivity)
{
    return min(connectivity == 6 ? 10 : connectivity, RGX_NEIGHBOURS);
}

// Where a pixel lies: x, and its row split into y in its slice and the
// slice z. `height` is the rows of all slices stacked (the maps' layout),
// `slice_height` those of one slice (= height for an image).
typedef struct {
    int x;
    int y;
    int z;
} voxel_t;

inline voxel_t voxel_of(uint p, int width, int slice_height)
{
    voxel_t v;
    const uint row = p / (uint)width;
    v.x = (int)(p - row * (uint)width);
#if RGX_NEIGHBOURS > 8
    v.z = (int)(row / (uint)slice_height);
    v.y = (int)(row - (uint)v.z * (uint)slice_height);
#else
    (void)slice_height;
    v.z = 0;
    v.y = (int)row;
#endif
    return v;
}

// Neighbour d of v in a width x height (stacked rows) volume of slices of
// slice_height rows: its index, or NO_NEIGHBOUR where it does not exist.
#define NO_NEIGHBOUR 0xFFFFFFFFu
inline uint neighbour_index(voxel_t v, int d, int width, int height, int slice_height)
{
    const int x = v.x + neighbour_dx[d];
    const int y = v.y + neighbour_dy[d];
#if RGX_NEIGHBOURS > 8
    const int z = v.z + neighbour_dz[d];
    const bool exists = x >= 0 && y >= 0 && z >= 0 && x < width && y < slice_height &&
                        z * slice_height < height;
    return exists ? ((uint)z * (uint)slice_height + (uint)y) * (uint)width + (uint)x : NO_NEIGHBOUR;
#else
    (void)slice_height;
    const bool exists = x >= 0 && y >= 0 && x < width && y < height;
    return exists ? (uint)y * (uint)width + (uint)x : NO_NEIGHBOUR;
#endif
}

// SPEC.md mode range: L(p) within [S_k - lower, S_k + upper].
inline bool within_range(uint value, uint seed, uint lower, uint upper)
{
    return (ulong)value + lower >= seed && (ulong)value <= (ulong)seed + upper;
}

// Adds a 32-bit value into a 64-bit counter kept as two uints (lo, hi) with
// 32-bit atomics only (OpenCL 1.2 has no 64-bit atomics in its core): a carry
// happens exactly when the old low word plus the value wraps around.
inline void atomic_add_u64(volatile __global uint* counter, uint value)
{
    if (value == 0)
        return;
    uint old = atomic_add(&counter[0], value);
    if (old + value < old)
        atomic_inc(&counter[1]);
}

// The same for a full 64-bit value.
inline void atomic_add_u64_wide(volatile __global uint* counter, ulong value)
{
    atomic_add_u64(counter, (uint)value);
    if ((value >> 32) != 0)
        atomic_add(&counter[1], (uint)(value >> 32));
}

inline void local_add_u64_wide(volatile __local uint* counter, ulong value)
{
    const uint low = (uint)value;
    if (low != 0) {
        uint old = atomic_add(&counter[0], low);
        if (old + low < old)
            atomic_inc(&counter[1]);
    }
    if ((value >> 32) != 0)
        atomic_add(&counter[1], (uint)(value >> 32));
}

// Adds `count` pixels of luma sum `sum` to region k's totals: the group's in
// local memory, or the global ones directly when there are too many regions.
inline void add_region_run(uint k, uint count, ulong sum, bool local_regions, __local uint* stats,
                           volatile __global uint* region_stats)
{
    if (local_regions) {
        atomic_add(&stats[(k - 1) * RGX_REGION_STATS_WORDS], count);
        local_add_u64_wide(&stats[(k - 1) * RGX_REGION_STATS_WORDS + 1], sum);
    } else {
        atomic_add(&region_stats[(k - 1) * RGX_REGION_STATS_WORDS], count);
        atomic_add_u64_wide(&region_stats[(k - 1) * RGX_REGION_STATS_WORDS + 1], sum);
    }
}

#endif
