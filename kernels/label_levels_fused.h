// label_levels_fused: every level of a competitive run's labels in one
// launch. Included by label_levels.cl, after the helpers it shares with
// label_level (nearer, flush_stats, the INFO_ words of count_stamps).
#ifndef RGX_LABEL_LEVELS_FUSED_H
#define RGX_LABEL_LEVELS_FUSED_H

#include "region_mean.h"

// A voxel of a level: its index, where it lies, its luma and which
// neighbours have the stamp before its own (count_stamps' `info`).
typedef struct {
    uint p;
    voxel_t v;
    uint value;
    uint before;
} Ahead;

// Voxel `i` of order into `a`, with its info. (A macro: a function
// returning the struct makes it a noalias argument once inlined, whose
// scope declaration Oclgrind 21.10 cannot run.)
#define VOXEL_AT(a, i)                                                                                         \
    do {                                                                                                      \
        (a).p = order[i];                                                                                     \
        const uint voxel_info = info[(a).p];                                                                  \
        (a).before = INFO_BEFORE(voxel_info);                                                                 \
        (a).v = voxel_of((a).p, width, slice_height);                                                         \
        (a).value = INFO_LUMA(voxel_info, (a).p);                                                             \
    } while (0)

// SPEC step 5 for one voxel, given its neighbours' labels (label[d] for the
// neighbours in a.before): the label of least distance to its mean, ties
// to the smallest (nearer).
inline uint decide(const Ahead a, const uint* label, __local const uint* means, uint region_total)
{
    const uint scaled = a.value << 8;
    uint best = 0;
    uint best_distance = 0;
#pragma unroll
    for (int d = 0; d < RGX_NEIGHBOURS; ++d) {
        const uint k = label[d];
        if (((a.before >> d) & 1u) == 0 || k == 0 || k > region_total)
            continue;
        const uint mean = means[k - 1];
        const uint distance = scaled > mean ? scaled - mean : mean - scaled;
        if (nearer(k, distance, best, best_distance)) {
            best = k;
            best_distance = distance;
        }
    }
    return best;
}

// The labels of a's neighbours of the stamp before, every load issued
// before any is used (written by other work-groups before the grid
// barrier: read through volatile).
inline void neighbour_labels(const Ahead a, int width, int height, int slice_height,
                             volatile __global ushort* labels, uint* label)
{
#pragma unroll
    for (int d = 0; d < RGX_NEIGHBOURS; ++d)
        label[d] = ((a.before >> d) & 1u) ? labels[neighbour_index(a.v, d, width, height, slice_height)] : 0;
}

inline void count_label(uint k, uint value, __local uint* stats)
{
    if (k != 0) {
        atomic_inc(&stats[(k - 1) * STATS_WORDS]);
        local_add_u64_wide(&stats[(k - 1) * STATS_WORDS + 1], value);
    }
}

// The voxels of `level` work-item `gid` takes first: whether there is one.
inline bool has_voxel(uint level, uint levels, uint gid, __global const uint* ends)
{
    return level < levels && gid < ends[level] - ends[level - 1];
}

