// The ring step of a tile (grow_tiles.cl, RGX_TILE_RING = W): several
// regions of mode range under rule adjacent, where a pixel's region can
// depend on its neighbours' labels. Included by grow_tiles.cl after the
// helpers all steps share.
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
// sixteen bits each; one barrier per level. A work-item reads its own
// sixteen pixels, keeps the level each joined at in five bit planes, and
// writes back those of the tile itself.
//
// Round 1 reads the copy's stamps. Later rounds read, in their place, the
// rows each tile keeps of itself in ring_rows: per row of the tile and half
// of that row, two slots of one word, bits 0..15 the classified pixels
// after a visit and bits 16..31 those its last level reached (16 bytes a
// row, against 128 of stamps). A visit writes the slot that does not hold
// the state before its round, so the tiles that read it during the round
// never see this round's pixels; the tile's tag (the second half of
// tile_mark, reset with it at a run's start) says which slot is which:
// bits 3.. the round of the tile's last visit, bit 0 the slot it wrote,
// bit 1 the other slot holds the state after the round before (so its
// front is that round's last level), bit 2 the other slot holds nothing
// (that visit was the tile's first). A tile the run never visited has no
// classified pixel: only a visit of its own tile classifies a pixel, but
// for the seeds, which round 1 reads as stamps. This reads a visit's copy
// in 10 KB (8 of lumas, 2 of rows) where stamps and lumas were 24 KB.
#ifndef RGX_TILE_STEP_RING_H
#define RGX_TILE_STEP_RING_H

#define RING RGX_TILE_RING
#define COPY (SIDE + 2 * RING)
#if COPY != 64 || RGX_WG_SIZE != 4 * COPY
#error "the ring step takes rows of 64 pixels (a tile of 32 and a ring of 16) and 256 work-items"
#endif
#define SEGMENTS 4
#define SEGMENT_BITS 16
// Seed lumas kept in local memory (the others are read from global memory).
#define RING_SEEDS 256
// Regions a copy's front may hold for the levels to go by bit operations,
// a front per region (more go candidate by candidate).
#define RING_REGIONS 4

// Local memory of one work-group.
typedef struct {
    ushort luma[COPY * COPY];
    ushort label[COPY * COPY];         // of the front and of what joins
    ushort bound_min[RGX_WG_SIZE];     // the smallest and largest label of each work-item's front
    ushort bound_max[RGX_WG_SIZE];
    union {                            // the front's rows, two buffers, written 16 bits a
        ulong rows[2][COPY];           // work-item and read a row at once (on a
        ushort parts[2][COPY * SEGMENTS]; // little-endian device part s is bits 16 s on);
    } front[RING_REGIONS];             // one per region, or [0] all of it (candidate by candidate)
    ushort region[RING_REGIONS];       // the label of each front, smallest first
    uint present;                      // bit k: label label_min + k is on the front
    uint seed[RING_SEEDS];             // the first regions' seed lumas
    uint edges;                        // bit d: the last level reached within RING of neighbour tile d
    uint reached;                      // the last level classified pixels of the tile
    uint label_min;                    // of the front in the copy
    uint label_max;
    uint changed;
    uint queued;                       // the round's tile count, broadcast to the group
    uint first;                        // the group's first tile of the round
    uint verdict;                      // of the grid barrier
    uint own_tag;                      // the tile's tag (ring_rows) as the visit found it
    uint last_min;                     // the labels the tile's pixels took at the round's last level
    uint last_max;
    uint lone;                         // the one region left growing after the last round, 0 for none
} TileScratch;

// The work-item that reads the tile's own tag: its first row, second segment.
#define OWN_TAG_READER (RING * SEGMENTS + 1)
// The work-item that notes the labels of the round's last level (another warp's).
#define LAST_LABELS_NOTER 32

// The labels of a round's last level (counters[RGX_COUNTER_LAST_LABELS],
// grow_counters.h). When they are one label, every other region has stopped
// for good (a region's pixels join from its pixels of the level before), and
// the run goes on as one region's: the bitmap step with `alone`, many levels
// a round (tile_step_bits.h, TiledDriver.cpp).
inline volatile __global uint* ring_last_labels(volatile __global uint* counters, uint round)
{
    return counters + RGX_COUNTER_LAST_LABELS + 2 * (round % 3);
}

