// The labels of a competitive run of several regions where seed_distances
// found its stamps (seed_distances.h): only the ties wait for the means.
// Included by label_levels.cl, after nearer.
//
// A voxel whose nearest seed is one seed alone has that seed's label:
// every neighbour of the stamp before (the only ones it can take a label
// from, SPEC step 3) lies one step nearer to that seed and farther from
// every other, so it has the same seed alone nearest, and the label comes
// down the levels from the seed itself. seed_distances wrote those labels,
// counted those voxels and summed their luma per stamp and region, and
// listed the ties: the voxels equidistant from two seeds or more, a line
// between two seeds of an image, a surface in a volume. Here the ties are
// sorted by stamp (sort_ties), each notes where its neighbours' labels
// will be (tie_refs), the counts and sums become each region's totals up
// to each stamp (scan_unique), and one work-group labels the ties level by
// level (label_ties): a level's means are those totals plus the ties
// labelled so far, and a level costs two barriers of one work-group, not a
// grid barrier and a round trip through global memory.
#ifndef RGX_LABEL_TIES_H
#define RGX_LABEL_TIES_H

#include "region_mean.h"

// A tie's neighbour of the stamp before, as tie_refs notes it: 0 none, a
// label (1 .. 256) where that neighbour has one seed nearest, else where
// label_ties keeps that tie's label: its level's slot in local memory
// (TIE_REF_RING: levels of at most TIE_RING ties), or its place in
// tie_labels.
#define TIE_RING 2048
#define TIE_REF_RING 0x80000000u
#define TIE_REF_GLOBAL 0x40000000u
#define TIE_REF_BIG 0x20000000u // settle_ties.h
#define TIE_REF_WORDS (RGX_NEIGHBOURS + 1) // the neighbours, then the luma

// order[cursor[s]++] = t and place[t] = its index there for every tie t of
// stamp s (cursor: the starts of the stamps' ranges, a scan of their ties).
__kernel void sort_ties(__global const uint* ties, const uint tie_count, __global const uint* stamps,
                        volatile __global uint* cursor, __global uint* order, __global uint* place)
{
    for (uint i = get_global_id(0); i < tie_count; i += get_global_size(0)) {
        const uint t = ties[i];
        const uint at = atomic_inc(&cursor[stamps[t]]);
        order[at] = t;
        place[t] = at;
    }
}

// refs[i * TIE_REF_WORDS + d]: where tie order[i]'s neighbour d of the stamp
// before finds its label (above); the last word its luma. starts[s]: the
// first index of stamp s in order; level_counts[2 + s]: its ties; a level
// of at most ring_limit ties is kept in the ring (TIE_RING for label_ties,
// 0 for settle_ties, which has none), and a neighbour in a level of more
// than big_limit ties is marked TIE_REF_BIG (settle_ties.h; label_ties
// none).
__kernel void tie_refs(__global const uint* order, const uint tie_count, __global const uint* starts,
                       __global const uint* level_counts, __global const uint* place, __global const uint* stamps,
                       __global const ushort* labels, __global const ushort* luma, const int width, const int height,
                       const int slice_height, const int connectivity, const uint ring_limit, const uint big_limit,
                       __global uint* refs)
{
    for (uint i = get_global_id(0); i < tie_count; i += get_global_size(0)) {
        const uint t = order[i];
        const uint s = stamps[t];
        const voxel_t at = voxel_of(t, width, slice_height);
        const uint neighbour_ties = level_counts[2 + s - 1];
        const bool ring = neighbour_ties <= ring_limit;
        const uint big = neighbour_ties > big_limit ? TIE_REF_BIG : 0;
        for (int d = 0; d < RGX_NEIGHBOURS; ++d) {
            uint ref = 0;
            // The index before the in-use test, as in region_growing.cl.
            const uint q = neighbour_index(at, d, width, height, slice_height);
            if (d < neighbour_end(connectivity) && neighbour_in_use(d, connectivity) && q != NO_NEIGHBOUR &&
                stamps[q] == s - 1) {
                const uint label = labels[q];
                ref = label != TIE_LABEL ? label
                      : ring             ? TIE_REF_RING | (place[q] - starts[s - 1])
                                         : TIE_REF_GLOBAL | big | place[q];
            }
            refs[i * TIE_REF_WORDS + d] = ref;
        }
        refs[i * TIE_REF_WORDS + RGX_NEIGHBOURS] = luma[t];
    }
}

