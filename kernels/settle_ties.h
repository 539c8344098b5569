// The ties of a competitive run of a few regions, settled by passes instead
// of level by level. Included by label_levels.cl, after label_ties.h (its
// refs, sort and totals are this kernel's inputs too).
//
// label_ties decides one level after the other: a tie's label needs the
// means after the level before, which count the ties labelled so far. Two
// seeds tie on a line across the image, one or two pixels a level: 4095
// levels at 4096², each two barriers of a work-group, 2.2 ms on the H100.
// Yet a tie changes a mean by a pixel among millions, and a label moves
// only where a luma lies almost half-way between two means.
//
// So every level is decided at once on a guess of the ties' labels, and
// again on the labels that gave, until a pass changes nothing. Each
// work-item owns a run of levels and walks it in order: the ties before
// its run count with the labels of the pass before (a scan of each run's
// totals), its own run's with the labels it just decided. A level of many
// ties (two seeds whose offsets differ in x and y tie on a diagonal, all of
// one level) is not walked: its owner notes the totals before it, and the
// whole group decides its ties after the walks, on those totals; the levels
// after it in the run count it, and its ties' neighbours read it, with the
// labels of the pass before.
//
// A pass that changes nothing decided every tie on the labels it found, so
// they are SPEC step 5's labels: by induction over the levels, each tie saw
// the exact means and neighbours' labels. Passes end: split each run at its
// many-tie levels, and a pass decides the first part exactly (nothing lies
// before it), and the part after parts exact in the pass before; so after
// a pass per part at most one more changes nothing. Most runs settle in two
// or three passes: the first on no ties at all, the last finding nothing
// to change.
#ifndef RGX_SETTLE_TIES_H
#define RGX_SETTLE_TIES_H

#include "region_mean.h"

// The most regions settle_ties takes (each work-item's totals of each
// region are in local memory; the host sends more to label_ties).
#define SETTLE_REGIONS 8

// SPEC step 4 for the tie whose neighbours `ref` holds (tie_refs), at
// `level`, with count and sum the ties' totals before it. A neighbour tie's
// label: in a level of many ties, the pass before's (none in the first);
// from `own` on, this pass's; before it, the pass before's.
inline uint settle_decide(__global const uint* ref, uint level, __global const uint* unique, uint region_total,
                          const uint* count, const ulong* sum, uint own, uint pass,
                          volatile __global const ushort* before, volatile __global const ushort* now)
{
    const uint scaled = ref[RGX_NEIGHBOURS] << 8;
    uint best = 0, best_distance = 0;
    for (int d = 0; d < RGX_NEIGHBOURS; ++d) {
        const uint r = ref[d];
        if (r == 0)
            continue;
        uint k = r;
        if ((r & TIE_REF_GLOBAL) != 0) {
            const uint at = r & ~(TIE_REF_GLOBAL | TIE_REF_BIG);
            k = (r & TIE_REF_BIG) == 0 && at >= own ? now[at] : pass == 0 ? 0 : before[at];
        }
        if (k == 0 || k > region_total)
            continue;
        __global const uint* entry = unique + ((level - 1) * region_total + k - 1) * 3;
        const ulong total = (((ulong)entry[2] << 32) | entry[1]) + sum[k - 1];
        const uint mean = mean_of(total, entry[0] + count[k - 1]);
        const uint distance = scaled > mean ? scaled - mean : mean - scaled;
        if (nearer(k, distance, best, best_distance)) {
            best = k;
            best_distance = distance;
        }
    }
    return best;
}

