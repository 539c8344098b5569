// The binary-search lab (the seed sample's second example): many keys, each
// searched in one large sorted array. A key's live range of positions is
// split into one chunk per work-item of its work-group; the work-item whose
// chunk holds the key's lower bound narrows the range to that chunk. One
// launch is one round; the next round is launched by the host (host-sync,
// host-batched) or by the device itself (device-enqueue).
//
// Build options: RGX_CHUNKS (work-items per key, the work-group size),
// RGX_DEVICE_ENQUEUE (1: also build the on-device scheduler).
//
// ranges_in/ranges_out hold (lo, hi) per key: the lower bound p (first
// index with values[p] >= key, or size when there is none) lies in
// [lo, hi]. They alternate between rounds so no work-item reads what
// another writes. counters[round & 1] counts the keys still open after it.

inline void search_round_step(const uint round, __global const uint* values, const uint size,
                              __global const uint* keys, const uint key_count,
                              __global const uint2* ranges_in, __global uint2* ranges_out,
                              volatile __global uint* counters)
{
    const uint key_index = get_group_id(0);
    const uint chunk = get_local_id(0);
    if (get_global_id(0) == 0)
        counters[(round + 1) & 1] = 0; // the next round's count, last read a round ago
    if (key_index >= key_count)
        return;
    const uint2 range = ranges_in[key_index];
    const uint key = keys[key_index];
    if (range.x == range.y) {
        // Found in an earlier round: carry the answer to the other buffer.
        if (chunk == 0)
            ranges_out[key_index] = range;
        return;
    }
    const uint positions = range.y - range.x + 1;
    const uint length = (positions + RGX_CHUNKS - 1) / RGX_CHUNKS;
    const uint start = range.x + chunk * length;
    if (start > range.y)
        return;
    const uint end = min(start + length - 1, range.y);
    // The lower bound is at or after `start` when everything before it is
    // smaller than the key, and at or before `end` when values[end] >= key.
    const bool after_start = start == range.x || values[start - 1] < key;
    const bool before_end = end == range.y || values[end] >= key;
    if (after_start && before_end) {
        ranges_out[key_index] = (uint2)(start, end);
        if (start != end)
            atomic_inc(&counters[round & 1]);
    }
}

__kernel __attribute__((reqd_work_group_size(RGX_CHUNKS, 1, 1)))
void search_round(const uint round, __global const uint* values, const uint size,
                  __global const uint* keys, const uint key_count,
                  __global const uint2* ranges_in, __global uint2* ranges_out,
                  volatile __global uint* counters)
{
    search_round_step(round, values, size, keys, key_count, ranges_in, ranges_out, counters);
}

#if RGX_DEVICE_ENQUEUE
// counters[2]: the last round the device launched.
void schedule_round(const uint round, __global const uint* values, const uint size,
                    __global const uint* keys, const uint key_count, __global uint2* ranges_a,
                    __global uint2* ranges_b, __global uint* counters)
{
    // Round 1 always runs; later rounds only while keys are still open.
    if (round > 1 && counters[(round - 1) & 1] == 0)
        return;
    counters[2] = round;
    queue_t queue = get_default_queue();
    clk_event_t round_done;
    const bool odd = (round & 1) != 0;
    enqueue_kernel(queue, CLK_ENQUEUE_FLAGS_NO_WAIT,
                   ndrange_1D((size_t)key_count * RGX_CHUNKS, RGX_CHUNKS), 0, NULL, &round_done,
                   ^{ search_round_step(round, values, size, keys, key_count,
                                        odd ? ranges_a : ranges_b, odd ? ranges_b : ranges_a,
                                        counters); });
    enqueue_kernel(queue, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &round_done, NULL,
                   ^{ schedule_round(round + 1, values, size, keys, key_count, ranges_a, ranges_b,
                                     counters); });
    release_event(round_done);
}

__kernel void search_chain(__global const uint* values, const uint size, __global const uint* keys,
                           const uint key_count, __global uint2* ranges_a, __global uint2* ranges_b,
                           __global uint* counters)
{
    schedule_round(1, values, size, keys, key_count, ranges_a, ranges_b, counters);
}
#endif
