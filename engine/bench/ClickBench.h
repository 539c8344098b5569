// rgx-cli bench --interactive: a scripted sequence of clicks on one image in
// one resident session (add a seed, add a second, move one, change the
// range, change the mode, remove one, the first click again), each timed
// from the request to the result's maps in host memory.
#pragma once

#include "Measure.h"
#include "Pipeline.h"
#include "Seeds.h"
#include "Variant.h"
#include "stages/GrowState.h"
#include <memory>
#include <string>
#include <vector>

namespace rgx {
class ComputeDevice;
struct LumaImage;
}

namespace rgx::bench {

struct ClickStep {
    std::string step;
    std::vector<Seed> seeds;
    PipelineParams params;
};

// The script on a width x height image; `range` is the first click's
// (mode range, lower = upper).
std::vector<ClickStep> clickScript(int width, int height, uint32_t range);

struct ClickMeasurement {
    std::string step;
    bool resident = true;    // false for the first click: a new session, the image (or a window) uploaded
    Spread hostMs;           // request to maps in host memory
    Spread deviceMs;         // kernel time
    uint32_t iterations = 0;
    uint64_t classified = 0; // pixels
    uint64_t boxPixels = 0;  // the box read back
    uint64_t uploadBytes = 0; // the first click: the luma
    double uploadMs = 0;
    std::string uploadWindow; // "W x H" where only a window's luma was uploaded
    std::string check = "-"; // "ok" or "DIFF N" against the CPU reference, "-" when not verified
    std::string note;
    std::vector<TimingRecord> commands; // the last repeat's, in the order they were enqueued
};

struct ClickRun {
    std::string variant;
    std::vector<ClickMeasurement> clicks;
    Footprint footprint;     // after the last click
    uint64_t footprintBound = 0; // regionGrowingDeviceBytes for the most regions the script uses
};

// Runs the script: the first click `repeat` times on new sessions (its
// median), every later one `repeat` times on the resident session. With
// `verify`, each step's result is compared with the CPU reference.
ClickRun runClickScript(ComputeDevice& device, const std::shared_ptr<const LumaImage>& image,
                        const std::vector<ClickStep>& script, const GrowVariant& variant, int repeat, bool verify);

} // namespace rgx::bench
