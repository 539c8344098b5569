// rgx-cli bench's measuring: each case (image, seed count, mode) runs the
// CPU reference once for the ground truth, then the fast CPU
// implementation, cv::floodFill and NVIDIA NPP's flood fill where they
// apply, and every chosen variant,
// each warmed up and repeated; every result is checked against the
// reference once, and the ratios that say what the figures mean are
// computed here. app/Bench.cpp prints the cases (tables, JSON, CSV).
#pragma once

#include "Floors.h"
#include "GrowParams.h"
#include "Image.h"
#include "Measure.h"
#include "Pipeline.h"
#include "Result.h"
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

class FloodFillBaseline;
class NppBaseline;

// How each implementation is run.
struct CaseSettings {
    int repeat = 5;
    int warmup = 1;
    int referenceRepeat = 1;
    int cpuThreads = 0;
    GrowParams grow;   // lower, upper, tolerance, connectivity; the mode is the case's
};

// The comparison with the reference: "ok", "DIFF N" (pixels whose label or
// stamp differ), or "DIFF sums" (same maps, different region sums).
struct Check {
    bool done = false;
    uint64_t differingPixels = 0;
    bool sumsDiffer = false;

    bool ok() const { return done && differingPixels == 0 && !sumsDiffer; }
    std::string text() const;
};

Check checkAgainst(const GrowResult& reference, const GrowResult& actual);

enum class Kind { Reference, FastCpu, FloodFill, Npp, Variant };

// One implementation measured on one case.
struct Measurement {
    Kind kind = Kind::Variant;
    std::string name;   // "cpu-reference", "fast-cpu", "opencv-floodfill", "npp-floodfill" or the variant text
    std::string label;  // short form for the table
    GrowVariant variant;
    Spread hostMs;                  // variants: resident clicks of one session
    std::optional<Spread> firstMs;  // variants: the first click of a new session, its upload included
    std::optional<Spread> deviceMs; // device runs only (NPP: by CUDA events)
    std::optional<Spread> idleMs;
    std::vector<KernelTotal> kernels; // variants: where the last resident click's device time went
    uint32_t iterations = 0;
    uint64_t deviceBytes = 0;
    Check check;
    bool expectedEqual = true; // false for a wrong-on-purpose variant, and for NPP (its errors are not RGX's)
    std::optional<uint64_t> reportedPixels; // NPP: the region's size by its own count
    std::string skipped;       // why it did not run or finish, empty when it ran
    bool failed = false;       // skipped because it failed (OpenCL error, time limit), not too large

    // Filled once the case is complete.
    std::optional<double> speedupOverHostSync;
    std::optional<double> perIterationOverFloor;
    std::optional<double> perLevelOverBarrier; // fused rows: kernel time per level over the grid barrier floor
    std::optional<double> speedupOverReference;
    std::optional<double> speedupOverFastCpu;
    std::optional<double> speedupOverFloodFill;
    std::optional<double> speedupOverNpp; // only where NPP's region equals the reference's
};

struct BenchCase {
    std::string image;
    int width = 0;
    int height = 0;
    int seedCount = 0;
    Mode mode = Mode::Competitive;
    uint32_t iterations = 0;  // of the reference
    uint64_t classified = 0;  // pixels the reference classified
    std::vector<Measurement> rows; // baselines first, then the variants
};

// Host time per iteration (us) and pixels of the image per second (millions).
double perIterationUs(const Measurement& row);
double megapixelsPerSecond(const Measurement& row, const BenchCase& benchCase);
// The variant's short text, marked where it is wrong on purpose.
std::string variantLabel(const GrowVariant& variant);
// Whether a row says the bench failed: a result that should equal the
// reference did not, or a correct variant failed to run.
bool rowFailed(const Measurement& row);

// Whether the device holds a run of this image with the chosen variants
// (the buffers regionGrowingDeviceBytes counts); the reason when not.
std::optional<std::string> tooLargeForDevice(const LumaImage& image, const std::string& name, size_t seedCount,
                                             const std::vector<GrowVariant>& variants, const DeviceInfo& device);

class CaseBench {
public:
    CaseBench(const CaseSettings& settings, ComputeDevice& device, std::vector<GrowVariant> variants,
              const LaunchFloor& floor, const GridBarrierFloor& barrierFloor, const FloodFillBaseline& floodFill,
              const NppBaseline* npp = nullptr);

    // Every implementation on one case (`name`: the image's, for the record).
    BenchCase runCase(const std::string& name, const LumaImage& image, const std::vector<Seed>& seeds, Mode mode);

private:
    Measurement runNpp(const LumaImage& image, Seed seed, const PipelineParams& params, const GrowResult& truth);
    Measurement runVariant(const std::shared_ptr<const LumaImage>& image, const std::vector<Seed>& seeds,
                           const PipelineParams& params, const GrowVariant& variant, const GrowResult& truth);
    void computeRatios(BenchCase& result) const;

    const CaseSettings settings_;
    ComputeDevice& device_;
    const std::vector<GrowVariant> variants_;
    const LaunchFloor floor_;
    const GridBarrierFloor barrierFloor_;
    const FloodFillBaseline& floodFill_;
    const NppBaseline* npp_;
};

} // namespace rgx::bench
