// The window of a session's first run: where it lies, what it holds, and
// whether its result is the image's.
#include "GrowWindow.h"

#include <algorithm>

namespace rgx {

namespace {

// Whether some seed's range in mode range holds every luma of the image's depth.
bool aRangeHoldsEverything(const LumaImage& image, const std::vector<Seed>& seeds, const GrowParams& params)
{
    if (params.mode != Mode::Range)
        return false;
    const int64_t largest = (int64_t(1) << image.bitDepth) - 1;
    for (const Seed& seed : seeds) {
        const int64_t value = image.at(seed.x, seed.y);
        if (value - int64_t(params.lower) <= 0 && value + int64_t(params.upper) >= largest)
            return true;
    }
    return false;
}

} // namespace

std::optional<GrowWindow> firstRunWindow(const LumaImage& image, const std::vector<Seed>& seeds,
                                         const GrowParams& params, const GrowVariant& variant, int alignment)
{
    if (params.mode == Mode::Competitive || variant.wrongOnPurpose() || seeds.empty() ||
        aRangeHoldsEverything(image, seeds, params))
        return std::nullopt;
    const int width = image.width, height = image.height;
    int x0 = width, y0 = height, x1 = -1, y1 = -1;
    for (const Seed& seed : seeds) {
        x0 = std::min(x0, seed.x);
        y0 = std::min(y0, seed.y);
        x1 = std::max(x1, seed.x);
        y1 = std::max(y1, seed.y);
    }
    alignment = std::max(alignment, 1);
    GrowWindow window;
    window.x0 = std::max(x0 - growWindowMargin, 0) / alignment * alignment;
    window.y0 = std::max(y0 - growWindowMargin, 0) / alignment * alignment;
    window.width = std::min(x1 + growWindowMargin, width) - window.x0;
    window.height = std::min(y1 + growWindowMargin, height) - window.y0;
    const uint64_t area = uint64_t(window.width) * uint64_t(window.height);
    if (area * 3 > uint64_t(width) * uint64_t(height))
        return std::nullopt;
    return window;
}

std::vector<Seed> windowSeeds(const std::vector<Seed>& seeds, const GrowWindow& window)
{
    std::vector<Seed> moved;
    moved.reserve(seeds.size());
    for (const Seed& seed : seeds)
        moved.push_back({seed.x - window.x0, seed.y - window.y0});
    return moved;
}

bool reachesInnerEdge(const PixelBox& box, const GrowWindow& window, int width, int height)
{
    if (box.empty())
        return false;
    const bool left = window.x0 > 0 && box.x0 == 0;
    const bool top = window.y0 > 0 && box.y0 == 0;
    const bool right = window.x0 + window.width < width && box.x1 == uint32_t(window.width - 1);
    const bool bottom = window.y0 + window.height < height && box.y1 == uint32_t(window.height - 1);
    return left || top || right || bottom;
}

BoxMaps inImage(BoxMaps maps, const GrowWindow& window, int width, int height)
{
    maps.x0 += window.x0;
    maps.y0 += window.y0;
    maps.width = width;
    maps.height = height;
    return maps;
}

} // namespace rgx
