// The resident session (engine/DeviceSession.h): a sequence of clicks on one
// image, each result equal to the CPU reference bit for bit on every device,
// including clicks that shrink a region (nothing of the previous run may
// survive), with the image uploaded once and the buffers reused.
#include "ResultChecks.h"
#include "ScopedEnvironment.h"
#include "TestImages.h"
#include "TestVolumes.h"
#include "Device.h"
#include "DeviceSession.h"
#include "Errors.h"
#include "Pipeline.h"
#include "stages/GrowState.h"
#include "stages/RegionGrowing.h"
#include "grow_counters.h"

#include <gtest/gtest.h>

using namespace rgx;

namespace {

struct Click {
    std::string step;
    std::vector<Seed> seeds;
    PipelineParams params;
};

// Add a seed, add a second, move one, widen the range, narrow it (the
// region shrinks), change the mode, remove one, back to the first.
std::vector<Click> clickSequence(const LumaImage& image)
{
    PipelineParams range;
    range.grow.mode = Mode::Range;
    range.grow.lower = 12;
    range.grow.upper = 12;
    const Seed a{image.width / 3, image.height / 2};
    const Seed b{2 * image.width / 3, image.height / 3};
    const Seed moved{image.width / 2, 2 * image.height / 3};
    std::vector<Click> clicks = {{"add a seed", {a}, range}, {"add a second", {a, b}, range},
                                 {"move one", {a, moved}, range}};
    PipelineParams wide = range;
    wide.grow.lower = wide.grow.upper = 40;
    clicks.push_back({"widen the range", {a, moved}, wide});
    PipelineParams narrow = range;
    narrow.grow.lower = narrow.grow.upper = 3;
    clicks.push_back({"narrow the range", {a, moved}, narrow});
    PipelineParams competitive;
    clicks.push_back({"competitive mode", {a, moved}, competitive});
    clicks.push_back({"remove one", {moved}, competitive});
    PipelineParams eight = range;
    eight.grow.connectivity = 8;
    eight.prefilter = parsePrefilter("boxmean:3");
    clicks.push_back({"boxmean prefilter, connectivity 8", {moved}, eight});
    clicks.push_back({"the first click again", {a}, range});
    return clicks;
}

} // namespace

TEST(DeviceSession, EveryClickEqualsTheReferenceOnEveryDevice)
{
    const auto image = std::make_shared<const LumaImage>(test::randomImage(181, 133, test::PixelKind::Grey8, 7));
    const std::vector<Click> clicks = clickSequence(*image);
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        for (const char* variantText : {"", "fusion=tiles", "driver=host-sync,collectives=local",
                                        "collectives=local,fusion=grid-barrier", "frontier=sweep,tile=direct"}) {
            const GrowVariant variant = parseVariant(variantText);
            DeviceSession session(device, image);
            for (size_t c = 0; c < clicks.size(); ++c) {
                const std::string what = info.name + ", " + variant.text() + ", click " + std::to_string(c + 1) +
                                         " (" + clicks[c].step + ")";
                const GrowResultPtr expected = runReferencePipeline(*image, clicks[c].seeds, clicks[c].params);
                const ClickResultPtr click = session.click(clicks[c].seeds, clicks[c].params, variant);
                test::expectEqual(*expected, click->toGrowResult(), what);
                // The luma travels on the first click and when the prefilter changes.
                const bool newLuma = c == 0 || clicks[c].params.prefilter.kind != clicks[c - 1].params.prefilter.kind;
                EXPECT_EQ(test::commandCount(click->timings, "write:luma"), newLuma ? 1 : 0) << what;
                // The seeds travel when they change, not for a new range or mode.
                const bool newSeeds = c == 0 || clicks[c].seeds != clicks[c - 1].seeds;
                if (newSeeds || !newLuma)
                    EXPECT_EQ(test::commandCount(click->timings, "write:seed_pixels"), newSeeds ? 1 : 0) << what;
            }
        }
    }
}

