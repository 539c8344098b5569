// Region colours and the overlay picture (image + regions + outlines +
// frontier), shared by the viewer, the exports and rgx-cli --out-overlay.
#pragma once

#include "Image.h"
#include "Result.h"
#include <QColor>
#include <QImage>
#include <cstdint>
#include <limits>

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

} // namespace rgx
