// Region growing by tiles (fusion=tiles): many iterations of SPEC.md per
// grid barrier, for the runs whose decision never looks at a region mean:
// mode range (a candidate joins the smallest eligible region whose range
// holds its luma), and mode competitive with one region (a lone candidate
// region always wins). Those runs are breadth-first searches with a fixed
// rule, and a work-group can run many of their levels inside one tile of
// the image in local memory.
//
// The image is cut into square tiles of RGX_TILE_SIDE pixels. A tile's
// labels and stamps are a function of its halo (the ring of pixels around
// it) and of the seeds inside it: the SPEC's iterations run inside the tile,
// level after level, with each halo pixel joining as a source at its own
// stamp. So the run is a fixed point of "every tile = f(its halo)", and that
// fixed point is unique (a pixel's stamp and label follow from its
// neighbours' smaller stamps alone). The work-groups reach it in rounds:
//   - round r works through the list of tiles queued for it: each is
//     recomputed from scratch, from its halo as it is in global memory now;
//   - a pixel on a tile's edge that changed (a shorter path arrived later,
//     or another region's) queues the neighbouring tile(s) for round r + 1;
//   - the work-groups meet at a grid barrier between rounds
//     (grid_barrier.h); the run ends when a round queues nothing.
// The stamps are the SPEC's iteration numbers bit for bit: a tile is only
// ever final when its halo is, and a halo read while a neighbour was still
// writing it is read again, because that neighbour's change queues the tile.
//
// Where a pixel's acceptance depends on its neighbours' labels (mode range,
// rule adjacent, several regions), a label that is wrong for a while can
// hold itself up across tile borders: tile A accepts p from B's halo, B
// accepts q from A's, and each recomputation adds a level to the loop
// (count to infinity, as in distance-vector routing), up to the iteration
// cap. So those runs go in windows of levels: no tile gives a stamp above
// `horizon`, a tile that reached it with more to grow is deferred (once per
// window) to a list the host starts the next window with. A loop of wrong
// labels then meets the window's end, loses its support and falls away:
// a window takes at most the levels it holds plus two rounds. Where labels
// are fixed by the luma, stamps only ever fall and horizon is the cap.
//
// Build options: RGX_WG_SIZE (work-group size, dividing RGX_TILE_SIDE^2),
// RGX_TILE_SIDE, and RGX_TILE_BITS: 1 for the bitmap step of a tile, where
// every pixel's label is fixed by its own luma (then RGX_WG_SIZE is 32).
#include "grid_barrier.h"
#include "grow_common.h"
#include "seed_placement.h"

#ifndef RGX_TILE_SIDE
#define RGX_TILE_SIDE 32
#endif
#ifndef RGX_TILE_BITS
#define RGX_TILE_BITS 0
#endif
#define SIDE RGX_TILE_SIDE
#define PITCH (SIDE + 2)
// Pixels per work-item, and halo pixels per work-item (rounded up).
#define OWN (SIDE * SIDE / RGX_WG_SIZE)
#define HALO (4 * SIDE + 4)
#define HALO_OWN ((HALO + RGX_WG_SIZE - 1) / RGX_WG_SIZE)

// The tile coordinates (-1..SIDE) of halo pixel h: top row, bottom row,
// left column, right column, then the four corners.
inline int2 halo_position(int h)
{
    if (h < SIDE)
        return (int2)(h, -1);
    if (h < 2 * SIDE)
        return (int2)(h - SIDE, SIDE);
    if (h < 3 * SIDE)
        return (int2)(-1, h - 2 * SIDE);
    if (h < 4 * SIDE)
        return (int2)(SIDE, h - 3 * SIDE);
    const int corner = h - 4 * SIDE;
    return (int2)((corner & 1) ? SIDE : -1, (corner & 2) ? SIDE : -1);
}

// The region a candidate joins, from its luma and the labels of its
// settled neighbours (SPEC.md step 4), 0 when rejected; mode range only.
inline uint smallest_region_in_range(uint value, const uint* eligible, uint count,
                                     __global const uint* seed_luma, uint region_total,
                                     uint lower, uint upper)
{
    uint best = 0;
    for (uint e = 0; e < count; ++e) {
        const uint k = eligible[e];
        if (k >= 1 && k <= region_total && (best == 0 || k < best) &&
            within_range(value, seed_luma[k - 1], lower, upper))
            best = k;
    }
    return best;
}

