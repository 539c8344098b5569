// One region in mode range whose range holds every luma its image can have
// (an 8-bit image at +-255, say) takes every pixel, as mode competitive
// does: fusion=tiles then finds the stamps by seed_distances, the seed's
// distance to each pixel, not level by level (grow::rangeTakesEveryLuma,
// RegionGrowing::run). Every case equals the CPU reference on every
// device, and says whether it took seed_distances: a range one luma short,
// or an image sent two bytes a luma (whose limit the device cannot know),
// grows by the tiles as before.
#include "ResultChecks.h"
#include "TestImages.h"
#include "TestParams.h"
#include "TestVolumes.h"
#include "Device.h"
#include "Pipeline.h"
#include "reference/RegionGrowingReference.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace rgx;

namespace {

void expectGrownBy(const LumaImage& image, const Seed& seed, const GrowParams& grow, bool byDistances,
                   const std::string& what)
{
    PipelineParams params;
    params.grow = grow;
    const GrowResultPtr expected = runReferencePipeline(image, {seed}, params);
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        const GrowResultPtr actual = runDevicePipeline(device, image, {seed}, params, parseVariant("fusion=tiles"));
        const std::string where = what + " on " + info.name;
        test::expectEqual(*expected, *actual, where);
        EXPECT_EQ(test::commandCount(actual->timings, "seed_distances"), byDistances ? 1 : 0) << where;
    }
}

} // namespace

TEST(EveryLumaRange, AnEightBitImageAtItsWholeRangeGrowsByTheSeedsDistances)
{
    LumaImage image = test::randomImage(150, 110, test::PixelKind::Grey8, 71);
    keepLumaBytes(image); // as an 8-bit image loaded from a file
    const Seed seed{40, 70};
    const uint32_t s = image.luma[size_t(seed.y) * size_t(image.width) + size_t(seed.x)];
    for (const int connectivity : {4, 8}) {
        const std::string at = ", connectivity " + std::to_string(connectivity);
        expectGrownBy(image, seed, test::rangeParams(255, 255, connectivity), true, "+-255" + at);
        expectGrownBy(image, seed, test::rangeParams(s, 255 - s, connectivity), true, "exactly 0 to 255" + at);
        expectGrownBy(image, seed, test::rangeParams(s, 254 - s, connectivity), false, "0 to 254" + at);
        GrowParams capped = test::rangeParams(255, 255, connectivity);
        capped.maxIterations = 50;
        expectGrownBy(image, seed, capped, true, "+-255, a cap of 50" + at);
    }
    // The same lumas sent two bytes each: the device's may reach 65535.
    LumaImage wide = image;
    wide.lumaBytes.clear();
    expectGrownBy(wide, seed, test::rangeParams(255, 255, 4), false, "+-255, two bytes a luma");
}

TEST(EveryLumaRange, SixteenBitImagesAndVolumesAtTheirWholeRange)
{
    const LumaImage deep = test::randomImage(120, 90, test::PixelKind::Grey16, 72);
    expectGrownBy(deep, {60, 45}, test::rangeParams(65535, 65535, 4), true, "16-bit, +-65535");
    expectGrownBy(deep, {60, 45}, test::rangeParams(255, 255, 4), false, "16-bit, +-255");
    LumaImage volume = test::randomVolume(24, 20, 16, false, 73);
    keepLumaBytes(volume);
    for (const int connectivity : {6, 26})
        expectGrownBy(volume, {5, 6, 7}, test::rangeParams(255, 255, connectivity), true,
                      "8-bit volume, +-255, connectivity " + std::to_string(connectivity));
}
