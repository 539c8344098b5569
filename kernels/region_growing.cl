// Seeded region growing, one iteration of ../shared/SPEC.md per launch:
// grow_queue (visit the neighbours of a compacted frontier list) or
// grow_sweep (visit every pixel, neighbours read from a local tile or
// straight from global memory); or many per launch: grow_levels runs
// grow_queue's step again and again with a grid barrier in between
// (fusion=grid-barrier, below).
//
// Region statistics rotate through three slots so that one launch per
// iteration suffices: launch i reads totals[(i-2)%3] and deltas[(i-1)%3]
// (both complete) to form the means M_k of the end of iteration i-1,
// accumulates its own accepted pixels into deltas[i%3], folds
// totals[(i-1)%3] = totals[(i-2)%3] + deltas[(i-1)%3] for launch i+1, and
// clears deltas[(i+1)%3] and counters[(i+1)%3], which nobody else touches
// during launch i. A slot holds (count, sum low word, sum high word) per
// region.
//
// Mode (0 competitive, 1 adaptive, 2 range), rule (rule_all: 0 adjacent,
// 1 all) and connectivity (4 or 8; 6, 18 or 26 for volumes) are kernel
// arguments, so changing them needs no rebuild. A volume's maps are its
// slices one below the other: `height` counts the rows of all of them,
// `slice_height` those of one (grow_common.h). Build options (see
// engine/Variant.cpp and engine/stages/grow/GrowPrograms.cpp):
//   RGX_NEIGHBOURS          8 for images, 26 for volumes
//   RGX_WG_SIZE             work-group size (grow_queue: 1-D; grow_sweep: TILE_W * TILE_H)
//   RGX_TILE_W, RGX_TILE_H  sweep tile size
//   RGX_TILE                0 direct global loads, 1 async_work_group_copy into local memory
//   RGX_TILE_BARRIER(f)     barrier(f), or nothing for tile=async-nobarrier
//   RGX_COLLECTIVES, RGX_BARRIER  see collectives.h
//   RGX_FUSION              1: also build grow_levels, which runs many
//                           iterations in one launch (fusion=grid-barrier)
#include "collectives.h"
#include "grid_barrier.h"
#include "grow_common.h"

#ifndef RGX_FUSION
#define RGX_FUSION 0
#endif
// State that one work-group writes and another reads within the same launch
// (only grow_levels does that: across its grid barrier) is read through
// volatile pointers, so that no stale copy in a per-compute-unit cache is
// used. Elsewhere a kernel boundary separates writer and reader.
#if RGX_FUSION
#define RGX_SHARED volatile
#else
#define RGX_SHARED
#endif

// The regions whose means (8 bytes each) and level statistics (12 bytes
// each) a work-group of the queue keeps in local memory; more regions read
// the global slots (grow_queue_step).
#ifndef RGX_MEAN_TABLE
#define RGX_MEAN_TABLE 1024
#endif
#ifndef RGX_LOCAL_REGIONS
#define RGX_LOCAL_REGIONS 256
#endif
// 1 on NVIDIA's GPUs (engine/stages/grow/GrowPrograms.cpp): grow_queue_step
// reads a candidate's neighbours with plain loads issued together.
#ifndef RGX_SPECULATIVE_READS
#define RGX_SPECULATIVE_READS 0
#endif
// 1 on NVIDIA's GPUs: a neighbour's stamp is loaded before it is claimed.
#ifndef RGX_PRE_READ
#define RGX_PRE_READ 0
#endif

// A pixel some work-item is deciding on right now: still unclassified for
// everyone else, and never claimed twice.
#define CLAIMED 0xFFFFFFFEu
// Counter words: kernels/grow_counters.h.
#define STATS_WORDS 3

#define RGX_TILE_DIRECT 0
#define RGX_TILE_ASYNC 1

#ifndef RGX_TILE_BARRIER
#define RGX_TILE_BARRIER(flags) barrier(flags)
#endif

// M_k = floor(sum_k * 256 / count_k) as it stood at the end of iteration
// i-1: the totals up to i-2 plus the pixels accepted in i-1.
inline ulong region_mean(uint k, __global const RGX_SHARED uint* totals_before,
                         __global const RGX_SHARED uint* deltas_before)
{
    __global const RGX_SHARED uint* total = totals_before + (k - 1) * STATS_WORDS;
    __global const RGX_SHARED uint* delta = deltas_before + (k - 1) * STATS_WORDS;
    const uint count = max(total[0] + delta[0], 1u);
    const ulong sum = (((ulong)total[2] << 32) | total[1]) + (((ulong)delta[2] << 32) | delta[1]);
    return (sum << 8) / (ulong)count;
}

