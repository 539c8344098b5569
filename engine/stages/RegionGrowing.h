// The region-growing stage on an OpenCL device, on the buffers of a
// GrowState: its checks, its programs and its runs. How a run steps through
// its iterations is its driver's business, one type per driver in
// stages/grow/ (GrowDriver.h lists them). The maps stay on the device; the
// run returns where the classified pixels are and the region statistics.
#pragma once

#include "GrowParams.h"
#include "GrowState.h"
#include "RunControl.h"
#include "Result.h"
#include "Seeds.h"
#include "Variant.h"
#include <cstdint>
#include <string>
#include <vector>

namespace rgx {

class ComputeDevice;
class TimingLog;

// fusion=tiles where a label depends on the neighbours' labels (mode range,
// rule adjacent, several regions): the levels a window of rounds may add
// (kernels/grow_tiles.cl says why there are windows). A window costs the
// host one more read of the counters; a loop of wrong labels, at most this
// many rounds of the few tiles it crosses.
constexpr uint32_t tileLevelWindow = 256;

struct GrowRun {
    int finalSet = 0;            // GrowState::labels/stamps[finalSet] hold the result
    PixelBox box;                // the classified pixels
    uint32_t iterations = 0;     // the largest stamp
    bool stoppedAtCap = false;
    std::vector<RegionStats> regions;
    std::string note;            // how the run deviated from its variant, or empty
    std::vector<KernelReport> kernels;
};

// The stage, made for one request: the pipeline makes it (which checks the
// request and builds its programs), then runs it.
class RegionGrowing {
public:
    // Everything about the inputs a user can get wrong is checked before
    // anything runs: throws InputError (seeds, connectivity, a variant the
    // device cannot run, an image too large for the device). Then the
    // programs a run will use are built (or loaded), so that its time does
    // not include them: throws OpenClError with the build log.
    // A volume (SPEC "Volumes (3D)") has depth > 1 slices of height rows;
    // its GrowState stacks them (height * depth rows of slice height `height`).
    RegionGrowing(ComputeDevice& device, int width, int height, std::vector<Seed> seeds, const GrowParams& params,
                  const GrowVariant& variant, int depth = 1);

    // One run on the luma the state holds (`seedLuma`: the seeds' values in
    // it, in seed order, as seedLumaOf gives them), by the variant's driver
    // (stages/grow/).
    // Throws OpenClError, RunInterrupted (cancel, timeout). Appends its
    // commands to `timings`.
    GrowRun run(GrowState& state, const std::vector<uint32_t>& seedLuma, const RunControl& control,
                TimingLog& timings) const;

private:
    ComputeDevice& device_;
    std::vector<Seed> seeds_;
    GrowParams params_;
    GrowVariant variant_;
    bool tiles_ = false; // fusion=tiles grows by tiles (tilesApply)
    bool distances_ = false; // ... or by the distances from the seeds (grow::stampsByDistance)
    int depth_ = 1;
};

// Whether fusion=tiles grows by tiles for these parameters: when no
// decision looks at a mean (mode range, or one region in mode competitive),
// on an image (the tiles are 2D). Otherwise it runs level by level with a
// grid barrier between levels.
bool tilesApply(const GrowParams& params, size_t regions, int depth = 1);

// The pixels a competitive run keeps one slot of its ties' list for
// (grow/LabelTies.cpp): 32 on an image; on a volume 128 on a GPU and 16 on a
// CPU runtime, where label_ties takes every tie that fits the list.
uint64_t tieSlotPixels(bool volume, const DeviceInfo& info);

// Bytes of device memory a run needs (all buffers together); a volume's
// ties' list a slot for `volumeTieSlot` voxels (tieSlotPixels; 0 for an image).
uint64_t regionGrowingDeviceBytes(uint64_t pixelCount, uint64_t regionCount, const GrowVariant& variant,
                                  uint64_t volumeTieSlot = 0);

} // namespace rgx
