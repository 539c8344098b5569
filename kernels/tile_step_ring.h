// The ring step of a tile (grow_tiles.cl, RGX_TILE_RING = W): several
// regions of mode range under rule adjacent whose ranges share lumas, where
// a pixel's region depends on its neighbours' labels. Included by
// grow_tiles.cl after the helpers all steps share.
//
// Round r grows exactly the levels t = (r - 1) W + 1 .. t + W - 1 of every
// tile it lists, from a copy of the tile with a ring of W pixels around it
// (64 x 64 pixels for tiles of 32): what lies outside the copy can reach
// the ring's outermost pixel at level t, and a wrong pixel spoils one more
// pixel inwards per level, so after W levels every pixel of the tile itself
// is the SPEC's. So a round needs the stamps below t alone, which the rounds
// before wrote for good: a stamp of t or more read in global memory (written
// by a neighbour in this round) counts as unclassified. Nothing is ever
// recomputed, and no wrong label can hold itself up across tiles: there are
// no windows. A tile whose level t + W - 1 classified pixels queues itself
// and the neighbours within W of them for the next round.
//
// In mode range a candidate's eligible regions need only its neighbours on
// the front (stamp = level - 1): a settled neighbour of an older stamp made
// it a candidate at that stamp + 1 already, and its region's range, which
// never changes, did not hold its luma then. So the copy keeps each pixel as
// blocked, front or open, and the labels of the front only. A level is the
// rows of the front (64-bit words) dilated by the neighbourhood and masked
// by the open pixels; each candidate then takes the smallest region of its
// front neighbours whose range holds its luma. Four work-items share a row,
// sixteen bits each; one barrier per level.
#ifndef RGX_TILE_STEP_RING_H
#define RGX_TILE_STEP_RING_H

#define RING RGX_TILE_RING
#define COPY (SIDE + 2 * RING)
#if COPY != 64 || RGX_WG_SIZE != 4 * COPY
#error "the ring step takes rows of 64 pixels (a tile of 32 and a ring of 16) and 256 work-items"
#endif
#define SEGMENTS 4
#define SEGMENT_BITS 16
#define COPY_OWN (COPY * COPY / RGX_WG_SIZE)
#define TILE_OWN (SIDE * SIDE / RGX_WG_SIZE)
// A copied pixel's state: classified before the front (or outside the
// image), on the front, classified at level t + j (RING_LEVEL + j), or open.
#define RING_BLOCKED 0
#define RING_FRONT 1
#define RING_LEVEL 2
#define RING_OPEN 255
// Seed lumas kept in local memory (the others are read from global memory).
#define RING_SEEDS 256

// Local memory of one work-group.
typedef struct {
    ushort luma[COPY * COPY];
    ushort label[COPY * COPY];         // of the front and of what joins
    uchar state[COPY * COPY];
    ushort front[2][COPY * SEGMENTS];  // the front's rows, 16 bits a work-item, two buffers
    uint seed[RING_SEEDS];             // the first regions' seed lumas
    uint grew[3];                      // set when level (slot) classified a pixel
    uint edges;                        // bit d: the last level reached within RING of neighbour tile d
    uint reached;                      // the last level classified pixels of the tile
    uint label_min;                    // of the front in the copy
    uint label_max;
    uint changed;
    uint queued;                       // the round's tile count, broadcast to the group
    uint first;                        // the group's first tile of the round
    uint verdict;                      // of the grid barrier
} TileScratch;

// Row y of the front buffer `b` as one word, bit x for column x; 0 outside.
inline ulong front_row(__local const TileScratch* scratch, int b, int y)
{
    if (y < 0 || y >= COPY)
        return 0;
    __local const ushort* row = scratch->front[b] + y * SEGMENTS;
    return (ulong)row[0] | ((ulong)row[1] << 16) | ((ulong)row[2] << 32) | ((ulong)row[3] << 48);
}

// The region candidate (x, y) of the copy joins: the smallest label of its
// front neighbours whose range holds its luma, 0 when none does.
inline uint ring_region(__local const TileScratch* scratch, int x, int y, ulong up, ulong row, ulong down,
                        int connectivity, __global const uint* seed_luma, uint region_total, uint lower,
                        uint upper)
{
    const uint value = scratch->luma[y * COPY + x];
    uint best = 0;
    for (int d = 0; d < connectivity; ++d) {
        const int nx = x + neighbour_dx[d];
        if (nx < 0 || nx >= COPY)
            continue;
        const ulong bits = neighbour_dy[d] < 0 ? up : neighbour_dy[d] > 0 ? down : row;
        if (((bits >> nx) & 1ul) == 0)
            continue;
        const uint k = scratch->label[(y + neighbour_dy[d]) * COPY + nx];
        if (k >= 1 && k <= region_total && (best == 0 || k < best) &&
            within_range(value, k <= RING_SEEDS ? scratch->seed[k - 1] : seed_luma[k - 1], lower, upper))
            best = k;
    }
    return best;
}