// Launch i's share of keeping the statistics (see the top of this file).
inline void rotate_region_stats(const uint iteration, const uint region_total,
                                __global RGX_SHARED uint* totals, __global RGX_SHARED uint* deltas,
                                volatile __global uint* counters)
{
    const size_t id = get_global_id(1) * get_global_size(0) + get_global_id(0);
    const size_t items = get_global_size(0) * get_global_size(1);
    const uint words = region_total * STATS_WORDS;
    __global const RGX_SHARED uint* totals_before = totals + ((iteration + 1) % 3) * words;
    __global const RGX_SHARED uint* deltas_before = deltas + ((iteration + 2) % 3) * words;
    __global RGX_SHARED uint* totals_now = totals + ((iteration + 2) % 3) * words;
    __global RGX_SHARED uint* deltas_next = deltas + ((iteration + 1) % 3) * words;
    if (id == 0) {
        counters[(iteration + 1) % 3] = 0;
        if (counters[(iteration + 2) % 3] != 0)
            counters[RGX_COUNTER_LAST_GROWN] = iteration - 1;
    }
    for (size_t k = id; k < region_total; k += items) {
        const size_t at = k * STATS_WORDS;
        const ulong sum = (((ulong)totals_before[at + 2] << 32) | totals_before[at + 1]) +
                          (((ulong)deltas_before[at + 2] << 32) | deltas_before[at + 1]);
        totals_now[at] = totals_before[at] + deltas_before[at];
        totals_now[at + 1] = (uint)sum;
        totals_now[at + 2] = (uint)(sum >> 32);
        deltas_next[at] = 0;
        deltas_next[at + 1] = 0;
        deltas_next[at + 2] = 0;
    }
}

// The decision of SPEC.md step 4 for a pixel of luma `value` among the
// eligible regions (rule adjacent) or all regions (rule all). 0: rejected.
inline uint decide(uint value, const uint* eligible, uint eligible_count,
                   __global const RGX_SHARED uint* totals_before,
                   __global const RGX_SHARED uint* deltas_before, __local const ulong* means,
                   const bool mean_table, __global const uint* seed_luma,
                   uint region_total, ulong threshold, uint lower, uint upper,
                   uint mode, uint rule_all)
{
    const uint candidates = rule_all ? region_total : eligible_count;
    // Competitive with a single candidate: it wins whatever the means are.
    if (mode == RGX_MODE_COMPETITIVE && candidates == 1) {
        const uint k = rule_all ? 1 : eligible[0];
        return k <= region_total ? k : 0;
    }
    uint best = 0;
    ulong best_distance = 0;
    const ulong scaled = (ulong)value << 8;
    for (uint j = 0; j < candidates; ++j) {
        const uint k = rule_all ? j + 1 : eligible[j];
        if (k == 0 || k > region_total)
            continue;
        if (mode == RGX_MODE_RANGE) {
            const ulong seed = seed_luma[k - 1];
            const bool inside = (ulong)value + lower >= seed && (ulong)value <= seed + upper;
            if (inside && (best == 0 || k < best))
                best = k;
        } else {
            const ulong mean = mean_table ? means[k - 1] : region_mean(k, totals_before, deltas_before);
            const ulong distance = scaled > mean ? scaled - mean : mean - scaled;
            if (best == 0 || distance < best_distance || (distance == best_distance && k < best)) {
                best = k;
                best_distance = distance;
            }
        }
    }
    if (mode == RGX_MODE_ADAPTIVE && best != 0 && best_distance > threshold)
        best = 0;
    return best;
}

// The count and luma sum of this work-item's accepted pixels of region
// `leader`; those of any other region go straight to the global atomics.
inline uint2 count_leader_pixels(uint leader, const uint* region, const uint* value, uint count,
                                 uint region_total, volatile __global uint* deltas_now)
{
    uint2 pixels = (uint2)(0, 0);
    for (uint j = 0; j < count; ++j) {
        const uint k = region[j];
        if (k == leader) {
            pixels.x += 1;
            pixels.y += value[j];
        } else if (k != 0 && k <= region_total) {
            atomic_inc(&deltas_now[(k - 1) * STATS_WORDS]);
            atomic_add_u64(&deltas_now[(k - 1) * STATS_WORDS + 1], value[j]);
        }
    }
    return pixels;
}

