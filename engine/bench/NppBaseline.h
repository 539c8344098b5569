// NVIDIA NPP's flood fill (nppiFloodFillRange_8u_C1IR_Ctx) as a second
// baseline of rgx-cli bench, on a GPU peer's terms: NPP and the CUDA runtime
// are loaded at run time (dlopen) from a folder that scripts/npp-fetch.sh
// fills, never linked, so RGX builds and runs where neither exists. Their
// few types and prototypes are declared in NppBaseline.cpp.
#pragma once

#include "Image.h"
#include "Seeds.h"
#include <cstdint>
#include <string>
#include <vector>

namespace rgx::bench {

// What NPP did with one image and one seed.
struct NppFill {
    uint32_t low = 0, high = 0;    // the grey values the fill accepted: seed value - lower .. + upper, within 0..255
    uint8_t newValue = 0;          // what NPP wrote into the pixels it filled
    uint64_t reportedPixels = 0;   // NPP's own count (NppiConnectedRegion) of the first run
    std::vector<uint8_t> filled;   // the image after the first run
    std::vector<double> hostMs;    // each timed run: the host clock from the call to the stream's synchronize
    std::vector<double> eventMs;   // the same runs by CUDA events recorded around the call
};

class NppBaseline {
public:
    // Loads libcudart, libnppc and libnppif from `directory` (empty: the
    // environment's RGX_NPP_DIR, else the loader's own search path) and opens
    // CUDA device 0. Never throws: what went wrong is whyNot().
    explicit NppBaseline(const std::string& directory);
    ~NppBaseline();
    NppBaseline(const NppBaseline&) = delete;
    NppBaseline& operator=(const NppBaseline&) = delete;

    bool available() const { return whyNot_.empty(); }
    // Why not, in words a user can act on (one line).
    const std::string& whyNot() const { return whyNot_; }
    // The versions and the device, e.g. "NPP 12.4.1, CUDA runtime 12.9,
    // driver 13.0, NVIDIA H100 80GB HBM3 (sm_90, 132 multiprocessors)".
    const std::string& description() const { return description_; }

    // Whether fill() applies: an 8-bit image (NPP's 8-bit call; RGX's luma
    // of a 16-bit image has values above 255). The reason when not.
    static std::string whyNotFor(const LumaImage& image);

    // The fill of `image` from `seed` in mode range (4- or 8-connected):
    // once with NPP's count and the result read back (not timed), then
    // `runs` more, timed, each on the image uploaded afresh (a fill works in
    // place; the upload is not timed). Throws std::runtime_error naming the
    // CUDA or NPP call that failed.
    NppFill fill(const LumaImage& image, Seed seed, uint32_t lower, uint32_t upper, int connectivity,
                 int runs) const;

private:
    struct Api;
    Api* api_ = nullptr;
    std::string whyNot_;
    std::string description_;
};

} // namespace rgx::bench
