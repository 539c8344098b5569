// The counter words of a region-growing run: one small buffer that every
// kernel of the run and the host share. Plain #defines, so that this file is
// both OpenCL C and C++ (engine/stages/GrowState.cpp includes it too).
#ifndef RGX_GROW_COUNTERS_H
#define RGX_GROW_COUNTERS_H

// Level drivers (kernels/region_growing.cl): pixels accepted in the
// iterations i with i % 3 == slot (the next frontier's size), a frontier
// write that ran past its buffer (only a broken variant does that), the last
// iteration a device-side chain launched or grow_levels completed, and the
// last iteration known to have accepted a pixel.
#define RGX_COUNTER_ACCEPTED 0     // 3 words
#define RGX_COUNTER_OVERFLOW 3
#define RGX_COUNTER_LAST_LAUNCHED 4
#define RGX_COUNTER_LAST_GROWN 5
// The grid barrier of fused launches (kernels/grid_barrier.h): arrivals,
// the number of the last barrier released, and the launch's verdict.
#define RGX_COUNTER_GRID 6         // 3 words
// Tiled growing (kernels/grow_tiles.cl): tiles queued for the rounds r with
// r % 3 == slot.
#define RGX_COUNTER_TILES 9        // 3 words
// The pixels a run may have changed, x0 y0 x1 y1 inclusive (x0 > x1: none),
// y the row within a slice; the slices z0 z1 in RGX_COUNTER_TOUCHED_Z.
#define RGX_COUNTER_TOUCHED 12     // 4 words
// Found by summarize (kernels/grow_session.cl) after the run: the bounding
// box of the classified pixels, x0 y0 x1 y1 inclusive (y a row within a
// slice), the largest stamp, and the box's slices z0 z1 (a volume's box is
// x by y by z, not the rows of every slice in between; an image: 0 0).
#define RGX_COUNTER_BOX 16         // 4 words
#define RGX_COUNTER_MAX_STAMP 20
#define RGX_COUNTER_BOX_Z 21       // 2 words
// Tiled growing in level windows: tiles that stopped at the window's last
// level with more to grow, for the next window.
#define RGX_COUNTER_DEFERRED 23
// Set by pack_ahead (kernels/grow_session.cl): the stamp bytes of the box
// maps it packed, 0 for none.
#define RGX_COUNTER_PACKED 24
// The slices z0 z1 of the touched box.
#define RGX_COUNTER_TOUCHED_Z 25   // 2 words
// The ring step (kernels/tile_step_ring.h): the labels of the pixels that
// rounds r with r % 3 == slot classified at their last level, two words a
// slot: the largest of 0x10000 - label (the smallest label) and the largest
// label, 0 for none. One label alone: every other region has stopped.
#define RGX_COUNTER_LAST_LABELS 27 // 6 words
// The one label a slot's two words hold, 0 where they hold none or several.
#define RGX_LONE_LABEL(low, high) ((low) != 0 && 0x10000u - (low) == (high) ? (high) : 0u)
// Where a tile round's time goes (kernels/tile_profile.h, a bench hook):
// 64-bit words, cycles of each phase and counts, RGX_PROFILE_*.
#define RGX_COUNTER_PROFILE 34     // 2 * RGX_PROFILE_WORDS words
#define RGX_PROFILE_READ 0         // a visit: its reads, to the barrier after them
#define RGX_PROFILE_SETUP 1        // its masks, fronts and halo entries
#define RGX_PROFILE_LEVELS 2       // its levels
#define RGX_PROFILE_WRITE 3        // its writes, to the barrier after them
#define RGX_PROFILE_QUEUE 4        // its queueing, to the visit's end
#define RGX_PROFILE_ROUND 5        // a round's start: its count and first tile
#define RGX_PROFILE_BARRIER 6      // the grid barrier after a round (waits included)
#define RGX_PROFILE_VISITS 7       // count: visits
#define RGX_PROFILE_STEPS 8        // count: levels the visits ran
#define RGX_PROFILE_ROUNDS 9       // count: rounds a group ran
#define RGX_PROFILE_HALO 10        // the bitmap step's read: its halo's loads issued
#define RGX_PROFILE_ROWS 11        // its rows' loads, to their use
#define RGX_PROFILE_HALO_USE 12    // its halo's loads, to their use
#define RGX_PROFILE_WORDS 13
#define RGX_COUNTER_WORDS (RGX_COUNTER_PROFILE + 2 * RGX_PROFILE_WORDS)

// A click's box maps of `bytes` (labels and stamps packed) are packed and
// read in slabs of rows, each read while the next is packed
// (GrowState::readSlabs): slabs of about `slab` bytes, at most 16; one where
// `slab` is 0 or the maps are under two slabs. Slab k of n holds the box's
// rows k * rows / n to (k + 1) * rows / n (slices stacked); pack_ahead packs
// slab 0 only.
#define RGX_READ_SLABS(bytes, slab) \
    ((slab) == 0 || (bytes) < 2 * (slab) ? 1 : (bytes) / (slab) > 16 ? 16 : (bytes) / (slab))

// counters[RGX_COUNTER_GRID + ...]: arrivals, the number of the last
// barrier released (RGX_BARRIER_STALLED once one was given up), and the roll
// call's verdict (go, or not resident).
#define RGX_GRID_ARRIVALS 0
#define RGX_GRID_RELEASED 1
#define RGX_GRID_VERDICT 2
#define RGX_BARRIER_STALLED 0xFFFFFFFFu
#define RGX_VERDICT_GO 1
#define RGX_VERDICT_NOT_RESIDENT 2
#define RGX_VERDICT_STALLED 3

// Region statistics after summarize: per region (count, sum low, sum high).
#define RGX_REGION_STATS_WORDS 3

#define RGX_UNCLASSIFIED 0xFFFFFFFFu

#endif