// Adds the accepted pixels of one round to the region counts and sums. With
// work-group collectives, the pixels of the group's most common case (one
// region, the largest label present) are summed in the group and added with
// one atomic; anything else goes straight to the global atomics.
inline void accumulate_regions(const uint* region, const uint* value, uint count,
                               uint region_total, volatile __global uint* deltas_now,
                               __local uint* scratch)
{
#if RGX_COLLECTIVES == RGX_COLLECTIVES_ATOMICS
    (void)scratch;
    for (uint j = 0; j < count; ++j) {
        const uint k = region[j];
        if (k == 0 || k > region_total)
            continue;
        atomic_inc(&deltas_now[(k - 1) * STATS_WORDS]);
        atomic_add_u64(&deltas_now[(k - 1) * STATS_WORDS + 1], value[j]);
    }
#else
    const uint leader = wg_reduce_max(count > 0 ? region[0] : 0, scratch);
    uint2 leader_pixels = count_leader_pixels(leader, region, value, count, region_total, deltas_now);
    const uint leader_count = leader_pixels.x;
    const uint leader_sum = leader_pixels.y;
    const uint group_count = wg_reduce_add(leader_count, scratch);
    const uint group_sum = wg_reduce_add(leader_sum, scratch);
    if (wg_local_id() == 0 && group_count > 0 && leader != 0 && leader <= region_total) {
        atomic_add(&deltas_now[(leader - 1) * STATS_WORDS], group_count);
        atomic_add_u64(&deltas_now[(leader - 1) * STATS_WORDS + 1], group_sum);
    }
#endif
}

// Reserves `count` consecutive slots of the counter for this work-item and
// returns the first; with collectives, one atomic per work-group.
inline uint reserve_slots(uint count, volatile __global uint* counter, __local uint* scratch)
{
#if RGX_COLLECTIVES == RGX_COLLECTIVES_ATOMICS
    (void)scratch;
    return count > 0 ? atomic_add(counter, count) : 0;
#else
    uint group_total;
    const uint offset = wg_scan_exclusive(count, scratch, &group_total);
    uint base = 0;
    if (wg_local_id() == 0 && group_total > 0)
        base = atomic_add(counter, group_total);
    base = wg_broadcast_first(base, scratch);
    return base + offset;
#endif
}

// reserve_slots and accumulate_regions of one round of the queue together.
// With local collectives the slots and the leader region's count and sum
// come out of one three-lane scan: 23 barriers a round instead of 59.
inline uint reserve_and_accumulate(const uint* region, const uint* value, uint count, const bool with_stats,
                                   uint region_total, volatile __global uint* counter,
                                   volatile __global uint* deltas_now, __local uint* scratch)
{
    // Without statistics the same barriers run on counts of 0.
    const uint stats_count = with_stats ? count : 0;
#if RGX_COLLECTIVES == RGX_COLLECTIVES_LOCAL
    const uint leader = wg_reduce_max(stats_count > 0 ? region[0] : 0, scratch);
    const uint2 leader_pixels = count_leader_pixels(leader, region, value, stats_count, region_total, deltas_now);
    uint3 group_total;
    const uint offset = wg_scan3_exclusive((uint3)(count, leader_pixels.x, leader_pixels.y), scratch, &group_total);
    uint base = 0;
    if (wg_local_id() == 0) {
        if (group_total.x > 0)
            base = atomic_add(counter, group_total.x);
        if (group_total.y > 0 && leader != 0 && leader <= region_total) {
            atomic_add(&deltas_now[(leader - 1) * STATS_WORDS], group_total.y);
            atomic_add_u64(&deltas_now[(leader - 1) * STATS_WORDS + 1], group_total.z);
        }
    }
    return wg_broadcast_first(base, scratch) + offset;
#else
    const uint slot = reserve_slots(count, counter, scratch);
    accumulate_regions(region, value, stats_count, region_total, deltas_now, scratch);
    return slot;
#endif
}