// Rule all: the eligible regions are all regions, so the label of a pixel
// depends on its luma alone: the smallest region whose range holds it.
inline uint first_region_in_range(uint value, __global const uint* seed_luma, uint region_total,
                                  uint lower, uint upper)
{
    for (uint k = 1; k <= region_total; ++k)
        if (within_range(value, seed_luma[k - 1], lower, upper))
            return k;
    return 0;
}

// The region the bitmap step gives a pixel of luma `value` inside the image
// when a neighbour reaches it: in mode range the first of `regions` whose
// range holds it (0: none), in mode competitive the lone region 1.
// `first_seed` is seed_luma[0], read once per tile rather than per pixel
// (at 4096² ±100 on the H100 the per-pixel reads took half a tile's read).
inline uint fixed_region(uint value, bool inside, uint mode, uint first_seed, __global const uint* seed_luma,
                         uint regions, uint lower, uint upper)
{
    if (!inside)
        return 0;
    if (mode != RGX_MODE_RANGE || within_range(value, first_seed, lower, upper))
        return 1;
    for (uint k = 2; k <= regions; ++k)
        if (within_range(value, seed_luma[k - 1], lower, upper))
            return k;
    return 0;
}

// The neighbouring tiles a changed pixel at (px, py) of its tile borders:
// bit d for the direction (neighbour_dx[d], neighbour_dy[d]).
inline uint edges_of(int px, int py, int connectivity)
{
    uint edges = (px == 0 ? 1u : 0u) | (px == SIDE - 1 ? 2u : 0u) | (py == 0 ? 4u : 0u) |
                 (py == SIDE - 1 ? 8u : 0u);
    if (connectivity == 8)
        edges |= ((edges & 5u) == 5u ? 16u : 0u) | ((edges & 6u) == 6u ? 32u : 0u) |
                 ((edges & 9u) == 9u ? 64u : 0u) | ((edges & 10u) == 10u ? 128u : 0u);
    return edges;
}

// Puts a tile on the list of round `round`, once.
inline void queue_tile(const uint tile, const uint round, volatile __global uint* tile_mark,
                       volatile __global uint* list, volatile __global uint* counters)
{
    if (atomic_xchg(&tile_mark[tile], round) != round)
        list[atomic_inc(&counters[RGX_COUNTER_TILES + round % 3])] = tile;
}

// After a tile changed: the neighbours its changed edges border are queued
// for the next round (once each), and the tile joins the touched box.
// Work-items 0..8 of the group take part; `edges` and `changed` are the
// group's, complete.
inline void queue_neighbours(const int lid, const uint edges, const bool changed, const int tile_x,
                             const int tile_y, const uint round, const int width, const int height,
                             const uint tiles_x, const uint tiles_y, volatile __global uint* tile_mark,
                             volatile __global uint* next_list, volatile __global uint* counters)
{
    if (lid < 8 && (edges & (1u << lid))) {
        const int nx = tile_x + neighbour_dx[lid];
        const int ny = tile_y + neighbour_dy[lid];
        if (nx >= 0 && ny >= 0 && nx < (int)tiles_x && ny < (int)tiles_y) {
            queue_tile((uint)ny * tiles_x + (uint)nx, round + 1, tile_mark, next_list, counters);
        }
    }
    if (lid == 8 && changed) {
        const int x0 = tile_x * SIDE, y0 = tile_y * SIDE;
        volatile __global uint* touched = counters + RGX_COUNTER_TOUCHED;
        atomic_min(&touched[0], (uint)x0);
        atomic_min(&touched[1], (uint)y0);
        atomic_max(&touched[2], (uint)min(x0 + SIDE, width) - 1);
        atomic_max(&touched[3], (uint)min(y0 + SIDE, height) - 1);
    }
}

// A tile the window stopped: onto the deferred list once per window (its
// mark there is the window's horizon, in the second half of tile_mark).
inline void defer_tile(const uint tile, const uint horizon, const uint tile_count,
                       volatile __global uint* tile_mark, volatile __global uint* deferred_list,
                       volatile __global uint* counters)
{
    if (atomic_xchg(&tile_mark[tile_count + tile], horizon) != horizon)
        deferred_list[atomic_inc(&counters[RGX_COUNTER_DEFERRED])] = tile;
}