// One work-group of RGX_WG_SIZE. tie_levels, order, refs (tie_refs with no
// ring, big_limit as here) and unique (scan_unique's totals) as for
// label_ties; region_total <= SETTLE_REGIONS. A level of more than
// big_limit ties is decided by the group: big_index[j] is tie level j's
// place among those (big_count of them, in order) or ~0u; big_prefix and
// big_totals hold SETTLE_REGIONS x 3 words for each (the totals before it,
// and its own). guesses: two arrays of tie_count labels, a pass's and the
// one before.
__kernel __attribute__((reqd_work_group_size(RGX_WG_SIZE, 1, 1)))
void settle_ties(const uint tie_level_count, __global const uint* tie_levels, __global const uint* order,
                 __global const uint* refs, __global const uint* unique, const uint region_total,
                 const uint tie_count, const uint big_limit, __global const uint* big_index, const uint big_count,
                 __global const uint* big_levels, __global uint* big_prefix, __global uint* big_totals,
                 volatile __global ushort* labels, volatile __global ushort* guesses)
{
    // Each work-item's totals of each region: its run's, then the scan's.
    __local uint run_count[SETTLE_REGIONS][RGX_WG_SIZE];
    __local ulong run_sum[SETTLE_REGIONS][RGX_WG_SIZE];
    __local uint big_stats[SETTLE_REGIONS * STATS_WORDS];
    __local uint changed;
    const uint lid = get_local_id(0);
    const uint first_level = (uint)((ulong)lid * tie_level_count / RGX_WG_SIZE);
    const uint end_level = (uint)((ulong)(lid + 1) * tie_level_count / RGX_WG_SIZE);
    const uint first_tie = first_level < tie_level_count ? tie_levels[first_level * 3 + 1] : tie_count;
    uint own_count[SETTLE_REGIONS];
    ulong own_sum[SETTLE_REGIONS];
#pragma unroll
    for (uint k = 0; k < SETTLE_REGIONS; ++k) {
        own_count[k] = 0;
        own_sum[k] = 0;
    }
    if (lid == 0)
        changed = 0;
    uint pass = 0;
    bool again = true;
    // A pass per part and one more (above); the bound only guards.
    while (again && pass <= RGX_WG_SIZE + 2 * big_count + 1) {
        volatile __global ushort* before = guesses + (pass & 1) * tie_count;
        volatile __global ushort* now = guesses + ((pass + 1) & 1) * tie_count;
        // Each region's ties before this run: an inclusive scan of the
        // runs' totals, less the run's own.
#pragma unroll
        for (uint k = 0; k < SETTLE_REGIONS; ++k) {
            run_count[k][lid] = own_count[k];
            run_sum[k][lid] = own_sum[k];
        }
        for (uint step = 1; step < RGX_WG_SIZE; step <<= 1) {
            barrier(CLK_LOCAL_MEM_FENCE);
            uint add_count[SETTLE_REGIONS];
            ulong add_sum[SETTLE_REGIONS];
#pragma unroll
            for (uint k = 0; k < SETTLE_REGIONS; ++k) {
                add_count[k] = lid >= step && k < region_total ? run_count[k][lid - step] : 0;
                add_sum[k] = lid >= step && k < region_total ? run_sum[k][lid - step] : 0;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
            for (uint k = 0; k < SETTLE_REGIONS; ++k) {
                run_count[k][lid] += add_count[k];
                run_sum[k][lid] += add_sum[k];
            }
        }
        uint count[SETTLE_REGIONS];
        ulong sum[SETTLE_REGIONS];
#pragma unroll
        for (uint k = 0; k < SETTLE_REGIONS; ++k) {
            count[k] = run_count[k][lid] - own_count[k];
            sum[k] = run_sum[k][lid] - own_sum[k];
            own_count[k] = 0;
            own_sum[k] = 0;
        }
        // Walk the run: a level's ties on the totals before it.
        bool moved = false;
        for (uint j = first_level; j < end_level; ++j) {
            const uint level = tie_levels[j * 3], start = tie_levels[j * 3 + 1], ties = tie_levels[j * 3 + 2];
            if (ties > big_limit) {
                // The group's after the walks: the totals before it, then
                // its own as the pass before labelled it.
                const uint b = big_index[j];
                for (uint k = 0; k < region_total; ++k) {
                    __global uint* prefix = big_prefix + (b * SETTLE_REGIONS + k) * 3;
                    __global const uint* totals = big_totals + (b * SETTLE_REGIONS + k) * 3;
                    prefix[0] = count[k];
                    prefix[1] = (uint)sum[k];
                    prefix[2] = (uint)(sum[k] >> 32);
                    if (pass != 0) {
                        count[k] += totals[0];
                        sum[k] += ((ulong)totals[2] << 32) | totals[1];
                    }
                }
                continue;
            }
            uint level_count[SETTLE_REGIONS];
            uint level_sum[SETTLE_REGIONS];
#pragma unroll
            for (uint k = 0; k < SETTLE_REGIONS; ++k)
                level_count[k] = level_sum[k] = 0;
            for (uint i = start; i < start + ties; ++i) {
                __global const uint* ref = refs + i * TIE_REF_WORDS;
                const uint best = settle_decide(ref, level, unique, region_total, count, sum, first_tie, pass, before, now);
                now[i] = (ushort)best;
                moved |= pass == 0 || before[i] != best;
#pragma unroll
                for (uint k = 0; k < SETTLE_REGIONS; ++k) {
                    level_count[k] += best == k + 1 ? 1 : 0;
                    level_sum[k] += best == k + 1 ? ref[RGX_NEIGHBOURS] : 0;
                }
            }
#pragma unroll
            for (uint k = 0; k < SETTLE_REGIONS; ++k) {
                count[k] += level_count[k];
                sum[k] += level_sum[k];
                own_count[k] += level_count[k];
                own_sum[k] += level_sum[k];
            }
        }
        // The levels of many ties, each by the whole group, on the totals
        // their owners noted and this pass's labels of the levels walked.
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        for (uint b = 0; b < big_count; ++b) {
            const uint j = big_levels[b];
            const uint level = tie_levels[j * 3], start = tie_levels[j * 3 + 1], ties = tie_levels[j * 3 + 2];
            uint prefix_count[SETTLE_REGIONS];
            ulong prefix_sum[SETTLE_REGIONS];
#pragma unroll
            for (uint k = 0; k < SETTLE_REGIONS; ++k) {
                __global const uint* prefix = big_prefix + (b * SETTLE_REGIONS + k) * 3;
                prefix_count[k] = k < region_total ? prefix[0] : 0;
                prefix_sum[k] = k < region_total ? ((ulong)prefix[2] << 32) | prefix[1] : 0;
            }
            if (lid < SETTLE_REGIONS * STATS_WORDS)
                big_stats[lid] = 0;
            barrier(CLK_LOCAL_MEM_FENCE);
            for (uint i = start + lid; i < start + ties; i += RGX_WG_SIZE) {
                __global const uint* ref = refs + i * TIE_REF_WORDS;
                const uint best = settle_decide(ref, level, unique, region_total, prefix_count, prefix_sum, 0, pass,
                                                before, now);
                now[i] = (ushort)best;
                moved |= pass == 0 || before[i] != best;
                if (best != 0) {
                    atomic_inc(&big_stats[(best - 1) * STATS_WORDS]);
                    local_add_u64_wide(&big_stats[(best - 1) * STATS_WORDS + 1], ref[RGX_NEIGHBOURS]);
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid < region_total * STATS_WORDS)
                big_totals[b * SETTLE_REGIONS * 3 + lid] = big_stats[lid];
            barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        }
        // The run's own totals for the next scan: its levels of many ties
        // as this pass labelled them.
        for (uint j = first_level; big_count != 0 && j < end_level; ++j) {
            if (tie_levels[j * 3 + 2] <= big_limit)
                continue;
            __global const uint* totals = big_totals + big_index[j] * SETTLE_REGIONS * 3;
#pragma unroll
            for (uint k = 0; k < SETTLE_REGIONS; ++k) {
                own_count[k] += k < region_total ? totals[k * 3] : 0;
                own_sum[k] += k < region_total ? ((ulong)totals[k * 3 + 2] << 32) | totals[k * 3 + 1] : 0;
            }
        }
        if (moved)
            atomic_or(&changed, 1u);
        // This pass's labels are the next pass's guesses.
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        again = changed != 0;
        ++pass;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0)
            changed = 0;
    }
    volatile __global const ushort* settled = guesses + (pass & 1) * tie_count;
    for (uint i = lid; i < tie_count; i += RGX_WG_SIZE)
        labels[order[i]] = settled[i];
}

#endif