// Grows levels t .. t + RING - 1 of one tile (t from the round), writes the
// pixels they classified and queues the tiles that the last level reached.
// (horizon, deferred_list, mode and rule_all are the other steps': a ring
// run is mode range, rule adjacent, without windows.)
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
    const int cx0 = tile_x * SIDE - RING; // the copy's corner in the image
    const int cy0 = tile_y * SIDE - RING;
    const uint front_level = (round - 1) * RING; // the stamps the round starts from
    const uint last_level = min(cap, front_level + RING);

    // The copy: each pixel blocked, on the front (with its label) or open.
    for (int j = 0; j < COPY_OWN; ++j) {
        const int index = lid + j * RGX_WG_SIZE;
        const int x = cx0 + index % COPY, y = cy0 + index / COPY;
        const bool inside = x >= 0 && y >= 0 && x < width && y < height;
        const uint g = inside ? (uint)y * (uint)width + (uint)x : 0;
        const uint stamp = inside ? stamps[g] : 0;
        const uchar state = !inside || stamp < front_level ? RING_BLOCKED
                            : stamp == front_level         ? RING_FRONT
                                                           : RING_OPEN;
        scratch->state[index] = state;
        scratch->luma[index] = inside ? luma[g] : 0; // read with the stamp, not after it
        scratch->label[index] = state == RING_FRONT ? labels[g] : 0;
    }
    for (uint k = (uint)lid; k < min(region_total, (uint)RING_SEEDS); k += RGX_WG_SIZE)
        scratch->seed[k] = seed_luma[k];
    if (lid == 0) {
        scratch->grew[0] = scratch->grew[1] = scratch->grew[2] = 0;
        scratch->label_min = 0xFFFFu;
        scratch->label_max = 0;
        scratch->edges = 0;
        scratch->reached = 0;
        scratch->changed = 0;
    }
    // The copy is in place.
    barrier(CLK_LOCAL_MEM_FENCE);

    // My sixteen pixels of row y: which are open, which on the front.
    const int y = lid / SEGMENTS;
    const int shift = (lid % SEGMENTS) * SEGMENT_BITS;
    uint open = 0, front = 0;
    uint label_min = 0xFFFFu, label_max = 0;
    for (int b = 0; b < SEGMENT_BITS; ++b) {
        const uchar state = scratch->state[y * COPY + shift + b];
        open |= (state == RING_OPEN ? 1u : 0u) << b;
        front |= (state == RING_FRONT ? 1u : 0u) << b;
        if (state == RING_FRONT) {
            const uint k = scratch->label[y * COPY + shift + b];
            label_min = min(label_min, k);
            label_max = max(label_max, k);
        }
    }
    scratch->front[0][lid] = (ushort)front;
    if (front != 0) {
        atomic_min(&scratch->label_min, label_min);
        atomic_max(&scratch->label_max, label_max);
    }
    // Every row's front and the front's labels are in place.
    barrier(CLK_LOCAL_MEM_FENCE);
    // Labels only spread: where the front holds one region, every candidate
    // joins it exactly when its range holds the candidate's luma, and a
    // level is bit operations alone, as in the bitmap step.
    const uint single = scratch->label_min == scratch->label_max && scratch->label_min >= 1 &&
                                scratch->label_min <= region_total
                            ? scratch->label_min
                            : 0;
    if (single != 0) {
        const uint seed = seed_luma[single - 1];
        for (int b = 0; b < SEGMENT_BITS; ++b)
            if (((open >> b) & 1u) && !within_range(scratch->luma[y * COPY + shift + b], seed, lower, upper))
                open &= ~(1u << b);
    }

    uint level = front_level; // the front's
    int buffer = 0;
    while (level < last_level) {
        const ulong up = front_row(scratch, buffer, y - 1);
        const ulong row = front_row(scratch, buffer, y);
        const ulong down = front_row(scratch, buffer, y + 1);
        const ulong across = row | (row << 1) | (row >> 1);
        const ulong reach = connectivity == 8 ? across | up | (up << 1) | (up >> 1) | down | (down << 1) | (down >> 1)
                                              : across | up | down;
        uint candidates = (uint)(reach >> shift) & 0xFFFFu & open;
        uint joined = 0;
        if (single != 0) {
            joined = candidates;
            candidates = 0;
            // Only the tile's own pixels are written back: they alone keep their level.
            for (uint left = y >= RING && y < RING + SIDE ? joined : 0; left != 0; left &= left - 1u) {
                const int x = shift + (int)(31u - clz(left & (0u - left)));
                scratch->state[y * COPY + x] = (uchar)(RING_LEVEL + (level - front_level));
            }
        }
        while (candidates != 0) {
            const uint b = 31u - clz(candidates & (0u - candidates));
            candidates &= candidates - 1u;
            const int x = shift + (int)b;
            const uint k = ring_region(scratch, x, y, up, row, down, connectivity, seed_luma, region_total, lower, upper);
            if (k != 0) {
                // Nobody reads a joiner's label or state before the next level.
                scratch->label[y * COPY + x] = (ushort)k;
                scratch->state[y * COPY + x] = (uchar)(RING_LEVEL + (level - front_level));
                joined |= 1u << b;
            }
        }
        open &= ~joined;
        scratch->front[buffer ^ 1][lid] = (ushort)joined;
        if (joined != 0)
            atomic_or(&scratch->grew[(level + 1) % 3], 1u);
        if (lid == 0)
            scratch->grew[(level + 2) % 3] = 0; // read two levels ago, set next level
        // The level's front and labels are in place before the next reads them.
        barrier(CLK_LOCAL_MEM_FENCE);
        level += 1;
        buffer ^= 1;
        if (scratch->grew[level % 3] == 0)
            break; // nothing joined: nothing more grows in this copy this round
    }

    // The last level's pixels inside the tile queue the tiles within RING of
    // them for the next round (the tile itself, and the neighbours on the
    // sides they are near): only the tile's own pixels are exact.
    if (level == last_level && last_level < cap && y >= RING && y < RING + SIDE) {
        const ulong tile_columns = ((1ul << SIDE) - 1ul) << RING;
        const ulong at = ((ulong)scratch->front[buffer][lid] << shift) & tile_columns;
        if (at != 0) {
            const ulong left = ((1ul << RING) - 1ul) << RING;
            const ulong right = ((1ul << RING) - 1ul) << SIDE;
            const bool top = y < 2 * RING, bottom = y >= SIDE;
            const uint near_x = ((at & left) ? 1u : 0u) | ((at & right) ? 2u : 0u);
            // Bit d for neighbour_dx[d], neighbour_dy[d] (grow_common.h).
            const uint edges = near_x | (top ? 4u : 0u) | (bottom ? 8u : 0u) |
                               ((near_x & 1u) && top ? 16u : 0u) | ((near_x & 2u) && top ? 32u : 0u) |
                               ((near_x & 1u) && bottom ? 64u : 0u) | ((near_x & 2u) && bottom ? 128u : 0u);
            atomic_or(&scratch->edges, edges);
            atomic_or(&scratch->reached, 1u);
        }
    }
    // Write what the round classified inside the tile.
    for (int j = 0; j < TILE_OWN; ++j) {
        const int index = lid + j * RGX_WG_SIZE;
        const int px = index % SIDE, py = index / SIDE;
        const int x = tile_x * SIDE + px, gy = tile_y * SIDE + py;
        if (x >= width || gy >= height)
            continue;
        const int at = (py + RING) * COPY + px + RING;
        const uchar state = scratch->state[at];
        if (state < RING_LEVEL || state == RING_OPEN)
            continue;
        const uint g = (uint)gy * (uint)width + (uint)x;
        stamps[g] = front_level + 1 + (uint)(state - RING_LEVEL);
        labels[g] = single != 0 ? (ushort)single : scratch->label[at];
        atomic_or(&scratch->changed, 1u);
    }
    // Every change is written and the edges are noted.
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    queue_neighbours(lid, scratch->edges, scratch->changed != 0, tile_x, tile_y, round, width, height, tiles_x,
                     tiles_y, tile_mark, next_list, counters);
    if (lid == 9 && scratch->reached != 0)
        queue_tile(tile, round + 1, tile_mark, next_list, counters);
    // The scratch words are read before the next tile resets them.
    barrier(CLK_LOCAL_MEM_FENCE);
}

#endif
