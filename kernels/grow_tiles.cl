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
// The ring step (RGX_TILE_RING, tile_step_ring.h) takes those runs
// without windows: each round grows a fixed number of levels from a copy of
// the tile with a ring around it, wide enough that the tile's pixels are
// exact after them.
//
// Build options: RGX_WG_SIZE (work-group size, dividing RGX_TILE_SIDE^2),
// RGX_TILE_SIDE, RGX_TILE_BITS: 1 for the bitmap step of a tile, where
// every pixel's label is fixed by its own luma (then RGX_WG_SIZE is 32), and
// RGX_TILE_RING: the ring's width for the ring step (0: the per-pixel step).
#ifndef RGX_TILE_RING
#define RGX_TILE_RING 0
#endif
#if RGX_TILE_RING
#define RGX_SEED_REACH RGX_TILE_RING
#endif
// The ring step notes its last levels' labels and ends its launch where one
// region is left (tile_step_ring.h; GrowPrograms.h, ringGoesOnAlone).
#ifndef RGX_RING_ALONE
#define RGX_RING_ALONE 0
#endif

#include "grid_barrier.h"
#include "l2_loads.h"
#include "grow_common.h"
#include "seed_placement.h"
#include "tile_profile.h"

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

// The step that grows one tile: per pixel (tile_step_pixels.h), per row
// bitmap (tile_step_bits.h) or from a copy with a ring (tile_step_ring.h).
#if RGX_TILE_RING
#include "tile_step_ring.h"
#elif !RGX_TILE_BITS
#include "tile_step_pixels.h"
#else
#include "tile_step_bits.h"
#endif

// Rounds first_round..last_round. With more than one round the work-groups
// must all be resident: a roll call checks it, and they meet at a grid
// barrier between rounds. With one round (the host's fallback, one launch
// per round) the kernel boundary separates the rounds.
// tile_lists holds three lists of tiles_x * tiles_y entries: round r works
// through list r % 2 (counters[RGX_COUNTER_TILES + r % 3] entries) and
// queues round r + 1 in the other; the third is the deferred list
// (counters[RGX_COUNTER_DEFERRED] entries). tile_mark holds two marks per
// tile: the last round it was queued for, and the last window it was
// deferred to (per-pixel step), the level a step stopped at (bitmap step) or
// the tile's tag of ring_rows (ring step, tile_step_ring.h). ring_rows: 32
// rows of four words per tile for the ring step, unused by the others.
// alone: for the bitmap step, the one region still growing after a ring
// step's rounds, whose pixels alone it grows (tile_step_bits.h), or 0; for
// the ring step built with RGX_RING_ALONE, the least tile count of a round
// that ends the launch once one region is left (0: more than the launch has
// work-groups).
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
                volatile __global uint* counters,
                volatile __global uint* ring_rows, const uint alone)
{
    __local TileScratch scratch;
    const bool fused = last_round > first_round;
    const uint tile_count = tiles_x * tiles_y;
    if (seeds_to_place > 0) {
        for (uint k = get_global_id(0); k < seeds_to_place; k += get_global_size(0))
            place_seed(k, seed_pixels, luma, seed_luma, (uint)width, (uint)height, labels, stamps, SIDE, tiles_x, tiles_y,
                       tile_mark, tile_lists + tile_count, counters);
        // The group's seeds are in place before it answers the roll call.
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    if (fused && !grid_roll_call(counters + RGX_COUNTER_GRID, &scratch.verdict))
        return;
    uint passed = 0;
    PROFILE_BEGIN();
    for (uint round = first_round; round <= last_round; ++round) {
        // The count is complete: the last grid barrier or launch ended its writers.
        volatile __global uint* list = tile_lists + (round % 2) * tile_count;
        // The group's first tile is read with the count (unused where the
        // count does not reach it), rather than one memory latency later.
        if (get_local_id(0) == 0) {
            scratch.queued = counters[RGX_COUNTER_TILES + round % 3];
            scratch.first = get_group_id(0) < tile_count ? list[get_group_id(0)] : 0;
#if RGX_RING_ALONE
            scratch.lone = round > 1 ? ring_lone_region(counters, round - 1) : 0;
#endif
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint queued = scratch.queued;
        const uint first = scratch.first;
#if RGX_RING_ALONE
        const uint lone = scratch.lone;
#endif
        // Everyone has the count before the next round overwrites it.
        barrier(CLK_LOCAL_MEM_FENCE);
        // Round r - 1's count was read by every group before the last barrier;
        // it becomes round r + 2's. Also where round r has nothing to do: the
        // host's launches of one round each come in batches, and round r + 2
        // of the batch must not find round r - 1's tiles in it (it would read
        // entries of its list that no round wrote).
        if (get_global_id(0) == 0) {
            counters[RGX_COUNTER_TILES + (round + 2) % 3] = 0;
#if RGX_RING_ALONE
            ring_clear_last_labels(counters, round + 1);
#endif
        }
        if (queued == 0)
            break;
#if RGX_RING_ALONE
        // Every region but one has stopped, and the round has more tiles
        // than the launch has work-groups: the host goes on with the bitmap
        // step, more levels a round for less (TiledDriver.cpp). A round of
        // fewer tiles is one visit a group, at the ring step's floor.
        if (lone != 0 && queued >= (alone != 0 ? alone : get_num_groups(0) + 1))
            break;
#endif
        volatile __global uint* next_list = tile_lists + ((round + 1) % 2) * tile_count;
        PROFILE_MARK(counters, RGX_PROFILE_ROUND);
        for (uint t = get_group_id(0); t < queued; t += get_num_groups(0)) {
            const uint tile = t == get_group_id(0) ? first : list[t];
            grow_tile(tile, round, width, height, tiles_x, tiles_y, luma, labels, stamps,
                      seed_luma, region_total, lower, upper, mode, rule_all, connectivity, cap, horizon,
                      tile_mark, next_list, tile_lists + 2 * tile_count, counters, ring_rows, alone, &scratch);
        }
        PROFILE_RESTART();
        if (fused && !grid_barrier(counters + RGX_COUNTER_GRID, &passed, &scratch.verdict, round,
                                   &counters[RGX_COUNTER_LAST_LAUNCHED]))
            return;
        PROFILE_MARK(counters, RGX_PROFILE_BARRIER);
        PROFILE_COUNT(counters, RGX_PROFILE_ROUNDS, 1);
        // A maximum: a group late to this store must not undo a stall's record.
        if (get_global_id(0) == 0)
            atomic_max(&counters[RGX_COUNTER_LAST_LAUNCHED], round);
    }
}
