// Loads of words that other work-groups write during a fused launch (the
// tiles' stamps, labels and rows), which must skip the L1 lines that
// GPU-NOTES.md found stale after a grid barrier.
//
// With RGX_L2_PTX (set by the host on NVIDIA GPUs, unless the driver refuses
// the inline PTX): `ld.global.cg`, from L2; elsewhere volatile loads. The
// asm names no "memory" clobber; being volatile, it is still not moved
// across the barriers, atomics and volatile accesses around it (the grid
// barrier before a round's reads, the tile's writes after them).
//
// A load is in flight until its value is used: a use before the next load
// makes that one wait for the first. The bitmap step's halo took 3.6 us a
// visit to issue its 16 loads with the clobber and its labels tested as
// they came; without the clobber, and used after the tile's rows, 0.8 us
// (H200, docs/PERFORMANCE.md; the two causes were not measured apart).
#ifndef RGX_L2_LOADS_H
#define RGX_L2_LOADS_H

#ifndef RGX_L2_PTX
#define RGX_L2_PTX 0
#endif

inline uint l2_load(volatile __global const uint* p)
{
#if RGX_L2_PTX
    uint v;
    __asm__ __volatile__("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
#else
    return *p;
#endif
}

inline ushort l2_load_ushort(volatile __global const ushort* p)
{
#if RGX_L2_PTX
    uint v; // (a load may widen into a larger register, zero-extended)
    __asm__ __volatile__("ld.global.cg.u16 %0, [%1];" : "=r"(v) : "l"(p));
    return (ushort)v;
#else
    return *p;
#endif
}

// Two and four words at once (p aligned to 8 and 16 bytes).
inline uint2 l2_load2(volatile __global const uint* p)
{
#if RGX_L2_PTX
    uint2 v;
    __asm__ __volatile__("ld.global.cg.v2.u32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(p));
    return v;
#else
    return (uint2)(p[0], p[1]);
#endif
}

inline uint4 l2_load4(volatile __global const uint* p)
{
#if RGX_L2_PTX
    uint4 v;
    __asm__ __volatile__("ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];"
                         : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                         : "l"(p));
    return v;
#else
    return (uint4)(p[0], p[1], p[2], p[3]);
#endif
}

// Eight labels at once (p aligned to 16 bytes).
inline ushort8 l2_load_ushort8(volatile __global const ushort* p)
{
#if RGX_L2_PTX
    const uint4 w = l2_load4((volatile __global const uint*)p);
    return as_ushort8(w);
#else
    return (ushort8)(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
#endif
}

#endif
