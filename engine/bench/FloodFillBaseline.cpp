// Loading the cv::floodFill module and timing its fills.
#include "FloodFillBaseline.h"
#include "InstallPaths.h"

namespace rgx::bench {

FloodFillBaseline::FloodFillBaseline() : library_(rgx::modulePath(QStringLiteral("rgx_floodfill")))
{
    if (!library_.load()) {
        whyNot_ = "the rgx_floodfill module did not load (" + library_.errorString().toStdString() +
                  "); it is built where OpenCV (core, imgproc) was found at configure time";
        return;
    }
    prepare_ = reinterpret_cast<Prepare>(library_.resolve("rgxFloodFillPrepare"));
    run_ = reinterpret_cast<Run>(library_.resolve("rgxFloodFillRun"));
    release_ = reinterpret_cast<Release>(library_.resolve("rgxFloodFillRelease"));
    if (!prepare_ || !run_ || !release_)
        whyNot_ = "the rgx_floodfill module lacks its functions: rebuild rgx-cli";
}

std::vector<double> FloodFillBaseline::time(const LumaImage& image, Seed seed, const GrowParams& params, int runs,
                                            std::vector<uint8_t>& filled) const
{
    void* prepared = prepare_(image.luma.data(), image.width, image.height);
    filled.assign(image.luma.size(), 0);
    std::vector<uint8_t> scratch(image.luma.size());
    std::vector<double> milliseconds;
    for (int r = 0; r < runs; ++r)
        milliseconds.push_back(run_(prepared, seed.x, seed.y, params.lower, params.upper, params.connectivity,
                                    r == 0 ? filled.data() : scratch.data()));
    release_(prepared);
    return milliseconds;
}

} // namespace rgx::bench
