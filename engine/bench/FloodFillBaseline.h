// cv::floodFill as a baseline of the bench, from the rgx_floodfill module
// (app/FloodFillModule.cpp, built beside rgx-cli where OpenCV was found).
// Load it only once the OpenCL device is open: FloodFillModule.cpp says why.
#pragma once

#include "GrowParams.h"
#include "Image.h"
#include "Seeds.h"
#include <QLibrary>
#include <cstdint>
#include <string>
#include <vector>

namespace rgx::bench {

class FloodFillBaseline {
public:
    // Loads the module; needs a QCoreApplication (the module's path).
    FloodFillBaseline();

    bool available() const { return whyNot_.empty(); }
    // Why not, in words a user can act on.
    const std::string& whyNot() const { return whyNot_; }

    // The fill of one image from `seed` (mode range), `runs` times: the
    // milliseconds of each run, and in `filled` the pixels the first reached.
    std::vector<double> time(const LumaImage& image, Seed seed, const GrowParams& params, int runs,
                             std::vector<uint8_t>& filled) const;

private:
    using Prepare = void* (*)(const uint16_t*, int, int);
    using Run = double (*)(void*, int, int, uint32_t, uint32_t, int, uint8_t*);
    using Release = void (*)(void*);

    QLibrary library_;
    std::string whyNot_;
    Prepare prepare_ = nullptr;
    Run run_ = nullptr;
    Release release_ = nullptr;
};

} // namespace rgx::bench
