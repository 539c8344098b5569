// Where a tile round's time goes on an NVIDIA GPU: a bench and test hook,
// off unless the host builds grow_tiles with RGX_PROFILE_TILES 1
// (RGX_TEST_PROFILE_TILES=1, TiledDriver.cpp). Work-item 0 of each group
// reads the compute unit's cycle counter (%clock64, inline PTX) at the
// phase marks and adds each phase's cycles to a 64-bit word of the counters
// (RGX_COUNTER_PROFILE); the host prints them per visit and per round.
// The marks follow barriers, so work-item 0's clock is the group's.
#ifndef RGX_TILE_PROFILE_H
#define RGX_TILE_PROFILE_H

#ifndef RGX_PROFILE_TILES
#define RGX_PROFILE_TILES 0
#endif

#if RGX_PROFILE_TILES
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
inline ulong profile_clock(void)
{
    ulong t;
    __asm__ __volatile__("mov.u64 %0, %%clock64;" : "=l"(t));
    return t;
}
// Opens a span of phases in the calling function.
#define PROFILE_BEGIN() ulong profile_last_ = get_local_id(0) == 0 ? profile_clock() : 0
// Adds the cycles since the last mark to `phase` (RGX_PROFILE_*).
#define PROFILE_MARK(counters, phase)                                                                          \
    do {                                                                                                     \
        if (get_local_id(0) == 0) {                                                                          \
            const ulong profile_now_ = profile_clock();                                                      \
            atom_add((volatile __global ulong*)((counters) + RGX_COUNTER_PROFILE) + (phase),                 \
                     profile_now_ - profile_last_);                                                          \
            profile_last_ = profile_now_;                                                                    \
        }                                                                                                    \
    } while (0)
// Starts the next mark's span now.
#define PROFILE_RESTART()                                                                                      \
    do {                                                                                                     \
        if (get_local_id(0) == 0)                                                                            \
            profile_last_ = profile_clock();                                                                 \
    } while (0)
// Adds `amount` to the count `phase` (visits, levels).
#define PROFILE_COUNT(counters, phase, amount)                                                                 \
    do {                                                                                                     \
        if (get_local_id(0) == 0)                                                                            \
            atom_add((volatile __global ulong*)((counters) + RGX_COUNTER_PROFILE) + (phase), (ulong)(amount)); \
    } while (0)
#else
#define PROFILE_BEGIN() (void)0
#define PROFILE_MARK(counters, phase) (void)0
#define PROFILE_RESTART() (void)0
#define PROFILE_COUNT(counters, phase, amount) (void)0
#endif

#endif
