// rgx-cli segment --check-races: the same pipeline and variant run under
// Oclgrind's race and divergence detectors, on the image cut down to a
// size the simulator finishes quickly, each race mapped back to the pixels
// whose memory it touches.
#pragma once

#include "Image.h"
#include "Result.h"
#include "Seeds.h"
#include <QString>
#include <array>
#include <atomic>
#include <string>
#include <vector>

namespace rgx {

// One side of a race as Oclgrind names it: a work-item, or a work-group as
// a whole (its async_work_group_copy).
struct RaceSide {
    bool workItem = false;
    std::array<int, 3> global{{-1, -1, -1}}; // work-items only
    std::array<int, 3> local{{-1, -1, -1}};  // work-items only
    std::array<int, 3> group{{-1, -1, -1}};  // the work-group (of a local race: the work-item's)
    std::string location;                    // "file:line"; empty where unknown (an async copy)
    int column = 0;
    std::string text() const; // "work-item (19,6,0) (local (3,6,0), group (1,0,0))", "work-group (1,0,0)"
};

// A pixel a race touches, in image coordinates, and the two sides of the
// first report of it.
struct RacePlace {
    int x = 0;
    int y = 0;
    RaceSide first;
    RaceSide second;
};

struct RaceReport {
    std::string kernel;
    std::string location; // "file:line"
    std::string kind;     // e.g. "read-write data race (local memory)"
    // Where the memory is a pixel of a per-pixel global map or an element of
    // a local tile: its pixels, by row then column; empty where it is not
    // (counters, lists, scratch) or outside the image.
    std::vector<RacePlace> places;
    RaceSide first;  // the two sides of the first report
    RaceSide second;
};

// The part of the image (at most side x side pixels, around the first
// seed) that is checked, and the seeds inside it, moved with it.
struct RaceCheckInput {
    LumaImage image;
    std::vector<Seed> seeds;
    int left = 0;
    int top = 0;
};
RaceCheckInput cutDownForRaceCheck(const LumaImage& image, const std::vector<Seed>& seeds, int side = 32);

// Where the checked part lies: pixel (x, y) of the part is (left + x,
// top + y) of the image. width 0: no race is mapped to pixels.
struct RacePlacement {
    int left = 0;
    int top = 0;
    int width = 0;
    int height = 0;
};

// Parses Oclgrind's diagnostics (and the `race-check build:` lines the
// checked run prints); reports of the same kernel, source line and kind
// are merged, their pixels collected. Memory is mapped to pixels through
// the source token at the reported line and column (kernels/*.cl as
// embedded): a per-pixel global map (stamps, labels, luma, filtered) by
// offset / element size; grow_sweep's tile (NEIGHBOUR_STAMP, NEIGHBOUR_LABEL)
// through its work-group's tile origin (group * RGX_TILE_W/H - 1, pitch
// RGX_TILE_W + 2); box_mean_async's corner_row and mean_row element i of
// group (g, y) as pixel (g * RGX_SEGMENT + i, y), the pixel whose window's
// left corner it holds.
std::vector<RaceReport> parseOclgrindReport(const std::string& output, const RacePlacement& placement = {});

// The lines the checked run (rgx-cli segment under Oclgrind, with
// raceCheckChildVariable set) prints: each kernel's build options, which
// fix the tile and segment sizes the mapping needs.
inline constexpr const char* raceCheckChildVariable = "RGX_RACE_CHECK_CHILD";
std::string raceCheckBuildLines(const std::vector<KernelReport>& kernels);

// Runs `oclgrind --data-races <rgx-cli> segment ...` with the given segment
// options (everything but the image, seeds and device). cliPath: the
// rgx-cli executable (rgx-cli passes itself; the GUI the one beside it).
// Oclgrind's own output is written to the file RGX_RACE_LOG names, where
// set. uniformWrites: Oclgrind's --uniform-writes, which reports
// write-write races of the same value too (left out by default). Throws
// OpenClError when Oclgrind is missing or fails, or when `stop` (where
// given) becomes true before it finished (Oclgrind is killed then).
std::vector<RaceReport> checkRaces(const RaceCheckInput& input, const std::vector<std::string>& segmentOptions,
                                   const QString& cliPath, bool uniformWrites = false,
                                   const std::atomic<bool>* stop = nullptr);

} // namespace rgx