// The one label of round `round`'s last level, 0 where it had none or several.
inline uint ring_lone_region(volatile __global uint* counters, uint round)
{
    volatile __global uint* words = ring_last_labels(counters, round);
    const uint low = words[0], high = words[1];
    return RGX_LONE_LABEL(low, high);
}

// Round `round`'s slot, once every group has read what it held (that of
// round - 3: read at the start of round - 2) and before the round writes it.
inline void ring_clear_last_labels(volatile __global uint* counters, uint round)
{
    volatile __global uint* words = ring_last_labels(counters, round);
    words[0] = 0;
    words[1] = 0;
}

// Row y of buffer `b` of front `f` as one word, bit x for column x; 0 outside.
inline ulong front_row(__local const TileScratch* scratch, int f, int b, int y)
{
    if (y < 0 || y >= COPY)
        return 0;
#ifdef __ENDIAN_LITTLE__
    return scratch->front[f].rows[b][y];
#else
    __local const ushort* part = scratch->front[f].parts[b] + y * SEGMENTS;
    return (ulong)part[0] | ((ulong)part[1] << 16) | ((ulong)part[2] << 32) | ((ulong)part[3] << 48);
#endif
}

// The pixels of a row that a front's rows up, row, down reach, by the
// connectivity (bit x for column x).
inline ulong ring_reach(ulong up, ulong row, ulong down, int connectivity)
{
    const ulong across = row | (row << 1) | (row >> 1);
    return connectivity == 8 ? across | up | (up << 1) | (up >> 1) | down | (down << 1) | (down >> 1)
                             : across | up | down;
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
                      volatile __global uint* ring_rows, const uint alone,
                      __local TileScratch* scratch)
{
    (void)alone; // the bitmap step's
    PROFILE_BEGIN();
    const int lid = (int)get_local_id(0);
    const int tile_x = (int)(tile % tiles_x);
    const int tile_y = (int)(tile / tiles_x);
    const int cx0 = tile_x * SIDE - RING; // the copy's corner in the image
    const int cy0 = tile_y * SIDE - RING;
    const uint front_level = (round - 1) * RING; // the stamps the round starts from
    const uint last_level = min(cap, front_level + RING);

    // The copy, read by the work-item that owns each pixel: sixteen pixels
    // of row y, bits `shift` on. Each is blocked (outside the image, or
    // classified below the front's level), on the front (with its label) or
    // open. Round 1 reads the stamps (the seeds are stamps only); later
    // rounds the rows each tile keeps of itself (ring_rows, at the top).
    const int y = lid / SEGMENTS;
    const int shift = (lid % SEGMENTS) * SEGMENT_BITS;
    const int gy = cy0 + y;
    const int gx = cx0 + shift; // my first pixel's column
    uint open = 0, front = 0;
    uint known = 0; // classified at the front's level or below (front included)
    uint label_min = 0xFFFFu, label_max = 0;
    ushort mine[SEGMENT_BITS]; // the lumas of my pixels
    for (int b = 0; b < SEGMENT_BITS; ++b)
        mine[b] = 0;
    // The tile my pixels lie in, its row and which half of the row.
    const int row_tile_x = gx < 0 ? -1 : gx / SIDE, row_tile_y = gy < 0 ? -1 : gy / SIDE;
    const bool in_tiles = row_tile_x >= 0 && row_tile_y >= 0 && row_tile_x < (int)tiles_x && row_tile_y < (int)tiles_y;
    const uint row_tile = in_tiles ? (uint)row_tile_y * tiles_x + (uint)row_tile_x : 0;
    const uint row_word = ((row_tile * SIDE + (uint)(gy - row_tile_y * SIDE)) * 2 + (uint)(gx - row_tile_x * SIDE) / SEGMENT_BITS) * 2;
    volatile __global uint* tags = tile_mark + tiles_x * tiles_y;
    uint tag = 0;
    uint2 words = (uint2)(0, 0);
    if (round > 1 && in_tiles) {
        tag = tags[row_tile];
        words = l2_load2(ring_rows + row_word);
    }
    if (lid == OWN_TAG_READER)
        scratch->own_tag = tag;
    if (gy >= 0 && gy < height) {
        for (int q = 0; q < SEGMENT_BITS / 4; ++q) {
            const int x = gx + 4 * q;
            const uint g = (uint)gy * (uint)width + (uint)max(x, 0);
            uint read[4] = {0, 0, 0, 0};
            ushort lumas[4] = {0, 0, 0, 0};
            if (x >= 0 && x + 3 < width && g % 4 == 0) {
                if (round == 1)
                    vstore4(l2_load4(stamps + g), 0, read);
                vstore4(vload4(0, luma + g), 0, lumas);
            } else {
                // The image's edge (or a width that is not a multiple of 4): one at a time.
                for (int e = 0; e < 4; ++e)
                    if (x + e >= 0 && x + e < width) {
                        if (round == 1)
                            read[e] = stamps[gy * width + x + e];
                        lumas[e] = luma[gy * width + x + e];
                    }
            }
            for (int e = 0; e < 4; ++e) {
                const int b = 4 * q + e;
                mine[b] = lumas[e];
                scratch->luma[y * COPY + shift + b] = lumas[e];
                if (round == 1 && x + e >= 0 && x + e < width && read[e] <= front_level)
                    known |= 1u << b;
                if (round == 1 && x + e >= 0 && x + e < width && read[e] == front_level)
                    front |= 1u << b;
            }
        }
        // My pixels inside the image: bits lo .. hi - 1.
        const int lo = clamp(-gx, 0, SEGMENT_BITS), hi = clamp(width - gx, 0, SEGMENT_BITS);
        const uint inside = hi > lo ? ((1u << (hi - lo)) - 1u) << lo : 0u;
        if (round > 1) {
            const uint visit = tag >> 3;
            // The state before this round: the slot the tile's last visit
            // wrote, or, where its visit of this round has written already,
            // the other one (nothing where that visit was its first).
            const bool earlier = visit != 0 && visit < round;
            const bool before = visit == round && (tag & 4u) == 0;
            if (earlier || before) {
                const uint word = ((tag & 1u) ^ (before ? 1u : 0u)) != 0 ? words.y : words.x;
                // Its front is this round's where that visit was round - 1's.
                const bool front_now = earlier ? visit + 1 == round : (tag & 2u) != 0;
                known = word & 0xFFFFu & inside;
                front = front_now ? (word >> 16) & known : 0;
            }
        }
        open = inside & ~known;
        for (uint left = front; left != 0; left &= left - 1u) {
            const uint b = 31u - clz(left & (0u - left));
            const uint k = labels[gy * width + gx + (int)b];
            scratch->label[y * COPY + shift + (int)b] = (ushort)k;
            label_min = min(label_min, k);
            label_max = max(label_max, k);
        }
    }
    scratch->front[0].parts[0][lid] = (ushort)front;
    scratch->bound_min[lid] = (ushort)label_min;
    scratch->bound_max[lid] = (ushort)label_max;
    for (uint k = (uint)lid; k < min(region_total, (uint)RING_SEEDS); k += RGX_WG_SIZE)
        scratch->seed[k] = seed_luma[k];
    if (lid == 0) {
        scratch->label_min = 0xFFFFu;
        scratch->label_max = 0;
        scratch->present = 0;
        scratch->edges = 0;
        scratch->reached = 0;
        scratch->changed = 0;
        scratch->last_min = 0xFFFFu;
        scratch->last_max = 0;
    }
    // The copy and the front's rows are in place, the group's words reset.
    barrier(CLK_LOCAL_MEM_FENCE);
    PROFILE_MARK(counters, RGX_PROFILE_READ);
    // The front's labels: 32 work-items gather 8 work-items' bounds each,
    // so that few atomics meet on the two words.
    if (lid < RGX_WG_SIZE / 8) {
        uint low = 0xFFFFu, high = 0;
        for (int i = 0; i < 8; ++i) {
            low = min(low, (uint)scratch->bound_min[8 * lid + i]);
            high = max(high, (uint)scratch->bound_max[8 * lid + i]);
        }
        if (low <= high) {
            atomic_min(&scratch->label_min, low);
            atomic_max(&scratch->label_max, high);
        }
    }
    // The front's labels are summed up.
    barrier(CLK_LOCAL_MEM_FENCE);
    // Labels only spread: where the front holds one region, every candidate
    // joins it exactly when its range holds the candidate's luma, and a
    // level is bit operations alone, as in the bitmap step. Where it holds
    // a few, a front per region: a candidate joins the first region, in
    // label order, whose front it touches and whose range holds its luma,
    // which is the smallest label of its front neighbours that takes it.
    const uint lowest = scratch->label_min, highest = scratch->label_max; // on the front
    int regions = 0; // fronts by region; 0: candidate by candidate
    if (lowest == highest && lowest >= 1 && lowest <= region_total) {
        regions = 1;
        if (lid == 0)
            scratch->region[0] = (ushort)lowest;
    } else if (lowest >= 1 && highest <= region_total && highest - lowest < 32) {
        uint present = 0;
        for (uint left = front; left != 0; left &= left - 1u)
            present |= 1u << (scratch->label[y * COPY + shift + (int)(31u - clz(left & (0u - left)))] - lowest);
        if (present != 0)
            atomic_or(&scratch->present, present);
        // Every label on the front is noted.
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint all = scratch->present;
        if (popcount(all) <= RING_REGIONS) {
            int i = 0;
            for (uint left = all; left != 0; left &= left - 1u, ++i) {
                const uint k = lowest + (31u - clz(left & (0u - left)));
                uint mine_k = 0;
                for (uint f = front; f != 0; f &= f - 1u) {
                    const uint b = 31u - clz(f & (0u - f));
                    if (scratch->label[y * COPY + shift + (int)b] == k)
                        mine_k |= 1u << b;
                }
                scratch->front[i].parts[0][lid] = (ushort)mine_k;
                if (lid == 0)
                    scratch->region[i] = (ushort)k;
            }
            regions = i;
            // The fronts by region are in place.
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    // Which of my pixels each region's range holds.
    uint within[RING_REGIONS] = {0, 0, 0, 0};
    for (int i = 0; i < regions; ++i) {
        const uint k = regions == 1 ? lowest : scratch->region[i];
        const uint seed = k <= RING_SEEDS ? scratch->seed[k - 1] : seed_luma[k - 1];
        for (int b = 0; b < SEGMENT_BITS; ++b)
            if (within_range(mine[b], seed, lower, upper))
                within[i] |= 1u << b;
    }

    PROFILE_MARK(counters, RGX_PROFILE_SETUP);
    uint level = front_level; // the front's
    int buffer = 0;
    // The level at which each of my pixels joined, as five bit planes:
    // bit b of plane p is bit p of (level - front_level) for pixel b; 0 is
    // never (nothing joins at the front's own level).
    uint planes[5] = {0, 0, 0, 0, 0};
    // Every level runs, even where nothing grows any more: a test for that
    // would cost the group an atomic and a read each level, and a copy's
    // front mostly lives through the round (14.1 of 16 levels a visit at
    // 4096² with 64 seeds, docs/PERFORMANCE.md).
    uint which[2] = {0, 0}; // the region (bits 0 and 1 of its index) each of my pixels joined
    uint last_joined = front;
    while (level < last_level) {
        uint joined = 0;
        if (regions > 0) {
            for (int i = 0; i < regions; ++i) {
                const ulong reach = ring_reach(front_row(scratch, i, buffer, y - 1), front_row(scratch, i, buffer, y),
                                               front_row(scratch, i, buffer, y + 1), connectivity);
                const uint joins = (uint)(reach >> shift) & 0xFFFFu & open & within[i] & ~joined;
                joined |= joins;
                which[0] |= (i & 1) ? joins : 0u;
                which[1] |= (i & 2) ? joins : 0u;
                scratch->front[i].parts[buffer ^ 1][lid] = (ushort)joins;
            }
        } else {
            const ulong up = front_row(scratch, 0, buffer, y - 1);
            const ulong row = front_row(scratch, 0, buffer, y);
            const ulong down = front_row(scratch, 0, buffer, y + 1);
            uint candidates = (uint)(ring_reach(up, row, down, connectivity) >> shift) & 0xFFFFu & open;
            while (candidates != 0) {
                const uint b = 31u - clz(candidates & (0u - candidates));
                candidates &= candidates - 1u;
                const int x = shift + (int)b;
                const uint k =
                    ring_region(scratch, x, y, up, row, down, connectivity, seed_luma, region_total, lower, upper);
                if (k != 0) {
                    // Nobody reads a joiner's label before the next level.
                    scratch->label[y * COPY + x] = (ushort)k;
                    joined |= 1u << b;
                }
            }
            scratch->front[0].parts[buffer ^ 1][lid] = (ushort)joined;
        }
        open &= ~joined;
        level += 1;
        for (int plane = 0; plane < 5; ++plane)
            if (((level - front_level) >> plane) & 1u)
                planes[plane] |= joined;
        last_joined = joined;
        // The level's fronts and labels are in place before the next reads them.
        barrier(CLK_LOCAL_MEM_FENCE);
        buffer ^= 1;
    }
    PROFILE_MARK(counters, RGX_PROFILE_LEVELS);
    PROFILE_COUNT(counters, RGX_PROFILE_STEPS, level - front_level);

    // Only the tile's own pixels are exact: their owners write them, and
    // those of the last level queue the tiles within RING of them for the
    // next round (the tile itself, and the neighbours on the sides they
    // are near).
    const ulong tile_columns = ((1ul << SIDE) - 1ul) << RING;
    const uint tile_bits = (uint)(tile_columns >> shift) & 0xFFFFu;
    const int tile_row = y - RING;
    // The slot the tile writes its rows to: not the one that holds the
    // state before this round, which other tiles read during it. (A tile
    // is listed once a round, and no driver runs a round twice; were its
    // visit ever run again in the same round, it would write the same slot.)
    const uint own_tag = scratch->own_tag;
    const bool again = (own_tag >> 3) == round;
    const uint keep_slot = again ? own_tag & 1u : (own_tag & 1u) ^ 1u;
    if (tile_bits != 0 && tile_row >= 0 && tile_row < SIDE && gy < height) {
        const uint written = (planes[0] | planes[1] | planes[2] | planes[3] | planes[4]) & tile_bits;
        // What the last level reached (the next round's front): its labels are noted.
        const uint next_front = level == front_level + RING ? last_joined : 0u;
        uint last_min = 0xFFFFu, last_max = 0;
        for (uint left = written; left != 0; left &= left - 1u) {
            const uint b = 31u - clz(left & (0u - left));
            const int x = cx0 + shift + (int)b;
            if (x >= width)
                break;
            uint offset = 0;
            for (int plane = 0; plane < 5; ++plane)
                offset |= ((planes[plane] >> b) & 1u) << plane;
            const uint g = (uint)gy * (uint)width + (uint)x;
            const uint k = regions > 0 ? scratch->region[((which[1] >> b) & 1u) << 1 | ((which[0] >> b) & 1u)]
                                       : scratch->label[y * COPY + shift + (int)b];
            stamps[g] = front_level + offset;
            labels[g] = (ushort)k;
            if ((next_front >> b) & 1u) {
                last_min = min(last_min, k);
                last_max = max(last_max, k);
            }
        }
        if (written != 0)
            atomic_or(&scratch->changed, 1u);
        if (RGX_RING_ALONE && last_max != 0) {
            atomic_min(&scratch->last_min, last_min);
            atomic_max(&scratch->last_max, last_max);
        }
        // The rows the tile keeps of itself: what is classified now, and
        // what its last level reached.
        ring_rows[row_word + keep_slot] = ((known | written) & 0xFFFFu) | (next_front << 16);
        const ulong at = ((ulong)last_joined << shift) & tile_columns;
        if (level == last_level && last_level < cap && at != 0) {
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
    // Every change is written and the edges are noted.
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    PROFILE_MARK(counters, RGX_PROFILE_WRITE);
    queue_neighbours(lid, scratch->edges, scratch->changed != 0, tile_x, tile_y, round, width, height, tiles_x,
                     tiles_y, tile_mark, next_list, counters);
    if (lid == 9 && scratch->reached != 0)
        queue_tile(tile, round + 1, tile_mark, next_list, counters);
    // The tile's last labels, where they add to what other visits noted
    // (the words only grow within a round), so that few visits meet on the
    // two words; beside the queueing, by another warp.
    if (RGX_RING_ALONE && lid == LAST_LABELS_NOTER && scratch->last_max != 0) {
        volatile __global uint* words = ring_last_labels(counters, round);
        const uint low = 0x10000u - scratch->last_min, high = scratch->last_max;
        const uint2 seen = (uint2)(words[0], words[1]);
        if (low > seen.x)
            atomic_max(&words[0], low);
        if (high > seen.y)
            atomic_max(&words[1], high);
    }
    // The tag says which slot holds the state after this round, and what
    // the other holds: bit 2, nothing (this was the tile's first visit);
    // bit 1, the state after round - 1 (its front is this round's).
    if (lid == OWN_TAG_READER && !again)
        tags[tile] = (round << 3) | ((own_tag >> 3) == 0 ? 4u : 0u) | ((own_tag >> 3) + 1 == round ? 2u : 0u) |
                     keep_slot;
    // The scratch words are read before the next tile resets them, and
    // the tag is written before the group's next tile reads it.
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    PROFILE_MARK(counters, RGX_PROFILE_QUEUE);
    PROFILE_COUNT(counters, RGX_PROFILE_VISITS, 1);
}

#endif
