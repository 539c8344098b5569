// How the work-items of the bitmap tile step (grow_tiles.cl, one work-item
// per row of a 32 x 32 tile) see each other's rows at each level: the rows
// above and below, and a few votes of the whole group.
//
// Two ways, the same results:
//   - RGX_WARP_PTX (set by the host on NVIDIA GPUs, whose work-group of 32
//     is one warp): the warp's own register exchange, `shfl.sync` and
//     `vote.sync` in inline PTX. A level costs a few instructions and no
//     barrier, where the local-memory way costs a barrier, atomics and
//     loads of local memory (docs/PERFORMANCE.md measured both).
//   - otherwise local memory: each call writes its row and votes into one of
//     three slots and meets the group at one barrier. Slot n % 3 is written
//     in call n and read after its barrier; work-item 0 clears slot
//     (n + 1) % 3 in call n, two calls after its last reads and one before
//     its next writes.
// Every work-item of the group makes the same calls, in the same order.
#ifndef RGX_TILE_ROWS_H
#define RGX_TILE_ROWS_H

#ifndef RGX_WARP_PTX
#define RGX_WARP_PTX 0
#endif

// What work-item r sees at a level: its neighbours' rows (0 beyond the tile)
// and the group's votes.
typedef struct {
    uint above;   // row r - 1
    uint below;   // row r + 1
    uint top;     // bit c: work-item c voted `top`
    uint bottom;  // bit c: work-item c voted `bottom`
    uint any;     // 1 when some work-item voted `active`
} RowView;

#define RGX_VOTE_TOP 0
#define RGX_VOTE_BOTTOM 1
#define RGX_VOTE_ANY 2
#define RGX_VOTE_MIN 3

typedef struct {
    uint rows[3][RGX_TILE_SIDE + 2]; // per slot: rows -1..SIDE; the two ends stay 0
    uint votes[3][4];                // per slot: RGX_VOTE_*
} RowExchange;

// Before the barrier that starts the tile's levels.
inline void rows_init(__local RowExchange* x, int r)
{
    if (r == 0)
        for (int slot = 0; slot < 3; ++slot) {
            x->rows[slot][0] = x->rows[slot][RGX_TILE_SIDE + 1] = 0;
            x->votes[slot][RGX_VOTE_TOP] = x->votes[slot][RGX_VOTE_BOTTOM] = x->votes[slot][RGX_VOTE_ANY] = 0;
            x->votes[slot][RGX_VOTE_MIN] = RGX_UNCLASSIFIED;
        }
}

#if RGX_WARP_PTX
inline uint warp_up(uint v)
{
    uint out;
    __asm__ __volatile__("shfl.sync.up.b32 %0, %1, 1, 0, 0xffffffff;" : "=r"(out) : "r"(v));
    return out;
}

inline uint warp_down(uint v)
{
    uint out;
    __asm__ __volatile__("shfl.sync.down.b32 %0, %1, 1, 0x1f, 0xffffffff;" : "=r"(out) : "r"(v));
    return out;
}

inline uint warp_xor(uint v, uint lanes)
{
    uint out;
    __asm__ __volatile__("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(out) : "r"(v), "r"(lanes));
    return out;
}

inline uint warp_ballot(bool vote)
{
    uint out;
    __asm__ __volatile__("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, 0xffffffff; }"
                         : "=r"(out)
                         : "r"((uint)vote));
    return out;
}

inline RowView rows_look(uint row, bool top, bool bottom, bool active, int r, __local RowExchange* x, uint* call)
{
    (void)x;
    (void)call;
    RowView view;
    const uint above = warp_up(row), below = warp_down(row);
    view.above = r == 0 ? 0 : above;
    view.below = r == RGX_TILE_SIDE - 1 ? 0 : below;
    view.top = warp_ballot(top);
    view.bottom = warp_ballot(bottom);
    view.any = warp_ballot(active) != 0 ? 1 : 0;
    return view;
}

inline uint rows_min(uint v, int r, __local RowExchange* x, uint* call)
{
    (void)r;
    (void)x;
    (void)call;
    for (uint lanes = 16; lanes != 0; lanes >>= 1)
        v = min(v, warp_xor(v, lanes));
    return v;
}
#else
// The slot of this call; work-item 0 clears the next one.
inline uint rows_next_slot(int r, __local RowExchange* x, uint* call)
{
    const uint slot = *call % 3;
    *call += 1;
    if (r == 0) {
        const uint next = (slot + 1) % 3;
        x->votes[next][RGX_VOTE_TOP] = x->votes[next][RGX_VOTE_BOTTOM] = x->votes[next][RGX_VOTE_ANY] = 0;
        x->votes[next][RGX_VOTE_MIN] = RGX_UNCLASSIFIED;
    }
    return slot;
}

inline RowView rows_look(uint row, bool top, bool bottom, bool active, int r, __local RowExchange* x, uint* call)
{
    const uint slot = rows_next_slot(r, x, call);
    x->rows[slot][r + 1] = row;
    if (top)
        atomic_or(&x->votes[slot][RGX_VOTE_TOP], 1u << r);
    if (bottom)
        atomic_or(&x->votes[slot][RGX_VOTE_BOTTOM], 1u << r);
    if (active)
        atomic_or(&x->votes[slot][RGX_VOTE_ANY], 1u);
    // Every row and vote of this call is in place.
    barrier(CLK_LOCAL_MEM_FENCE);
    RowView view;
    view.above = x->rows[slot][r];
    view.below = x->rows[slot][r + 2];
    view.top = x->votes[slot][RGX_VOTE_TOP];
    view.bottom = x->votes[slot][RGX_VOTE_BOTTOM];
    view.any = x->votes[slot][RGX_VOTE_ANY] != 0 ? 1 : 0;
    return view;
}

inline uint rows_min(uint v, int r, __local RowExchange* x, uint* call)
{
    const uint slot = rows_next_slot(r, x, call);
    if (v != RGX_UNCLASSIFIED)
        atomic_min(&x->votes[slot][RGX_VOTE_MIN], v);
    // Every offer of this call is in.
    barrier(CLK_LOCAL_MEM_FENCE);
    return x->votes[slot][RGX_VOTE_MIN];
}
#endif

#endif
