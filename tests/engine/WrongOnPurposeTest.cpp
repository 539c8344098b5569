// The variants that leave a barrier out really are wrong on a CI device, for
// the documented input (docs/VARIANTS.md): the bundled coins image with the
// seeds (10,10), (100,100), (200,150), on PoCL, the default device.
#include "Device.h"
#include "Image.h"
#include "Pipeline.h"

#include <gtest/gtest.h>

using namespace rgx;

namespace {

uint64_t differingPixelsOnPocl(const std::string& variantText)
{
    const DeviceInfo info = selectDevice("Portable Computing Language");
    ComputeDevice device(info);
    const LumaImage image = loadLumaImage(QStringLiteral(RGX_SAMPLES_DIR "/coins.png"));
    const std::vector<Seed> seeds = {{10, 10}, {100, 100}, {200, 150}};
    const PipelineParams params;
    const GrowResultPtr expected = runReferencePipeline(image, seeds, params);
    const GrowResultPtr actual = runDevicePipeline(device, image, seeds, params, parseVariant(variantText));
    return compareResults(*expected, *actual).differingPixels;
}

} // namespace

TEST(WrongOnPurpose, LocalNoBarrierCorruptsTheQueueOnPocl)
{
    EXPECT_GT(differingPixelsOnPocl("driver=host-batched,frontier=queue,collectives=local-nobarrier"), 0u);
}

TEST(WrongOnPurpose, LocalNoBarrierCorruptsTheSweepSumsOnPocl)
{
    EXPECT_GT(differingPixelsOnPocl("driver=host-batched,frontier=sweep,collectives=local-nobarrier,tile=direct"), 0u);
}

TEST(WrongOnPurpose, AsyncNoBarrierCorruptsTheTileOnPocl)
{
    EXPECT_GT(differingPixelsOnPocl("driver=host-batched,frontier=sweep,collectives=atomics,tile=async-nobarrier"), 0u);
}

TEST(WrongOnPurpose, TheCorrectCounterpartsMatchOnTheSameInput)
{
    EXPECT_EQ(differingPixelsOnPocl("driver=host-batched,frontier=queue,collectives=local"), 0u);
    EXPECT_EQ(differingPixelsOnPocl("driver=host-batched,frontier=sweep,collectives=atomics,tile=async"), 0u);
}
