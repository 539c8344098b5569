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
//   DistanceDriver.cpp      fusion=tiles, competitive, several regions: the stamps as distances, then labels
//
// All work on the buffers of one Run (Run.h); RegionGrowing::run
// (stages/RegionGrowing.cpp) starts the run, places the seeds, picks the
// driver and summarises. A new driver is a new file and a line in pickDriver.
#pragma once

#include "GrowParams.h"
#include "Variant.h"
#include <memory>

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
struct Run;
// After the tiles, bricks or distances found a competitive run's stamps
// (every seed a source): its labels, level by level over the voxels of
// each stamp.
void labelLevels(Run& run);

// The driver of a variant; `tiles`: fusion=tiles grows by tiles (bricks
// where `volume`) with these parameters (tilesApply), else it runs as
// fusion=grid-barrier; `distances`: by the distance driver
// (stampsByDistance).
std::unique_ptr<GrowDriver> pickDriver(const GrowVariant& variant, bool tiles, bool volume = false,
                                       bool distances = false);

} // namespace rgx::grow
