// Postfilter density:W:MIN (docs/STAGES.md): a classified pixel of region k
// whose W x W window (clipped at the image edge) holds fewer than MIN pixels
// of region k becomes unclassified. One pass per region k over its bounding
// box: integral_rows (mask label == k) and integral_columns build the padded
// integral count image of the box (integral_image.h), then one of the three
// kernels below reads each window count as A4 + A1 - A2 - A3. Every decision
// reads labels_in, the labels before the filter; removals go to labels_out
// and stamps.
//
// The three ways to read the counts differ only in how the loads are
// arranged, which is what the kernel resource report compares:
//   density_vload8_expr    8 pixels per work-item, the four vload8 in one expression
//   density_vload8_serial  the same loads serialised with the comma operator
//   density_scalar         one pixel per work-item
//
// Build options: RGX_WG_SIZE, RGX_COLLECTIVES (integral_rows).
#include "integral_image.h"

#define UNCLASSIFIED 0xFFFFFFFFu

// Pixel p of region `region` with fewer than `minimum` pixels of its region
// in its window becomes unclassified.
inline void decide(uint count, uint p, uint region, uint minimum,
                   __global const ushort* labels_in, __global ushort* labels_out,
                   __global uint* stamps)
{
    if (labels_in[p] == region && count < minimum) {
        labels_out[p] = 0;
        stamps[p] = UNCLASSIFIED;
    }
}

// The integral rows with the top and bottom corners of the windows of box row y.
#define TOP_ROW(y) (integral + (uint)clamp((y) - window / 2, 0, box_height) * (uint)pitch)
#define BOTTOM_ROW(y) (integral + (uint)clamp((y) - window / 2 + window, 0, box_height) * (uint)pitch)

#define DENSITY_ARGUMENTS                                                                \
    __global const uint *integral, const int pitch, const int box_x, const int box_y,    \
        const int box_width, const int box_height, const int window,                     \
        const int image_width, const uint region, const uint minimum,                    \
        __global const ushort *labels_in, __global ushort *labels_out, __global uint *stamps

// Lane j of an 8-pixel count vector decides pixel x0 + j of the box row.
#define DECIDE_LANE(j, lane_count)                                                       \
    if (x0 + (j) < box_width)                                                            \
        decide((lane_count), first + (j), region, minimum, labels_in, labels_out, stamps)

#define DECIDE_EIGHT(count)                                                              \
    DECIDE_LANE(0, (count).s0); DECIDE_LANE(1, (count).s1);                              \
    DECIDE_LANE(2, (count).s2); DECIDE_LANE(3, (count).s3);                              \
    DECIDE_LANE(4, (count).s4); DECIDE_LANE(5, (count).s5);                              \
    DECIDE_LANE(6, (count).s6); DECIDE_LANE(7, (count).s7)

// vload8-expr: the four corner vectors loaded in one expression; the
// compiler may keep all four alive at once (32 registers of counts).
__kernel void density_vload8_expr(DENSITY_ARGUMENTS)
{
    const int x0 = (int)get_global_id(0) * 8;
    const int y = (int)get_global_id(1);
    if (x0 < box_width && y < box_height) {
        __global const uint* top = TOP_ROW(y);
        __global const uint* bottom = BOTTOM_ROW(y);
        // A4 + A1 - A2 - A3, eight windows at once.
        const uint8 count = vload8(0, bottom + x0 + window) + vload8(0, top + x0) -
                            vload8(0, top + x0 + window) - vload8(0, bottom + x0);
        const uint first = (uint)(box_y + y) * (uint)image_width + (uint)(box_x + x0);
        DECIDE_EIGHT(count);
    }
}

// vload8-serial: the same four loads, one after another into one
// accumulator with the comma operator, so that only two vectors need to be
// alive at a time.
__kernel void density_vload8_serial(DENSITY_ARGUMENTS)
{
    const int x0 = (int)get_global_id(0) * 8;
    const int y = (int)get_global_id(1);
    if (x0 < box_width && y < box_height) {
        __global const uint* top = TOP_ROW(y);
        __global const uint* bottom = BOTTOM_ROW(y);
        uint8 count;
        (count = vload8(0, bottom + x0 + window),  // A4
         count += vload8(0, top + x0),             // + A1
         count -= vload8(0, top + x0 + window),    // - A2
         count -= vload8(0, bottom + x0));         // - A3
        const uint first = (uint)(box_y + y) * (uint)image_width + (uint)(box_x + x0);
        DECIDE_EIGHT(count);
    }
}

// scalar: one pixel per work-item, four scalar loads.
__kernel void density_scalar(DENSITY_ARGUMENTS)
{
    const int x = (int)get_global_id(0);
    const int y = (int)get_global_id(1);
    if (x < box_width && y < box_height) {
        __global const uint* top = TOP_ROW(y);
        __global const uint* bottom = BOTTOM_ROW(y);
        const uint count = bottom[x + window] + top[x] - top[x + window] - bottom[x];
        decide(count, (uint)(box_y + y) * (uint)image_width + (uint)(box_x + x), region, minimum,
               labels_in, labels_out, stamps);
    }
}
