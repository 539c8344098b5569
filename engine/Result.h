// What a run returns: one immutable value shared by pointer to const.
#pragma once

#include "Timing.h"
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rgx {

constexpr uint32_t unclassifiedStamp = 0xFFFFFFFFu;

struct RegionStats {
    uint64_t count = 0;
    uint64_t sum = 0;  // of luma
    // M_k of SPEC.md: floor(sum * 256 / count).
    uint64_t fixedMean() const { return count ? (sum * 256u) / count : 0; }
    double mean() const { return count ? double(sum) / double(count) : 0.0; }
};

// Compiler facts of one kernel on one device.
struct KernelReport {
    std::string program;   // kernel file, e.g. "region_growing.cl"
    std::string kernel;
    std::string options;   // the build options (variant defines)
    size_t workGroupSizeLimit = 0;
    size_t preferredWorkGroupMultiple = 0;
    uint64_t localMemoryBytes = 0;
    uint64_t privateMemoryBytes = 0;
    int registers = -1;    // NVIDIA -cl-nv-verbose only; -1 where unknown
    int spillStores = -1;
    int spillLoads = -1;
};

// The label and stamp maps of a run where it classified anything: the box
// x0, y0, boxWidth x boxHeight around the classified pixels (in each of
// boxDepth slices from z0 on, for a volume's box), row by row, in
// the narrowest types that hold the values (labels in 1 byte for at most 255
// regions, in none for the one region of a correct run, whose label is 1
// wherever a pixel has a stamp; stamps in 2 bytes while every stamp is below
// 0xFFFF, which then stands for "never"; or "narrow", in 1 byte over a base
// per run of narrowRun samples of a row: kernels/narrow_stamps.h).
// Outside the box every pixel is unclassified. The
// memory is shared and never changes (a resident session recycles it only
// once no BoxMaps refers to it).
struct BoxMaps {
    static constexpr int narrowRun = 64;               // RGX_NARROW_RUN of the kernels (sessionKernels)
    static constexpr uint32_t narrowWide = 0x80000000u; // RGX_NARROW_WIDE, likewise

    int width = 0;  // the image
    int height = 0; // its rows; a volume's: the rows of all its slices, one slice below the other
    int depth = 1;  // slices of a volume (height / depth rows each)
    int x0 = 0;
    int y0 = 0;        // a row of the image; in a volume whose box has slices (z0, boxDepth), a row of a slice
    int z0 = 0;        // the box's first slice (an image: 0)
    int boxWidth = 0;  // samples; 0: nothing classified
    int boxHeight = 0; // rows (of each slice, where the box has slices)
    int boxDepth = 1;  // slices: the box is boxHeight rows of each slice from z0 on, slice after slice
    int step = 1;      // the samples are every step-th pixel of every step-th row (1: all)
    int labelBytes = 2; // 0: one region, the labels follow from the stamps
    int stampBytes = 4; // 1: narrow (stamps a byte each, with stampBases and wideStamps)
    const uint8_t* labels = nullptr;
    const uint8_t* stamps = nullptr;
    // Narrow stamps: each run's base (runsPerRow() a row), and the wide
    // runs' stamps, narrowRun each (a wide run's base: narrowWide | its slot).
    const uint32_t* stampBases = nullptr;
    const uint32_t* wideStamps = nullptr;
    std::shared_ptr<const void> storage; // keeps labels and stamps alive

    // The sample at or before pixel (x, y).
    uint16_t label(int x, int y) const;
    uint32_t stamp(int x, int y) const;
    // Full maps (label 0, stamp 0xFFFFFFFF outside the box) of the image;
    // step 1 only (InvalidArgument otherwise).
    void widen(std::vector<uint16_t>& labels, std::vector<uint32_t>& stamps) const;
    // Host bytes the maps take (narrow stamps: with their bases, without the wide runs).
    uint64_t bytes() const
    {
        const uint64_t bases = stampBytes == 1 ? uint64_t(boxHeight) * uint64_t(boxDepth) * runsPerRow() * 4 : 0;
        return samples() * uint64_t(labelBytes + stampBytes) + bases;
    }
    int runsPerRow() const { return (boxWidth + narrowRun - 1) / narrowRun; }
    // The stamp of narrow maps' sample `column` of box row `row` (slices stacked).
    uint32_t narrowStamp(size_t row, size_t column) const
    {
        const uint32_t base = stampBases[row * size_t(runsPerRow()) + column / narrowRun];
        if (base & narrowWide)
            return wideStamps[size_t(base & ~narrowWide) * narrowRun + column % narrowRun];
        const uint8_t value = stamps[row * size_t(boxWidth) + column];
        return value == 0xFF ? unclassifiedStamp : base + value;
    }
    uint64_t samples() const { return uint64_t(boxWidth) * uint64_t(boxHeight) * uint64_t(boxDepth); }
    int sliceHeight() const { return height / (depth > 0 ? depth : 1); }

private:
    // Index of the sample at or before pixel (x, y); -1 outside the box.
    int64_t sampleAt(int x, int y) const;
};

// The part of the image region growing ran on: a session's first run may
// grow in a window around the seeds (engine/stages/GrowWindow.h), whose
// pixel (0, 0) its kernels' work-groups start from. width 0: the whole image.
struct GrowArea {
    int x0 = 0;
    int y0 = 0;
    int width = 0;
    int height = 0;
};

struct GrowResult {
    int width = 0;
    int height = 0;
    int depth = 1; // slices of a volume (SPEC "Volumes (3D)"); maps hold width * height * depth
    // The maps, full (labels and stamps, one per pixel) or, for a click of a
    // resident session that the explorer shows, as the box maps alone (then
    // labels and stamps are empty): mapsView() reads either, withFullMaps()
    // makes the full ones where a consumer needs them (exports, comparisons).
    std::vector<uint16_t> labels;  // 0 = unclassified, 1..K region
    std::vector<uint32_t> stamps;  // iteration of classification, 0xFFFFFFFF never
    BoxMaps box;                   // the maps where labels and stamps are empty
    std::vector<RegionStats> regions; // index k-1 for region k
    uint32_t iterations = 0;       // largest stamp other than 0xFFFFFFFF
    bool stoppedAtCap = false;

    // Filled by the pipeline (empty for a bare region-growing call).
    // The prefilter's output (null: no prefilter), shared with the session that made it.
    std::shared_ptr<const std::vector<uint16_t>> filteredLuma;
    std::vector<uint16_t> labelsBeforePostfilter;   // empty: no postfilter
    std::vector<uint32_t> stampsBeforePostfilter;

    std::string device;            // device name, or "CPU reference"
    std::string variant;           // variant text, or "reference"
    std::vector<TimingRecord> timings;
    std::vector<KernelReport> kernels;
    double hostMilliseconds = 0;   // upload to result, measured on the host
    std::string note;              // how the run deviated from its variant (e.g. a fallback), or empty
    GrowArea grownIn;              // where region growing ran (the work-group map's origin)

    // True where labels and stamps hold every pixel (always, but for box results).
    bool hasFullMaps() const
    {
        return labels.size() == size_t(width) * size_t(height) * size_t(depth) && !labels.empty();
    }
};

using GrowResultPtr = std::shared_ptr<const GrowResult>;

// The maps of `result` as box maps, whichever way it holds them: its box, or
// the whole image over its full maps. The caller keeps `result` alive.
BoxMaps mapsView(const GrowResult& result);
// `result` itself where it has full maps, else a copy with them (the one
// place where a box result grows to the image's size).
GrowResultPtr withFullMaps(const GrowResultPtr& result);
// The same for a result the caller holds: `result` itself where it has full
// maps (or sampled ones, which cannot widen), else `storage` filled with its
// size, regions and full maps.
const GrowResult& fullMapsOf(const GrowResult& result, GrowResult& storage);

// What a click of a resident session returns (engine/DeviceSession.h): the
// region-growing result with its maps as a BoxMaps, without a postfilter.
struct ClickResult {
    BoxMaps maps;
    std::vector<RegionStats> regions;
    uint32_t iterations = 0;
    bool stoppedAtCap = false;
    std::shared_ptr<const std::vector<uint16_t>> filteredLuma; // prefilter output (null: no prefilter)
    std::string device;
    std::string variant;
    std::vector<TimingRecord> timings;
    std::vector<KernelReport> kernels;
    double hostMilliseconds = 0; // first command to maps in host memory
    std::string note;
    GrowArea grownIn;

    // The same result with full maps.
    GrowResult toGrowResult() const;
    // The same result with the box maps as they are (nothing of image size made).
    GrowResult toBoxResult() const;
};

using ClickResultPtr = std::shared_ptr<const ClickResult>;

// How a pixel differs (ResultDiff::mask): its stamp alone, or its label.
enum : uint8_t { noDifference = 0, stampDifference = 1, labelDifference = 2 };

// Whether a differing pixel differs in the state of the runs at iteration k
// (every pixel with stamp <= k in its region, SPEC.md's frame k): with the
// same label between its two stamps, [earlier, later); with another label
// from the earlier stamp on (unclassified is label 0 at stamp 0xFFFFFFFF).
inline bool differsAt(uint8_t how, uint32_t stampA, uint32_t stampB, uint32_t k)
{
    const uint32_t earlier = stampA < stampB ? stampA : stampB;
    const uint32_t later = stampA < stampB ? stampB : stampA;
    return how != noDifference && earlier <= k && (how == labelDifference || k < later);
}

// Number of pixels whose label or stamp differ, and the first such iteration
// (the smallest stamp among differing pixels in either map), -1 when equal.
struct ResultDiff {
    uint64_t differingPixels = 0;
    int64_t firstDifferingIteration = -1;
    int64_t firstDifferingPixel = -1;
    std::vector<uint8_t> mask; // stampDifference or labelDifference where a pixel differs (same size as the image)
    // Pixels that differ in the state at iteration k (differsAt), for k = 0
    // up to the later of the two runs' last iterations (where only label
    // differences remain). A stamp past both counts (a wrong run's) is taken
    // as never reached. Empty when the maps' sizes differ.
    std::vector<uint64_t> perIteration;
};
// One pass over the pixels: each difference adds +1 and -1 at the ends of its
// interval in a difference array over the iterations (O(pixels + iterations)).
ResultDiff compareResults(const GrowResult& expected, const GrowResult& actual);

// Region counts and sums of the pixels still classified, on the luma the
// regions grew on: after the postfilter, identically for reference and device.
void recountRegions(GrowResult& result, const std::vector<uint16_t>& luma);

} // namespace rgx