// An 8-bit image loaded from a file keeps its lumas a byte each
// (LumaImage::lumaBytes): the whole luma crosses the bus in half the bytes
// and widen_luma widens it on the device. Every click equals the reference,
// and a prefilter's output (two bytes a luma) and the image again travel as
// they should. RGX_LUMA_BYTES=2 sends two bytes whatever the image.
TEST(DeviceSession, AnEightBitImageTravelsAByteAPixel)
{
    LumaImage bytes = test::randomImage(181, 133, test::PixelKind::Grey8, 8);
    keepLumaBytes(bytes);
    ASSERT_EQ(bytes.lumaBytes.size(), bytes.luma.size());
    const auto image = std::make_shared<const LumaImage>(std::move(bytes));
    const std::vector<Click> clicks = clickSequence(*image);
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        for (const char* lumaBytes : {"", "2"}) {
            const test::ScopedEnvironment environment("RGX_LUMA_BYTES", lumaBytes);
            DeviceSession session(device, image);
            for (size_t c = 0; c < clicks.size(); ++c) {
                const std::string what = info.name + ", RGX_LUMA_BYTES '" + lumaBytes + "', click " +
                                         std::to_string(c + 1) + " (" + clicks[c].step + ")";
                const GrowResultPtr expected = runReferencePipeline(*image, clicks[c].seeds, clicks[c].params);
                const ClickResultPtr click = session.click(clicks[c].seeds, clicks[c].params, parseVariant("fusion=tiles"));
                test::expectEqual(*expected, click->toGrowResult(), what);
                const bool newLuma = c == 0 || clicks[c].params.prefilter.kind != clicks[c - 1].params.prefilter.kind;
                const bool prefiltered = clicks[c].params.prefilter.kind != PrefilterSpec::Kind::None;
                EXPECT_EQ(test::commandCount(click->timings, "write:luma"), newLuma ? 1 : 0) << what;
                EXPECT_EQ(test::commandCount(click->timings, "widen_luma"),
                          newLuma && !prefiltered && *lumaBytes == 0 ? 1 : 0)
                    << what;
            }
        }
    }
    // Lumas above 255 keep no bytes.
    LumaImage deep = test::randomImage(40, 30, test::PixelKind::Grey16, 3);
    keepLumaBytes(deep);
    EXPECT_TRUE(deep.lumaBytes.empty());
}

TEST(DeviceSession, WholePipelineRunsEqualTheReferenceBetweenClicks)
{
    const auto image = std::make_shared<const LumaImage>(test::randomImage(90, 70, test::PixelKind::Grey16, 9));
    PipelineParams post;
    post.postfilter = parsePostfilter("density:5:6");
    PipelineParams range;
    range.grow.mode = Mode::Range;
    range.grow.lower = range.grow.upper = 3000;
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        DeviceSession session(device, image);
        const std::vector<Seed> seeds = {{10, 10}, {60, 50}};
        test::expectEqual(*runReferencePipeline(*image, seeds, post), *session.run(seeds, post, GrowVariant{}),
                    info.name + ", postfilter");
        test::expectEqual(*runReferencePipeline(*image, {{40, 30}}, range),
                    session.click({{40, 30}}, range, parseVariant("fusion=tiles"))->toGrowResult(),
                    info.name + ", click after the postfilter run");
        test::expectEqual(*runReferencePipeline(*image, seeds, post), *session.run(seeds, post, GrowVariant{}),
                    info.name + ", postfilter again");
    }
}

