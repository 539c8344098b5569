// Region colours and the overlay picture (image + regions + outlines +
// frontier), shared by the viewer, the exports and rgx-cli --out-overlay.
#pragma once

#include "Image.h"
#include "Result.h"
#include <QColor>
#include <QImage>
#include <QRectF>
#include <cstdint>
#include <limits>
#include <vector>

namespace rgx {

// A distinct, stable colour for region k >= 1.
QColor regionColour(int region);

struct OverlayStyle {
    double opacity = 0.5;       // of the region colour over the image
    bool outlines = true;       // region borders drawn opaque
    bool frontier = true;       // pixels classified at exactly `frame` highlighted
    uint32_t frame = std::numeric_limits<uint32_t>::max(); // show stamps <= frame
};

// Frame `style.frame` of SPEC.md rebuilt from the label and stamp maps.
// base: the picture to draw on (the source image or its luma), same size.
QImage renderOverlay(const QImage& base, const GrowResult& result, const OverlayStyle& style);

// What a view draws over its picture, besides the frame's regions.
struct ViewLayers {
    bool regions = true;                 // false: the picture alone
    int baseDivisor = 1;                 // the picture darkened (3: the corruption view)
    const std::vector<uint8_t>* differences = nullptr; // ResultDiff::mask: lit in magenta in the frames where they differ
    const std::vector<uint32_t>* referenceStamps = nullptr; // the other map of a difference
    bool allDifferences = false;         // the last frame: every difference, whenever it began
};

// The same frame for a view of any size: the image rectangle `source` (in
// image pixels, fractional at any zoom) drawn into all of `out`, each output
// pixel taking the image pixel under its centre. Outlines and the frontier
// are tested at the output's own spacing, so that they stay visible when one
// output pixel covers many image pixels. Costs the output's size, not the
// image's: an 8192 x 8192 run plays back at screen size. base: the source
// picture (RGB32, ARGB32 or Grayscale8), result's size; result may be null
// (the picture alone).
void renderOverlayView(const QImage& base, const GrowResult* result, const OverlayStyle& style,
                       const ViewLayers& layers, const QRectF& source, QImage& out);

} // namespace rgx