// Each region's totals up to each stamp: unique[(s * region_total + k) * 3]
// (count, sum low, sum high) becomes the seed's count and luma plus those
// of stamps 1 .. s. A work-group a region: each work-item adds a run of
// stamps, the group scans the runs, each work-item writes its run.
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void scan_unique(__global uint* unique, const uint levels, const uint region_total, __global const uint* seed_luma)
{
    __local uint run_count[RGX_WG_SIZE];
    __local ulong run_sum[RGX_WG_SIZE];
    const uint lid = get_local_id(0);
    const uint per = (levels + RGX_WG_SIZE - 1) / RGX_WG_SIZE;
    const uint first = min(lid * per, levels), end = min(first + per, levels);
    for (uint k = get_group_id(0); k < region_total; k += get_num_groups(0)) {
        uint count = 0;
        ulong sum = 0;
        for (uint s = first; s < end; ++s) {
            __global const uint* entry = unique + (s * region_total + k) * 3;
            count += entry[0];
            sum += ((ulong)entry[2] << 32) | entry[1];
        }
        run_count[lid] = count;
        run_sum[lid] = sum;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) {
            uint total_count = 1;
            ulong total_sum = seed_luma[k];
            for (uint i = 0; i < RGX_WG_SIZE; ++i) {
                const uint c = run_count[i];
                const ulong u = run_sum[i];
                run_count[i] = total_count;
                run_sum[i] = total_sum;
                total_count += c;
                total_sum += u;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        count = run_count[lid];
        sum = run_sum[lid];
        for (uint s = first; s < end; ++s) {
            __global uint* entry = unique + (s * region_total + k) * 3;
            count += entry[0];
            sum += ((ulong)entry[2] << 32) | entry[1];
            entry[0] = count;
            entry[1] = (uint)sum;
            entry[2] = (uint)(sum >> 32);
        }
        barrier(CLK_LOCAL_MEM_FENCE); // the runs are free again
    }
}

// A level of ties as label_ties reads it ahead: the level, its ties' range
// in order, and work-item lid's first tie of it and its region's totals up
// to the stamp before.
typedef struct {
    uint level, start, count;
    uint tie;
    uint refs[TIE_REF_WORDS];
    uint unique_count;
    ulong unique_sum;
} TieLevel;

// Into `a` the loads of a level of ties whose (level, start, count) `at`
// holds: none of them waits for a label, and their addresses are known a
// level ahead (tie_levels is read two levels ahead), so that a level waits
// for one round trip at most, not two in a row.
#define TIE_LEVEL_AT(a, at)                                                                                    \
    do {                                                                                                      \
        (a).level = (at).x;                                                                                   \
        (a).start = (at).y;                                                                                   \
        (a).count = (at).z;                                                                                   \
        if (lid < (a).count) {                                                                                \
            (a).tie = order[(a).start + lid];                                                                 \
            for (int w = 0; w < TIE_REF_WORDS; ++w)                                                           \
                (a).refs[w] = refs[((a).start + lid) * TIE_REF_WORDS + w];                                    \
        }                                                                                                     \
        if (lid < region_total) {                                                                             \
            __global const uint* entry = unique + (((a).level - 1) * region_total + lid) * 3;                 \
            (a).unique_count = entry[0];                                                                      \
            (a).unique_sum = ((ulong)entry[2] << 32) | entry[1];                                              \
        }                                                                                                     \
    } while (0)

// (level, start, count) of tie level j, or none past the last.
#define TIE_TRIPLE(j) ((j) < tie_level_count ? (uint3)(tie_levels[(j) * 3], tie_levels[(j) * 3 + 1], tie_levels[(j) * 3 + 2]) : (uint3)(1, 0, 0))

// SPEC step 4 for a tie whose neighbours are in `ref` (tie_refs), with
// `ring` the labels of the level before in local memory: the neighbours'
// labels found, then decide's choice (label_levels_fused.h).
inline uint decide_tie(const uint* ref, __local const ushort* ring, volatile __global const ushort* tie_labels,
                       __local const uint* means, uint region_total)
{
    Ahead a = {0, {0, 0, 0}, ref[RGX_NEIGHBOURS], 0};
    uint label[RGX_NEIGHBOURS];
    for (int d = 0; d < RGX_NEIGHBOURS; ++d) {
        const uint r = ref[d];
        label[d] = (r & TIE_REF_RING) != 0     ? ring[r & ~TIE_REF_RING]
                   : (r & TIE_REF_GLOBAL) != 0 ? tie_labels[r & ~TIE_REF_GLOBAL]
                                               : r;
        a.before |= (r != 0 ? 1u : 0u) << d;
    }
    return decide(a, label, means, region_total);
}

// Every tie, level after level, in one work-group of RGX_WG_SIZE (at most
// LOCAL_REGIONS regions, one work-item each keeping its region's ties'
// count and sum). tie_levels: (level, start, count) of each stamp with
// ties, in order; unique: scan_unique's totals. A level: each region's
// mean from the totals up to the stamp before plus its ties so far; a
// barrier; the level's ties decided (labels, tie_labels, and the ring for
// the next level), their counts and sums into local memory; a barrier.
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void label_ties(const uint tie_level_count, __global const uint* tie_levels, __global const uint* order,
                __global const uint* refs, __global const uint* unique, const uint region_total,
                volatile __global ushort* labels, volatile __global ushort* tie_labels)
{
    __local uint means[LOCAL_REGIONS];
    __local uint stats[LOCAL_REGIONS * STATS_WORDS];
    __local ushort ring[2][TIE_RING];
    const uint lid = get_local_id(0);
    uint tie_count = 0;
    ulong tie_sum = 0;
    for (uint k = lid; k < region_total; k += RGX_WG_SIZE)
        stats[k * STATS_WORDS] = stats[k * STATS_WORDS + 1] = stats[k * STATS_WORDS + 2] = 0;
    TieLevel next;
    next.count = 0;
    next.unique_count = 0;
    next.unique_sum = 0;
    uint3 after = TIE_TRIPLE(0);
    if (tie_level_count != 0)
        TIE_LEVEL_AT(next, after);
    after = TIE_TRIPLE(1);
    for (uint j = 0; j < tie_level_count; ++j) {
        const TieLevel now = next;
        if (j + 1 < tie_level_count)
            TIE_LEVEL_AT(next, after);
        after = TIE_TRIPLE(j + 2);
        if (lid < region_total)
            means[lid] = mean_of(now.unique_sum + tie_sum, now.unique_count + tie_count);
        // The means are in local memory; this level reads no global memory
        // that the group wrote since the barrier below.
        barrier(CLK_LOCAL_MEM_FENCE);
        __local const ushort* before = ring[(now.level - 1) & 1];
        __local ushort* mine = ring[now.level & 1];
        for (uint i = lid; i < now.count; i += RGX_WG_SIZE) {
            uint ref[TIE_REF_WORDS];
            uint t = now.tie;
            if (i == lid) {
                for (int w = 0; w < TIE_REF_WORDS; ++w)
                    ref[w] = now.refs[w];
            } else {
                t = order[now.start + i];
                for (int w = 0; w < TIE_REF_WORDS; ++w)
                    ref[w] = refs[(now.start + i) * TIE_REF_WORDS + w];
            }
            const uint k = decide_tie(ref, before, tie_labels, means, region_total);
            labels[t] = (ushort)k;
            tie_labels[now.start + i] = (ushort)k;
            if (i < TIE_RING)
                mine[i] = (ushort)k;
            if (k != 0) {
                atomic_inc(&stats[(k - 1) * STATS_WORDS]);
                local_add_u64_wide(&stats[(k - 1) * STATS_WORDS + 1], ref[RGX_NEIGHBOURS]);
            }
        }
        // The next level finds this one's labels in the ring, or where this
        // level has more ties than the ring holds, in tie_labels: only then
        // must this level's global writes be seen by the group (the
        // condition is the same for every work-item).
        if (now.count > TIE_RING)
            barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        else
            barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < region_total) {
            tie_count += stats[lid * STATS_WORDS];
            tie_sum += ((ulong)stats[lid * STATS_WORDS + 2] << 32) | stats[lid * STATS_WORDS + 1];
            stats[lid * STATS_WORDS] = stats[lid * STATS_WORDS + 1] = stats[lid * STATS_WORDS + 2] = 0;
        }
    }
}

#endif