TEST(DeviceSession, AClickReturnsTheBoxOfItsPixelsInTheNarrowestTypes)
{
    // One region of 9 x 4 pixels at (20, 30) in a 100 x 80 image.
    auto image = std::make_shared<LumaImage>();
    image->width = 100;
    image->height = 80;
    image->luma.assign(100 * 80, 200);
    for (int y = 30; y < 34; ++y)
        for (int x = 20; x < 29; ++x)
            image->luma[size_t(y) * 100 + size_t(x)] = 50;
    PipelineParams params;
    params.grow.mode = Mode::Range;
    params.grow.lower = params.grow.upper = 5;
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        DeviceSession session(device, image);
        const ClickResultPtr click = session.click({{24, 31}}, params, parseVariant("fusion=tiles"));
        const BoxMaps& maps = click->maps;
        EXPECT_EQ(maps.x0, 20) << info.name;
        EXPECT_EQ(maps.y0, 30);
        EXPECT_EQ(maps.boxWidth, 9);
        EXPECT_EQ(maps.boxHeight, 4);
        EXPECT_EQ(maps.labelBytes, 0); // one region: its labels follow from the stamps
        EXPECT_EQ(maps.stampBytes, 2);
        EXPECT_EQ(maps.bytes(), 9u * 4u * 2u);
        EXPECT_EQ(maps.label(24, 31), 1);
        EXPECT_EQ(maps.stamp(24, 31), 0u);
        EXPECT_EQ(maps.stamp(28, 33), 4u + 2u);
        EXPECT_EQ(maps.label(19, 31), 0);
        EXPECT_EQ(maps.stamp(0, 0), unclassifiedStamp);
        // Two regions: their labels travel, one byte each.
        const ClickResultPtr two = session.click({{24, 31}, {60, 60}}, params, parseVariant("fusion=tiles"));
        EXPECT_EQ(two->maps.labelBytes, 1) << info.name;
        EXPECT_EQ(two->maps.label(24, 31), 1);
        EXPECT_EQ(two->maps.label(60, 60), 2);
        EXPECT_EQ(two->maps.label(0, 0), 2); // the rest of the image
    }
}

// Once the session's packed buffers hold a click's box, the next such
// click's maps are packed on the device before the host knows the box
// (GrowState::packAhead): its one pack_maps comes before its last read of
// the counters, and its maps equal the reference, with one region (labels
// off the stamps) and with two.
TEST(DeviceSession, ARepeatedClickHasItsMapsPackedBeforeTheHostKnowsTheBox)
{
    const auto image = std::make_shared<const LumaImage>(test::randomImage(150, 110, test::PixelKind::Grey8, 9));
    PipelineParams params;
    params.grow.mode = Mode::Range;
    params.grow.lower = params.grow.upper = 20;
    auto lastIndexOf = [](const std::vector<TimingRecord>& timings, const std::string& kernel) {
        int last = -1;
        for (size_t i = 0; i < timings.size(); ++i)
            if (timings[i].kernel == kernel)
                last = int(i);
        return last;
    };
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        for (const char* variantText : {"", "fusion=tiles"}) {
            const GrowVariant variant = parseVariant(variantText);
            const std::vector<Seed> one = {{50, 50}}, two = {{50, 50}, {110, 70}};
            for (const std::vector<Seed>& seeds : {one, two}) {
                const std::string what = info.name + ", " + variant.text() + ", " + std::to_string(seeds.size()) +
                                         " seed(s)";
                DeviceSession session(device, image);
                const GrowResultPtr expected = runReferencePipeline(*image, seeds, params);
                ClickResultPtr click;
                for (int c = 0; c < 3; ++c)
                    click = session.click(seeds, params, variant);
                test::expectEqual(*expected, click->toGrowResult(), what);
                // Packed with the first launch's summary; a fused launch that
                // stopped meeting at its grid barrier (a CPU runtime on busy
                // cores, its note says so) is summarised, and packed, again.
                const bool summarisedAgain = click->note.find("one round of tiles per launch") != std::string::npos;
                EXPECT_EQ(test::commandCount(click->timings, "pack_maps"), summarisedAgain ? 2 : 1)
                    << what << "; note: " << click->note;
                EXPECT_LT(lastIndexOf(click->timings, "pack_maps"), lastIndexOf(click->timings, "read:counters"))
                    << what;
            }
        }
    }
}