// Levels 1 .. levels - 1 in one launch, a grid barrier between levels; at
// most LOCAL_REGIONS regions. ends[s - 1] .. ends[s]: the voxels of stamp
// s in `order` (bucket_stamps leaves the ends where the starts were);
// info[v]: count_stamps'.
//
// A level's time is its chain of dependent steps, so each level issues its
// loads together, right after the barrier: the level before's counts and
// sums, the next level's voxels' info, and the voxel indices of the level
// after that (work-item g takes voxel g of each level: three levels in
// flight); then its voxels' neighbours' labels.
// Every work-group keeps the regions' totals in local memory, from the
// seeds' (`totals`) on, adding each level's counts and sums, which the
// groups leave in slot level % 3 of `deltas` (slot level + 1 is zeroed
// during the level: every group read it, as slot level - 2, before the
// barrier that ended level - 1). A level's voxels beyond the first
// global-size of them are read when it runs.
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void label_levels_fused(const uint levels, __global const uint* ends, __global const uint* order,
                        __global const uint* info, const int width, const int height, const int slice_height,
                        const int connectivity,
                        __global const ushort* luma, volatile __global ushort* labels, __global const uint* totals,
                        const uint region_total, volatile __global uint* deltas, volatile __global uint* counters)
{
    __local uint stats[LOCAL_REGIONS * STATS_WORDS];
    __local uint means[LOCAL_REGIONS];
    __local uint verdict;
    if (!grid_roll_call(counters + RGX_COUNTER_GRID, &verdict))
        return;
    const uint lid = get_local_id(0);
    const uint gid = get_global_id(0), items = get_global_size(0);
    const uint slot_words = region_total * STATS_WORDS;
    // Work-item k keeps region k's totals (k < region_total, in steps of the group).
    uint count[(LOCAL_REGIONS + RGX_WG_SIZE - 1) / RGX_WG_SIZE];
    ulong sum[(LOCAL_REGIONS + RGX_WG_SIZE - 1) / RGX_WG_SIZE];
    for (uint j = 0, k = lid; k < region_total; ++j, k += RGX_WG_SIZE) {
        count[j] = totals[k * STATS_WORDS];
        sum[j] = ((ulong)totals[k * STATS_WORDS + 2] << 32) | totals[k * STATS_WORDS + 1];
    }
    // The pipeline: this level's voxel, the next level's, the index and mask after.
    bool now_valid = has_voxel(1, levels, gid, ends);
    Ahead now = {0, {0, 0, 0}, 0, 0};
    if (now_valid)
        VOXEL_AT(now, ends[0] + gid);
    bool next_valid = has_voxel(2, levels, gid, ends);
    uint next_p = next_valid ? order[ends[1] + gid] : 0;
    bool after_valid = has_voxel(3, levels, gid, ends);
    uint after_p = after_valid ? order[ends[2] + gid] : 0;
    uint passed = 0;
    for (uint level = 1; level < levels; ++level) {
        // The loads that do not wait for this level's labels, issued together.
        const uint next_info = next_valid ? info[next_p] : 0;
        const uint next_value = next_valid ? INFO_LUMA(next_info, next_p) : 0;
        const bool later_valid = has_voxel(level + 3, levels, gid, ends);
        const uint later_p = later_valid ? order[ends[level + 2] + gid] : 0;
        volatile __global uint* before_slot = deltas + ((level - 1) % 3) * slot_words;
        for (uint j = 0, k = lid; k < region_total; ++j, k += RGX_WG_SIZE) {
            if (level > 1) {
                count[j] += before_slot[k * STATS_WORDS];
                sum[j] += ((ulong)before_slot[k * STATS_WORDS + 2] << 32) | before_slot[k * STATS_WORDS + 1];
            }
            means[k] = mean_of(sum[j], count[j]);
            stats[k * STATS_WORDS] = stats[k * STATS_WORDS + 1] = stats[k * STATS_WORDS + 2] = 0;
        }
        if (get_group_id(0) == 0)
            for (uint i = lid; i < slot_words; i += RGX_WG_SIZE)
                deltas[((level + 1) % 3) * slot_words + i] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        // The labels after the barrier, into an array of the kernel's own:
        // loaded before it (the array live across it), or into an array of
        // decide's, PoCL 3.1 labelled wrong (the H100 gained nothing from
        // the first).
        uint label[RGX_NEIGHBOURS];
        if (now_valid) {
            neighbour_labels(now, width, height, slice_height, labels, label);
            const uint k = decide(now, label, means, region_total);
            labels[now.p] = (ushort)k;
            count_label(k, now.value, stats);
        }
        const uint first = ends[level - 1], voxels = ends[level] - first;
        for (uint i = gid + items; i < voxels; i += items) {
            Ahead a;
            VOXEL_AT(a, first + i);
            neighbour_labels(a, width, height, slice_height, labels, label);
            const uint k = decide(a, label, means, region_total);
            labels[a.p] = (ushort)k;
            count_label(k, a.value, stats);
        }

        // The pipeline moves on a level.
        now_valid = next_valid;
        now.p = next_p;
        now.v = voxel_of(next_p, width, slice_height);
        now.value = next_value;
        now.before = INFO_BEFORE(next_info);
        next_valid = after_valid;
        next_p = after_p;
        after_valid = later_valid;
        after_p = later_p;

        barrier(CLK_LOCAL_MEM_FENCE);
        flush_stats(stats, deltas + (level % 3) * slot_words, region_total, lid);
        if (!grid_barrier(counters + RGX_COUNTER_GRID, &passed, &verdict, level, &counters[RGX_COUNTER_LAST_LAUNCHED]))
            return;
    }
}

#endif