#if !RGX_TILE_BITS
// Per pixel: any rule of eligibility, the labels in local memory.
// Local memory of one work-group.
typedef struct {
    uint stamp[PITCH * PITCH];    // the tile and its halo
    ushort label[PITCH * PITCH];
    uint grew[3];                 // set when level (slot) classified a pixel
    uint next_level;              // the next halo stamp to start from
    uint edges;                   // bit d: a changed pixel borders neighbour tile d
    uint changed;
    uint queued;                  // the round's tile count, broadcast to the group
    uint first;                   // the group's first tile of the round
    uint verdict;                 // of the grid barrier
} TileScratch;

// Recomputes one tile from its halo and its seeds, writes what changed and
// queues the neighbouring tiles that a changed edge pixel borders.
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
    const int lid = (int)get_local_id(0);
    const int tile_x = (int)(tile % tiles_x);
    const int tile_y = (int)(tile / tiles_x);
    const int x0 = tile_x * SIDE;
    const int y0 = tile_y * SIDE;
    const bool one_region = region_total == 1;

    // The tile as global memory holds it now, and its luma.
    uint old_stamp[OWN];
    ushort old_label[OWN];
    uint value[OWN];
    uint fixed_region[OWN]; // rule all: the region the luma alone decides
    uint todo = 0;          // bit j: pixel j may still be classified in this tile
    for (int j = 0; j < OWN; ++j) {
        const int index = lid + j * RGX_WG_SIZE;
        const int px = index % SIDE, py = index / SIDE;
        const int x = x0 + px, y = y0 + py;
        const bool inside = x < width && y < height;
        const uint g = inside ? (uint)y * (uint)width + (uint)x : 0;
        old_stamp[j] = inside ? stamps[g] : UNCLASSIFIED;
        old_label[j] = inside ? labels[g] : 0;
        value[j] = inside ? luma[g] : 0;
        const bool seed = old_stamp[j] == 0;
        scratch->stamp[(py + 1) * PITCH + px + 1] = seed ? 0 : UNCLASSIFIED;
        scratch->label[(py + 1) * PITCH + px + 1] = seed ? old_label[j] : 0;
        fixed_region[j] = 0;
        bool possible = inside && !seed;
        if (possible && mode == RGX_MODE_RANGE && (one_region || rule_all)) {
            fixed_region[j] = first_region_in_range(value[j], seed_luma, region_total, lower, upper);
            possible = fixed_region[j] != 0;
        }
        if (possible)
            todo |= 1u << j;
    }
    uint halo_stamp[HALO_OWN];
    for (int j = 0; j < HALO_OWN; ++j) {
        const int h = lid + j * RGX_WG_SIZE;
        halo_stamp[j] = UNCLASSIFIED;
        if (h < HALO) {
            const int2 at = halo_position(h);
            const int x = x0 + at.x, y = y0 + at.y;
            const bool inside = x >= 0 && y >= 0 && x < width && y < height;
            const uint g = inside ? (uint)y * (uint)width + (uint)x : 0;
            halo_stamp[j] = inside ? stamps[g] : UNCLASSIFIED;
            scratch->stamp[(at.y + 1) * PITCH + at.x + 1] = halo_stamp[j];
            scratch->label[(at.y + 1) * PITCH + at.x + 1] = inside ? labels[g] : 0;
        }
    }
    if (lid == 0) {
        scratch->next_level = UNCLASSIFIED;
        scratch->edges = 0;
        scratch->changed = 0;
        scratch->grew[0] = scratch->grew[1] = scratch->grew[2] = 0;
    }
    // The tile, its halo and the scratch words are in place.
    barrier(CLK_LOCAL_MEM_FENCE);

    // The first level: 0 with a seed in the tile, else the smallest halo stamp.
    for (int j = 0; j < OWN; ++j)
        if (old_stamp[j] == 0)
            atomic_min(&scratch->next_level, 0u);
    for (int j = 0; j < HALO_OWN; ++j)
        if (halo_stamp[j] != UNCLASSIFIED)
            atomic_min(&scratch->next_level, halo_stamp[j]);
    // Every work-item has offered its candidates for the first level.
    barrier(CLK_LOCAL_MEM_FENCE);
    uint level = scratch->next_level;

    // SPEC.md's iterations inside the tile: level -> level + 1, up to the
    // window's last level.
    const uint last_level = min(cap, horizon);
    while (level != UNCLASSIFIED && level < last_level) {
        // Read: which of my pixels join at level + 1, and which region.
        uint joining = 0;
        uint joined_region[OWN];
        for (int j = 0; j < OWN; ++j) {
            joined_region[j] = 0;
            if ((todo & (1u << j)) == 0)
                continue;
            const int index = lid + j * RGX_WG_SIZE;
            const int at = (index / SIDE + 1) * PITCH + index % SIDE + 1;
            bool candidate = false;
            uint eligible[8];
            uint eligible_count = 0;
            for (int d = 0; d < connectivity; ++d) {
                const int n = at + neighbour_dy[d] * PITCH + neighbour_dx[d];
                const uint stamp = scratch->stamp[n];
                candidate |= stamp == level;
                if (stamp <= level)
                    eligible[eligible_count++] = scratch->label[n];
            }
            if (!candidate)
                continue;
            uint k;
            if (mode != RGX_MODE_RANGE)
                k = 1; // competitive with one region: the lone candidate wins
            else if (one_region || rule_all)
                k = fixed_region[j];
            else
                k = smallest_region_in_range(value[j], eligible, eligible_count, seed_luma,
                                             region_total, lower, upper);
            if (k != 0) {
                joined_region[j] = k;
                joining |= 1u << j;
            }
        }
        // Every work-item has read the neighbours of this level before any
        // of them is overwritten.
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint slot = level % 3;
        if (lid == 0)
            scratch->grew[(level + 1) % 3] = 0; // read two levels ago, reused next level
        for (int j = 0; j < OWN; ++j) {
            if ((joining & (1u << j)) == 0)
                continue;
            const int index = lid + j * RGX_WG_SIZE;
            const int at = (index / SIDE + 1) * PITCH + index % SIDE + 1;
            scratch->stamp[at] = level + 1;
            scratch->label[at] = (ushort)joined_region[j];
        }
        todo &= ~joining;
        if (joining != 0)
            atomic_or(&scratch->grew[slot], 1u);
        // The level's pixels are in place before the next level reads them.
        barrier(CLK_LOCAL_MEM_FENCE);
        if (scratch->grew[slot]) {
            level += 1;
            continue;
        }
        // A quiet level: nothing more grows inside the tile until the next
        // halo pixel joins, if any does.
        if (lid == 0)
            scratch->next_level = UNCLASSIFIED;
        // Nobody reads next_level from the last quiet level any more.
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < HALO_OWN; ++j)
            if (halo_stamp[j] != UNCLASSIFIED && halo_stamp[j] > level)
                atomic_min(&scratch->next_level, halo_stamp[j]);
        // Every halo pixel has offered its stamp.
        barrier(CLK_LOCAL_MEM_FENCE);
        level = scratch->next_level;
    }

    // Write what changed; a changed edge pixel queues the tile beyond that edge.
    for (int j = 0; j < OWN; ++j) {
        const int index = lid + j * RGX_WG_SIZE;
        const int px = index % SIDE, py = index / SIDE;
        const int x = x0 + px, y = y0 + py;
        if (x >= width || y >= height)
            continue;
        const int at = (py + 1) * PITCH + px + 1;
        const uint stamp = scratch->stamp[at];
        const ushort label = scratch->label[at];
        if (stamp == old_stamp[j] && label == old_label[j])
            continue;
        const uint g = (uint)y * (uint)width + (uint)x;
        stamps[g] = stamp;
        labels[g] = label;
        const uint edges = edges_of(px, py, connectivity);
        if (edges != 0)
            atomic_or(&scratch->edges, edges);
        atomic_or(&scratch->changed, 1u);
    }
    // Every change is written and its edges noted.
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    queue_neighbours(lid, scratch->edges, scratch->changed != 0, tile_x, tile_y, round, width, height, tiles_x,
                     tiles_y, tile_mark, next_list, counters);
    // Stopped by the window with more to grow: the next window starts here.
    // (level is the group's: every work-item ran the same loop.)
    if (lid == 9 && level != UNCLASSIFIED && level >= horizon && horizon < cap)
        defer_tile(tile, horizon, tiles_x * tiles_y, tile_mark, deferred_list, counters);
    // The scratch words are read before the next tile resets them.
    barrier(CLK_LOCAL_MEM_FENCE);
}
#else
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

