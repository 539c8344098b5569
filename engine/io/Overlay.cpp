// Region colours and the overlay picture: one frame of SPEC.md's animation,
// rebuilt from the final label and stamp maps.
#include "Overlay.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace rgx {

namespace {

// Drawn over the pixels classified in the frame shown: bright, and far from
// every region colour's darker outline.
constexpr QRgb frontierColour = 0xFFFFFF40u;

// How much darker an outline is than its region's fill (QColor::darker %).
constexpr int outlineDarkness = 140;

} // namespace

QColor regionColour(int region)
{
    if (region < 1)
        return QColor(128, 128, 128);
    // The golden angle spreads consecutive hues as far apart as possible and
    // never repeats one exactly; saturation and value cycle with periods 3
    // and 2 so that regions of similar hue still differ. Both stay in ranges
    // that are never close to black, white or grey.
    constexpr double goldenAngleDegrees = 137.50776405003785;
    const double hue = std::fmod(double(region - 1) * goldenAngleDegrees, 360.0);
    static const double saturations[] = {0.85, 0.60, 0.95};
    static const double values[] = {0.95, 0.75};
    const double saturation = saturations[(region - 1) % 3];
    const double value = values[((region - 1) / 3) % 2];
    return QColor::fromHsvF(float(hue / 360.0), float(saturation), float(value));
}

QImage renderOverlay(const QImage& base, const GrowResult& result, const OverlayStyle& style)
{
    const int width = result.width;
    const int height = result.height;
    if (base.width() != width || base.height() != height) {
        throw std::invalid_argument("renderOverlay: the base picture is " + std::to_string(base.width()) + "x"
                                    + std::to_string(base.height()) + ", the result "
                                    + std::to_string(width) + "x" + std::to_string(height));
    }
    const size_t pixelCount = size_t(width) * size_t(height);
    if (result.labels.size() != pixelCount || result.stamps.size() != pixelCount)
        throw std::invalid_argument("renderOverlay: label or stamp map does not match the image size");

    QImage picture = base.convertToFormat(QImage::Format_RGB32);
    if (pixelCount == 0)
        return picture;

    // Colours per label, computed once: HSV conversions per pixel would
    // dominate the cost on large images.
    const int largestLabel = int(*std::max_element(result.labels.begin(), result.labels.end()));
    const int labelCount = std::max(largestLabel, int(result.regions.size()));
    std::vector<QRgb> fill(size_t(labelCount) + 1);
    std::vector<QRgb> outline(size_t(labelCount) + 1);
    for (int k = 1; k <= labelCount; ++k) {
        const QColor colour = regionColour(k);
        fill[size_t(k)] = colour.rgb();
        outline[size_t(k)] = colour.darker(outlineDarkness).rgb();
    }

    const uint32_t frame = style.frame;
    const bool showFrontier = style.frontier && frame != std::numeric_limits<uint32_t>::max();
    const int alpha = std::clamp(int(std::lround(style.opacity * 256.0)), 0, 256);
    const auto blend = [alpha](int under, int over) { return (under * (256 - alpha) + over * alpha + 128) >> 8; };

    const uint16_t* labels = result.labels.data();
    const uint32_t* stamps = result.stamps.data();
    // Label of pixel i as frame `frame` shows it: 0 until it is classified.
    const auto visible = [&](size_t i) -> int { return stamps[i] <= frame ? labels[i] : 0; };

    for (int y = 0; y < height; ++y) {
        auto* row = reinterpret_cast<QRgb*>(picture.scanLine(y));
        const size_t rowStart = size_t(y) * size_t(width);
        for (int x = 0; x < width; ++x) {
            const size_t i = rowStart + size_t(x);
            const int label = visible(i);
            if (label == 0)
                continue;
            if (showFrontier && stamps[i] == frame) {
                row[x] = frontierColour;
                continue;
            }
            if (style.outlines) {
                const bool onBorder = (x > 0 && visible(i - 1) != label)
                                      || (x + 1 < width && visible(i + 1) != label)
                                      || (y > 0 && visible(i - size_t(width)) != label)
                                      || (y + 1 < height && visible(i + size_t(width)) != label);
                if (onBorder) {
                    row[x] = outline[size_t(label)];
                    continue;
                }
            }
            const QRgb under = row[x];
            const QRgb over = fill[size_t(label)];
            row[x] = qRgb(blend(qRed(under), qRed(over)), blend(qGreen(under), qGreen(over)),
                          blend(qBlue(under), qBlue(over)));
        }
    }
    return picture;
}

} // namespace rgx
