// A region's mean as SPEC.md's rules compare it, M_k = floor(256 sum /
// count), for the levels of label_ties.h and label_levels_fused.h. A level waits for it,
// and a 64-bit division is a long routine on a GPU: a float quotient, at
// most a few units off, is corrected by its remainder until 0 <= remainder
// < count, so the result is the exact floor (tests/engine/RegionMeanTest.cpp
// checks it where the float quotient alone is off). The mean of 16-bit
// lumas is below 2^24.
#ifndef RGX_REGION_MEAN_H
#define RGX_REGION_MEAN_H

inline uint mean_of(ulong sum, uint count)
{
    const ulong scaled = sum << 8;
    const uint divisor = max(count, 1u);
    uint q = (uint)min((float)scaled / (float)divisor, 16777215.0f);
    long r = (long)scaled - (long)q * (long)divisor;
    while (r < 0) {
        --q;
        r += divisor;
    }
    while (r >= (long)divisor) {
        ++q;
        r -= divisor;
    }
    return q;
}

#endif
