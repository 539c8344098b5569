// The first run of a resident session grows in a window around its seeds
// (engine/stages/GrowWindow.h): where the window is put, when its result is
// the image's, and on every device that the result equals the CPU
// reference bit for bit, whether the region stays inside the window or
// leaves it, and that the whole image is on the device for the next click.
#include "ResultChecks.h"
#include "TestImages.h"
#include "Device.h"
#include "DeviceSession.h"
#include "Pipeline.h"
#include "stages/GrowWindow.h"

#include <gtest/gtest.h>
#include <cstdio>
#include <random>

using namespace rgx;

namespace {

GrowParams rangeParams(uint32_t range)
{
    GrowParams params;
    params.mode = Mode::Range;
    params.lower = params.upper = range;
    return params;
}

// Noise of 2048 x 2048 with a disc of radius 300 around `centre`: inside
// it, luma within ±16 of the centre's, but for the noise's brightest pixels,
// which are walls (more than 127 away from the centre's luma), as is a ring
// around the disc. A region seeded at the centre in a range of ±60 winds
// between the walls and stays inside the first run's window (512 pixels
// each way).
std::shared_ptr<const LumaImage> ringedImage(Seed centre)
{
    LumaImage image = test::randomImage(2048, 2048, test::PixelKind::Grey8, 21);
    const uint16_t seedLuma = 100;
    const uint16_t wall = 255;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            const int dx = x - centre.x, dy = y - centre.y;
            const int squared = dx * dx + dy * dy;
            uint16_t& luma = image.luma[size_t(y) * 2048 + size_t(x)];
            if (squared < 300 * 300)
                luma = luma > 190 ? wall : uint16_t(seedLuma - 16 + luma % 33);
            else if (squared < 304 * 304)
                luma = wall;
        }
    image.luma[size_t(centre.y) * 2048 + size_t(centre.x)] = seedLuma;
    keepLumaBytes(image); // as an 8-bit image loaded from a file: the upload after the window takes bytes
    return std::make_shared<const LumaImage>(std::move(image));
}

// An image of one luma, `bitDepth` bits.
LumaImage flatImage(int width, int height, uint16_t value, int bitDepth = 8)
{
    LumaImage image;
    image.width = width;
    image.height = height;
    image.bitDepth = bitDepth;
    image.luma.assign(size_t(width) * size_t(height), value);
    return image;
}

} // namespace

TEST(GrowWindow, AWindowIsChosenOnlyWhereItPays)
{
    const GrowParams range = rangeParams(40);
    const GrowVariant variant;
    const LumaImage image = flatImage(4096, 4096, 100);
    std::optional<GrowWindow> window = firstRunWindow(image, {{2000, 1000}}, range, variant, 1);
    ASSERT_TRUE(window);
    EXPECT_EQ(window->x0, 1488);
    EXPECT_EQ(window->y0, 488);
    EXPECT_EQ(window->width, 1024);
    EXPECT_EQ(window->height, 1024);

    // Clamped at the image's edges.
    window = firstRunWindow(image, {{10, 4090}}, range, variant, 1);
    ASSERT_TRUE(window);
    EXPECT_EQ(window->x0, 0);
    EXPECT_EQ(window->width, 522);
    EXPECT_EQ(window->y0, 3578);
    EXPECT_EQ(window->height, 518);

    // On the grid of the partial pictures, still around the seeds.
    window = firstRunWindow(image, {{2000, 1000}, {2100, 1100}}, range, variant, 7);
    ASSERT_TRUE(window);
    EXPECT_EQ(window->x0 % 7, 0);
    EXPECT_EQ(window->y0 % 7, 0);
    EXPECT_LE(window->x0, 2000 - growWindowMargin);
    EXPECT_GE(window->x0 + window->width, 2100 + growWindowMargin);
    EXPECT_LE(window->y0, 1000 - growWindowMargin);
    EXPECT_GE(window->y0 + window->height, 1100 + growWindowMargin);

    // None: every region grows until the image is full, a range holds every
    // luma the image can have, the lesson is the whole image's, or the
    // window would hold more than a third of it.
    EXPECT_FALSE(firstRunWindow(image, {{2000, 1000}}, GrowParams{}, variant, 1));
    EXPECT_FALSE(firstRunWindow(image, {{2000, 1000}}, rangeParams(155), variant, 1)); // 100 - 155 .. 100 + 155
    EXPECT_TRUE(firstRunWindow(image, {{2000, 1000}}, rangeParams(154), variant, 1));
    EXPECT_TRUE(firstRunWindow(flatImage(4096, 4096, 100, 16), {{2000, 1000}}, rangeParams(255), variant, 1));
    EXPECT_FALSE(firstRunWindow(image, {{2000, 1000}}, range, parseVariant("collectives=local-nobarrier"), 1));
    EXPECT_FALSE(firstRunWindow(flatImage(1536, 1536, 100), {{700, 700}}, range, variant, 1));
    EXPECT_FALSE(firstRunWindow(image, {{1000, 1000}, {3000, 3000}}, range, variant, 1));
}

