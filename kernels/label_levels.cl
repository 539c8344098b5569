// The second pass of a competitive run of several regions on a volume
// (docs/VARIANTS.md, "Competitive runs of many regions"). In mode
// competitive every candidate is accepted, so the stamps are the
// breadth-first distances from the nearest seed: the bricks
// (grow_bricks.cl) find them with every seed a source, as for one region.
// Only the labels need SPEC step 5's order: level i decides each voxel of
// stamp i among the labels of its neighbours of stamp i - 1 (no neighbour
// of a smaller stamp can exist: it would have classified the voxel
// earlier), on the means as they stood after level i - 1.
//
// The voxels are bucketed by stamp first (count_stamps, a scan on the host,
// bucket_stamps), so that a level reads its own voxels and nothing else:
// no claims, no frontier to build. Then either every level in one launch
// with a grid barrier between levels (label_levels_fused), or, where the
// work-groups cannot all be resident or stop meeting, two launches a level:
// label_level decides and adds the level's counts and sums to `deltas`,
// and close_level adds them to the totals and computes the next level's
// means.
#include "grid_barrier.h"
#include "grow_common.h"

#define STATS_WORDS 3
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

// histogram[s]: the classified voxels of stamp s (s < levels).
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void count_stamps(__global const uint* stamps, const uint voxels, const uint levels,
                  volatile __global uint* histogram)
{
    __local uint counts[LOCAL_LEVELS];
    const bool local_counts = levels <= LOCAL_LEVELS;
    const uint lid = get_local_id(0);
    for (uint i = lid; local_counts && i < levels; i += RGX_WG_SIZE)
        counts[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint chunk = get_group_id(0) * CHUNK; chunk < voxels; chunk += get_num_groups(0) * CHUNK) {
        for (uint i = lid; i < CHUNK && chunk + i < voxels; i += RGX_WG_SIZE) {
            const uint s = stamps[chunk + i];
            if (s < levels) {
                if (local_counts)
                    atomic_inc(&counts[s]);
                else
                    atomic_inc(&histogram[s]);
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

// Voxels of region k: into the work-group's totals, or the level's.
inline void add_to_level(uint k, uint count, ulong sum, bool local_stats, __local uint* stats,
                          volatile __global uint* deltas)
{
    if (local_stats) {
        atomic_add(&stats[(k - 1) * STATS_WORDS], count);
        local_add_u64_wide(&stats[(k - 1) * STATS_WORDS + 1], sum);
    } else {
        atomic_add(&deltas[(k - 1) * STATS_WORDS], count);
        atomic_add_u64_wide(&deltas[(k - 1) * STATS_WORDS + 1], sum);
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
        ulong best_distance = 0;
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
            const ulong distance = scaled > mean ? scaled - mean : mean - scaled;
            if (best == 0 || distance < best_distance || (distance == best_distance && k < best)) {
                best = k;
                best_distance = distance;
            }
        }
        labels[p] = (ushort)best;
        if (best != 0) // 0 only where a broken first pass left a voxel without a neighbour before it
            add_to_level(best, 1, value, local_stats, stats, deltas);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = lid; local_stats && k < region_total; k += RGX_WG_SIZE) {
        const uint n = stats[k * STATS_WORDS];
        if (n == 0)
            continue;
        atomic_add(&deltas[k * STATS_WORDS], n);
        atomic_add_u64_wide(&deltas[k * STATS_WORDS + 1],
                            ((ulong)stats[k * STATS_WORDS + 2] << 32) | stats[k * STATS_WORDS + 1]);
    }
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

// A voxel of the next level, looked at before the grid barrier that ends
// the level before it: its index, luma and which neighbours have the stamp
// before its own (order, luma and stamps do not change in this pass), so
// that after the barrier only those neighbours' labels are read.
typedef struct {
    uint p;
    uint value;
    uint before; // bit d: neighbour d has stamp level - 1
} Ahead;

inline Ahead look_ahead(uint p, uint level, int width, int height, int slice_height, int connectivity,
                        __global const ushort* luma, __global const uint* stamps)
{
    Ahead a;
    a.p = p;
    a.value = luma[p];
    a.before = 0;
    const voxel_t v = voxel_of(p, width, slice_height);
    for (int d = 0; d < neighbour_end(connectivity); ++d) {
        const uint q = neighbour_index(v, d, width, height, slice_height);
        if (neighbour_in_use(d, connectivity) && q != NO_NEIGHBOUR && stamps[q] == level - 1)
            a.before |= 1u << d;
    }
    return a;
}

// SPEC step 5 for one voxel: the label of least distance to its mean among
// its neighbours of the stamp before (labels written by other work-groups
// before the grid barrier: read through volatile), ties to the smallest.
inline void label_one(const Ahead a, int width, int height, int slice_height, volatile __global ushort* labels,
                      __local const ulong* means, uint region_total, __local uint* stats)
{
    const voxel_t v = voxel_of(a.p, width, slice_height);
    const ulong scaled = (ulong)a.value << 8;
    uint best = 0;
    ulong best_distance = 0;
    for (uint rest = a.before; rest != 0; rest &= rest - 1) {
        const int d = 31 - (int)clz(rest & (0u - rest));
        const uint k = labels[neighbour_index(v, d, width, height, slice_height)];
        if (k == 0 || k > region_total)
            continue;
        const ulong mean = means[k - 1];
        const ulong distance = scaled > mean ? scaled - mean : mean - scaled;
        if (best == 0 || distance < best_distance || (distance == best_distance && k < best)) {
            best = k;
            best_distance = distance;
        }
    }
    labels[a.p] = (ushort)best;
    if (best != 0) {
        atomic_inc(&stats[(best - 1) * STATS_WORDS]);
        local_add_u64_wide(&stats[(best - 1) * STATS_WORDS + 1], a.value);
    }
}

// Levels 1 .. levels - 1 in one launch, a grid barrier between levels; at
// most LOCAL_REGIONS regions. ends[s - 1] .. ends[s]: the voxels of stamp
// s in `order` (bucket_stamps leaves the ends where the starts were). Every work-group keeps the regions' totals in local
// memory, from the seeds' (`totals`) on: after a level's barrier each adds
// that level's counts and sums, which the groups left in one of three
// slots of `deltas` (slot level % 3; slot level + 1's is zeroed during the
// level, when every group has read it as slot level - 2's), and computes
// the next means itself. A level's voxels beyond the first global-size of
// them are looked at after the barrier.
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void label_levels_fused(const uint levels, __global const uint* ends, __global const uint* order,
                        const int width, const int height, const int slice_height, const int connectivity,
                        __global const ushort* luma, __global const uint* stamps, volatile __global ushort* labels,
                        __global const uint* totals, const uint region_total, volatile __global uint* deltas,
                        volatile __global uint* counters)
{
    __local uint stats[LOCAL_REGIONS * STATS_WORDS];
    __local ulong means[LOCAL_REGIONS];
    __local uint verdict;
    if (!grid_roll_call(counters + RGX_COUNTER_GRID, &verdict))
        return;
    const uint lid = get_local_id(0);
    const uint gid = get_global_id(0), items = get_global_size(0);
    // Work-item k keeps region k's totals (k < region_total, in steps of the group).
    uint count[(LOCAL_REGIONS + RGX_WG_SIZE - 1) / RGX_WG_SIZE];
    ulong sum[(LOCAL_REGIONS + RGX_WG_SIZE - 1) / RGX_WG_SIZE];
    for (uint j = 0, k = lid; k < LOCAL_REGIONS; ++j, k += RGX_WG_SIZE) {
        count[j] = k < region_total ? totals[k * STATS_WORDS] : 0;
        sum[j] = k < region_total ? ((ulong)totals[k * STATS_WORDS + 2] << 32) | totals[k * STATS_WORDS + 1] : 0;
    }
    uint passed = 0;
    Ahead next = {0, 0, 0};
    if (levels > 1 && gid < ends[1] - ends[0])
        next = look_ahead(order[ends[0] + gid], 1, width, height, slice_height, connectivity, luma, stamps);
    for (uint level = 1; level < levels; ++level) {
        for (uint j = 0, k = lid; k < region_total; ++j, k += RGX_WG_SIZE) {
            means[k] = (sum[j] << 8) / (ulong)max(count[j], 1u);
            stats[k * STATS_WORDS] = stats[k * STATS_WORDS + 1] = stats[k * STATS_WORDS + 2] = 0;
        }
        if (get_group_id(0) == 0)
            for (uint i = lid; i < region_total * STATS_WORDS; i += RGX_WG_SIZE)
                deltas[((level + 1) % 3) * region_total * STATS_WORDS + i] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint first = ends[level - 1], voxels = ends[level] - first;
        if (gid < voxels)
            label_one(next, width, height, slice_height, labels, means, region_total, stats);
        for (uint i = gid + items; i < voxels; i += items)
            label_one(look_ahead(order[first + i], level, width, height, slice_height, connectivity, luma, stamps),
                      width, height, slice_height, labels, means, region_total, stats);
        if (level + 1 < levels && gid < ends[level + 1] - ends[level])
            next = look_ahead(order[ends[level] + gid], level + 1, width, height, slice_height, connectivity,
                              luma, stamps);
        barrier(CLK_LOCAL_MEM_FENCE);
        volatile __global uint* slot = deltas + (level % 3) * region_total * STATS_WORDS;
        for (uint k = lid; k < region_total; k += RGX_WG_SIZE) {
            const uint n = stats[k * STATS_WORDS];
            if (n == 0)
                continue;
            atomic_add(&slot[k * STATS_WORDS], n);
            atomic_add_u64_wide(&slot[k * STATS_WORDS + 1],
                                ((ulong)stats[k * STATS_WORDS + 2] << 32) | stats[k * STATS_WORDS + 1]);
        }
        if (!grid_barrier(counters + RGX_COUNTER_GRID, &passed, &verdict, level, &counters[RGX_COUNTER_LAST_LAUNCHED]))
            return;
        for (uint j = 0, k = lid; k < region_total; ++j, k += RGX_WG_SIZE) {
            count[j] += slot[k * STATS_WORDS];
            sum[j] += ((ulong)slot[k * STATS_WORDS + 2] << 32) | slot[k * STATS_WORDS + 1];
        }
    }
}
