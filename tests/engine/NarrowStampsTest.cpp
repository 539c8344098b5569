// A click's stamps read narrow, a byte a sample over a base per run of 64
// (GrowState::readNarrow, kernels/narrow_stamps.h; on a GPU from 8 Mi
// samples, forced on every device here): equal to the CPU reference on
// images and volumes, one region and several, in one read or in slabs; a
// winding region whose runs span hundreds of iterations goes through the
// wide runs' slots; more wide runs than slots fall back to two bytes, and
// the session's next click holds slots for them, or reads two bytes at
// once where they would cost more than they save.
#include "ResultChecks.h"
#include "ScopedEnvironment.h"
#include "TestImages.h"
#include "TestVolumes.h"
#include "Device.h"
#include "DeviceSession.h"
#include "Pipeline.h"
#include "grow_counters.h"

#include <gtest/gtest.h>
#include <memory>

using namespace rgx;

namespace {

// A corridor that winds down and up the columns: the even columns open,
// the odd ones walls but for one pixel, at the bottom and the top by turns.
// Along a row, stamps two columns apart differ by up to twice the height:
// every run of 64 samples is wide. A volume repeats the picture in each slice.
LumaImage serpentine(int width, int height, int depth)
{
    LumaImage image;
    image.width = width;
    image.height = height;
    image.depth = depth;
    image.luma.resize(size_t(width) * size_t(height) * size_t(depth));
    for (int z = 0; z < depth; ++z)
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) {
                const bool wall = x % 2 == 1 && y != ((x / 2) % 2 == 0 ? height - 1 : 0);
                image.luma[(size_t(z) * size_t(height) + size_t(y)) * size_t(width) + size_t(x)] = wall ? 250 : 100;
            }
    return image;
}

// The serpentine in the first `winding` columns, open beyond: in each row
// the first run of 64 samples is wide (the corridors' stamps and the open
// part's, about 100 iterations a corridor apart), the others narrow.
LumaImage serpentineThenOpen(int width, int height, int winding)
{
    LumaImage image = serpentine(width, height, 1);
    for (int y = 0; y < height; ++y)
        for (int x = winding; x < width; ++x)
            image.luma[size_t(y) * size_t(width) + size_t(x)] = 100;
    return image;
}

PipelineParams rangeAround(int luma, bool volume)
{
    PipelineParams params;
    params.grow.mode = Mode::Range;
    params.grow.lower = params.grow.upper = luma;
    params.grow.connectivity = volume ? 6 : 4;
    return params;
}

} // namespace

TEST(NarrowStamps, ClicksReadAByteASampleEqualToTheReferenceInOneReadAndInSlabs)
{
    test::ScopedEnvironment narrow("RGX_NARROW_STAMPS", "1");
    test::ScopedEnvironment stampsAhead("RGX_STAMPS_AHEAD", "0"); // competitive stamps read the narrow way too
    const auto image = std::make_shared<const LumaImage>(test::randomImage(203, 150, test::PixelKind::Grey8, 21));
    const auto volume = std::make_shared<const LumaImage>(test::randomVolume(71, 30, 20, false, 5));
    for (const char* slabKib : {"0", "4"}) {
        test::ScopedEnvironment slabs("RGX_READ_SLAB_KIB", slabKib);
        for (const DeviceInfo& info : listDevices()) {
            ComputeDevice device(info);
            for (const auto& input : {image, volume}) {
                const bool isVolume = input->depth > 1;
                PipelineParams competitive;
                competitive.grow.connectivity = isVolume ? 6 : 4;
                const PipelineParams range = rangeAround(100, isVolume);
                const std::vector<Seed> one = {isVolume ? Seed{20, 15, 10} : Seed{100, 75}};
                const std::vector<Seed> three = isVolume ? std::vector<Seed>{{2, 3, 4}, {65, 25, 15}, {20, 5, 18}}
                                                         : std::vector<Seed>{{5, 5}, {190, 140}, {100, 20}};
                const std::vector<std::pair<std::vector<Seed>, PipelineParams>> clicks = {
                    {one, range}, {three, competitive}, {three, range}, {one, range}};
                DeviceSession session(device, input);
                for (size_t c = 0; c < clicks.size(); ++c) {
                    const auto& [seeds, params] = clicks[c];
                    const std::string what = info.name + (isVolume ? ", volume" : ", image") + ", slabs of " +
                                             slabKib + " KiB, click " + std::to_string(c + 1);
                    const ClickResultPtr click = session.click(seeds, params, parseVariant("fusion=tiles"));
                    test::expectEqual(*runReferencePipeline(*input, seeds, params), click->toGrowResult(), what);
                    const BoxMaps& maps = click->maps;
                    EXPECT_EQ(maps.stampBytes, 1) << what;
                    const int slabCount = int(RGX_READ_SLABS(maps.bytes(), std::atoi(slabKib) * uint64_t(1024)));
                    EXPECT_EQ(test::commandCount(click->timings, "pack_narrow"), slabCount) << what;
                    EXPECT_EQ(test::commandCount(click->timings, "read:labels"), maps.labelBytes > 0 ? slabCount : 0)
                        << what;
                    // Each stamp as the box maps give it, one at a time.
                    const GrowResult full = click->toGrowResult();
                    const int sliceHeight = input->height;
                    for (size_t p = 0; p < full.stamps.size(); p += 7)
                        ASSERT_EQ(maps.stamp(int(p % size_t(input->width)), int(p / size_t(input->width))),
                                  full.stamps[p])
                            << what << ", sample " << p << " (slice height " << sliceHeight << ")";
                }
            }
        }
    }
}

