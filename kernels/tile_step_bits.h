// The bitmap step of a tile (grow_tiles.cl, RGX_TILE_BITS 1). Included by
// grow_tiles.cl after the helpers both steps share.
#ifndef RGX_TILE_STEP_BITS_H
#define RGX_TILE_STEP_BITS_H

// Per row bitmap, where every classified pixel's label is fixed by its own
// luma (one region, or rule all): whether a pixel joins at a level is then
// "a neighbour joined at the level before, and the pixel is in the mask",
// and a level of the whole tile is a few shifts and ORs per row. Work-item
// r (RGX_WG_SIZE == SIDE == 32: a row is one uint) owns row r of the tile
// and column r of the top and bottom halo rows; the rows meet through
// tile_rows.h (a warp's shuffles on NVIDIA, local memory elsewhere).
//
// Stamps only ever fall here, so a tile is recomputed from the first level
// at which its halo or its seeds can lower a stamp, not from scratch: the
// pixels at or below that level keep their stamps (a path that lowers a
// stamp passes through such a source, which offers one level more), and a
// tile whose halo lowers nothing costs its reads alone.
#if RGX_WG_SIZE != SIDE || SIDE != 32
#error "the bitmap tile step needs RGX_WG_SIZE == RGX_TILE_SIDE == 32"
#endif
#include "tile_rows.h"

// Rows of the tile read before the first is used (a power of two up to SIDE).
#ifndef RGX_TILE_READ_AHEAD
#define RGX_TILE_READ_AHEAD 1
#endif

// Levels a tile step runs at most in a thin round (0: no limit). A round
// lasts as long as its slowest tile, and in a round of few tiles (a narrow
// region's front) a tile off the front's path, a dead end with many levels,
// holds the others up: a tile that reaches the limit writes the levels it
// has settled, and goes on from there in the next round. A round is thin
// when it has at most one tile per RGX_TILE_THIN_ROUND work-groups (0: every
// round, for tests); in a wide front every tile is on the front's path, and
// a stop only adds a step.
#ifndef RGX_TILE_STEP_LEVELS
#define RGX_TILE_STEP_LEVELS 0
#endif
#ifndef RGX_TILE_ROW_VECTORS
#define RGX_TILE_ROW_VECTORS 0
#endif
#ifndef RGX_TILE_THIN_ROUND
#define RGX_TILE_THIN_ROUND 4
#endif

// Per-pixel arrays are rows of SIDE + 1 (ROW): a work-item that walks its
// row and one that walks its column both meet a different bank each step.
#define ROW (SIDE + 1)

typedef struct {
    uint stamp[SIDE * ROW];       // the tile's new stamps
    uint old[SIDE * ROW];         // its stamps in global memory when the step began
    ushort region[SIDE * ROW];    // the region its luma takes, 0 for none (mode range; else 1)
    uint halo[4][SIDE + 2];       // stamps of the top and bottom rows (x -1..SIDE), left and right columns (y -1..SIDE)
    RowExchange rows;             // tile_rows.h
    uint edges;                   // bit d: a changed pixel borders neighbour tile d
    uint changed;
    uint queued;                  // the round's tile count, broadcast to the group
    uint first;                   // the group's first tile of the round
    uint verdict;                 // of the grid barrier
} TileScratch;

#define HALO_TOP 0
#define HALO_BOTTOM 1
#define HALO_LEFT 2
#define HALO_RIGHT 3

// The level at which halo neighbours make a pixel join, one more than the
// smallest of their stamps (UNCLASSIFIED for none): index is the pixel's
// position along that side, the halo arrays run from -1 (entry 0).
inline uint joins_from(__local const uint* side, int index, int connectivity)
{
    uint best = side[index + 1];
    if (connectivity == 8)
        best = min(best, min(side[index], side[index + 2]));
    return best == UNCLASSIFIED ? UNCLASSIFIED : best + 1;
}

