// Many regions in the level-by-level drivers (issue 26): a work-group keeps
// the regions' means and its level's statistics in local memory up to
// RGX_MEAN_TABLE and RGX_LOCAL_REGIONS regions (kernels/region_growing.cl)
// and reads the global slots past them; GPUs load a candidate's neighbours
// together. Every mode, 2 to 1100 seeds, both sides of both limits, the
// GPUs' reads taken on every device: equal to the CPU reference.
#include "Device.h"
#include "ScopedEnvironment.h"
#include "Pipeline.h"
#include "ResultChecks.h"
#include "TestImages.h"
#include "bench/BenchInputs.h"

#include <gtest/gtest.h>
#include <cmath>
#include <cstdlib>
#include <optional>

using namespace rgx;

namespace {

std::vector<Seed> seedsOf(int side, int count)
{
    std::vector<Seed> seeds;
    const int columns = 1 + int(std::sqrt(double(count)));
    for (int i = 0; i < count; ++i)
        seeds.push_back({(i % columns) * side / columns + 1, (i / columns) * side / columns + 1});
    return seeds;
}

} // namespace

TEST(ManySeeds, LevelDriversEqualTheReferenceInEveryMode)
{
    const int side = 120;
    const LumaImage image = bench::smoothNoise(side, 5);
    const std::vector<std::string> variants = {"driver=host-batched,frontier=queue,collectives=local",
                                               "driver=host-batched,frontier=queue,collectives=atomics",
                                               "driver=host-batched,frontier=queue,collectives=local,fusion=grid-barrier",
                                               "driver=host-batched,frontier=sweep,collectives=local,tile=direct"};
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        for (const int count : {2, 64, 257, 1100}) {
            const std::vector<Seed> seeds = seedsOf(side, count);
            for (const Mode mode : {Mode::Competitive, Mode::Adaptive, Mode::Range}) {
                PipelineParams params;
                params.grow.mode = mode;
                params.grow.tolerance = 6;
                params.grow.lower = params.grow.upper = 6;
                const GrowResultPtr expected = runReferencePipeline(image, seeds, params);
                for (const std::string& text : variants) {
                    const GrowVariant variant = parseVariant(text);
                    if (whyUnavailable(variant, info))
                        continue;
                    for (const bool speculative : {false, true}) {
                        std::optional<test::ScopedEnvironment> reads;
                        if (speculative)
                            reads.emplace("RGX_TEST_SPECULATIVE_READS", "1");
                        const GrowResultPtr actual = runDevicePipeline(device, image, seeds, params, variant);
                        EXPECT_EQ(compareResults(*expected, *actual).differingPixels, 0u)
                            << count << " seeds, " << modeName(mode) << ", " << text << (speculative ? ", GPU reads" : "")
                            << " on " << info.name;
                        EXPECT_EQ(expected->iterations, actual->iterations) << count << " seeds, " << modeName(mode);
                    }
                }
            }
        }
    }
}
