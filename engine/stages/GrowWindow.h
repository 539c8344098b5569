// The first run of a resident session, before the image is on the device,
// grows in a window around the seeds: only the window's luma is uploaded
// (2 MiB instead of the 32 MiB of a 4096 x 4096 image), and the whole image
// follows on another thread once the result is in (DeviceSession).
//
// The window's result is the image's, bit for bit, when no classified pixel
// lies on an edge of the window that is not an edge of the image: SPEC.md's
// iterations read only the classified pixels' neighbours, and those all lie
// inside the window then. A run that reaches such an edge is run again on
// the whole image.
#pragma once

#include "GrowParams.h"
#include "GrowState.h"
#include "Image.h"
#include "Result.h"
#include "Seeds.h"
#include "Variant.h"
#include <cstdint>
#include <optional>
#include <vector>

namespace rgx {

struct GrowWindow {
    int x0 = 0;
    int y0 = 0;
    int width = 0;
    int height = 0;
};

// Pixels a window reaches beyond the seeds on every side (the seed itself
// counted on the far side: one seed, a window of 2 x 512 pixels each way).
constexpr int growWindowMargin = 512;

// The window of a first run on `image`, or none where it would not pay: in
// mode competitive (every region grows until the image is full), in mode
// range where a seed's range holds every luma the image can have (its
// region is the whole image), for a wrong-on-purpose variant (its lesson is
// the whole image's), or where the window would cover more than a third of
// the image. Its origin is a multiple of `alignment` (the partial pictures'
// sample step).
std::optional<GrowWindow> firstRunWindow(const LumaImage& image, const std::vector<Seed>& seeds,
                                         const GrowParams& params, const GrowVariant& variant, int alignment);

// The seeds in the window's coordinates.
std::vector<Seed> windowSeeds(const std::vector<Seed>& seeds, const GrowWindow& window);

// Whether classified pixels (in window coordinates) touch an edge of the
// window inside the image: then the window's result may not be the image's.
bool reachesInnerEdge(const PixelBox& box, const GrowWindow& window, int width, int height);

// Box maps of the window as box maps of the width x height image.
BoxMaps inImage(BoxMaps maps, const GrowWindow& window, int width, int height);

} // namespace rgx
