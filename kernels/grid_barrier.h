// A grid-wide barrier between the work-groups of one launch, for the fused
// drivers (grow_levels in region_growing.cl, grow_tiles in grow_tiles.cl).
//
// OpenCL promises no such thing: a work-group may not start before another
// has finished, and the OpenCL 1.2 memory model says nothing about one
// work-group seeing another's writes within a launch. So a launch begins
// with a roll call: when not every work-group arrives within a bounded wait,
// the launch does nothing, says so in the verdict word, and the host goes on
// with one step per launch. A barrier that stops being met later ends the
// launch with the verdict "stalled" at a step boundary, rather than hanging,
// and the host goes on from that step one per launch (below).
//
// The three words at `grid` (kernels/grow_counters.h) are zeroed by the host
// before each launch; a launch that stalled leaves RGX_BARRIER_STALLED in
// the released word. Arrivals only grow: the roll call counts the groups
// once, barrier n waits for (n + 1) * groups arrivals. The group that
// arrives last publishes n in the released word; the others spin on that
// word alone, which nobody else writes, with one work-item per group, so the
// spinning adds no traffic to the counter the arrivals increment.
// State that one work-group writes and another reads after the barrier must
// be read through volatile pointers: NVIDIA's L1 caches are not coherent
// across compute units, and a plain load may return a line cached before
// the barrier (docs/PERFORMANCE.md, "Two traps").
#ifndef RGX_GRID_BARRIER_H
#define RGX_GRID_BARRIER_H

#include "grow_counters.h"

// Bounded waits: the roll call gives up after RGX_ROLL_CALL_SPINS reads (a
// resident work-group arrives within microseconds); a later barrier declares
// the launch stalled after RGX_BARRIER_SPINS (the host sets more on CPUs).
#ifndef RGX_ROLL_CALL_SPINS
#define RGX_ROLL_CALL_SPINS (1u << 24)
#endif
#ifndef RGX_BARRIER_SPINS
#define RGX_BARRIER_SPINS (1u << 26)
#endif

// Every work-group's work-item 0 takes part; the verdict is the same for
// all: whoever settles it first decides.
inline bool grid_roll_call(volatile __global uint* grid, __local uint* verdict_out)
{
    if (get_local_id(0) == 0) {
        // What the group wrote before the roll call (the seeds of a first
        // launch, grow_tiles.cl) is seen by every group after it.
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        uint verdict;
        if (atomic_inc(&grid[RGX_GRID_ARRIVALS]) == get_num_groups(0) - 1) {
            verdict = atomic_cmpxchg(&grid[RGX_GRID_VERDICT], 0u, RGX_VERDICT_GO);
            verdict = verdict == 0 ? RGX_VERDICT_GO : verdict;
        } else {
            uint spins = 0;
            while ((verdict = grid[RGX_GRID_VERDICT]) == 0 && ++spins < RGX_ROLL_CALL_SPINS) {
            }
            if (verdict == 0) {
                verdict = atomic_cmpxchg(&grid[RGX_GRID_VERDICT], 0u, RGX_VERDICT_NOT_RESIDENT);
                verdict = verdict == 0 ? RGX_VERDICT_NOT_RESIDENT : verdict;
            }
        }
        *verdict_out = verdict;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    return *verdict_out == RGX_VERDICT_GO;
}

// Barrier number *passed + 1 of the launch: every work-group has finished
// what came before before any goes on. False when the launch stalled: then
// every work-group returns at this same barrier, each after finishing the
// work before it, so the launch leaves a state that is exactly "step
// `completed` done" — `completed` is written to *completed_word for the host,
// which goes on from there one step per launch.
//
// Passing and stalling are decided on one word with one compare-and-swap,
// so exactly one of them happens: the last group to arrive moves the
// released word from number - 1 to number; a group that has waited too long
// moves it to RGX_BARRIER_STALLED instead. Whichever succeeds decides for
// all; a late group that finally arrives sees the verdict and returns.
inline bool grid_barrier(volatile __global uint* grid, uint* passed, __local uint* verdict_out, uint completed,
                         volatile __global uint* completed_word)
{
    // The whole group's writes are done before its arrival counts.
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    const uint number = ++*passed;
    if (get_local_id(0) == 0) {
        mem_fence(CLK_GLOBAL_MEM_FENCE);
#ifdef RGX_TEST_LATE_GROUP
        // Tests: work-group 1 comes to barrier RGX_TEST_LATE_GROUP only
        // after the others have given it up, as a descheduled one would.
        if (get_group_id(0) == 1 && number == RGX_TEST_LATE_GROUP)
            while (grid[RGX_GRID_RELEASED] != RGX_BARRIER_STALLED) {
            }
#endif
        uint verdict = RGX_VERDICT_GO;
        const uint expected = (number + 1) * get_num_groups(0);
        if (atomic_inc(&grid[RGX_GRID_ARRIVALS]) == expected - 1) {
            // Last to arrive: every other group's writes were fenced before
            // its arrival; let them go, unless the barrier was given up.
            mem_fence(CLK_GLOBAL_MEM_FENCE);
            if (atomic_cmpxchg(&grid[RGX_GRID_RELEASED], number - 1, number) != number - 1)
                verdict = RGX_VERDICT_STALLED;
        } else {
            uint spins = 0;
            for (;;) {
                const uint released = grid[RGX_GRID_RELEASED];
                if (released == number)
                    break;
                if (released == RGX_BARRIER_STALLED) {
                    verdict = RGX_VERDICT_STALLED;
                    break;
                }
                if (++spins >= RGX_BARRIER_SPINS &&
                    atomic_cmpxchg(&grid[RGX_GRID_RELEASED], number - 1, RGX_BARRIER_STALLED) == number - 1) {
                    // This group gave the barrier up, for all: say where the launch
                    // stopped (a maximum: the word only ever grows). The verdict
                    // word is the roll call's: a group still reading it there must
                    // see "go" and do its share of the step before this barrier.
                    atomic_max(completed_word, completed);
                    verdict = RGX_VERDICT_STALLED;
                    break;
                }
            }
        }
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        *verdict_out = verdict;
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    return *verdict_out == RGX_VERDICT_GO;
}

#endif