// The level to recompute from when a halo pixel offers `joins` to an edge
// pixel of the mask whose stamp is `stamp`: one before, if that lowers it.
inline uint lowers_from(uint joins, uint stamp, bool in_mask, uint cap)
{
    return in_mask && joins <= cap && joins < stamp ? joins - 1 : UNCLASSIFIED;
}


// The index of the lowest set bit of a non-zero word.
inline int lowest_bit(uint bits) { return 31 - (int)clz(bits & (0u - bits)); }

// Without a branch: a work-group of one warp, alone on its scheduler, pays
// the whole latency of every branch, level after level.
inline uint reach_of(uint above, uint here, uint below, int connectivity)
{
    const uint column = above | below;
    const uint diagonal = connectivity == 8 ? 0xFFFFFFFFu : 0u;
    return column | (here << 1) | (here >> 1) | ((here | (column << 1) | (column >> 1)) & diagonal);
}

// The levels at which a row's pixels joined, kept as offsets from `base`
// in bit planes (bit x of plane b: bit b of pixel x's offset) and written
// to the row's stamps in local memory once per 2^LEVEL_PLANES levels, so
// that the level loop stores nothing per pixel: a store per joined pixel
// made a level's cost follow the row with the most joining pixels (H100,
// docs/PERFORMANCE.md).
#define LEVEL_PLANES 5
typedef struct {
    uint base;                // the level of offset 0
    uint joined;              // the pixels joined since `base`
    uint plane[LEVEL_PLANES];
} JoinLevels;

inline void levels_write(JoinLevels* levels, __local uint* row)
{
#pragma unroll
    for (int x = 0; x < SIDE; ++x) {
        uint offset = 0;
#pragma unroll
        for (int b = 0; b < LEVEL_PLANES; ++b)
            offset |= ((levels->plane[b] >> x) & 1u) << b;
        if ((levels->joined >> x) & 1u)
            row[x] = levels->base + offset;
    }
    levels->joined = 0;
#pragma unroll
    for (int b = 0; b < LEVEL_PLANES; ++b)
        levels->plane[b] = 0;
}

// `joined` joined at `level` (never below the last level recorded).
inline void levels_record(JoinLevels* levels, uint joined, uint level, __local uint* row)
{
    if (level - levels->base >= (1u << LEVEL_PLANES)) {
        levels_write(levels, row);
        levels->base = level;
    }
    const uint offset = level - levels->base;
#pragma unroll
    for (int b = 0; b < LEVEL_PLANES; ++b)
        if ((offset >> b) & 1u)
            levels->plane[b] |= joined;
    levels->joined |= joined;
}

