// What every region-growing kernel file shares: the neighbourhood, the
// growing modes, the range test and atomics on 64-bit sums.
#ifndef RGX_GROW_COMMON_H
#define RGX_GROW_COMMON_H

#include "grow_counters.h"

#define UNCLASSIFIED RGX_UNCLASSIFIED

#define RGX_MODE_COMPETITIVE 0
#define RGX_MODE_ADAPTIVE 1
#define RGX_MODE_RANGE 2

// Neighbour offsets: the first four are the 4-neighbourhood.
__constant int neighbour_dx[8] = {-1, 1, 0, 0, -1, 1, -1, 1};
__constant int neighbour_dy[8] = {0, 0, -1, 1, -1, -1, 1, 1};

// SPEC.md mode range: L(p) within [S_k - lower, S_k + upper].
inline bool within_range(uint value, uint seed, uint lower, uint upper)
{
    return (ulong)value + lower >= seed && (ulong)value <= (ulong)seed + upper;
}

// Adds a 32-bit value into a 64-bit counter kept as two uints (lo, hi) with
// 32-bit atomics only (OpenCL 1.2 has no 64-bit atomics in its core): a carry
// happens exactly when the old low word plus the value wraps around.
inline void atomic_add_u64(volatile __global uint* counter, uint value)
{
    if (value == 0)
        return;
    uint old = atomic_add(&counter[0], value);
    if (old + value < old)
        atomic_inc(&counter[1]);
}

// The same for a full 64-bit value.
inline void atomic_add_u64_wide(volatile __global uint* counter, ulong value)
{
    atomic_add_u64(counter, (uint)value);
    if ((value >> 32) != 0)
        atomic_add(&counter[1], (uint)(value >> 32));
}

inline void local_add_u64_wide(volatile __local uint* counter, ulong value)
{
    const uint low = (uint)value;
    if (low != 0) {
        uint old = atomic_add(&counter[0], low);
        if (old + low < old)
            atomic_inc(&counter[1]);
    }
    if ((value >> 32) != 0)
        atomic_add(&counter[1], (uint)(value >> 32));
}

#endif