TEST(GrowWindow, OnlyAnEdgeInsideTheImageCanLeadOut)
{
    // A window of 200 x 300 at x 100 of a 1000 x 300 image: its top and
    // bottom are the image's.
    const GrowWindow window{100, 0, 200, 300};
    EXPECT_FALSE(reachesInnerEdge(PixelBox{5, 0, 150, 299}, window, 1000, 300));
    EXPECT_FALSE(reachesInnerEdge(PixelBox{1, 1, 198, 298}, window, 1000, 300));
    EXPECT_TRUE(reachesInnerEdge(PixelBox{0, 5, 10, 10}, window, 1000, 300));
    EXPECT_TRUE(reachesInnerEdge(PixelBox{5, 5, 199, 10}, window, 1000, 300));
    // At the image's right edge the window's right edge is the image's.
    EXPECT_FALSE(reachesInnerEdge(PixelBox{5, 5, 199, 10}, GrowWindow{800, 0, 200, 300}, 1000, 300));
}

TEST(GrowWindow, AFirstClickInAWindowEqualsTheReferenceAndTheImageFollows)
{
    const Seed centre{1100, 900};
    const auto image = ringedImage(centre);
    PipelineParams params;
    params.grow = rangeParams(60);
    const std::vector<Seed> first = {centre};
    const std::vector<Seed> far = {{40, 1900}}; // outside the first window
    const GrowResultPtr expectedFirst = runReferencePipeline(*image, first, params);
    const GrowResultPtr expectedFar = runReferencePipeline(*image, far, params);
    ASSERT_GT(expectedFirst->iterations, 20u) << "the test needs a region of some size";
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        for (const char* variantText : {"fusion=tiles", "", "collectives=local,fusion=grid-barrier"}) {
            const std::string what = info.name + ", " + parseVariant(variantText).text();
            DeviceSession session(device, image);
            const ClickResultPtr click = session.click(first, params, parseVariant(variantText));
            test::expectEqual(*expectedFirst, click->toGrowResult(), what + ", first click");
            EXPECT_EQ(click->maps.width, 2048) << what;
            EXPECT_EQ(test::commandCount(click->timings, "write:luma_window"), 1) << what;
            EXPECT_EQ(test::commandCount(click->timings, "write:luma"), 0) << what;
            // The image was uploaded after the first click: nothing travels now.
            const ClickResultPtr next = session.click(far, params, parseVariant(variantText));
            test::expectEqual(*expectedFar, next->toGrowResult(), what + ", a click outside the first window");
            EXPECT_EQ(test::commandCount(next->timings, "write:luma_window"), 0) << what;
            EXPECT_EQ(test::commandCount(next->timings, "write:luma"), 0) << what;
            // The full maps of a first run, as the explorer asks for them.
            DeviceSession fresh(device, image);
            const GrowResultPtr run = fresh.run(first, params, parseVariant(variantText));
            test::expectEqual(*expectedFirst, *run, what + ", first run with full maps");
            EXPECT_EQ(test::commandCount(run->timings, "write:luma_window"), 1) << what;
        }
    }
}

TEST(GrowWindow, ARegionThatLeavesTheWindowIsGrownOnTheWholeImage)
{
    // Luma 50 to 70 everywhere: a range of ±25 floods the whole image
    // without holding every luma an 8-bit image can have, so the first run
    // tries the window, finds the region at its edges and grows again on
    // the image. A range of ±255 holds every luma: no window is tried.
    LumaImage narrow = test::randomImage(2048, 2048, test::PixelKind::Grey8, 22);
    for (uint16_t& luma : narrow.luma)
        luma = uint16_t(50 + luma % 21);
    const auto image = std::make_shared<const LumaImage>(std::move(narrow));
    const std::vector<Seed> seeds = {{1000, 1000}};
    PipelineParams flood;
    flood.grow = rangeParams(25);
    PipelineParams everything;
    everything.grow = rangeParams(255);
    const GrowResultPtr expected = runReferencePipeline(*image, seeds, flood);
    ASSERT_EQ(expected->regions[0].count, image->pixelCount());
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        DeviceSession session(device, image);
        const ClickResultPtr click = session.click(seeds, flood, parseVariant("fusion=tiles"));
        test::expectEqual(*expected, click->toGrowResult(), info.name);
        EXPECT_EQ(test::commandCount(click->timings, "write:luma_window"), 1) << info.name;
        EXPECT_EQ(test::commandCount(click->timings, "write:luma"), 1) << info.name;
        DeviceSession fresh(device, image);
        const ClickResultPtr whole = fresh.click(seeds, everything, parseVariant("fusion=tiles"));
        test::expectEqual(*expected, whole->toGrowResult(), info.name + ", a range holding every luma");
        EXPECT_EQ(test::commandCount(whole->timings, "write:luma_window"), 0) << info.name;
        EXPECT_EQ(test::commandCount(whole->timings, "write:luma"), 1) << info.name;
    }
}

