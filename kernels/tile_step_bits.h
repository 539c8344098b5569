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
//
// Mode range under rule adjacent with the seeds' ranges apart (no luma in
// two ranges, built with RGX_TILE_APART 1): a pixel's region is again fixed
// by its luma, but it joins from its own region's pixels only (SPEC.md:
// another region's label is never eligible for it). Each region is then a
// flood of its own seed inside its own range, and the step runs its levels
// once per region of the tile's pixels (most tiles hold one), its halo
// taken from that region's pixels alone.
//
// One region left growing after a ring step's rounds (`alone`, the region's
// label; tile_step_ring.h): the other regions have stopped for good, and
// the rest of the run is that region's flood inside its range, from its
// pixels of the last level. Its mask is the pixels unclassified or its own
// whose luma its range holds; the other regions' pixels are walls, their
// seeds are no sources and their halo stamps count as unclassified. The
// host sets every tile's resume mark to the last level + 1, so that a
// tile's first visit grows from that level's pixels (TiledDriver.cpp).
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
// Regions that grow apart (mode range with the seeds' ranges apart):
// grow_tiles is then built with RGX_TILE_APART 1.
#ifndef RGX_TILE_APART
#define RGX_TILE_APART 0
#endif
// A 4-connected tile whose pixels are all open takes sweep_tile (0: the levels).
#ifndef RGX_TILE_SWEEPS
#define RGX_TILE_SWEEPS 1
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
#if RGX_TILE_APART
    ushort halo_region[4][SIDE + 2]; // their regions
#endif
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

// The index of the lowest set bit of a non-zero word.
inline int lowest_bit(uint bits) { return 31 - (int)clz(bits & (0u - bits)); }

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

// The same for an edge pixel of region `region` where regions grow apart:
// only halo pixels of its own region count.
inline uint joins_from_region(__local const uint* side, __local const ushort* side_region, int index,
                              int connectivity, uint region)
{
    uint best = side_region[index + 1] == region ? side[index + 1] : UNCLASSIFIED;
    if (connectivity == 8) {
        best = min(best, side_region[index] == region ? side[index] : UNCLASSIFIED);
        best = min(best, side_region[index + 2] == region ? side[index + 2] : UNCLASSIFIED);
    }
    return best == UNCLASSIFIED ? UNCLASSIFIED : best + 1;
}

// The pixels of a row of the tile (its regions) that belong to `region`.
inline uint region_bits(__local const ushort* row, uint region)
{
    uint bits = 0;
#pragma unroll
    for (int x = 0; x < SIDE; ++x)
        bits |= (row[x] == region ? 1u : 0u) << x;
    return bits;
}

// The smallest region above `above` among the pixels of `pixels` in a row.
inline uint next_region(__local const ushort* row, uint pixels, uint above)
{
    uint next = UNCLASSIFIED;
    for (uint rest = pixels; rest != 0; rest &= rest - 1) {
        const uint region = row[lowest_bit(rest)];
        if (region > above)
            next = min(next, region);
    }
    return next;
}

// The level to recompute from when a halo pixel offers `joins` to an edge
// pixel of the mask whose stamp is `stamp`: one before, if that lowers it.
inline uint lowers_from(uint joins, uint stamp, bool in_mask, uint cap)
{
    return in_mask && joins <= cap && joins < stamp ? joins - 1 : UNCLASSIFIED;
}


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

