// Random stress (label `stress`): random images (up to 512 x 512, 8- and
// 16-bit, smooth and noisy), random seeds (1 to 64, a quarter up to 300, some on the border,
// some on the same pixel), every mode, rule and connectivity (and a sixth
// of the cases 2 to 4 seeds of mode range with narrow ranges, which often
// fall apart; every other case without the tiles' ring step, as devices of
// small work-groups run), against the
// CPU reference on every device, each case on the next correct variant the
// device can run, so that N cases cover every variant about N / variants
// times. RGX_STRESS_CASES cases per device (default 24); RGX_STRESS_SEED
// picks the sequence (default 1); RGX_STRESS_VARIANTS=TEXT keeps the
// variants whose text contains TEXT (e.g. fusion=tiles). A failure names the
// case to replay. Volumes: random volumes (up to 48 voxels a side), clicked
// three times on a resident session with new seeds, mode, range and
// connectivity each time (RGX_STRESS_CASES / 2 sessions per device).
#include "../engine/ScopedEnvironment.h"
#include "../engine/TestImages.h"
#include "../engine/TestVolumes.h"
#include "Device.h"
#include "DeviceSession.h"
#include "Errors.h"
#include "Pipeline.h"

#include <gtest/gtest.h>
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <random>
#include <set>
#include <sstream>

using namespace rgx;