TEST(NarrowStamps, AWindingRegionsWideRunsTakeSlotsAndTooManyFallBackToTwoBytes)
{
    test::ScopedEnvironment narrow("RGX_NARROW_STAMPS", "1");
    const auto image = std::make_shared<const LumaImage>(serpentine(199, 100, 1));
    const auto volume = std::make_shared<const LumaImage>(serpentine(141, 40, 3));
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        for (const auto& input : {image, volume}) {
            const bool isVolume = input->depth > 1;
            const std::vector<Seed> seeds = {isVolume ? Seed{0, 0, 1} : Seed{0, 0}};
            const PipelineParams params = rangeAround(10, isVolume);
            const GrowResultPtr expected = runReferencePipeline(*input, seeds, params);
            // Every run is wide: more than the first slots read with the
            // count, fewer than the slots; then fewer slots than wide runs.
            for (const char* slotCount : {"1024", "3"}) {
                test::ScopedEnvironment wideSlots("RGX_NARROW_WIDE_SLOTS", slotCount);
                const std::string what = info.name + (isVolume ? ", volume" : ", image") + ", " + slotCount + " slots";
                DeviceSession session(device, input);
                for (const char* variant : {"fusion=tiles", ""}) {
                    const ClickResultPtr click = session.click(seeds, params, parseVariant(variant));
                    test::expectEqual(*expected, click->toGrowResult(), what + ", variant " + variant);
                    EXPECT_GT(click->iterations, 1000u) << what;
                    const bool fits = std::string(slotCount) == "1024";
                    EXPECT_EQ(click->maps.stampBytes, fits ? 1 : 2) << what << ", variant " << variant;
                    EXPECT_EQ(test::commandCount(click->timings, "read:wide"), fits ? 2 : 1) << what;
                }
            }
        }
    }
}

// RGX_NARROW_STAMPS=2: every box as a GPU's large boxes go. A read whose
// wide runs outgrow the slots falls back to two bytes; the session's next
// click like it holds slots for its share of wide runs and reads narrow.
// Where every run is wide, narrow stamps are more bytes than two-byte ones:
// the next click reads two bytes without trying, and a later one tries again.
TEST(NarrowStamps, ASessionsNextClickHoldsSlotsForTheWideRunsItsLastReadFound)
{
    test::ScopedEnvironment narrow("RGX_NARROW_STAMPS", "2");
    const auto someWide = std::make_shared<const LumaImage>(serpentineThenOpen(1280, 100, 20));
    const auto allWide = std::make_shared<const LumaImage>(serpentine(199, 100, 1));
    const std::vector<Seed> seeds = {Seed{0, 0}};
    const PipelineParams params = rangeAround(10, false);
    const GrowResultPtr someExpected = runReferencePipeline(*someWide, seeds, params);
    const GrowResultPtr allExpected = runReferencePipeline(*allWide, seeds, params);
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        {
            // 100 wide runs of 2000; the first read holds 3 slots.
            test::ScopedEnvironment wideSlots("RGX_NARROW_WIDE_SLOTS", "3");
            DeviceSession session(device, someWide);
            for (int c = 1; c <= 3; ++c) {
                const std::string what = info.name + ", a wide run a row, click " + std::to_string(c);
                const ClickResultPtr click = session.click(seeds, params, parseVariant("fusion=tiles"));
                test::expectEqual(*someExpected, click->toGrowResult(), what);
                EXPECT_EQ(test::commandCount(click->timings, "pack_narrow"), 1) << what;
                EXPECT_EQ(click->maps.stampBytes, c == 1 ? 2 : 1) << what;
                // The count with the first slots; the rest where they fit.
                EXPECT_EQ(test::commandCount(click->timings, "read:wide"), c == 1 ? 1 : 2) << what;
            }
        }
        // Every run wide: 400 runs, which the 1024 slots hold.
        DeviceSession session(device, allWide);
        std::vector<int> narrowTries;
        for (int c = 1; c <= 6; ++c) {
            const std::string what = info.name + ", every run wide, click " + std::to_string(c);
            const ClickResultPtr click = session.click(seeds, params, parseVariant("fusion=tiles"));
            test::expectEqual(*allExpected, click->toGrowResult(), what);
            const int tried = test::commandCount(click->timings, "pack_narrow");
            EXPECT_EQ(click->maps.stampBytes, tried == 1 ? 1 : 2) << what;
            narrowTries.push_back(tried);
        }
        // Tried, then two bytes at once while the share that decided it
        // halves (1, 1/2, 1/4 of the runs), then tried again.
        EXPECT_EQ(narrowTries, (std::vector<int>{1, 0, 0, 0, 1, 0})) << info.name;
    }
}