TEST(DeviceSession, ACompetitiveClickOfManyRegionsReadsItsStampsWhileItsLabelsAreMade)
{
    const auto image = std::make_shared<const LumaImage>(test::randomImage(140, 100, test::PixelKind::Grey8, 12));
    PipelineParams competitive;
    PipelineParams range;
    range.grow.mode = Mode::Range;
    range.grow.lower = range.grow.upper = 20;
    const std::vector<Seed> five = {{10, 10}, {130, 90}, {70, 50}, {20, 80}, {120, 15}};
    const std::vector<Seed> three = {{5, 95}, {100, 40}, {60, 60}};
    // Competitive clicks between others that pack their maps ahead, each
    // equal to the reference (a map read ahead and then used by the wrong
    // click would differ).
    const std::vector<std::pair<std::vector<Seed>, PipelineParams>> clicks = {
        {five, competitive}, {{five[0]}, range}, {five, competitive}, {three, competitive},
        {three, competitive}, {{five[2]}, range}, {{five[2]}, range}, {three, competitive}};
    auto indexOf = [](const std::vector<TimingRecord>& timings, const std::string& kernel) {
        for (size_t i = 0; i < timings.size(); ++i)
            if (timings[i].kernel == kernel)
                return int(i);
        return -1;
    };
    // GPUs read the stamps ahead; the CPU runtimes here do when told to.
    test::ScopedEnvironment stampsAhead("RGX_STAMPS_AHEAD", "1");
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        DeviceSession session(device, image);
        for (size_t c = 0; c < clicks.size(); ++c) {
            const auto& [seeds, params] = clicks[c];
            const std::string what = info.name + ", click " + std::to_string(c + 1) + ", " +
                                     std::to_string(seeds.size()) + " seed(s)";
            const ClickResultPtr click = session.click(seeds, params, parseVariant("fusion=tiles"));
            test::expectEqual(*runReferencePipeline(*image, seeds, params), click->toGrowResult(), what);
            if (params.grow.mode != Mode::Competitive)
                continue;
            // The stamps are packed and their read enqueued before the labels'
            // launch; the labels are packed and read after it.
            EXPECT_EQ(test::commandCount(click->timings, "read:stamps"), 1) << what;
            EXPECT_EQ(test::commandCount(click->timings, "pack_maps"), 2) << what;
            // The label pass: the ties alone in one work-group, or every level.
            const int labels = std::max({indexOf(click->timings, "label_ties"), indexOf(click->timings, "settle_ties"),
                                         indexOf(click->timings, "label_levels_fused")});
            EXPECT_GE(labels, 0) << what;
            EXPECT_LT(indexOf(click->timings, "read:stamps"), labels) << what;
            EXPECT_GT(indexOf(click->timings, "read:labels"), labels) << what;
        }
    }
}

