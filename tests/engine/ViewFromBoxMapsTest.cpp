// What the explorer draws from a click's box maps equals what it draws from
// the full maps of the same run, on every device, at several zooms and pans,
// for every layer: regions, outlines, the frontier, earlier frames and the
// corruption view (engine/io/Overlay.h renderOverlayView, GrowResult's box maps).
#include "ScopedEnvironment.h"
#include "TestImages.h"
#include "Device.h"
#include "DeviceSession.h"
#include "Pipeline.h"
#include "io/Overlay.h"

#include <gtest/gtest.h>
#include <random>

using namespace rgx;

namespace {

QImage greyPicture(const LumaImage& image)
{
    QImage picture(image.width, image.height, QImage::Format_Grayscale8);
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x)
            picture.scanLine(y)[x] = uchar(image.at(x, y) & 0xFF);
    return picture;
}

// The first output pixel where two renders differ, or an empty string.
std::string firstDifference(const QImage& expected, const QImage& actual)
{
    for (int y = 0; y < expected.height(); ++y)
        for (int x = 0; x < expected.width(); ++x)
            if (expected.pixel(x, y) != actual.pixel(x, y))
                return "output pixel " + std::to_string(x) + "," + std::to_string(y);
    return {};
}

struct Case {
    std::string what;
    std::vector<Seed> seeds;
    PipelineParams params;
    std::string variant;
};

} // namespace

TEST(ViewFromBoxMaps, DrawsWhatTheFullMapsDrawAtEveryZoomOnEveryDevice)
{
    const auto image = std::make_shared<const LumaImage>(test::randomImage(211, 157, test::PixelKind::Grey8, 11));
    const QImage base = greyPicture(*image);
    PipelineParams range;
    range.grow.mode = Mode::Range;
    range.grow.lower = range.grow.upper = 30;
    PipelineParams competitive;
    const std::vector<Case> cases = {
        // One region: no labels read back, stamps in two bytes.
        {"one region, range", {{100, 80}}, range, ""},
        {"one region, tiles", {{20, 30}}, range, "fusion=tiles"},
        // Several regions: labels in one byte.
        {"three regions, competitive", {{10, 10}, {150, 40}, {90, 140}}, competitive, ""},
        // A wrong-on-purpose variant: its labels and stamps as they came.
        {"wrong on purpose", {{10, 10}, {150, 40}, {90, 140}}, competitive, "frontier=sweep,collectives=local-nobarrier"},
    };
    // Whole image, fitted smaller, zoomed in with a pan, a fractional part.
    const std::vector<std::pair<QRectF, QSize>> views = {
        {QRectF(0, 0, 211, 157), QSize(211, 157)}, {QRectF(0, 0, 211, 157), QSize(97, 72)},
        {QRectF(37.5, 21.25, 40, 30), QSize(320, 240)}, {QRectF(150.3, 100.7, 60.7, 56.3), QSize(111, 203)}};
    std::mt19937 random(5);
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        // Stamps in two bytes, and narrow (a byte over a base per run: GrowState::readNarrow).
        for (const Case& c : cases) {
            for (const char* narrow : {"0", "1"}) {
                test::ScopedEnvironment narrowStamps("RGX_NARROW_STAMPS", narrow);
                test::ScopedEnvironment stampsAhead("RGX_STAMPS_AHEAD", "0");
                const GrowVariant variant = parseVariant(c.variant);
                if (whyUnavailable(variant, info))
                    continue;
                DeviceSession session(device, image);
                const ClickResultPtr click = session.click(c.seeds, c.params, variant);
                const auto boxResult = std::make_shared<const GrowResult>(click->toBoxResult());
                ASSERT_FALSE(boxResult->hasFullMaps());
                EXPECT_EQ(boxResult->box.stampBytes == 1, std::string(narrow) == "1") << info.name << ", " << c.what;
                const GrowResultPtr fullResult = withFullMaps(boxResult);
                ASSERT_TRUE(fullResult->hasFullMaps());
                // The corruption view's layers: a difference mask and a reference's stamps.
                const GrowResultPtr reference = runReferencePipeline(*image, c.seeds, c.params);
                std::vector<uint8_t> mask(image->luma.size(), 0);
                for (size_t p = 0; p < mask.size(); p += 1 + random() % 97)
                    mask[p] = 1;
                for (uint32_t frame : {0u, boxResult->iterations / 2, boxResult->iterations, ~0u})
                    for (bool outlines : {false, true})
                        for (bool corruption : {false, true})
                            for (const auto& [source, size] : views) {
                                OverlayStyle style;
                                style.frame = frame;
                                style.outlines = outlines;
                                style.frontier = true;
                                ViewLayers layers;
                                if (corruption) {
                                    layers.baseDivisor = 3;
                                    layers.differences = &mask;
                                    layers.referenceStamps = &reference->stamps;
                                    layers.allDifferences = frame == ~0u;
                                }
                                QImage fromFull(size, QImage::Format_RGB32), fromBox(size, QImage::Format_RGB32);
                                renderOverlayView(base, fullResult.get(), style, layers, source, fromFull);
                                renderOverlayView(base, boxResult.get(), style, layers, source, fromBox);
                                EXPECT_EQ(firstDifference(fromFull, fromBox), "")
                                    << info.name << ", " << c.what << ", narrow " << narrow << ", frame " << frame << ", outlines " << outlines
                                    << ", corruption view " << corruption << ", view of " << source.x() << ","
                                    << source.y() << " " << source.width() << "x" << source.height() << " at "
                                    << size.width() << "x" << size.height();
                            }
                // The whole picture of an export, too.
                OverlayStyle last;
                EXPECT_EQ(firstDifference(renderOverlay(base, *fullResult, last), renderOverlay(base, *boxResult, last)), "")
                    << info.name << ", " << c.what << ", narrow " << narrow << ", whole picture";
            }
        }
    }
}

TEST(ViewFromBoxMaps, LargeViewsRenderedInBandsEqualOneBand)
{
    // An output large enough for several threads: every band's rows as one thread draws them.
    const auto image = std::make_shared<const LumaImage>(test::randomImage(640, 480, test::PixelKind::Grey8, 3));
    const QImage base = greyPicture(*image);
    PipelineParams competitive;
    const GrowResultPtr result = runReferencePipeline(*image, {{10, 10}, {600, 40}, {300, 400}}, competitive);
    OverlayStyle style;
    style.frame = result->iterations / 2;
    QImage whole(1280, 960, QImage::Format_RGB32);
    renderOverlayView(base, result.get(), style, ViewLayers(), QRectF(0, 0, 640, 480), whole);
    // The same rows, drawn a few at a time (one band each).
    for (int top = 0; top < 960; top += 60) {
        QImage strip(1280, 60, QImage::Format_RGB32);
        renderOverlayView(base, result.get(), style, ViewLayers(), QRectF(0, top / 2.0, 640, 30), strip);
        EXPECT_EQ(firstDifference(whole.copy(0, top, 1280, 60), strip), "") << "rows from " << top;
    }
}