// `joined` joined at `level` (never below the last level recorded); with
// `last`, every level recorded is written (and `joined` is 0).
inline void levels_record(JoinLevels* levels, uint joined, uint level, bool last, __local uint* row)
{
    if (last || level - levels->base >= (1u << LEVEL_PLANES)) {
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

// What the halo offers a tile's edge pixels (row r's ends, column r's top
// and bottom pixels): the level at which it makes each join, each pixel's
// region, and whether the top and bottom pixels are in the mask.
typedef struct {
    uint left, right, top, bottom;
    uint left_region, right_region, top_region, bottom_region;
    bool top_in_mask, bottom_in_mask;
} TileEdges;

// A pass of the levels over one region's pixels (all pixels but where the
// regions grow apart): row r's part of it.
typedef struct {
    uint mask;                    // the row's pixels of the mask that the pass grows
    uint left, right, top, bottom; // the halo's levels for this pass's edge pixels
    uint level, steps;
    uint settled, here;
    JoinLevels levels;
} Pass;

// The start of a pass over region `region` (any, but where the regions
// grow apart): its first level to recompute, the smallest at which the halo
// lowers an edge pixel's stamp, or 0 when a seed's neighbour is not at
// level 1 yet (the tile's first step); the pixels at or below it keep their
// stamps (all of them when nothing is lowered), and its front is the
// pixels at that level.
// `seeds` and `around_seeds`: the seeds of row r and of the rows above and
// below it, of every region.
inline void pass_begin(Pass* pass, const uint region, const TileEdges* edges, const uint seeds,
                       const RowView around_seeds, const uint mask, const uint ones, const uint resume,
                       const uint cap, const int connectivity, const int r, __local TileScratch* scratch, uint* call)
{
#if RGX_TILE_APART
    // Rows beyond the tile have no seeds: any row of it stands in for them.
    const uint in_region = region_bits(&scratch->region[r * ROW], region);
    const uint above_in_region = region_bits(&scratch->region[max(r - 1, 0) * ROW], region);
    const uint below_in_region = region_bits(&scratch->region[min(r + 1, SIDE - 1) * ROW], region);
    pass->left = edges->left_region == region ? edges->left : UNCLASSIFIED;
    pass->right = edges->right_region == region ? edges->right : UNCLASSIFIED;
    pass->top = edges->top_region == region ? edges->top : UNCLASSIFIED;
    pass->bottom = edges->bottom_region == region ? edges->bottom : UNCLASSIFIED;
#else
    (void)region;
    const uint in_region = 0xFFFFFFFFu, above_in_region = 0xFFFFFFFFu, below_in_region = 0xFFFFFFFFu;
    pass->left = edges->left;
    pass->right = edges->right;
    pass->top = edges->top;
    pass->bottom = edges->bottom;
#endif
    pass->mask = mask & in_region;
    __local const uint* old = &scratch->old[r * ROW];
    uint start = min(lowers_from(pass->left, old[0], (pass->mask & 1u) != 0, cap),
                     lowers_from(pass->right, old[SIDE - 1], (pass->mask >> (SIDE - 1)) != 0, cap));
    start = min(start, lowers_from(pass->top, scratch->old[r], edges->top_in_mask, cap));
    start = min(start, lowers_from(pass->bottom, scratch->old[(SIDE - 1) * ROW + r], edges->bottom_in_mask, cap));
    if (cap >= 1 && (reach_of(around_seeds.above & above_in_region, seeds & in_region,
                              around_seeds.below & below_in_region, connectivity) &
                     pass->mask & ~ones) != 0)
        start = 0;
    // A step that stopped at level L settled every pixel up to L.
    if (resume != 0)
        start = min(start, resume - 1);
    start = rows_min(start, r, &scratch->rows, call);

    uint settled = 0, here = 0;
    for (int x = 0; x < SIDE; ++x) {
        const uint stamp = old[x];
        const bool ours = ((in_region >> x) & 1u) != 0;
        const bool kept = stamp <= start;
        if (ours && kept)
            settled |= 1u << x;
        if (ours && kept && stamp == start)
            here |= 1u << x;
        if (ours)
            scratch->stamp[r * ROW + x] = kept ? stamp : UNCLASSIFIED;
    }
    pass->settled = settled;
    pass->here = here;
    pass->level = start;
    pass->steps = 0;
    pass->levels.base = start + 1;
}

// A tile whose pixels are all open (in the image, and a seed or a luma the
// rule accepts), 4-connected: inside it the breadth-first distance is the
// city-block one, so a pixel's stamp is the least over the tile's pixels q
// of q's entry (its stamp, or one more than a halo neighbour's) plus the
// city-block distance to q. A sweep along each column (work-item r: column
// r) and then along each row (row r) finds it, where the levels took a step
// each, up to 62 a tile. Stamps beyond the cap keep their old value.
inline void sweep_tile(__local TileScratch* scratch, int r, uint left, uint right, uint top, uint bottom, uint cap)
{
    __local uint* row = &scratch->stamp[r * ROW];
#pragma unroll
    for (int x = 0; x < SIDE; ++x)
        row[x] = scratch->old[r * ROW + x];
    row[0] = min(row[0], left);
    row[SIDE - 1] = min(row[SIDE - 1], right);
    barrier(CLK_LOCAL_MEM_FENCE);
    // Column r is this work-item's alone from here to the next barrier.
    scratch->stamp[r] = min(scratch->stamp[r], top);
    scratch->stamp[(SIDE - 1) * ROW + r] = min(scratch->stamp[(SIDE - 1) * ROW + r], bottom);
    sweep_local(&scratch->stamp[r], ROW, SIDE);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint d[SIDE];
#pragma unroll
    for (int x = 0; x < SIDE; ++x)
        d[x] = row[x];
    sweep_line(d, SIDE);
#pragma unroll
    for (int x = 0; x < SIDE; ++x)
        row[x] = d[x] <= cap ? d[x] : scratch->old[r * ROW + x];
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
                      volatile __global uint* ring_rows, const uint alone,
                      __local TileScratch* scratch)
{
    (void)ring_rows; // the ring step's
    // Labels fixed by the luma: stamps only fall, no windows (horizon == cap).
    // The second half of tile_mark holds, per tile, the level a step stopped
    // at plus 1 (RGX_TILE_STEP_LEVELS), 0 for none.
    (void)horizon;
    (void)deferred_list;
    PROFILE_BEGIN();
    volatile __global uint* resume_mark = tile_mark + tiles_x * tiles_y + tile;
    const uint resume = l2_load(resume_mark);
    const int r = (int)get_local_id(0);
    const int tile_x = (int)(tile % tiles_x);
    const int tile_y = (int)(tile / tiles_x);
    const int x0 = tile_x * SIDE;
    const int y0 = tile_y * SIDE;
    const int y = y0 + r;

    // The halo first, into registers: its reads are in flight with the
    // tile's. Entry i + 1 of each side is position i, entries 0 and SIDE + 1
    // the corners' sides (work-items 0 and 1 take two entries). Where the
    // regions grow apart, the halo's lumas too (their regions); where one
    // region grows alone, the halo's labels. (All are used after the tile's
    // reads: a use in this loop would wait for each load before the next.)
    uint halo[2][4];
    uint halo_value[2][4];
    uint halo_label[2][4];
#pragma unroll
    for (int pass = 0; pass < 2; ++pass) {
        const int i = r + pass * SIDE, along = i - 1;
        const int2 at[4] = {(int2)(x0 + along, y0 - 1), (int2)(x0 + along, y0 + SIDE),
                            (int2)(x0 - 1, y0 + along), (int2)(x0 + SIDE, y0 + along)};
#pragma unroll
        for (int side = 0; side < 4; ++side) {
            const bool inside = i < SIDE + 2 && at[side].x >= 0 && at[side].y >= 0 && at[side].x < width &&
                                at[side].y < height;
            const uint g = inside ? (uint)at[side].y * (uint)width + (uint)at[side].x : 0;
            halo[pass][side] = inside ? l2_load(stamps + g) : UNCLASSIFIED;
            halo_value[pass][side] = inside && RGX_TILE_APART ? luma[g] : 0;
            halo_label[pass][side] = alone != 0 && inside ? l2_load_ushort(labels + g) : alone;
        }
    }
    PROFILE_MARK(counters, RGX_PROFILE_HALO);

    // The tile's stamps and regions. With RGX_TILE_ROW_VECTORS (GPUs), where
    // the image's width keeps a tile's rows aligned to 16 bytes, work-item r
    // reads row r with vector loads, all in flight together (12 loads of 16
    // bytes). Elsewhere a row at a time: work-item r reads column r, so that
    // each row is one coalesced read, and RGX_TILE_READ_AHEAD rows are read
    // before any is used, so that their reads overlap rather than one memory
    // latency after another. (CPU runtimes, which run the work-items of a
    // group side by side in vector lanes, take the columns faster.)
    const int gx_column = x0 + r;
    // Labels by luma: rule all, or regions apart.
    const bool by_luma = rule_all || RGX_TILE_APART;
    const uint regions = alone != 0 ? 1 : by_luma ? region_total : 1;
    const uint first_seed = alone != 0 ? seed_luma[alone - 1] : region_total > 0 ? seed_luma[0] : 0;
#if RGX_TILE_ROW_VECTORS
    if ((width & 7) == 0 && x0 + SIDE <= width) {
        const bool row_inside = y < height;
        const uint g0 = row_inside ? (uint)y * (uint)width + (uint)x0 : 0;
        uint stamp[SIDE];
        uint value[SIDE];
        ushort label[SIDE];
#pragma unroll
        for (int k = 0; k < SIDE / 4; ++k)
            vstore4(l2_load4(stamps + g0 + 4 * k), k, stamp);
#pragma unroll
        for (int k = 0; k < SIDE / 8; ++k)
            vstore8(convert_uint8(vload8(k, luma + g0)), k, value);
        if (alone != 0) {
#pragma unroll
            for (int k = 0; k < SIDE / 8; ++k)
                vstore8(l2_load_ushort8(labels + g0 + 8 * k), k, label);
        }
#pragma unroll
        for (int x = 0; x < SIDE; ++x) {
            scratch->old[r * ROW + x] = row_inside ? stamp[x] : UNCLASSIFIED;
            const bool others = alone != 0 && stamp[x] != UNCLASSIFIED && label[x] != alone;
            scratch->region[r * ROW + x] = (ushort)fixed_region(value[x], row_inside && !others, mode, first_seed,
                                                                seed_luma, regions, lower, upper);
        }
    } else
#endif
    {
        for (int i0 = 0; i0 < SIDE; i0 += RGX_TILE_READ_AHEAD) {
            uint stamp[RGX_TILE_READ_AHEAD];
            uint value[RGX_TILE_READ_AHEAD];
            bool others[RGX_TILE_READ_AHEAD]; // alone: another region's pixel
#pragma unroll
            for (int k = 0; k < RGX_TILE_READ_AHEAD; ++k) {
                const int gy = y0 + i0 + k;
                const bool inside = gx_column < width && gy < height;
                const uint g = inside ? (uint)gy * (uint)width + (uint)gx_column : 0;
                stamp[k] = inside ? stamps[g] : UNCLASSIFIED;
                value[k] = inside ? luma[g] : 0;
                others[k] = alone != 0 && inside && labels[g] != alone && labels[g] != 0;
            }
#pragma unroll
            for (int k = 0; k < RGX_TILE_READ_AHEAD; ++k) {
                const int i = i0 + k;
                const bool inside = gx_column < width && y0 + i < height;
                scratch->old[i * ROW + r] = stamp[k];
                scratch->region[i * ROW + r] = (ushort)fixed_region(value[k], inside && !others[k], mode, first_seed,
                                                                    seed_luma, regions, lower, upper);
            }
        }
    }
    PROFILE_MARK(counters, RGX_PROFILE_ROWS);
#pragma unroll
    for (int pass = 0; pass < 2; ++pass)
        if (r + pass * SIDE < SIDE + 2)
#pragma unroll
            for (int side = 0; side < 4; ++side) {
                // Alone: another region's halo pixel offers nothing.
                if (halo_label[pass][side] != alone)
                    halo[pass][side] = UNCLASSIFIED;
                scratch->halo[side][r + pass * SIDE] = halo[pass][side];
#if RGX_TILE_APART
                scratch->halo_region[side][r + pass * SIDE] =
                    (ushort)fixed_region(halo_value[pass][side], halo[pass][side] != UNCLASSIFIED, mode, first_seed,
                                         seed_luma, regions, lower, upper);
#endif
            }
    PROFILE_MARK(counters, RGX_PROFILE_HALO_USE);
    rows_init(&scratch->rows, r);
    if (r == 0) {
        scratch->edges = 0;
        scratch->changed = 0;
    }
    // The tile, its halo and the scratch words are in place, and every
    // work-item's reads of the tile are done before any writes a pixel that
    // another read (row r is read by work-item r, column c written by c).
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    PROFILE_MARK(counters, RGX_PROFILE_READ);
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
        // (Every seed's own luma is accepted: only another region's, where
        // one region grows alone, is not a source.)
        seeds |= (stamp == 0 ? accepted : 0u) << x;
        mask |= (stamp != 0 ? accepted : 0u) << x;
        ones |= (stamp == 1 ? 1u : 0u) << x;
    }
    mask &= y < height ? row_inside : 0u;
    // The levels at which the halo makes this row's ends, and this column's
    // pixels of the top and bottom rows, join (apart: from their regions).
    __local const ushort* row_region = &scratch->region[r * ROW];
    const uint left_region = row_region[0], right_region = row_region[SIDE - 1];
    const uint top_region = scratch->region[r], bottom_region = scratch->region[(SIDE - 1) * ROW + r];
#if RGX_TILE_APART
    const uint left = joins_from_region(scratch->halo[HALO_LEFT], scratch->halo_region[HALO_LEFT], r, connectivity,
                                        left_region);
    const uint right = joins_from_region(scratch->halo[HALO_RIGHT], scratch->halo_region[HALO_RIGHT], r,
                                         connectivity, right_region);
    const uint top = joins_from_region(scratch->halo[HALO_TOP], scratch->halo_region[HALO_TOP], r, connectivity,
                                       top_region);
    const uint bottom = joins_from_region(scratch->halo[HALO_BOTTOM], scratch->halo_region[HALO_BOTTOM], r,
                                          connectivity, bottom_region);
#else
    const uint left = joins_from(scratch->halo[HALO_LEFT], r, connectivity);
    const uint right = joins_from(scratch->halo[HALO_RIGHT], r, connectivity);
    const uint top = joins_from(scratch->halo[HALO_TOP], r, connectivity);
    const uint bottom = joins_from(scratch->halo[HALO_BOTTOM], r, connectivity);
#endif

    const bool column_inside = gx_column < width;
    uint stop_level = UNCLASSIFIED; // the least level a pass stopped at (the step's limit)
    PROFILE_MARK(counters, RGX_PROFILE_SETUP);
#if !RGX_TILE_APART && RGX_TILE_SWEEPS
    // A 4-connected tile whose pixels are all open takes its sweeps (whole
    // 4096^2 photographs at +-255 on the H100: see docs/PERFORMANCE.md).
    const bool row_open = y < height && (mask | seeds) == 0xFFFFFFFFu;
    if (connectivity == 4 && rows_min(row_open ? UNCLASSIFIED : 0u, r, &scratch->rows, &call) == UNCLASSIFIED)
        sweep_tile(scratch, r, left, right, top, bottom, cap);
    else
#endif
    {
        // SPEC.md's iterations inside the tile: level -> level + 1. Once, or
        // where the regions grow apart once per region of the mask's pixels,
        // from the smallest to the largest (none: nothing to grow), the pixels
        // of no pass (seeds, lumas no range holds) keeping their stamps. The
        // passes follow each other in the one loop of levels: PoCL's compiler
        // takes minutes over a loop of passes around the loop of levels.
        const uint step_levels = RGX_TILE_STEP_LEVELS != 0 && scratch->queued * RGX_TILE_THIN_ROUND <= get_num_groups(0)
                                     ? RGX_TILE_STEP_LEVELS
                                     : UNCLASSIFIED;
        const uint top_stamp = scratch->old[r], bottom_stamp = scratch->old[(SIDE - 1) * ROW + r];
        TileEdges edges_in = {left, right, top, bottom, left_region, right_region, top_region, bottom_region,
                              column_inside && y0 < height && top_stamp != 0 && top_region != 0,
                              column_inside && y0 + SIDE - 1 < height && bottom_stamp != 0 && bottom_region != 0};
        const RowView around_seeds = rows_look(seeds, false, false, false, r, &scratch->rows, &call);
        Pass pass;
        pass.levels.joined = 0;
        for (int b = 0; b < LEVEL_PLANES; ++b)
            pass.levels.plane[b] = 0;
#if RGX_TILE_APART
        for (int x = 0; x < SIDE; ++x)
            scratch->stamp[r * ROW + x] = scratch->old[r * ROW + x];
        uint region = 0; // the pass's; the next is the least region above it in the mask
        bool begin = true;
#else
        pass_begin(&pass, 0, &edges_in, seeds, around_seeds, mask, ones, resume, cap, connectivity, r, scratch, &call);
#endif
        for (;;) {
#if RGX_TILE_APART
            if (begin) {
                region = rows_min(next_region(row_region, mask, region), r, &scratch->rows, &call);
                if (region == UNCLASSIFIED)
                    break;
                pass_begin(&pass, region, &edges_in, seeds, around_seeds, mask, ones, resume, cap, connectivity, r,
                           scratch, &call);
                begin = false;
            }
#endif
            bool done = pass.level >= cap;
            if (!done && pass.steps++ == step_levels) {
                // At the step's limit, with every pixel up to the level settled.
                stop_level = min(stop_level, pass.level);
                done = true;
            }
            uint joined = 0;
            bool record = false;
            const uint joining = pass.level + 1;
            if (!done) {
                const RowView view = rows_look(pass.here, pass.top == joining, pass.bottom == joining,
                                               pass.here != 0 || pass.left == joining || pass.right == joining, r,
                                               &scratch->rows, &call);
                if (!view.any && view.top == 0 && view.bottom == 0) {
                    // A quiet level: nothing joins until the halo makes something
                    // join at a later level, if it does.
                    const uint later = min(min(pass.left > joining ? pass.left : UNCLASSIFIED,
                                               pass.right > joining ? pass.right : UNCLASSIFIED),
                                           min(pass.top > joining ? pass.top : UNCLASSIFIED,
                                               pass.bottom > joining ? pass.bottom : UNCLASSIFIED));
                    const uint next = rows_min(later, r, &scratch->rows, &call);
                    done = next == UNCLASSIFIED || next > cap;
                    pass.level = next - 1;
                    pass.here = 0;
                } else {
                    uint reach = reach_of(view.above, pass.here, view.below, connectivity);
                    if (pass.left == joining)
                        reach |= 1u;
                    if (pass.right == joining)
                        reach |= 1u << (SIDE - 1);
                    if (r == 0)
                        reach |= view.top;
                    if (r == SIDE - 1)
                        reach |= view.bottom;
                    joined = reach & pass.mask & ~pass.settled;
                    pass.settled |= joined;
                    record = true;
                    pass.here = joined;
                    pass.level = joining;
                }
            }
            // One call, which writes a pass's last levels too where the passes
            // go on in this loop (a second copy of the writes inside the loop
            // costs PoCL's compiler dearly).
            const bool last = RGX_TILE_APART && done;
            if (record || last)
                levels_record(&pass.levels, joined, joining, last, &scratch->stamp[r * ROW]);
            if (done) {
#if RGX_TILE_APART
                begin = true;
#else
                break;
#endif
            }
        }
#if !RGX_TILE_APART
        levels_write(&pass.levels, &scratch->stamp[r * ROW]);
#endif
        PROFILE_COUNT(counters, RGX_PROFILE_STEPS, pass.steps);
    }
    const bool stopped = stop_level != UNCLASSIFIED;
    // Every row's stamps are in place before the columns are read.
    barrier(CLK_LOCAL_MEM_FENCE);
    PROFILE_MARK(counters, RGX_PROFILE_LEVELS);

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
        labels[g] = alone != 0                          ? alone
                    : mode != RGX_MODE_RANGE || !by_luma ? 1
                                                         : scratch->region[i * ROW + r];
        edges |= edges_of(r, i, connectivity);
    }
    if (edges != 0)
        atomic_or(&scratch->edges, edges);
    if (changed)
        atomic_or(&scratch->changed, 1u);
    // Every change is written and its edges noted.
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    PROFILE_MARK(counters, RGX_PROFILE_WRITE);
    queue_neighbours(r, scratch->edges, scratch->changed != 0, tile_x, tile_y, round, width, height, tiles_x,
                     tiles_y, tile_mark, next_list, counters);
    // Stopped at the step's limit: the next round goes on from `level`
    // (the group's: every work-item ran the same loop).
    if (r == 9) {
        if (stopped)
            queue_tile(tile, round + 1, tile_mark, next_list, counters);
        const uint mark = stopped ? stop_level + 1 : 0;
        if (mark != resume)
            *resume_mark = mark;
    }
    // The scratch words are read before the next tile resets them.
    barrier(CLK_LOCAL_MEM_FENCE);
    PROFILE_MARK(counters, RGX_PROFILE_QUEUE);
    PROFILE_COUNT(counters, RGX_PROFILE_VISITS, 1);
}

#endif
