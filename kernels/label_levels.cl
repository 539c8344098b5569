// The second pass of a competitive run of several regions, and the first
// where it needs no growing (docs/VARIANTS.md, "Competitive runs of many
// regions"). In mode competitive every candidate is accepted, so the
// stamps are the distances from the nearest seed: seed_distances computes
// them (seed_distances.h), or with many seeds the tiles (grow_tiles.cl) or
// bricks (grow_bricks.cl) find them with every seed a source, as for one
// region. Only the labels need SPEC step 5's order: level i decides each
// voxel of stamp i among the labels of its neighbours of stamp i - 1 (no
// neighbour of a smaller stamp can exist: it would have classified the
// voxel earlier), on the means as they stood after level i - 1.
//
// The voxels are bucketed by stamp first (count_stamps, a scan on the host,
// bucket_stamps), so that a level reads its own voxels and nothing else:
// no claims, no frontier to build. Then either every level in one launch
// with a grid barrier between levels (label_levels_fused.h), or, where the
// work-groups cannot all be resident or stop meeting, two launches a level:
// label_level decides and adds the level's counts and sums to `deltas`,
// and close_level adds them to the totals and computes the next level's
// means.
#include "grid_barrier.h"
#include "grow_common.h"

#define STATS_WORDS RGX_REGION_STATS_WORDS // a region's count and 64-bit sum
#ifndef RGX_WG_SIZE
#define RGX_WG_SIZE 256
#endif
// Voxels per work-group of the bucketing kernels, and the most levels they
// count in local memory (beyond, straight in global memory).
#define CHUNK (RGX_WG_SIZE * 16)
#define LOCAL_LEVELS 2048
#define LOCAL_REGIONS 256

// *largest: the largest stamp of a classified voxel.
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void largest_stamp(__global const uint* stamps, const uint voxels, volatile __global uint* largest)
{
    __local uint group_largest;
    if (get_local_id(0) == 0)
        group_largest = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint mine = 0;
    for (uint i = get_global_id(0); i < voxels; i += get_global_size(0)) {
        const uint s = stamps[i];
        if (s != UNCLASSIFIED)
            mine = max(mine, s);
    }
    atomic_max(&group_largest, mine);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        atomic_max(largest, group_largest);
}

// What label_levels_fused reads of voxel v (stamp s > 0) besides its
// neighbours' labels, in one word where it fits: which neighbours have
// stamp s - 1 (bit d for neighbour d; neighbours_before), and its luma
// above 8 bits of them. An image's 8 neighbours fit, and a volume's 6 (d 0
// to 3 in bits 0 to 3, d 8 and 9 in bits 4 and 5); a volume's 18 or 26
// leave no room: the word is the neighbours, and the luma is read too.
inline bool info_packed(int connectivity) { return RGX_NEIGHBOURS <= 8 || connectivity == 6; }

inline uint info_of(uint before, uint value, int connectivity)
{
    if (!info_packed(connectivity))
        return before;
    if (RGX_NEIGHBOURS > 8)
        before = (before & 0xFu) | ((before >> 4) & 0x30u);
    return (value << 8) | before;
}

#define INFO_LUMA(info, p) (info_packed(connectivity) ? (info) >> 8 : (uint)luma[p])
#define INFO_BEFORE(info)                                                                                      \
    (!info_packed(connectivity) ? (info)                                                                       \
     : RGX_NEIGHBOURS > 8       ? ((info) & 0xFu) | (((info) & 0x30u) << 4)                                    \
                                : (info) & 0xFFu)

// Which neighbours of voxel v (stamp s > 0) have stamp s - 1: bit d for
// neighbour d, the neighbours its label is chosen among.
inline uint neighbours_before(uint v, uint s, int width, int height, int slice_height, int connectivity,
                              __global const uint* stamps)
{
    uint before = 0;
    const voxel_t at = voxel_of(v, width, slice_height);
    for (int d = 0; d < neighbour_end(connectivity); ++d) {
        const uint q = neighbour_index(at, d, width, height, slice_height);
        if (neighbour_in_use(d, connectivity) && q != NO_NEIGHBOUR && stamps[q] == s - 1)
            before |= 1u << d;
    }
    return before;
}

