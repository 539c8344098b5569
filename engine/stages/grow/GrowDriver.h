// A driver steps region growing through its iterations on the device. One
// type per driver, each in its own file beside this one:
//
//   HostSyncDriver.cpp      driver=host-sync: one launch per iteration, a read after each
//   HostBatchedDriver.cpp   driver=host-batched: batches of launches, one read per batch
//   DeviceEnqueueDriver.cpp driver=device-enqueue: the kernels enqueue the next iteration
//   FusedLevelsDriver.cpp   fusion=grid-barrier: many iterations per launch, a grid barrier between
//   TiledDriver.cpp         fusion=tiles: many levels per grid barrier, inside tiles
//   BrickDriver.cpp         fusion=tiles on a volume: rounds of 3D bricks relaxed in local memory
//   LabelLevels.cpp         their second pass for competitive runs of several regions: labels by level
//   DistanceDriver.cpp      fusion=tiles, competitive: the stamps as distances, the labels of one seed nearest
//   LabelTies.cpp           its second pass: the labels of the pixels equidistant from several seeds
//
// All work on the buffers of one Run (Run.h); RegionGrowing::run
// (stages/RegionGrowing.cpp) starts the run, places the seeds, picks the
// driver and summarises. A new driver is a new file and a line in pickDriver.
#pragma once

#include "GrowParams.h"
#include "Variant.h"
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace rgx::grow {

struct Run;

class GrowDriver {
public:
    virtual ~GrowDriver() = default;
    // From the seeds placed (iteration 0) to the end of growth: sets
    // run.result.finalSet (the maps that hold the result), adds the kernels'
    // reports, and notes where the run deviated from its variant.
    virtual void grow(Run& run) = 0;
};

std::unique_ptr<GrowDriver> makeHostSyncDriver();
std::unique_ptr<GrowDriver> makeHostBatchedDriver();
std::unique_ptr<GrowDriver> makeDeviceEnqueueDriver();
std::unique_ptr<GrowDriver> makeFusedLevelsDriver();
std::unique_ptr<GrowDriver> makeTiledDriver();
std::unique_ptr<GrowDriver> makeBrickDriver();
std::unique_ptr<GrowDriver> makeDistanceDriver();

// fusion=tiles with these parameters takes the distance driver: a
// competitive run of several regions under rule adjacent (its stamps are
// the distances from the nearest seed), up to labelLevelLocalRegions seeds.
bool stampsByDistance(const GrowParams& params, size_t regions);
// One region in mode range whose range holds every luma the image can have
// (`lumaLimit`: 255 for an 8-bit image): every pixel joins, as in mode
// competitive, so seed_distances finds its stamps. rangeMayTakeEveryLuma:
// whether the parameters alone allow it (then its program is built ahead).
bool rangeTakesEveryLuma(const GrowParams& params, const std::vector<uint32_t>& seedLuma, uint32_t lumaLimit);
bool rangeMayTakeEveryLuma(const GrowParams& params, size_t regions);
struct Run;
// After the tiles, bricks or distances found a competitive run's stamps
// (every seed a source): its labels, level by level over the voxels of
// each stamp. largestStamp: the largest, where the distances found it.
void labelLevels(Run& run, std::optional<uint32_t> largestStamp = std::nullopt);

// What seed_distances collects for labelTies (LabelTies.cpp) with the
// stamps of several regions: the stamps below `levels` (a bound of the
// largest + 1) are counted, where `collect` (several regions, and few
// enough stamps times regions for their totals), and up to tieCapacity
// ties listed.
struct TieLimits {
    bool collect = false;
    uint32_t levels = 0;
    size_t regions = 0;
    uint32_t tieCapacity = 0;
    bool anyPerLevel = false; // label_ties takes the ties however many a level has
    size_t uniqueWords() const { return collect ? size_t(levels) * regions * 3 : 0; }
};
TieLimits tieLimits(const Run& run, uint32_t levels);
// After seed_distances: the ties' labels level by level in one work-group
// (kernels/label_ties.h), or, where the ties are too many for it, every
// label by labelLevels.
void labelTies(Run& run, const TieLimits& limits);

// The driver of a variant; `tiles`: fusion=tiles grows by tiles (bricks
// where `volume`) with these parameters (tilesApply), else it runs as
// fusion=grid-barrier; `distances`: by the distance driver
// (stampsByDistance).
std::unique_ptr<GrowDriver> pickDriver(const GrowVariant& variant, bool tiles, bool volume = false,
                                       bool distances = false);

} // namespace rgx::grow