inline void grow_tile(const uint tile, const uint round, const int width, const int height,
                      const uint tiles_x, const uint tiles_y,
                      __global const ushort* luma,
                      volatile __global ushort* labels,
                      volatile __global uint* stamps,
                      __global const uint* seed_luma, const uint region_total,
                      const uint lower, const uint upper, const uint mode,
                      const uint rule_all, const int connectivity, const uint cap, const uint horizon,
                      volatile __global uint* tile_mark,
                      volatile __global uint* next_list,
                      volatile __global uint* deferred_list,
                      volatile __global uint* counters,
                      __local TileScratch* scratch)
{
    // Labels fixed by the luma: stamps only fall, no windows (horizon == cap).
    // The second half of tile_mark holds, per tile, the level a step stopped
    // at plus 1 (RGX_TILE_STEP_LEVELS), 0 for none.
    (void)horizon;
    (void)deferred_list;
    volatile __global uint* resume_mark = tile_mark + tiles_x * tiles_y + tile;
    const uint resume = *resume_mark;
    const int r = (int)get_local_id(0);
    const int tile_x = (int)(tile % tiles_x);
    const int tile_y = (int)(tile / tiles_x);
    const int x0 = tile_x * SIDE;
    const int y0 = tile_y * SIDE;
    const int y = y0 + r;

    // The halo first, into registers: its reads are in flight with the
    // tile's. Entry i + 1 of each side is position i, entries 0 and SIDE + 1
    // the corners' sides (work-items 0 and 1 take two entries).
    uint halo[2][4];
#pragma unroll
    for (int pass = 0; pass < 2; ++pass) {
        const int i = r + pass * SIDE, along = i - 1;
        const int2 at[4] = {(int2)(x0 + along, y0 - 1), (int2)(x0 + along, y0 + SIDE),
                            (int2)(x0 - 1, y0 + along), (int2)(x0 + SIDE, y0 + along)};
#pragma unroll
        for (int side = 0; side < 4; ++side) {
            const bool inside = i < SIDE + 2 && at[side].x >= 0 && at[side].y >= 0 && at[side].x < width &&
                                at[side].y < height;
            halo[pass][side] = inside ? stamps[(uint)at[side].y * (uint)width + (uint)at[side].x] : UNCLASSIFIED;
        }
    }

    // The tile's stamps and regions. With RGX_TILE_ROW_VECTORS (GPUs), where
    // the image's width keeps a tile's rows aligned to 16 bytes, work-item r
    // reads row r with vector loads, all in flight together (12 loads of 16
    // bytes). Elsewhere a row at a time: work-item r reads column r, so that
    // each row is one coalesced read, and RGX_TILE_READ_AHEAD rows are read
    // before any is used, so that their reads overlap rather than one memory
    // latency after another. (CPU runtimes, which run the work-items of a
    // group side by side in vector lanes, take the columns faster.)
    const int gx_column = x0 + r;
    const uint regions = rule_all ? region_total : 1;
    const uint first_seed = region_total > 0 ? seed_luma[0] : 0;
#if RGX_TILE_ROW_VECTORS
    if ((width & 7) == 0 && x0 + SIDE <= width) {
        const bool row_inside = y < height;
        const uint g0 = row_inside ? (uint)y * (uint)width + (uint)x0 : 0;
        uint stamp[SIDE];
        uint value[SIDE];
#pragma unroll
        for (int k = 0; k < SIDE / 4; ++k)
            vstore4(((volatile __global uint4*)(stamps + g0))[k], k, stamp);
#pragma unroll
        for (int k = 0; k < SIDE / 8; ++k)
            vstore8(convert_uint8(vload8(k, luma + g0)), k, value);
#pragma unroll
        for (int x = 0; x < SIDE; ++x) {
            scratch->old[r * ROW + x] = row_inside ? stamp[x] : UNCLASSIFIED;
            scratch->region[r * ROW + x] =
                (ushort)fixed_region(value[x], row_inside, mode, first_seed, seed_luma, regions, lower, upper);
        }
    } else
#endif
    {
        for (int i0 = 0; i0 < SIDE; i0 += RGX_TILE_READ_AHEAD) {
            uint stamp[RGX_TILE_READ_AHEAD];
            uint value[RGX_TILE_READ_AHEAD];
#pragma unroll
            for (int k = 0; k < RGX_TILE_READ_AHEAD; ++k) {
                const int gy = y0 + i0 + k;
                const bool inside = gx_column < width && gy < height;
                const uint g = inside ? (uint)gy * (uint)width + (uint)gx_column : 0;
                stamp[k] = inside ? stamps[g] : UNCLASSIFIED;
                value[k] = inside ? luma[g] : 0;
            }
#pragma unroll
            for (int k = 0; k < RGX_TILE_READ_AHEAD; ++k) {
                const int i = i0 + k;
                const bool inside = gx_column < width && y0 + i < height;
                scratch->old[i * ROW + r] = stamp[k];
                scratch->region[i * ROW + r] =
                    (ushort)fixed_region(value[k], inside, mode, first_seed, seed_luma, regions, lower, upper);
            }
        }
    }
#pragma unroll
    for (int pass = 0; pass < 2; ++pass)
        if (r + pass * SIDE < SIDE + 2)
#pragma unroll
            for (int side = 0; side < 4; ++side)
                scratch->halo[side][r + pass * SIDE] = halo[pass][side];
    rows_init(&scratch->rows, r);
    if (r == 0) {
        scratch->edges = 0;
        scratch->changed = 0;
    }
    // The tile, its halo and the scratch words are in place, and every
    // work-item's reads of the tile are done before any writes a pixel that
    // another read (row r is read by work-item r, column c written by c).
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    uint call = 0; // of tile_rows.h

    // Row r: its seeds, its mask (inside the image, not a seed, and a luma
    // the fixed rule accepts) and the pixels already at level 1.
    // (Without branches, so that the reads of local memory overlap.)
    uint seeds = 0, mask = 0, ones = 0;
    const uint row_inside = x0 + SIDE <= width ? 0xFFFFFFFFu : (1u << (width - x0)) - 1u;
#pragma unroll
    for (int x = 0; x < SIDE; ++x) {
        const uint stamp = scratch->old[r * ROW + x];
        const uint accepted = scratch->region[r * ROW + x] != 0 ? 1u : 0u;
        seeds |= (stamp == 0 ? 1u : 0u) << x;
        mask |= (stamp != 0 ? accepted : 0u) << x;
        ones |= (stamp == 1 ? 1u : 0u) << x;
    }
    mask &= y < height ? row_inside : 0u;
    // The levels at which the halo makes this row's ends, and this column's
    // pixels of the top and bottom rows, join.
    const uint left = joins_from(scratch->halo[HALO_LEFT], r, connectivity);
    const uint right = joins_from(scratch->halo[HALO_RIGHT], r, connectivity);
    const uint top = joins_from(scratch->halo[HALO_TOP], r, connectivity);
    const uint bottom = joins_from(scratch->halo[HALO_BOTTOM], r, connectivity);

    // The first level to recompute: the smallest at which the halo lowers
    // an edge pixel's stamp, or 0 when a seed's neighbour is not at level 1
    // yet (the tile's first step).
    uint start = min(lowers_from(left, scratch->old[r * ROW], (mask & 1u) != 0, cap),
                     lowers_from(right, scratch->old[r * ROW + SIDE - 1], (mask >> (SIDE - 1)) != 0, cap));
    const uint top_stamp = scratch->old[r], bottom_stamp = scratch->old[(SIDE - 1) * ROW + r];
    const bool column_inside = gx_column < width;
    start = min(start, lowers_from(top, top_stamp,
                                   column_inside && y0 < height && top_stamp != 0 && scratch->region[r] != 0, cap));
    start = min(start, lowers_from(bottom, bottom_stamp,
                                   column_inside && y0 + SIDE - 1 < height && bottom_stamp != 0 &&
                                       scratch->region[(SIDE - 1) * ROW + r] != 0,
                                   cap));
    const RowView around_seeds = rows_look(seeds, false, false, false, r, &scratch->rows, &call);
    if (cap >= 1 && (reach_of(around_seeds.above, seeds, around_seeds.below, connectivity) & mask & ~ones) != 0)
        start = 0;
    // A step that stopped at level L settled every pixel up to L.
    if (resume != 0)
        start = min(start, resume - 1);
    start = rows_min(start, r, &scratch->rows, &call);

    // The pixels at or below `start` keep their stamps (all of them when
    // nothing is lowered); the level's front is the pixels at `start`.
    uint settled = 0, here = 0;
    for (int x = 0; x < SIDE; ++x) {
        const uint stamp = scratch->old[r * ROW + x];
        const bool kept = stamp <= start;
        if (kept)
            settled |= 1u << x;
        if (kept && stamp == start)
            here |= 1u << x;
        scratch->stamp[r * ROW + x] = kept ? stamp : UNCLASSIFIED;
    }

    // SPEC.md's iterations inside the tile: level -> level + 1.
    uint level = start;
    const uint step_levels = RGX_TILE_STEP_LEVELS != 0 && scratch->queued * RGX_TILE_THIN_ROUND <= get_num_groups(0)
                                 ? RGX_TILE_STEP_LEVELS
                                 : UNCLASSIFIED;
    uint steps = 0;
    bool stopped = false; // at the step's limit, with every pixel up to `level` settled
    JoinLevels levels = {start + 1, 0, {0}};
    while (level < cap) {
        if (steps++ == step_levels) {
            stopped = true;
            break;
        }
        const uint joining = level + 1;
        const RowView view = rows_look(here, top == joining, bottom == joining,
                                       here != 0 || left == joining || right == joining, r, &scratch->rows, &call);
        if (!view.any && view.top == 0 && view.bottom == 0) {
            // A quiet level: nothing joins until the halo makes something
            // join at a later level, if it does.
            const uint later = min(min(left > joining ? left : UNCLASSIFIED, right > joining ? right : UNCLASSIFIED),
                                   min(top > joining ? top : UNCLASSIFIED, bottom > joining ? bottom : UNCLASSIFIED));
            const uint next = rows_min(later, r, &scratch->rows, &call);
            if (next == UNCLASSIFIED || next > cap)
                break;
            level = next - 1;
            here = 0;
            continue;
        }
        uint reach = reach_of(view.above, here, view.below, connectivity);
        if (left == joining)
            reach |= 1u;
        if (right == joining)
            reach |= 1u << (SIDE - 1);
        if (r == 0)
            reach |= view.top;
        if (r == SIDE - 1)
            reach |= view.bottom;
        const uint joined = reach & mask & ~settled;
        settled |= joined;
        levels_record(&levels, joined, joining, &scratch->stamp[r * ROW]);
        here = joined;
        level = joining;
    }
    levels_write(&levels, &scratch->stamp[r * ROW]);
    // Every row's stamps are in place before the columns are read.
    barrier(CLK_LOCAL_MEM_FENCE);

    // Write what changed, a row at a time (work-item r: column r); a
    // changed edge pixel queues the tile beyond that edge. Only this group
    // writes the tile's pixels, so what global memory held at the start is
    // what it holds now.
    // First which pixels of column r changed (the reads of local memory
    // overlap), then their writes; pixels that kept their stamp keep their
    // label too.
    uint column_changed = 0;
#pragma unroll
    for (int i = 0; i < SIDE; ++i)
        column_changed |= (scratch->stamp[i * ROW + r] != scratch->old[i * ROW + r] &&
                                   scratch->stamp[i * ROW + r] != UNCLASSIFIED
                               ? 1u
                               : 0u)
                          << i;
    if (!column_inside)
        column_changed = 0;
    if (y0 + SIDE > height)
        column_changed &= (1u << (height - y0)) - 1u;
    uint edges = 0;
    const bool changed = column_changed != 0;
    for (uint rest = column_changed; rest != 0; rest &= rest - 1) {
        const int i = lowest_bit(rest);
        const uint g = (uint)(y0 + i) * (uint)width + (uint)gx_column;
        stamps[g] = scratch->stamp[i * ROW + r];
        labels[g] = mode != RGX_MODE_RANGE || !rule_all ? 1 : scratch->region[i * ROW + r];
        edges |= edges_of(r, i, connectivity);
    }
    if (edges != 0)
        atomic_or(&scratch->edges, edges);
    if (changed)
        atomic_or(&scratch->changed, 1u);
    // Every change is written and its edges noted.
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    queue_neighbours(r, scratch->edges, scratch->changed != 0, tile_x, tile_y, round, width, height, tiles_x,
                     tiles_y, tile_mark, next_list, counters);
    // Stopped at the step's limit: the next round goes on from `level`
    // (the group's: every work-item ran the same loop).
    if (r == 9) {
        if (stopped)
            queue_tile(tile, round + 1, tile_mark, next_list, counters);
        const uint mark = stopped ? level + 1 : 0;
        if (mark != resume)
            *resume_mark = mark;
    }
    // The scratch words are read before the next tile resets them.
    barrier(CLK_LOCAL_MEM_FENCE);
}

#endif