// Queue frontier: one work-item per pixel of F_(i-1), looping over the list
// in work-group-sized rounds. A neighbour is claimed with an atomic
// compare-and-swap so that exactly one work-item decides it; neighbours'
// stamps are read atomically because other work-items change them in this
// launch (labels are read only where the stamp is <= i-1, i.e. settled).
inline void grow_queue_step(const uint iteration, const uint frontier_size,
                const int width, const int height,
                __global const RGX_SHARED uint* frontier,
                __global RGX_SHARED uint* next_frontier,
                __global const ushort* luma,
                __global RGX_SHARED ushort* labels,
                volatile __global uint* stamps,
                __global const uint* seed_luma,
                const uint region_total,
                __global RGX_SHARED uint* totals,
                __global RGX_SHARED uint* deltas,
                volatile __global uint* counters,
                const ulong threshold, const uint lower, const uint upper,
                const uint mode, const uint rule_all, const int connectivity, const int slice_height,
                __local uint* scratch, __local ulong* means, __local uint* region_stats,
                const bool use_tables)
{
    const uint pixel_count = (uint)width * (uint)height;
    const uint words = region_total * STATS_WORDS;
    __global const RGX_SHARED uint* totals_before = totals + ((iteration + 1) % 3) * words;
    __global const RGX_SHARED uint* deltas_before = deltas + ((iteration + 2) % 3) * words;
    volatile __global uint* deltas_now = deltas + (iteration % 3) * words;
    rotate_region_stats(iteration, region_total, totals, deltas, counters);
    const uint lid = get_local_id(0);
    const uint stride = get_num_groups(0) * RGX_WG_SIZE;
    // Mode range decides on the seeds' luma alone, and the run's summary
    // counts the maps: its levels keep no region statistics.
    const bool keep_stats = mode != RGX_MODE_RANGE;
    // Once per work-group and level, where the regions are few enough: the
    // means M_k in local memory (a decision then reads one local word per
    // eligible region instead of six global ones and a 64-bit division),
    // and the level's accepted counts and sums per region gathered in local
    // memory (local atomics) and added to the global slots once per region
    // the group touched (with many regions, the frontier's pixels of one
    // group belong to several regions, and per-pixel global atomics on a few
    // words queue up). The collectives still reserve the frontier's slots,
    // the lesson they stand for.
    const bool mean_table = use_tables && keep_stats && region_total <= RGX_MEAN_TABLE;
    const bool local_stats = use_tables && keep_stats && region_total <= RGX_LOCAL_REGIONS;
    if (mean_table) {
        for (uint k = lid; k < region_total; k += RGX_WG_SIZE)
            means[k] = region_mean(k + 1, totals_before, deltas_before);
    }
    if (local_stats) {
        for (uint w = lid; w < region_total * STATS_WORDS; w += RGX_WG_SIZE)
            region_stats[w] = 0;
    }
    // Unconditional, as every barrier here: PoCL runs a work-group's items
    // in loops between barriers and needs each barrier on every path.
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint round = get_group_id(0) * RGX_WG_SIZE; round < frontier_size; round += stride) {
        uint accepted_pixel[RGX_NEIGHBOURS];
        uint accepted_region[RGX_NEIGHBOURS];
        uint accepted_luma[RGX_NEIGHBOURS];
        uint accepted = 0;
        const uint index = round + lid;
        const uint q = index < frontier_size ? frontier[index] : pixel_count;
        if (q < pixel_count) {
            const voxel_t at_q = voxel_of(q, width, slice_height);
            // Claim every neighbour first: the claims do not depend on each
            // other, so they can all be in flight at once.
            uint neighbour[RGX_NEIGHBOURS];
            uint claimed = 0; // bit d: this work-item decides neighbour d
            for (int d = 0; d < RGX_NEIGHBOURS; ++d) {
                // The index first, the connectivity's say after: Intel's CPU
                // compiler (2024) got the grid-barrier program with
                // sub-group collectives wrong when the call sat in a
                // conditional expression (VolumeEquivalence, 1x1x37, rule all).
                const uint found = neighbour_index(at_q, d, width, height, slice_height);
                const bool exists = neighbour_in_use(d, connectivity) && found != NO_NEIGHBOUR;
                neighbour[d] = exists ? found : 0;
#if RGX_PRE_READ
                // A plain load first (NVIDIA's GPUs): most neighbours of a
                // frontier pixel are settled already, and a load costs the
                // L2 cache less than a compare-and-swap. A stale
                // "unclassified" only leads to the swap, which decides.
                const bool open = exists && stamps[neighbour[d]] == UNCLASSIFIED;
#else
                const bool open = exists;
#endif
                if (open && atomic_cmpxchg(&stamps[neighbour[d]], UNCLASSIFIED, CLAIMED) == UNCLASSIFIED)
                    claimed |= 1u << d;
            }
            for (int d = 0; d < RGX_NEIGHBOURS; ++d) {
                if ((claimed & (1u << d)) == 0)
                    continue;
                const uint p = neighbour[d];
                const voxel_t at_p = voxel_of(p, width, slice_height);
                // With one region, E(p) is that region (q is a settled
                // neighbour), so the neighbours' stamps need not be read.
                uint eligible[RGX_NEIGHBOURS] = {1};
                uint eligible_count = region_total == 1 ? 1 : 0;
#if RGX_SPECULATIVE_READS
                // An NVIDIA GPU: every neighbour's stamp and label loaded at once
                // (one round trip to memory, not one per neighbour), the
                // labels before they are known to be settled; only those of
                // neighbours with stamp <= i-1 are used, and those were
                // written before the last grid barrier or kernel boundary.
                // A stamp changing now is CLAIMED, i or unclassified: never
                // <= i-1 whichever value the load sees.
                uint neighbour_stamp[RGX_NEIGHBOURS];
                uint neighbour_label[RGX_NEIGHBOURS];
                for (int e = 0; e < neighbour_end(connectivity) && !rule_all && region_total > 1; ++e) {
                    const uint found = neighbour_index(at_p, e, width, height, slice_height);
                    const bool exists = neighbour_in_use(e, connectivity) && found != NO_NEIGHBOUR;
                    const uint n = exists ? found : p;
                    neighbour_stamp[e] = exists ? stamps[n] : UNCLASSIFIED;
                    neighbour_label[e] = labels[n];
                }
                for (int e = 0; e < neighbour_end(connectivity) && !rule_all && region_total > 1; ++e)
                    if (neighbour_stamp[e] <= iteration - 1)
                        eligible[eligible_count++] = neighbour_label[e];
#else
                // Elsewhere the stamps are read atomically (other work-items
                // change them in this launch), so that the race check
                // (Oclgrind) sees no race in a correct variant.
                for (int e = 0; e < neighbour_end(connectivity) && !rule_all && region_total > 1; ++e) {
                    const uint n = neighbour_index(at_p, e, width, height, slice_height);
                    if (!neighbour_in_use(e, connectivity) || n == NO_NEIGHBOUR)
                        continue;
                    if (atomic_or(&stamps[n], 0u) <= iteration - 1)
                        eligible[eligible_count++] = labels[n];
                }
#endif
                const uint value = luma[p];
                const uint k = decide(value, eligible, eligible_count, totals_before, deltas_before, means,
                                      mean_table, seed_luma, region_total, threshold, lower, upper, mode, rule_all);
                if (k != 0) {
                    labels[p] = (ushort)k;
                    atomic_xchg(&stamps[p], iteration);
                    accepted_pixel[accepted] = p;
                    accepted_region[accepted] = k;
                    accepted_luma[accepted] = value;
                    accepted += 1;
                } else {
                    // Rejected: unclassified again (a later claim decides the same).
                    atomic_xchg(&stamps[p], UNCLASSIFIED);
                }
            }
        }
        for (uint j = 0; j < accepted && local_stats; ++j) {
            volatile __local uint* stats = region_stats + (accepted_region[j] - 1) * STATS_WORDS;
            atomic_inc(&stats[0]);
            local_add_u64_wide(&stats[1], accepted_luma[j]);
        }
        const uint slot = reserve_and_accumulate(accepted_region, accepted_luma, accepted,
                                                 keep_stats && !local_stats, region_total,
                                                 &counters[iteration % 3], deltas_now, scratch);
        for (uint j = 0; j < accepted; ++j) {
            if (slot + j < pixel_count)
                next_frontier[slot + j] = accepted_pixel[j];
            else
                atomic_or(&counters[RGX_COUNTER_OVERFLOW], 1u);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (local_stats) {
        for (uint k = lid; k < region_total; k += RGX_WG_SIZE) {
            __local const uint* stats = region_stats + k * STATS_WORDS;
            if (stats[0] != 0) {
                atomic_add(&deltas_now[k * STATS_WORDS], stats[0]);
                atomic_add_u64_wide(&deltas_now[k * STATS_WORDS + 1], ((ulong)stats[2] << 32) | stats[1]);
            }
        }
    }
}

// Sweep frontier: one work-item per pixel; reads the state of iteration i-1
// from stamps_in/labels_in and writes iteration i to stamps_out/labels_out
// (every pixel, so the two buffers can swap roles next iteration).
#define TILE_PITCH (RGX_TILE_W + 2)
#define TILE_WORDS (TILE_PITCH * (RGX_TILE_H + 2))

inline void grow_sweep_step(const uint iteration, const int width, const int height, const int slice_height,
                __global const uint* stamps_in,
                __global const ushort* labels_in,
                __global uint* stamps_out,
                __global ushort* labels_out,
                __global const ushort* luma,
                __global const uint* seed_luma,
                const uint region_total,
                __global uint* totals,
                __global uint* deltas,
                volatile __global uint* counters,
                const ulong threshold, const uint lower, const uint upper,
                const uint mode, const uint rule_all, const int connectivity,
                __local uint* scratch, __local uint* tile)
{
    // Growth already stopped (a batch ran past the end): nothing can be a
    // candidate, the launch only copies the state through.
    const bool growing = wg_read_once(&counters[(iteration + 2) % 3], scratch) != 0;
    const uint words = region_total * STATS_WORDS;
    __global const RGX_SHARED uint* totals_before = totals + ((iteration + 1) % 3) * words;
    __global const RGX_SHARED uint* deltas_before = deltas + ((iteration + 2) % 3) * words;
    volatile __global uint* deltas_now = deltas + (iteration % 3) * words;
    rotate_region_stats(iteration, region_total, totals, deltas, counters);

    // y: the row of the stacked slices (a volume's maps are slices of
    // slice_height rows one after the other); at: the voxel it is.
    const int x = (int)get_global_id(0);
    const int y = (int)get_global_id(1);
    const bool inside = x < width && y < height;
    const uint p = inside ? (uint)y * (uint)width + (uint)x : 0;
    const uint own_stamp = inside ? stamps_in[p] : 0;
    const voxel_t at = voxel_of(p, width, slice_height);

#if RGX_TILE == RGX_TILE_ASYNC
    // One local buffer holds first the stamps, then the labels, of the tile
    // and its one-pixel halo. Rows above or below the image are clamped
    // copies, never read (neighbours outside the image do not exist).
    __local ushort* tile_labels = (__local ushort*)tile;
    const int tile_x0 = (int)get_group_id(0) * RGX_TILE_W - 1;
    const int tile_y0 = (int)get_group_id(1) * RGX_TILE_H - 1;
    const int copy_x0 = max(tile_x0, 0);
    const int copy_width = min(tile_x0 + TILE_PITCH, width) - copy_x0;
    const int lx = (int)get_local_id(0) + 1;
    const int ly = (int)get_local_id(1) + 1;

    event_t copied = 0;
    for (int row = 0; row < RGX_TILE_H + 2; ++row) {
        const int gy = clamp(tile_y0 + row, 0, height - 1);
        copied = async_work_group_copy(tile + row * TILE_PITCH + (copy_x0 - tile_x0),
                                       stamps_in + gy * width + copy_x0, (size_t)copy_width, copied);
    }
    wait_group_events(1, &copied);
    // The stamps tile is complete for every work-item before anyone reads it.
    barrier(CLK_LOCAL_MEM_FENCE);
    // Neighbours in the same slice come from the tile; those across slices
    // (volumes) from global memory.
#if RGX_NEIGHBOURS > 8
    #define IN_TILE(d) (neighbour_dz[d] == 0)
#else
    #define IN_TILE(d) true
#endif
    #define NEIGHBOUR_STAMP(d, n) \
        (IN_TILE(d) ? tile[(ly + neighbour_dy[d]) * TILE_PITCH + lx + neighbour_dx[d]] : stamps_in[n])
    #define NEIGHBOUR_LABEL(d, n) \
        (IN_TILE(d) ? tile_labels[(ly + neighbour_dy[d]) * TILE_PITCH + lx + neighbour_dx[d]] : labels_in[n])
#else
    (void)tile;
    #define NEIGHBOUR_STAMP(d, n) stamps_in[n]
    #define NEIGHBOUR_LABEL(d, n) labels_in[n]
#endif

    // Which neighbours are classified (stamp <= i-1), and is any of them in F_(i-1)?
    uint settled_mask = 0;
    bool is_candidate = false;
    if (growing && inside && own_stamp == UNCLASSIFIED) {
        for (int d = 0; d < neighbour_end(connectivity); ++d) {
            const uint n = neighbour_index(at, d, width, height, slice_height);
            if (!neighbour_in_use(d, connectivity) || n == NO_NEIGHBOUR)
                continue;
            const uint stamp = NEIGHBOUR_STAMP(d, n);
            if (stamp <= iteration - 1)
                settled_mask |= 1u << d;
            if (stamp == iteration - 1)
                is_candidate = true;
        }
    }

#if RGX_TILE == RGX_TILE_ASYNC
    // Every work-item has read its neighbours' stamps before the labels
    // overwrite the same local buffer.
    RGX_TILE_BARRIER(CLK_LOCAL_MEM_FENCE);
    for (int row = 0; row < RGX_TILE_H + 2; ++row) {
        const int gy = clamp(tile_y0 + row, 0, height - 1);
        copied = async_work_group_copy(tile_labels + row * TILE_PITCH + (copy_x0 - tile_x0),
                                       labels_in + gy * width + copy_x0, (size_t)copy_width, copied);
    }
    wait_group_events(1, &copied);
    // The labels tile is complete for every work-item before anyone reads it.
    barrier(CLK_LOCAL_MEM_FENCE);
#endif

    uint accepted_region[1] = {0};
    uint accepted_luma[1] = {0};
    uint accepted = 0;
    if (is_candidate) {
        uint eligible[RGX_NEIGHBOURS];
        uint eligible_count = 0;
        for (int d = 0; d < neighbour_end(connectivity); ++d) {
            const uint n = (settled_mask & (1u << d)) ? neighbour_index(at, d, width, height, slice_height)
                                                      : NO_NEIGHBOUR;
            if (n != NO_NEIGHBOUR)
                eligible[eligible_count++] = NEIGHBOUR_LABEL(d, n);
        }
        const uint value = luma[p];
        const uint k = decide(value, eligible, eligible_count, totals_before, deltas_before, (__local const ulong*)0,
                              false, seed_luma, region_total, threshold, lower, upper, mode, rule_all);
        if (k != 0) {
            accepted_region[0] = k;
            accepted_luma[0] = value;
            accepted = 1;
        }
    }
    if (inside) {
        stamps_out[p] = accepted ? iteration : own_stamp;
        labels_out[p] = accepted ? (ushort)accepted_region[0] : labels_in[p];
    }

#if RGX_COLLECTIVES == RGX_COLLECTIVES_ATOMICS
    if (accepted)
        atomic_inc(&counters[iteration % 3]);
#else
    const uint group_accepted = wg_reduce_add(accepted, scratch);
    if (wg_local_id() == 0 && group_accepted > 0)
        atomic_add(&counters[iteration % 3], group_accepted);
#endif
    // Mode range keeps no region statistics (see grow_queue_step).
    accumulate_regions(accepted_region, accepted_luma, mode != RGX_MODE_RANGE ? accepted : 0, region_total,
                       deltas_now, scratch);
}

// The kernels the host launches: the steps above with their local memory.
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void grow_queue(const uint iteration, const int width, const int height,
                __global const uint* frontier,
                __global uint* next_frontier,
                __global const ushort* luma,
                __global ushort* labels,
                volatile __global uint* stamps,
                __global const uint* seed_luma,
                const uint region_total,
                __global uint* totals,
                __global uint* deltas,
                volatile __global uint* counters,
                const ulong threshold, const uint lower, const uint upper,
                const uint mode, const uint rule_all, const int connectivity, const int slice_height)
{
    __local uint scratch[RGX_SCRATCH_SIZE];
    __local ulong means[RGX_MEAN_TABLE];
    __local uint region_stats[RGX_LOCAL_REGIONS * STATS_WORDS];
    const uint frontier_size = min(wg_read_once(&counters[(iteration + 2) % 3], scratch), (uint)width * (uint)height);
    grow_queue_step(iteration, frontier_size, width, height, frontier, next_frontier, luma, labels, stamps,
                    seed_luma, region_total, totals, deltas, counters, threshold, lower,
                    upper, mode, rule_all, connectivity, slice_height, scratch, means, region_stats, true);
}

__kernel __attribute__((reqd_work_group_size(RGX_TILE_W, RGX_TILE_H, 1)))
void grow_sweep(const uint iteration, const int width, const int height,
                __global const uint* stamps_in,
                __global const ushort* labels_in,
                __global uint* stamps_out,
                __global ushort* labels_out,
                __global const ushort* luma,
                __global const uint* seed_luma,
                const uint region_total,
                __global uint* totals,
                __global uint* deltas,
                volatile __global uint* counters,
                const ulong threshold, const uint lower, const uint upper,
                const uint mode, const uint rule_all, const int connectivity, const int slice_height)
{
    __local uint scratch[RGX_SCRATCH_SIZE];
#if RGX_TILE == RGX_TILE_ASYNC
    __local uint tile[TILE_WORDS];
#else
    __local uint* tile = 0; // direct loads: no tile in local memory
#endif
    grow_sweep_step(iteration, width, height, slice_height, stamps_in, labels_in, stamps_out, labels_out, luma,
                    seed_luma, region_total, totals, deltas, counters, threshold,
                    lower, upper, mode, rule_all, connectivity, scratch, tile);
}

#if RGX_FUSION
// fusion=grid-barrier: grow_levels runs iterations first..last in one
// launch; between two iterations its work-groups meet at the grid barrier
// of grid_barrier.h (after a roll call that checks they all run at once).
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void grow_levels(const uint first_iteration, const uint last_iteration,
                 const int width, const int height,
                 __global uint* frontier_a,
                 __global uint* frontier_b,
                 __global const ushort* luma,
                 __global ushort* labels,
                 volatile __global uint* stamps,
                 __global const uint* seed_luma,
                 const uint region_total,
                 __global uint* totals,
                 __global uint* deltas,
                 volatile __global uint* counters,
                 const ulong threshold, const uint lower, const uint upper,
                 const uint mode, const uint rule_all, const int connectivity, const int slice_height)
{
    __local uint scratch[RGX_SCRATCH_SIZE];
    __local ulong means[RGX_MEAN_TABLE];
    __local uint region_stats[RGX_LOCAL_REGIONS * STATS_WORDS];
    __local uint verdict;
    volatile __global uint* grid = counters + RGX_COUNTER_GRID;
    if (!grid_roll_call(grid, &verdict))
        return;
    uint passed = 0;
    for (uint iteration = first_iteration; iteration <= last_iteration; ++iteration) {
        // Every group reads the same count, once: it was complete at the
        // last barrier, and this iteration writes other slots.
        const uint frontier_size = min(wg_read_once(&counters[(iteration + 2) % 3], scratch), (uint)width * (uint)height);
        if (frontier_size == 0)
            break;
        const bool odd = (iteration & 1) != 0;
        grow_queue_step(iteration, frontier_size, width, height, odd ? frontier_a : frontier_b,
                        odd ? frontier_b : frontier_a, luma, labels, stamps, seed_luma,
                        region_total, totals, deltas, counters, threshold, lower, upper, mode,
                        rule_all, connectivity, slice_height, scratch, means, region_stats, true);
        if (!grid_barrier(grid, &passed, &verdict, iteration, &counters[RGX_COUNTER_LAST_LAUNCHED]))
            return;
        // A maximum: a group late to this store must not undo a stall's record.
        if (get_global_id(0) == 0)
            atomic_max(&counters[RGX_COUNTER_LAST_LAUNCHED], iteration);
    }
}
#endif

#if RGX_DEVICE_ENQUEUE
// Driver device-enqueue (OpenCL 2.0): the host launches grow_chain once; each
// scheduling step runs as a single work-item after the previous iteration's
// grow kernel has completed (an event dependency, never a barrier across
// work-groups), reads the accepted count that kernel left, and enqueues the
// grow kernel and, after it, the next scheduling step on the default device
// queue. counters[RGX_COUNTER_LAST_LAUNCHED] tells the host where it stopped.
#define CHAIN_PARAMETERS                                                                       \
    const uint iteration, const uint cap, const uint max_groups, const int width,             \
        const int height, __global uint* frontier_a, __global uint* frontier_b,               \
        __global const ushort* luma, __global ushort* labels_a, __global ushort* labels_b,    \
        __global uint* stamps_a, __global uint* stamps_b, __global const uint* seed_luma,     \
        const uint region_total, __global uint* totals, __global uint* deltas,                \
        __global uint* counters, const ulong threshold, const uint lower, const uint upper,   \
        const uint mode, const uint rule_all, const int connectivity, const int slice_height
#define CHAIN_ARGUMENTS(next)                                                                  \
    (next), cap, max_groups, width, height, frontier_a, frontier_b, luma, labels_a, labels_b, \
        stamps_a, stamps_b, seed_luma, region_total, totals, deltas, counters, threshold,     \
        lower, upper, mode, rule_all, connectivity, slice_height

void schedule_iteration(CHAIN_PARAMETERS)
{
    const uint previous_accepted = counters[(iteration + 2) % 3];
    if (iteration > cap || previous_accepted == 0)
        return;
    counters[RGX_COUNTER_LAST_LAUNCHED] = iteration;
    queue_t queue = get_default_queue();
    clk_event_t grow_done;
    const bool odd = (iteration & 1) != 0;
#if RGX_FRONTIER_SWEEP
    const size_t tiles_x = (size_t)((width + RGX_TILE_W - 1) / RGX_TILE_W) * RGX_TILE_W;
    const size_t tiles_y = (size_t)((height + RGX_TILE_H - 1) / RGX_TILE_H) * RGX_TILE_H;
    const size_t global_size[2] = {tiles_x, tiles_y};
    const size_t local_size[2] = {RGX_TILE_W, RGX_TILE_H};
    enqueue_kernel(queue, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_2D(global_size, local_size), 0, NULL,
                   &grow_done,
                   ^(local void* scratch, local void* tile) {
                       grow_sweep_step(iteration, width, height, slice_height, odd ? stamps_a : stamps_b,
                                       odd ? labels_a : labels_b, odd ? stamps_b : stamps_a,
                                       odd ? labels_b : labels_a, luma, seed_luma, region_total,
                                       totals, deltas, counters, threshold, lower, upper, mode,
                                       rule_all, connectivity, (local uint*)scratch,
                                       (local uint*)tile);
                   },
                   (uint)(RGX_SCRATCH_SIZE * sizeof(uint)), (uint)(TILE_WORDS * sizeof(uint)));
#else
    const uint needed = (min(previous_accepted, (uint)width * (uint)height) + RGX_WG_SIZE - 1) / RGX_WG_SIZE;
    const size_t groups = max(1u, min(needed, max_groups));
    enqueue_kernel(queue, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(groups * RGX_WG_SIZE, RGX_WG_SIZE), 0,
                   NULL, &grow_done,
                   ^(local void* scratch) {
                       grow_queue_step(iteration, min(previous_accepted, (uint)width * (uint)height),
                                       width, height, odd ? frontier_a : frontier_b,
                                       odd ? frontier_b : frontier_a, luma, labels_a, stamps_a,
                                       seed_luma, region_total, totals, deltas, counters,
                                       threshold, lower, upper, mode, rule_all, connectivity, slice_height,
                                       (local uint*)scratch, (local ulong*)scratch, (local uint*)scratch,
                                       false);
                   },
                   (uint)(RGX_SCRATCH_SIZE * sizeof(uint)));
#endif
    enqueue_kernel(queue, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &grow_done, NULL,
                   ^{ schedule_iteration(CHAIN_ARGUMENTS(iteration + 1)); });
    release_event(grow_done);
}

__kernel void grow_chain(CHAIN_PARAMETERS)
{
    schedule_iteration(CHAIN_ARGUMENTS(iteration));
}
#endif