// Partial pictures of a first run in a window are pictures of the image:
// every pixel classified in one has its final label and stamp there.
TEST(GrowWindow, PartialPicturesOfAWindowAreInTheImagesCoordinates)
{
    const Seed centre{1100, 900};
    const auto image = ringedImage(centre);
    PipelineParams params;
    params.grow = rangeParams(60);
    ComputeDevice device(selectDevice(""));
    DeviceSession session(device, image);
    test::PartialPictures partials{{}, 4};
    const GrowResultPtr final = session.run({centre}, params, parseVariant("driver=host-sync"), partials.control(3));
    EXPECT_EQ(test::commandCount(final->timings, "write:luma_window"), 1);
    ASSERT_GE(partials.pictures.size(), 2u);
    for (const auto& [maps, iteration] : partials.pictures) {
        EXPECT_EQ(maps.width, 2048);
        EXPECT_EQ(maps.height, 2048);
        EXPECT_EQ(maps.x0 % 3, 0);
        EXPECT_EQ(maps.y0 % 3, 0);
        uint64_t classified = 0;
        for (int y = maps.y0; y < maps.y0 + maps.boxHeight * 3; y += 3)
            for (int x = maps.x0; x < maps.x0 + maps.boxWidth * 3; x += 3) {
                const size_t p = size_t(y) * 2048 + size_t(x);
                if (maps.stamp(x, y) == unclassifiedStamp)
                    continue;
                ++classified;
                ASSERT_EQ(maps.stamp(x, y), final->stamps[p]) << "(" << x << "," << y << ")";
                ASSERT_EQ(maps.label(x, y), final->labels[p]) << "(" << x << "," << y << ")";
                ASSERT_LE(maps.stamp(x, y), iteration);
            }
        EXPECT_GT(classified, 0u) << "after iteration " << iteration;
    }
}

// Random first runs on a smooth random image: seeds near one another, mode
// range or adaptive, either connectivity and rule, small and large ranges;
// whether the window held the region or not, the result is the reference's.
TEST(GrowWindow, RandomFirstRunsEqualTheReference)
{
    const auto image = std::make_shared<const LumaImage>(test::randomImage(2048, 2048, test::PixelKind::Grey8, 31));
    std::mt19937 rng(31);
    struct Case {
        std::vector<Seed> seeds;
        PipelineParams params;
    };
    std::vector<Case> cases;
    for (int c = 0; c < 8; ++c) {
        Case next;
        const Seed centre{600 + int(rng() % 800), 600 + int(rng() % 800)};
        next.seeds.push_back(centre);
        for (uint32_t k = 0, more = rng() % 3; k < more; ++k)
            next.seeds.push_back({centre.x + int(rng() % 200), centre.y - int(rng() % 200)});
        GrowParams& grow = next.params.grow;
        grow.mode = c % 2 == 0 ? Mode::Range : Mode::Adaptive;
        grow.lower = rng() % 40;
        grow.upper = rng() % 40;
        grow.tolerance = 4 + rng() % 40;
        grow.connectivity = rng() % 2 == 0 ? 4 : 8;
        grow.rule = rng() % 4 == 0 ? Rule::All : Rule::Adjacent;
        cases.push_back(next);
    }
    int windowed = 0, regrown = 0;
    for (const Case& c : cases) {
        const GrowResultPtr expected = runReferencePipeline(*image, c.seeds, c.params);
        for (const DeviceInfo& info : listDevices()) {
            ComputeDevice device(info);
            for (const char* variantText : {"fusion=tiles", ""}) {
                DeviceSession session(device, image);
                const ClickResultPtr click = session.click(c.seeds, c.params, parseVariant(variantText));
                test::expectEqual(*expected, click->toGrowResult(),
                                  info.name + ", " + variantText + ", " + std::to_string(c.seeds.size()) +
                                      " seeds, mode " + modeName(c.params.grow.mode));
                windowed += test::commandCount(click->timings, "write:luma_window");
                regrown += test::commandCount(click->timings, "write:luma");
            }
        }
    }
    EXPECT_GT(windowed, 0) << "no case tried a window";
    std::printf("[ info ] %d first runs in a window, %d of them or others on the whole image\n", windowed, regrown);
}
