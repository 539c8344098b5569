// The overlay picture: frame i of SPEC.md rebuilt from the label and stamp
// maps, with region colours, outlines and the frontier.
#include "Overlay.h"

#include <gtest/gtest.h>

#include <QColor>
#include <QImage>

#include <cmath>

namespace {

using rgx::GrowResult;
using rgx::OverlayStyle;
using rgx::unclassifiedStamp;

// A 5 x 1 strip: region 1 grew from x = 0 (stamps 0, 1, 2), region 2 from
// x = 4 (stamp 0), x = 3 never classified.
GrowResult strip()
{
    GrowResult result;
    result.width = 5;
    result.height = 1;
    result.labels = {1, 1, 1, 0, 2};
    result.stamps = {0, 1, 2, unclassifiedStamp, 0};
    result.regions.resize(2);
    result.iterations = 2;
    return result;
}

QImage greyBase(int width, int height, int grey)
{
    QImage base(width, height, QImage::Format_Grayscale8);
    base.fill(QColor(grey, grey, grey));
    return base;
}

QRgb pixelAt(const QImage& image, int x, int y) { return image.pixel(x, y); }

OverlayStyle fillOnly(uint32_t frame, double opacity = 1.0)
{
    OverlayStyle style;
    style.outlines = false;
    style.frontier = false;
    style.frame = frame;
    style.opacity = opacity;
    return style;
}

TEST(RegionColour, IsStable)
{
    for (int k = 1; k <= 100; ++k)
        EXPECT_EQ(rgx::regionColour(k), rgx::regionColour(k)) << "region " << k;
}

TEST(RegionColour, FirstRegionsAreDistinct)
{
    for (int a = 1; a <= 64; ++a) {
        for (int b = a + 1; b <= 64; ++b) {
            const QColor ca = rgx::regionColour(a);
            const QColor cb = rgx::regionColour(b);
            const int distance = std::abs(ca.red() - cb.red()) + std::abs(ca.green() - cb.green())
                                 + std::abs(ca.blue() - cb.blue());
            EXPECT_GT(distance, 20) << "regions " << a << " and " << b;
        }
    }
}

TEST(RegionColour, NeverNearBlackOrWhite)
{
    for (int k = 1; k <= 65535; k += 7) {
        const QColor colour = rgx::regionColour(k);
        EXPECT_GE(colour.valueF(), 0.7) << "region " << k;
        EXPECT_GE(colour.hsvSaturationF(), 0.5) << "region " << k;
    }
}

TEST(Overlay, IsRgb32OfTheBaseSize)
{
    const QImage overlay = rgx::renderOverlay(greyBase(5, 1, 100), strip(), OverlayStyle{});
    EXPECT_EQ(overlay.format(), QImage::Format_RGB32);
    EXPECT_EQ(overlay.size(), QSize(5, 1));
}

TEST(Overlay, OpaqueFillShowsRegionColours)
{
    const QImage overlay = rgx::renderOverlay(greyBase(5, 1, 100), strip(), fillOnly(unclassifiedStamp));
    EXPECT_EQ(pixelAt(overlay, 0, 0), rgx::regionColour(1).rgb());
    EXPECT_EQ(pixelAt(overlay, 2, 0), rgx::regionColour(1).rgb());
    EXPECT_EQ(pixelAt(overlay, 3, 0), qRgb(100, 100, 100)) << "unclassified pixels show the base";
    EXPECT_EQ(pixelAt(overlay, 4, 0), rgx::regionColour(2).rgb());
}

TEST(Overlay, FrameShowsOnlyPixelsClassifiedByThen)
{
    const QImage overlay = rgx::renderOverlay(greyBase(5, 1, 100), strip(), fillOnly(1));
    EXPECT_EQ(pixelAt(overlay, 1, 0), rgx::regionColour(1).rgb());
    EXPECT_EQ(pixelAt(overlay, 2, 0), qRgb(100, 100, 100)) << "stamp 2 is not shown in frame 1";
}

TEST(Overlay, ZeroOpacityLeavesTheBase)
{
    const QImage overlay = rgx::renderOverlay(greyBase(5, 1, 100), strip(), fillOnly(unclassifiedStamp, 0.0));
    for (int x = 0; x < 5; ++x)
        EXPECT_EQ(pixelAt(overlay, x, 0), qRgb(100, 100, 100)) << "pixel " << x;
}

TEST(Overlay, HalfOpacityBlendsHalfway)
{
    const QImage overlay = rgx::renderOverlay(greyBase(5, 1, 0), strip(), fillOnly(unclassifiedStamp, 0.5));
    const QColor colour = rgx::regionColour(2);
    const QColor shown(pixelAt(overlay, 4, 0));
    EXPECT_NEAR(shown.red(), colour.red() / 2, 1);
    EXPECT_NEAR(shown.green(), colour.green() / 2, 1);
    EXPECT_NEAR(shown.blue(), colour.blue() / 2, 1);
}

TEST(Overlay, OutlinesAreOpaqueAndDarkerThanTheFill)
{
    // 4 x 4 image, region 1 fills the middle 2 x 2 block: every pixel of it
    // touches the unclassified ring, so all four are outline pixels.
    GrowResult result;
    result.width = 4;
    result.height = 4;
    result.labels.assign(16, 0);
    result.stamps.assign(16, unclassifiedStamp);
    for (int i : {5, 6, 9, 10}) {
        result.labels[size_t(i)] = 1;
        result.stamps[size_t(i)] = 0;
    }
    result.regions.resize(1);
    OverlayStyle style = fillOnly(unclassifiedStamp, 0.2);
    style.outlines = true;
    const QImage overlay = rgx::renderOverlay(greyBase(4, 4, 255), result, style);
    const QColor outline(pixelAt(overlay, 1, 1));
    const QColor fill = rgx::regionColour(1);
    EXPECT_LT(outline.value(), fill.value());
    EXPECT_EQ(outline.hsvHue(), fill.hsvHue());
    EXPECT_EQ(pixelAt(overlay, 0, 0), qRgb(255, 255, 255));
}

TEST(Overlay, InteriorPixelsAreNotOutlined)
{
    GrowResult result;
    result.width = 3;
    result.height = 3;
    result.labels.assign(9, 1);
    result.stamps.assign(9, 0);
    result.regions.resize(1);
    OverlayStyle style = fillOnly(unclassifiedStamp);
    style.outlines = true;
    const QImage overlay = rgx::renderOverlay(greyBase(3, 3, 0), result, style);
    // The image edge is no border: neighbours outside the image do not exist.
    for (int y = 0; y < 3; ++y) {
        for (int x = 0; x < 3; ++x)
            EXPECT_EQ(pixelAt(overlay, x, y), rgx::regionColour(1).rgb()) << "pixel (" << x << "," << y << ")";
    }
}

TEST(Overlay, FrontierOfARealFrameIsHighlighted)
{
    OverlayStyle style = fillOnly(1);
    style.frontier = true;
    const QImage overlay = rgx::renderOverlay(greyBase(5, 1, 100), strip(), style);
    const QColor frontier(pixelAt(overlay, 1, 0));
    EXPECT_GT(frontier.lightness(), 150) << "stamp == frame is drawn bright";
    EXPECT_NE(frontier.rgb(), rgx::regionColour(1).rgb());
    EXPECT_EQ(pixelAt(overlay, 0, 0), rgx::regionColour(1).rgb()) << "older pixels keep their colour";
}

TEST(Overlay, FinalFrameHasNoFrontier)
{
    OverlayStyle style = fillOnly(unclassifiedStamp);
    style.frontier = true;
    const QImage overlay = rgx::renderOverlay(greyBase(5, 1, 100), strip(), style);
    EXPECT_EQ(pixelAt(overlay, 3, 0), qRgb(100, 100, 100));
    EXPECT_EQ(pixelAt(overlay, 2, 0), rgx::regionColour(1).rgb());
}

TEST(Overlay, BaseOfAnotherSizeIsRejected)
{
    EXPECT_THROW(rgx::renderOverlay(greyBase(4, 1, 0), strip(), OverlayStyle{}), std::invalid_argument);
}

} // namespace