// Box maps of several slabs are packed and read slab by slab, each read
// beside the next slab's pack (GrowState::readSlabs: slabs of 32 MiB on a
// GPU, forced to 4 KiB here on every device): equal to the reference, one
// pack and one read of each map a slab, on an image and a volume, one region
// and several, the first slab packed ahead or not.
TEST(DeviceSession, LargeMapsArePackedAndReadInSlabs)
{
    const uint64_t slabBytes = 4096;
    test::ScopedEnvironment slabs("RGX_READ_SLAB_KIB", "4");
    test::ScopedEnvironment stampsAhead("RGX_STAMPS_AHEAD", "0"); // its own path, tested above
    const auto image = std::make_shared<const LumaImage>(test::randomImage(200, 150, test::PixelKind::Grey8, 21));
    const auto volume = std::make_shared<const LumaImage>(test::randomVolume(40, 30, 20, false, 5));
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        for (const auto& input : {image, volume}) {
            const bool isVolume = input->depth > 1;
            PipelineParams competitive;
            competitive.grow.connectivity = isVolume ? 6 : 4;
            PipelineParams range = competitive;
            range.grow.mode = Mode::Range;
            range.grow.lower = range.grow.upper = 100;
            const std::vector<Seed> one = {isVolume ? Seed{20, 15, 10} : Seed{100, 75}};
            const std::vector<Seed> three = isVolume ? std::vector<Seed>{{2, 3, 4}, {35, 25, 15}, {20, 5, 18}}
                                                     : std::vector<Seed>{{5, 5}, {190, 140}, {100, 20}};
            const std::vector<std::pair<std::vector<Seed>, PipelineParams>> clicks = {
                {one, range}, {one, range}, {three, competitive}, {three, range}, {one, range}};
            DeviceSession session(device, input);
            for (size_t c = 0; c < clicks.size(); ++c) {
                const auto& [seeds, params] = clicks[c];
                const std::string what = info.name + (isVolume ? ", volume" : ", image") + ", click " +
                                         std::to_string(c + 1);
                const ClickResultPtr click = session.click(seeds, params, parseVariant("fusion=tiles"));
                test::expectEqual(*runReferencePipeline(*input, seeds, params), click->toGrowResult(), what);
                const BoxMaps& maps = click->maps;
                const int expected = int(RGX_READ_SLABS(maps.bytes(), slabBytes));
                EXPECT_GT(expected, 4) << what; // every click's maps are several slabs
                EXPECT_EQ(test::commandCount(click->timings, "read:stamps"), expected) << what;
                EXPECT_EQ(test::commandCount(click->timings, "read:labels"), maps.labelBytes > 0 ? expected : 0)
                    << what;
                // A run summarised twice (its driver's early summary was
                // stale) packed ahead twice.
                const int packs = test::commandCount(click->timings, "pack_maps");
                EXPECT_TRUE(packs == expected || packs == expected + 1) << what << ": " << packs << " packs";
            }
        }
    }
}

TEST(DeviceSession, KeptResultsStayTheSameWhileTheSessionGoesOn)
{
    const auto image = std::make_shared<const LumaImage>(test::randomImage(120, 90, test::PixelKind::Grey8, 4));
    PipelineParams params;
    params.grow.mode = Mode::Range;
    params.grow.lower = params.grow.upper = 25;
    const DeviceInfo info = selectDevice("");
    ComputeDevice device(info);
    DeviceSession session(device, image);
    const ClickResultPtr first = session.click({{30, 30}}, params, GrowVariant{});
    const GrowResult before = first->toGrowResult();
    for (int x = 40; x < 100; x += 20)
        session.click({{x, 60}}, params, GrowVariant{});
    test::expectEqual(before, first->toGrowResult(), "the first click's maps after three more clicks");
}

TEST(DeviceSession, FootprintStaysWithinItsBoundAndARepeatedClickAddsNothing)
{
    const auto image = std::make_shared<const LumaImage>(test::randomImage(256, 256, test::PixelKind::Grey8, 5));
    PipelineParams params;
    params.grow.mode = Mode::Range;
    params.grow.lower = params.grow.upper = 30;
    const GrowVariant tiles = parseVariant("fusion=tiles");
    ComputeDevice device(selectDevice(""));
    DeviceSession session(device, image);
    const uint64_t bound = regionGrowingDeviceBytes(image->pixelCount(), 1, tiles);
    for (int x = 10; x < 250; x += 40) {
        session.click({{x, x}}, params, tiles);
        const Footprint before = session.footprint();
        EXPECT_LE(before.deviceBytes, bound);
        session.click({{x, x}}, params, tiles);
        EXPECT_EQ(session.footprint().deviceBytes, before.deviceBytes);
        EXPECT_EQ(session.footprint().hostBytes, before.hostBytes);
    }
}

