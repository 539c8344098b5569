// rgx-cli bench --volume (issue 27): region growing in a 16-bit phantom
// volume, a resident session's clicks timed per variant beside an
// ITK-style CPU flood fill and the CPU reference, every result checked.
// app/BenchVolume.cpp prints the cases and writes them as JSON.
#pragma once

#include "CaseBench.h"
#include "Image.h"
#include "Measure.h"
#include "PipelineParams.h"
#include "Seeds.h"
#include "Variant.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rgx {
class ComputeDevice;
struct DeviceInfo;
}

namespace rgx::bench {

// One "organ" of the phantom: a ball of voxels within `radius` of its centre.
struct PhantomSphere {
    int x = 0, y = 0, z = 0;
    double radius = 0;
    uint16_t level = 0;  // its luma before the noise
    uint64_t voxels = 0; // voxels inside it
};

// A size^3 16-bit volume: background `background` +-`noise`, and a few dozen
// balls that neither touch one another nor the border, each of its own
// level (at least 150 from any other and 300 from the background) +-`noise`.
// The same for the same size and seed on every machine.
struct Phantom {
    LumaImage volume;
    std::vector<PhantomSphere> spheres;
    uint16_t background = 1000;
    int noise = 10; // every voxel: its level plus a uniform -noise..+noise
};

Phantom makePhantom(int size, uint32_t seed);

// ITK's ConnectedThresholdImageFilter written plainly: a breadth-first fill
// from the seed over the voxels within [S - lower, S + upper], one thread.
// Its map, reused between fills, holds each reached voxel's distance in
// steps from the seed (SPEC "Volumes (3D)": the stamps of mode range with
// that seed), unclassifiedStamp elsewhere.
struct FloodFill {
    std::vector<uint32_t> distances;
    uint64_t voxels = 0;    // reached, the seed included
    uint32_t levels = 0;    // the largest distance
};

void floodFillVolume(const LumaImage& volume, Seed seed, uint32_t lower, uint32_t upper, int connectivity,
                     FloodFill& fill);

// A region-growing result against a fill: voxels whose label (1 inside the
// fill, 0 outside) or stamp (the distance) differ; "DIFF sums" where the
// region's count or luma sum is not the fill's.
Check checkAgainstFill(const LumaImage& volume, const FloodFill& fill, const GrowResult& actual);

// One case of the bench on one phantom.
struct VolumeCase {
    std::string name;        // "whole", "background", "small", "64 seeds"
    std::string description; // where the seeds are and what the region is
    std::vector<Seed> seeds;
    PipelineParams params;
    std::optional<double> targetMs; // issue 27's bound on a resident click at 512^3
    bool oneSeedRange() const { return seeds.size() == 1 && params.grow.mode == Mode::Range; }
};

// The four cases: "whole" (the centre, a range that takes every voxel),
// "background" (a background voxel near the centre, a range over the
// noise: most of the volume, the balls left as holes), "small" (the centre
// of the largest ball under 1 M voxels and under a twentieth of the
// volume), "64 seeds" (a 4x4x4 grid, mode competitive).
std::vector<VolumeCase> volumeCases(const Phantom& phantom, int connectivity);

enum class CpuReference { Auto, Always, Never };
CpuReference parseCpuReference(const std::string& text); // throws InputError

struct VolumeSettings {
    int repeats = 5; // resident clicks per variant, and flood fills (at most 3, fewer after 2 s)
    CpuReference cpuReference = CpuReference::Auto;
};

// A variant on one case: a first click on a new session, then `repeats`
// resident clicks.
struct VolumeVariantRun {
    GrowVariant variant;
    std::string label;
    bool expectedEqual = true;       // false for a wrong-on-purpose variant
    double firstClickMs = 0;         // a new session: the volume uploaded, the buffers made
    Spread residentMs;               // request to maps in host memory
    Spread kernelMs;                 // the profiling events' kernel time of those clicks
    std::vector<KernelTotal> kernels; // the last resident click's time per kernel and transfer, largest first
    std::vector<TimingRecord> commands; // the last resident click's commands
    uint32_t iterations = 0;
    uint64_t classified = 0;         // voxels
    Check check;                     // the first click and the last resident one, the worse of the two
    std::string checkedAgainst;      // "flood fill", "CPU reference" or "" (nothing to check against)
    std::string note;                // how the run deviated from its variant (the engine's note)
    std::string skipped;             // why it did not run; empty when it ran
    bool failed = false;             // skipped because it failed, not because it does not fit
    std::optional<double> speedupOverFloodFill;
    std::optional<double> speedupOverReference;
};

struct VolumeCaseResult {
    std::string phantom; // "phantom-128"
    int size = 0;
    VolumeCase volumeCase;
    uint64_t classified = 0;  // by the flood fill or the reference
    uint32_t iterations = 0;
    std::optional<Spread> floodFillMs; // range with one seed only
    uint64_t floodFillVoxels = 0;
    std::optional<double> referenceMs;
    std::string referenceSkipped;      // why the CPU reference did not run
    std::optional<Check> referenceCheck; // the reference against the fill, where both ran
    std::vector<VolumeVariantRun> variants;

    // The fastest resident click among the variants whose result was right
    // (or not checkable); null when none.
    const VolumeVariantRun* best() const;
    // A result that should be right was not, or a correct variant failed.
    bool failed() const;
};

// Whether the device holds a run of `voxels` voxels with `regions` regions
// in this variant; the reason when not.
std::optional<std::string> volumeTooLarge(uint64_t voxels, size_t regions, const GrowVariant& variant,
                                          const DeviceInfo& device);

class VolumeBench {
public:
    VolumeBench(const VolumeSettings& settings, ComputeDevice& device, std::vector<GrowVariant> variants);

    VolumeCaseResult runCase(const std::string& phantomName, const std::shared_ptr<const LumaImage>& volume,
                             const VolumeCase& volumeCase);

private:
    VolumeVariantRun runVariant(const std::shared_ptr<const LumaImage>& volume, const VolumeCase& volumeCase,
                                const GrowVariant& variant, const FloodFill* fill, const GrowResult* reference);

    const VolumeSettings settings_;
    ComputeDevice& device_;
    const std::vector<GrowVariant> variants_;
};

} // namespace rgx::bench