namespace {

uint32_t fromEnvironment(const char* name, uint32_t fallback)
{
    const char* text = std::getenv(name);
    return text && *text ? uint32_t(std::strtoul(text, nullptr, 10)) : fallback;
}

struct Case {
    LumaImage image;
    std::vector<Seed> seeds;
    PipelineParams params;
    std::string text; // how to replay it
};

// Noise with no structure at all: every pixel its own random value.
LumaImage noisyImage(int width, int height, bool sixteenBit, std::mt19937& rng)
{
    LumaImage image;
    image.width = width;
    image.height = height;
    image.bitDepth = sixteenBit ? 16 : 8;
    image.luma.resize(size_t(width) * size_t(height));
    const uint32_t top = sixteenBit ? 65535 : 255;
    for (uint16_t& value : image.luma)
        value = uint16_t(rng() % (top + 1));
    return image;
}

Case randomCase(uint32_t sequence, uint32_t index)
{
    std::mt19937 rng(sequence * 1000003u + index);
    auto pick = [&](uint32_t count) { return rng() % count; };
    Case c;
    const int width = 1 + int(pick(512)), height = 1 + int(pick(512));
    const bool sixteen = pick(2) == 1;
    if (pick(2) == 0)
        c.image = noisyImage(width, height, sixteen, rng);
    else
        c.image = test::randomImage(width, height, sixteen ? test::PixelKind::Grey16 : test::PixelKind::Grey8, rng());

    // Up to 64 seeds, and now and then up to 300: past the 256 regions
    // whose level statistics a work-group keeps in local memory.
    const int count = std::min<int>(1 + int(pick(4) == 0 ? pick(300) : pick(64)), width * height);
    std::vector<Seed> seeds = test::randomSeeds(width, height, count, rng());
    // Some on the border (where that pixel holds no seed yet).
    std::set<std::pair<int, int>> taken;
    for (const Seed& seed : seeds)
        taken.insert({seed.x, seed.y});
    for (Seed& seed : seeds)
        if (pick(4) == 0) {
            Seed moved = seed;
            if (pick(2) == 0)
                moved.x = pick(2) == 0 ? 0 : width - 1;
            else
                moved.y = pick(2) == 0 ? 0 : height - 1;
            if (taken.insert({moved.x, moved.y}).second)
                seed = moved;
        }
    // Now and then two on the same pixel: bad input, refused alike.
    if (seeds.size() > 1 && pick(8) == 0)
        seeds.back() = seeds.front();
    c.seeds = seeds;

    GrowParams& grow = c.params.grow;
    grow.mode = Mode(pick(3));
    grow.rule = pick(2) == 0 ? Rule::Adjacent : Rule::All;
    grow.connectivity = pick(2) == 0 ? 4 : 8;
    const uint32_t scale = sixteen ? 257 : 1;
    grow.tolerance = double(pick(40));
    grow.lower = pick(60) * scale;
    grow.upper = pick(60) * scale;

    // Now and then a few seeds in mode range with narrow ranges under rule
    // adjacent: their ranges often fall apart (the tiles' passes per region).
    if (pick(6) == 0) {
        c.seeds.resize(std::min<size_t>(c.seeds.size(), 2 + pick(3)));
        grow.mode = Mode::Range;
        grow.rule = Rule::Adjacent;
        grow.lower = pick(4) * scale;
        grow.upper = pick(4) * scale;
    }
    // Now and then one seed whose range holds every luma: whole tiles open
    // to the region (their sweeps).
    if (pick(8) == 0) {
        c.seeds.resize(1);
        grow.mode = Mode::Range;
        grow.lower = grow.upper = 255 * scale;
    }

    std::ostringstream text;
    text << "RGX_STRESS_SEED=" << sequence << " case " << index << ": " << width << "x" << height << " "
         << (sixteen ? 16 : 8) << "-bit, " << c.seeds.size() << " seeds, mode " << modeName(grow.mode) << ", rule "
         << ruleName(grow.rule) << ", connectivity " << grow.connectivity << ", tolerance " << grow.tolerance
         << ", range -" << grow.lower << "/+" << grow.upper;
    c.text = text.str();
    return c;
}

TEST(Stress, RandomCasesEqualTheReferenceOnEveryDevice)
{
    const uint32_t cases = fromEnvironment("RGX_STRESS_CASES", 24);
    const uint32_t sequence = fromEnvironment("RGX_STRESS_SEED", 1);
    const char* only = std::getenv("RGX_STRESS_VARIANTS");
    for (const DeviceInfo& info : listDevices()) {
        std::vector<GrowVariant> variants;
        for (const GrowVariant& variant : allVariants())
            if (!variant.wrongOnPurpose() && !whyUnavailable(variant, info) &&
                (!only || variant.text().find(only) != std::string::npos))
                variants.push_back(variant);
        ASSERT_FALSE(variants.empty()) << info.name;
        ComputeDevice device(info);
        uint32_t clean = 0, refused = 0, apart = 0, ring = 0, alone = 0, ties = 0;
        for (uint32_t index = 0; index < cases; ++index) {
            const Case c = randomCase(sequence, index);
            const GrowVariant& variant = variants[index % variants.size()];
            const std::string where = c.text + ", " + variant.text() + " on " + info.name;
            GrowResultPtr expected;
            try {
                expected = runReferencePipeline(c.image, c.seeds, c.params);
            } catch (const InputError& referenceError) {
                // The device refuses the same input with the same words.
                try {
                    runDevicePipeline(device, c.image, c.seeds, c.params, variant);
                    ADD_FAILURE() << where << ": the reference refused (" << referenceError.what()
                                  << ") and the device did not";
                } catch (const InputError& deviceError) {
                    EXPECT_STREQ(referenceError.what(), deviceError.what()) << where;
                    ++refused;
                }
                continue;
            }
            // Every other case takes the tile steps of devices without the
            // ring step's work-groups (RGX_TEST_NO_RING).
            std::optional<test::ScopedEnvironment> noRing;
            if (index % 2 == 1)
                noRing.emplace("RGX_TEST_NO_RING", "1");
            const GrowResultPtr actual = runDevicePipeline(device, c.image, c.seeds, c.params, variant);
            noRing.reset();
            const ResultDiff diff = compareResults(*expected, *actual);
            EXPECT_EQ(diff.differingPixels, 0u) << where;
            EXPECT_EQ(expected->iterations, actual->iterations) << where;
            if (diff.differingPixels == 0 && expected->iterations == actual->iterations)
                ++clean;
            for (const KernelReport& kernel : actual->kernels) {
                if (kernel.kernel != "grow_tiles")
                    continue;
                apart += kernel.options.find("-DRGX_TILE_APART=1") != std::string::npos ? 1 : 0;
                ring += kernel.options.find("-DRGX_TILE_RING=") != std::string::npos ? 1 : 0;
                break;
            }
            if (std::any_of(actual->timings.begin(), actual->timings.end(),
                            [](const TimingRecord& record) {
                                return record.kernel == "label_ties" || record.kernel == "settle_ties";
                            }))
                ++ties;
            // A ring step's run whose other regions stopped goes on as one
            // region's (its launches' notes name the region's tile rounds).
            if (std::any_of(actual->timings.begin(), actual->timings.end(), [](const TimingRecord& record) {
                    return record.kernel == "grow_tiles" && record.note.find("'s tile round") != std::string::npos;
                }))
                ++alone;
        }
        std::cout << "[ info ] " << info.name << ": " << clean << " of " << cases << " cases equal the reference, "
                  << refused << " refused alike, over " << variants.size() << " variants; " << ring
                  << " grew by the tiles' ring step (" << alone << " of them went on as one region's alone), "
                  << apart
                  << " by the bitmap step with the ranges apart (without the ring step), " << ties
                  << " labelled the ties between seeds alone (RGX_STRESS_SEED="
                  << sequence << ")\n";
    }
}

// A session on a random volume, clicked three times: each click's seeds,
// mode, range and connectivity new, on bricks (fusion=tiles) or on the
// next correct variant, so that each click starts from maps another left
// (the box of the last click reset, in x, y and z).
TEST(Stress, RandomVolumeClicksEqualTheReferenceOnEveryDevice)
{
    const uint32_t sessions = std::max<uint32_t>(1, fromEnvironment("RGX_STRESS_CASES", 24) / 2);
    const uint32_t sequence = fromEnvironment("RGX_STRESS_SEED", 1);
    for (const DeviceInfo& info : listDevices()) {
        std::vector<GrowVariant> variants;
        for (const GrowVariant& variant : allVariants())
            if (!variant.wrongOnPurpose() && !whyUnavailable(variant, info))
                variants.push_back(variant);
        ASSERT_FALSE(variants.empty()) << info.name;
        const GrowVariant bricks = parseVariant("driver=host-batched,frontier=queue,collectives=local,fusion=tiles");
        ComputeDevice device(info);
        uint32_t clicks = 0, clean = 0, narrow = 0;
        for (uint32_t index = 0; index < sessions; ++index) {
            // Every other session reads its stamps a byte each over a base
            // per run (GrowState::readNarrow; by default on a GPU only, from 8 Mi voxels).
            std::optional<test::ScopedEnvironment> narrowStamps;
            if (index % 2 == 1)
                narrowStamps.emplace("RGX_NARROW_STAMPS", "1");
            std::mt19937 rng(sequence * 7919u + index);
            auto pick = [&](uint32_t count) { return rng() % count; };
            const int width = 1 + int(pick(48)), height = 1 + int(pick(48)), depth = 1 + int(pick(48));
            const bool sixteen = pick(2) == 1;
            auto volume = std::make_shared<const LumaImage>(test::randomVolume(width, height, depth, sixteen, rng()));
            DeviceSession session(device, volume);
            for (int click = 0; click < 3; ++click) {
                PipelineParams params;
                GrowParams& grow = params.grow;
                grow.mode = pick(3) == 0 ? Mode::Competitive : Mode::Range;
                grow.connectivity = pick(3) == 0 ? 6 : pick(2) == 0 ? 18 : 26;
                const uint32_t scale = sixteen ? 257 : 1;
                grow.lower = pick(80) * scale;
                grow.upper = pick(80) * scale;
                if (pick(4) == 0) // every voxel open: whole bricks open to the region
                    grow.lower = grow.upper = 255 * scale;
                const int count = grow.mode == Mode::Competitive ? 1 + int(pick(4)) : 1;
                const std::vector<Seed> seeds = test::randomVoxelSeeds(width, height, depth, count, rng());
                const GrowVariant& variant = pick(2) == 0 ? bricks : variants[pick(uint32_t(variants.size()))];
                std::ostringstream where;
                where << "RGX_STRESS_SEED=" << sequence << " session " << index << " click " << click << ": "
                      << width << "x" << height << "x" << depth << " " << (sixteen ? 16 : 8) << "-bit, "
                      << seeds.size() << " seeds, mode " << modeName(grow.mode) << ", connectivity "
                      << grow.connectivity << ", range -" << grow.lower << "/+" << grow.upper << ", "
                      << variant.text() << " on " << info.name;
                const GrowResultPtr expected = runReferencePipeline(*volume, seeds, params);
                const ClickResultPtr result = session.click(seeds, params, variant);
                narrow += result->maps.stampBytes == 1 ? 1 : 0;
                const GrowResult actual = result->toGrowResult();
                const ResultDiff diff = compareResults(*expected, actual);
                EXPECT_EQ(diff.differingPixels, 0u) << where.str();
                EXPECT_EQ(expected->iterations, actual.iterations) << where.str();
                ++clicks;
                if (diff.differingPixels == 0 && expected->iterations == actual.iterations)
                    ++clean;
            }
        }
        std::cout << "[ info ] " << info.name << ": " << clean << " of " << clicks << " volume clicks on "
                  << sessions << " resident sessions equal the reference, " << narrow
                  << " of them read narrow (RGX_STRESS_SEED=" << sequence << ")\n";
    }
}

} // namespace