// Between launches the run offers its maps as they stand: level by level
// they are the SPEC's state after an iteration, so every pixel classified in
// a partial picture already has its final label and stamp.
TEST(DeviceSession, PartialPicturesOfALevelRunAreItsStateSoFar)
{
    const auto image = std::make_shared<const LumaImage>(test::randomImage(120, 90, test::PixelKind::Grey8, 12));
    PipelineParams params;
    for (const DeviceInfo& info : listDevices()) {
        ComputeDevice device(info);
        for (const char* variantText : {"driver=host-sync", "frontier=sweep,tile=direct"}) {
            DeviceSession session(device, image);
            test::PartialPictures partials{{}, 6};
            const GrowResultPtr final =
                session.run({{60, 45}, {5, 5}}, params, parseVariant(variantText), partials.control());
            ASSERT_GE(partials.pictures.size(), 2u) << info.name << " " << variantText;
            for (const auto& [maps, iteration] : partials.pictures) {
                uint64_t classified = 0;
                for (int y = 0; y < image->height; ++y)
                    for (int x = 0; x < image->width; ++x) {
                        const size_t p = size_t(y) * size_t(image->width) + size_t(x);
                        if (maps.stamp(x, y) == unclassifiedStamp) {
                            EXPECT_TRUE(final->stamps[p] > iteration) << "(" << x << "," << y << ") after iteration " << iteration;
                            continue;
                        }
                        ++classified;
                        ASSERT_EQ(maps.stamp(x, y), final->stamps[p]) << info.name << " " << variantText;
                        ASSERT_EQ(maps.label(x, y), final->labels[p]) << info.name << " " << variantText;
                        ASSERT_LE(maps.stamp(x, y), iteration);
                    }
                EXPECT_GT(classified, 1u);
            }
        }
    }
}

// A caller that wants a smaller picture of a large run asks for every n-th
// pixel: the device packs only those, on the n-pixel grid.
TEST(DeviceSession, PartialPicturesCanHoldEveryNthPixel)
{
    const auto image = std::make_shared<const LumaImage>(test::randomImage(121, 95, test::PixelKind::Grey8, 13));
    PipelineParams params;
    ComputeDevice device(selectDevice(""));
    DeviceSession session(device, image);
    test::PartialPictures partials;
    const GrowResultPtr final = session.run({{60, 45}}, params, parseVariant("driver=host-sync"), partials.control(3));
    ASSERT_GE(partials.pictures.size(), 2u);
    for (const auto& [maps, iteration] : partials.pictures) {
        EXPECT_EQ(maps.step, 3);
        EXPECT_EQ(maps.x0 % 3, 0);
        EXPECT_EQ(maps.y0 % 3, 0);
        EXPECT_THROW({ std::vector<uint16_t> l; std::vector<uint32_t> st; maps.widen(l, st); }, std::invalid_argument);
        for (int y = 0; y < image->height; y += 3)
            for (int x = 0; x < image->width; x += 3) {
                const size_t p = size_t(y) * size_t(image->width) + size_t(x);
                const uint32_t stamp = maps.stamp(x, y);
                if (stamp == unclassifiedStamp) {
                    EXPECT_GT(final->stamps[p], iteration) << "(" << x << "," << y << ")";
                } else {
                    ASSERT_EQ(stamp, final->stamps[p]) << "(" << x << "," << y << ")";
                    ASSERT_EQ(maps.label(x, y), final->labels[p]);
                }
            }
    }
}

TEST(DeviceSession, AClickWithAPostfilterIsAnInputError)
{
    const auto image = std::make_shared<const LumaImage>(test::randomImage(20, 20, test::PixelKind::Grey8, 1));
    PipelineParams params;
    params.postfilter = parsePostfilter("density:3:2");
    ComputeDevice device(selectDevice(""));
    DeviceSession session(device, image);
    EXPECT_THROW(session.click({{5, 5}}, params, GrowVariant{}), InputError);
}