// Rounds first_round..last_round. With more than one round the work-groups
// must all be resident: a roll call checks it, and they meet at a grid
// barrier between rounds. With one round (the host's fallback, one launch
// per round) the kernel boundary separates the rounds.
// tile_lists holds three lists of tiles_x * tiles_y entries: round r works
// through list r % 2 (counters[RGX_COUNTER_TILES + r % 3] entries) and
// queues round r + 1 in the other; the third is the deferred list
// (counters[RGX_COUNTER_DEFERRED] entries). tile_mark holds two marks per
// tile: the last round it was queued for, the last window it was deferred to.
// No stamp exceeds horizon (see the top of this file).
// The run's first launch (fused, from round 1) places its `seeds_to_place`
// seeds first (seed_placement.h): the roll call is then the grid barrier
// between iteration 0 and round 1, and the run has one command fewer than
// with place_seeds (a command costs NVIDIA's driver 10 to 20 us of host
// time, docs/PERFORMANCE.md).
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void grow_tiles(const uint first_round, const uint last_round,
                const int width, const int height, const uint tiles_x, const uint tiles_y,
                __global const ushort* luma,
                volatile __global ushort* labels,
                volatile __global uint* stamps,
                __global const uint* seed_pixels, const uint seeds_to_place,
                __global uint* seed_luma, const uint region_total,
                const uint lower, const uint upper, const uint mode,
                const uint rule_all, const int connectivity, const uint cap, const uint horizon,
                volatile __global uint* tile_mark,
                volatile __global uint* tile_lists,
                volatile __global uint* counters)
{
    __local TileScratch scratch;
    const bool fused = last_round > first_round;
    const uint tile_count = tiles_x * tiles_y;
    if (seeds_to_place > 0) {
        for (uint k = get_global_id(0); k < seeds_to_place; k += get_global_size(0))
            place_seed(k, seed_pixels, luma, seed_luma, (uint)width, labels, stamps, SIDE, tiles_x, tiles_y,
                       tile_mark, tile_lists + tile_count, counters);
        // The group's seeds are in place before it answers the roll call.
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    if (fused && !grid_roll_call(counters + RGX_COUNTER_GRID, &scratch.verdict))
        return;
    uint passed = 0;
    for (uint round = first_round; round <= last_round; ++round) {
        // The count is complete: the last grid barrier or launch ended its writers.
        volatile __global uint* list = tile_lists + (round % 2) * tile_count;
        // The group's first tile is read with the count (unused where the
        // count does not reach it), rather than one memory latency later.
        if (get_local_id(0) == 0) {
            scratch.queued = counters[RGX_COUNTER_TILES + round % 3];
            scratch.first = get_group_id(0) < tile_count ? list[get_group_id(0)] : 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint queued = scratch.queued;
        const uint first = scratch.first;
        // Everyone has the count before the next round overwrites it.
        barrier(CLK_LOCAL_MEM_FENCE);
        if (queued == 0)
            break;
        // Round r - 1's count was read by every group before the last barrier;
        // it becomes round r + 2's.
        if (get_global_id(0) == 0)
            counters[RGX_COUNTER_TILES + (round + 2) % 3] = 0;
        volatile __global uint* next_list = tile_lists + ((round + 1) % 2) * tile_count;
        for (uint t = get_group_id(0); t < queued; t += get_num_groups(0)) {
            const uint tile = t == get_group_id(0) ? first : list[t];
            grow_tile(tile, round, width, height, tiles_x, tiles_y, luma, labels, stamps,
                      seed_luma, region_total, lower, upper, mode, rule_all, connectivity, cap, horizon,
                      tile_mark, next_list, tile_lists + 2 * tile_count, counters, &scratch);
        }
        if (fused && !grid_barrier(counters + RGX_COUNTER_GRID, &passed, &scratch.verdict, round,
                                   &counters[RGX_COUNTER_LAST_LAUNCHED]))
            return;
        // A maximum: a group late to this store must not undo a stall's record.
        if (get_global_id(0) == 0)
            atomic_max(&counters[RGX_COUNTER_LAST_LAUNCHED], round);
    }
}
