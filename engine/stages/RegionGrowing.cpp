// The region-growing stage: its input checks and programs (made once per
// request), the device memory it needs, and a run: started, seeded, grown
// by the variant's driver (stages/grow/), summarised.
#include "RegionGrowing.h"
#include "Device.h"
#include "Errors.h"
#include "StageSupport.h"
#include "TimingLog.h"
#include "grow/GrowDriver.h"
#include "grow/GrowPrograms.h"
#include "grow/Run.h"
#include "grow_counters.h"

#include <algorithm>
#include <sstream>

namespace rgx {

namespace grow {

std::unique_ptr<GrowDriver> pickDriver(const GrowVariant& variant, bool tiles, bool volume, bool distances)
{
    if (tiles && distances)
        return makeDistanceDriver();
    if (tiles)
        return volume ? makeBrickDriver() : makeTiledDriver();
    if (variant.fusion != Fusion::None)
        return makeFusedLevelsDriver();
    switch (variant.driver) {
    case Driver::HostSync: return makeHostSyncDriver();
    case Driver::DeviceEnqueue: return makeDeviceEnqueueDriver();
    case Driver::HostBatched: break;
    }
    return makeHostBatchedDriver();
}

} // namespace grow

namespace {

// Everything about the inputs a user can get wrong (InputError).
void checkGrowInputs(const DeviceInfo& info, int width, int height, int depth, const std::vector<Seed>& seeds,
                     const GrowParams& params, const GrowVariant& variant)
{
    validateSeeds(seeds, width, height, depth);
    if (auto reason = whyUnavailable(variant, info))
        throw InputError("variant " + variant.text() + " cannot run on " + info.name + ": " + *reason);
    checkConnectivity(params.connectivity, depth);
    const uint64_t pixelCount = uint64_t(width) * uint64_t(height) * uint64_t(depth);
    const uint64_t needed =
        regionGrowingDeviceBytes(pixelCount, seeds.size(), variant, depth > 1 ? tieSlotPixels(true, info) : 0);
    if (pixelCount * 4 > info.maxAllocationBytes || needed > info.globalMemoryBytes ||
        pixelCount >= 0x7FFFFFFFull) {
        std::ostringstream message;
        message << "the " << width << "x" << height;
        if (depth > 1)
            message << "x" << depth << " volume";
        else
            message << " image";
        message << " needs " << needed / (1024 * 1024)
                << " MiB of device memory (largest buffer " << pixelCount * 4 / (1024 * 1024)
                << " MiB); " << info.name << " has " << info.globalMemoryBytes / (1024 * 1024)
                << " MiB, at most " << info.maxAllocationBytes / (1024 * 1024) << " MiB per buffer";
        if (pixelCount >= 0x7FFFFFFFull)
            message << " (and RGX handles images and volumes of fewer than 2^31 pixels)";
        throw InputError(message.str());
    }
}

} // namespace

bool tilesApply(const GrowParams& params, size_t regions, int depth)
{
    // Bricks, with no cap but the natural one: one region whose every voxel's
    // label is 1; or several in mode competitive under rule adjacent, whose
    // stamps are the distances from the nearest seed and whose labels a
    // second pass finds level by level (docs/VARIANTS.md).
    // Tiles: mode range, and mode competitive with one region or in two
    // passes as bricks do.
    if (depth > 1)
        return params.maxIterations == 0 &&
               ((regions == 1 && (params.mode == Mode::Range || params.mode == Mode::Competitive)) ||
                grow::labelsInSecondPass(params, regions));
    return params.mode == Mode::Range || (params.mode == Mode::Competitive && regions == 1) ||
           grow::labelsInSecondPass(params, regions);
}

uint64_t tieSlotPixels(bool volume, const DeviceInfo& info)
{
    return !volume ? 32 : info.type == "GPU" ? 128 : 16;
}

uint64_t regionGrowingDeviceBytes(uint64_t pixelCount, uint64_t regionCount, const GrowVariant& variant,
                                  uint64_t volumeTieSlot)
{
    // luma (2) + labels (2) + stamps (4) per pixel; the queue adds two
    // frontier lists (4 + 4), the sweep a second labels/stamps pair (2 + 4);
    // tiles two marks and three list entries (20 bytes) per tile of 32 x 32,
    // and on an image the ring step's rows (512 bytes; a volume's bricks of
    // 8 x 8 x 8 have no rows: their 40 bytes a 1024 voxels are less).
    // fusion=tiles can fall back to levels, so it counts the queue too.
    uint64_t perPixel = 2 + 2 + 4;
    if (variant.frontier == Frontier::Sweep)
        perPixel += 6;
    else
        perPixel += 8;
    uint64_t bytes = pixelCount * perPixel;
    if (variant.fusion == Fusion::Tiles) {
        bytes += (pixelCount + growTileSide * growTileSide - 1) / (growTileSide * growTileSide) * (20 + 512);
        // The ties' label pass (grow/LabelTies.cpp, tieLimits): totals per
        // stamp and region (12 bytes, at most one for 16 pixels or 2^18),
        // up to one tie in 32 pixels of an image, or 65536, listed, sorted,
        // with its labels twice (settle_ties keeps two passes') and 9 words
        // of neighbours (48 bytes; a volume's one in `volumeTieSlot` with 27
        // words, 120 bytes), and the stamps' starts and counts.
        const uint64_t volumeTies = volumeTieSlot > 0 ? pixelCount * 120 / volumeTieSlot : 0;
        bytes += std::max<uint64_t>(uint64_t(12) << 18, pixelCount * 12 / 16) +
                 std::max({uint64_t(120) << 16, pixelCount * 48 / 32, volumeTies}) + (1 << 20);
    }
    // Per region of the buffers' capacity: seed pixel and luma (8), two sets
    // of three rotating (count, sum) slots (72), the summary's (count, sum) (12).
    bytes += regionCapacityFor(regionCount) * 92 + RGX_COUNTER_WORDS * 4;
    // The read-back's packed maps on the device: at most 2 + 4 per pixel;
    // narrow stamps' bases and wide runs' slots besides (GrowState::readNarrow:
    // a 16th of a byte a pixel for the bases; slots of 256 bytes for up to an
    // eighth of the runs of 64 pixels, half a byte a pixel, at least 1025).
    bytes += pixelCount * 6 + pixelCount / 16 + pixelCount / 2 + 1025 * 256;
    // An 8-bit image's upload: its bytes on the device while widen_luma
    // widens them (GrowState::writeLuma).
    bytes += pixelCount;
    return bytes;
}

RegionGrowing::RegionGrowing(ComputeDevice& device, int width, int height, std::vector<Seed> seeds,
                             const GrowParams& params, const GrowVariant& variant, int depth)
    : device_(device), seeds_(std::move(seeds)), params_(params), variant_(variant), depth_(depth)
{
    checkGrowInputs(device.info(), width, height, depth, seeds_, params_, variant_);
    tiles_ = variant_.fusion == Fusion::Tiles && tilesApply(params_, seeds_.size(), depth);
    distances_ = tiles_ && grow::stampsByDistance(params_, seeds_.size());
    // The programs a run will use, built now so that its time does not include them.
    sessionKernels(device);
    if (tiles_ && !distances_ && depth > 1) {
        grow::brickKernels(device);
    } else if (tiles_ && !distances_) {
        size_t workGroup = 0;
        const bool fixed = grow::labelsFixed(params_, seeds_.size());
        // Not fixed, on a device without the ring step: the seeds' lumas
        // decide between the per-pixel step and, where their ranges fall
        // apart, the bitmap step of each region.
        grow::TileStep step = fixed ? grow::TileStep::Bits : grow::tileStep(params_, {0, 0}, device.info());
        grow::tileKernels(device, step, workGroup);
        if (step == grow::TileStep::Pixels) {
            step = grow::TileStep::BitsApart;
            grow::tileKernels(device, step, workGroup);
        }
    }
    if (distances_ || (tiles_ && (grow::labelsInSecondPass(params_, seeds_.size()) ||
                                  grow::rangeMayTakeEveryLuma(params_, seeds_.size()))))
        grow::labelLevelKernels(device, depth > 1);
    if (!tiles_) {
        grow::LevelGeometry geometry;
        geometry.volume = depth > 1;
        grow::levelKernels(device, grow::levelVariant(variant_), geometry);
    }
}

GrowRun RegionGrowing::run(GrowState& state, const std::vector<uint32_t>& seedLuma, const RunControl& control,
                           TimingLog& timings) const
{
    const DeviceInfo& info = device_.info();
    const std::vector<Seed>& seeds = seeds_;
    const GrowParams& params = params_;
    const GrowVariant& variant = variant_;
    const bool tiles = tiles_;
    // The run holds the host memory that non-blocking writes read from (the
    // seeds, the first totals): a run that stops half-way (an error, Cancel,
    // the time limit) may leave such commands in the queue, so it waits for
    // them before that memory goes.
    grow::Run run(state, seeds, params, variant, control, timings);
    auto waitForTheQueue = [&] {
        try {
            run.queue.finish();
        } catch (const cl::Error&) {
            // The queue is broken too: nothing of it runs any more.
        }
    };
    // A range that holds every luma the state's image can have: as
    // competitive, every pixel joins at its distance from the seed.
    const bool distances = distances_ || (tiles && grow::rangeTakesEveryLuma(params, seedLuma, state.lumaLimit()));
    try {
        const GrowState::RunStart start = state.prepareRun(variant, tiles, seeds.size());
        // Bricks place the seed as the levels do; 2D tiles place their own.
        // Tiles and bricks widen the touched box as they go; the levels
        // may touch any pixel.
        // The distances reach every pixel.
        const bool bricks = tiles && depth_ > 1;
        PixelBox touched;
        if (!tiles || distances)
            touched = state.whole();
        grow::startRun(run, start, touched);
        grow::placeSeeds(run, tiles && !bricks && !distances, seedLuma);
        if (variant.fusion == Fusion::Tiles && !tiles && depth_ > 1) {
            run.addNote("fusion=tiles: bricks grow one region in mode range or competitive, or several "
                        "in mode competitive under rule adjacent, without an iteration cap; with " +
                        std::to_string(seeds.size()) + " regions in mode " + modeName(params.mode) +
                        " the run went level by level with a grid barrier between levels");
        } else if (variant.fusion == Fusion::Tiles && !tiles) {
            // The means change between iterations: one step per level is the limit.
            run.addNote("fusion=tiles: in mode " + modeName(params.mode) + " with " + std::to_string(seeds.size()) +
                        " regions a decision depends on the means of the previous iteration, so the "
                        "run went level by level with a grid barrier between levels");
        }
        grow::pickDriver(variant, tiles, depth_ > 1, distances)->grow(run);
        grow::summarize(run);
        state.finishRun(run.result.box);
    } catch (const cl::Error& error) {
        waitForTheQueue();
        state.markFailed();
        stage::throwOpenClError("region growing", info.name, error);
    } catch (...) {
        waitForTheQueue();
        state.markFailed();
        throw;
    }
    return std::move(run.result);
}

} // namespace rgx