// histogram[s]: the classified voxels of stamp s (s < levels); and
// info[v] for each classified voxel v of stamp 1 and above (INFO_LUMA,
// INFO_BEFORE), made here where the image is read in its own order and a
// voxel's neighbours share cache lines, rather than level by level along a
// curve.
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void count_stamps(__global const uint* stamps, const uint voxels, const uint levels,
                  volatile __global uint* histogram, __global uint* info, __global const ushort* luma,
                  const int width, const int height, const int slice_height, const int connectivity)
{
    __local uint counts[LOCAL_LEVELS];
    const bool local_counts = levels <= LOCAL_LEVELS;
    const uint lid = get_local_id(0);
    for (uint i = lid; local_counts && i < levels; i += RGX_WG_SIZE)
        counts[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint chunk = get_group_id(0) * CHUNK; chunk < voxels; chunk += get_num_groups(0) * CHUNK) {
        for (uint i = lid; i < CHUNK && chunk + i < voxels; i += RGX_WG_SIZE) {
            const uint v = chunk + i;
            const uint s = stamps[v];
            if (s < levels) {
                if (local_counts)
                    atomic_inc(&counts[s]);
                else
                    atomic_inc(&histogram[s]);
            }
            if (s != 0 && s < levels) {
                const uint before = neighbours_before(v, s, width, height, slice_height, connectivity, stamps);
                info[v] = info_of(before, luma[v], connectivity);
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; local_counts && i < levels; i += RGX_WG_SIZE)
        if (counts[i] != 0)
            atomic_add(&histogram[i], counts[i]);
}

// order[cursor[s]++] = v for every classified voxel v of stamp s, one range
// reserved per stamp and work-group chunk (cursor: the scan's starts).
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void bucket_stamps(__global const uint* stamps, const uint voxels, const uint levels,
                   volatile __global uint* cursor, __global uint* order)
{
    __local uint counts[LOCAL_LEVELS];
    const bool local_counts = levels <= LOCAL_LEVELS;
    const uint lid = get_local_id(0);
    for (uint chunk = get_group_id(0) * CHUNK; chunk < voxels; chunk += get_num_groups(0) * CHUNK) {
        if (!local_counts) {
            for (uint i = lid; i < CHUNK && chunk + i < voxels; i += RGX_WG_SIZE) {
                const uint s = stamps[chunk + i];
                if (s < levels)
                    order[atomic_inc(&cursor[s])] = chunk + i;
            }
            continue;
        }
        for (uint i = lid; i < levels; i += RGX_WG_SIZE)
            counts[i] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint i = lid; i < CHUNK && chunk + i < voxels; i += RGX_WG_SIZE) {
            const uint s = stamps[chunk + i];
            if (s < levels)
                atomic_inc(&counts[s]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        // This chunk's range of each stamp; counts[s] becomes its cursor.
        for (uint i = lid; i < levels; i += RGX_WG_SIZE)
            if (counts[i] != 0)
                counts[i] = atomic_add(&cursor[i], counts[i]);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint i = lid; i < CHUNK && chunk + i < voxels; i += RGX_WG_SIZE) {
            const uint s = stamps[chunk + i];
            if (s < levels)
                order[atomic_inc(&counts[s])] = chunk + i;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

// Whether region k at `distance` from a voxel's luma wins over the best so
// far (none: best 0): the least distance, ties to the smallest label. A
// mean floor(256 sum / count) of 16-bit lumas is below 2^24: 32 bits hold
// it and every distance.
inline bool nearer(uint k, uint distance, uint best, uint best_distance)
{
    return best == 0 || distance < best_distance || (distance == best_distance && k < best);
}

// A work-group's counts and sums of a level (stats) into the level's (slot),
// one pair of atomics per region it touched.
inline void flush_stats(__local const uint* stats, volatile __global uint* slot, uint region_total, uint lid)
{
    for (uint k = lid; k < region_total; k += RGX_WG_SIZE) {
        const uint n = stats[k * STATS_WORDS];
        if (n == 0)
            continue;
        atomic_add(&slot[k * STATS_WORDS], n);
        atomic_add_u64_wide(&slot[k * STATS_WORDS + 1],
                            ((ulong)stats[k * STATS_WORDS + 2] << 32) | stats[k * STATS_WORDS + 1]);
    }
}

// Level `level`: the voxels order[first .. first + count) take the label
// of least distance to its mean among their neighbours of stamp level - 1,
// ties to the smallest label; their counts and luma sums go to `deltas`.
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void label_level(const uint level, const uint first, const uint count, __global const uint* order,
                 const int width, const int height, const int slice_height, const int connectivity,
                 __global const ushort* luma, __global const uint* stamps, __global ushort* labels,
                 __global const ulong* means, const uint region_total, volatile __global uint* deltas)
{
    __local uint stats[LOCAL_REGIONS * STATS_WORDS];
    const bool local_stats = region_total <= LOCAL_REGIONS;
    const uint lid = get_local_id(0);
    for (uint i = lid; local_stats && i < region_total * STATS_WORDS; i += RGX_WG_SIZE)
        stats[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    // Consecutive work-items take consecutive voxels of the level, which
    // lie together in the volume: their loads coalesce. (A run of voxels a
    // work-item, its count and sum added once, was 1.2x slower on the H200.)
    for (uint i = get_global_id(0); i < count; i += get_global_size(0)) {
        const uint p = order[first + i];
        const voxel_t v = voxel_of(p, width, slice_height);
        const uint value = luma[p];
        const ulong scaled = (ulong)value << 8;
        uint best = 0;
        uint best_distance = 0;
        for (int d = 0; d < neighbour_end(connectivity); ++d) {
            // The index before the in-use test, as in region_growing.cl
            // (Intel's compiler got the other order wrong).
            const uint q = neighbour_index(v, d, width, height, slice_height);
            if (!neighbour_in_use(d, connectivity) || q == NO_NEIGHBOUR || stamps[q] != level - 1)
                continue;
            const uint k = labels[q];
            if (k == 0 || k > region_total)
                continue;
            const ulong mean = means[k - 1];
            const uint distance = (uint)(scaled > mean ? scaled - mean : mean - scaled);
            if (nearer(k, distance, best, best_distance)) {
                best = k;
                best_distance = distance;
            }
        }
        labels[p] = (ushort)best;
        if (best != 0) // 0 only where a broken first pass left a voxel without a neighbour before it
            add_region_run(best, 1, value, local_stats, stats, deltas);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (local_stats)
        flush_stats(stats, deltas, region_total, lid);
}

// After a level: totals += deltas, deltas = 0, and each region's mean
// M_k = floor(sum_k * 256 / count_k) for the next level.
__kernel void close_level(const uint region_total, __global uint* totals, __global uint* deltas,
                          __global ulong* means)
{
    for (uint k = get_global_id(0); k < region_total; k += get_global_size(0)) {
        const uint at = k * STATS_WORDS;
        const uint n = totals[at] + deltas[at];
        const ulong sum = (((ulong)totals[at + 2] << 32) | totals[at + 1]) +
                          (((ulong)deltas[at + 2] << 32) | deltas[at + 1]);
        totals[at] = n;
        totals[at + 1] = (uint)sum;
        totals[at + 2] = (uint)(sum >> 32);
        deltas[at] = deltas[at + 1] = deltas[at + 2] = 0;
        means[k] = (sum << 8) / (ulong)max(n, 1u);
    }
}

#include "seed_distances.h"
#include "label_levels_fused.h"
#include "label_ties.h"
#include "settle_ties.h"
