// The device pipeline of DESIGN.md, resident: one image on one device,
// kept there between runs. A request goes one way: the session makes the
// stages it needs (each checks its part and builds its programs), then runs
// them in order; region growing runs its variant's driver (stages/grow/).
// The image (and its prefiltered luma) is uploaded once, the maps, queues
// and counters are reused, a run resets only what the previous one touched,
// and a click reads back only the box of its classified pixels in the
// narrowest types, into recycled pinned memory. So a click costs its own
// work, not the image's size. The first run does not wait for the whole
// image either: it grows in a window around its seeds where it can
// (stages/GrowWindow.h), and the image follows on another thread. Opening another image or device means another
// session; destroying it releases everything.
#pragma once

#include "Image.h"
#include "PipelineParams.h"
#include "RunControl.h"
#include "Result.h"
#include "Seeds.h"
#include "Variant.h"
#include <future>
#include <memory>
#include <string>
#include <vector>

namespace rgx {

class ComputeDevice;
class GrowState;
struct Footprint;
struct GrowRun;

class DeviceSession {
public:
    // Resident: runs follow one another. Once: one run, then the session
    // goes (after a first run in a window, the image is not uploaded).
    enum class Use { Resident, Once };
    // The session keeps `image` alive; nothing is uploaded before the first run.
    DeviceSession(ComputeDevice& device, std::shared_ptr<const LumaImage> image, Use use = Use::Resident);
    ~DeviceSession();
    DeviceSession(const DeviceSession&) = delete;
    DeviceSession& operator=(const DeviceSession&) = delete;

    ComputeDevice& device() { return device_; }
    const LumaImage& image() const { return *image_; }
    const std::shared_ptr<const LumaImage>& sharedImage() const { return image_; }

    // The whole pipeline of DESIGN.md with full maps (runDevicePipeline is
    // this on a session used once).
    // Throws InputError, OpenClError, RunInterrupted.
    GrowResultPtr run(const std::vector<Seed>& seeds, const PipelineParams& params,
                      const GrowVariant& variant, const RunControl& control = {});

    // Prefilter and region growing (a postfilter is an InputError: it needs
    // the full maps), the result as the box maps of the classified pixels.
    ClickResultPtr click(const std::vector<Seed>& seeds, const PipelineParams& params,
                         const GrowVariant& variant, const RunControl& control = {});

    // Makes the session resident before its first click: the luma uploaded,
    // the host memory for a click's box maps made and touched (pinned on a
    // GPU), so that the first click costs what later ones do. For a viewer
    // that opens an image and waits for a click; a prefilter's output is
    // made by the first click that asks for it. Returns what it took, in
    // milliseconds. Throws OpenClError.
    double makeResident();
    // Device memory and pinned host memory the session holds now.
    Footprint footprint() const;

private:
    struct Prepared;
    struct Grown;
    Prepared prepare(const std::vector<Seed>& seeds, const PipelineParams& params, const GrowVariant& variant);
    enum class Maps { Full, Box }; // what the caller reads back
    Grown grow(Prepared& prepared, const std::vector<Seed>& seeds, const PipelineParams& params,
               const GrowVariant& variant, const RunControl& control, Maps maps);
    // The first run in a window around the seeds (stages/GrowWindow.h);
    // false when its result may not be the image's.
    bool growInWindow(Grown& grown, const std::vector<Seed>& seeds, const PipelineParams& params,
                      const GrowVariant& variant, const RunControl& control);
    // After a first run in a window, once its result is read: the whole
    // luma uploaded (Use::Resident) and the window's buffers released, on
    // another thread.
    void followFirstRun(Grown& grown, const std::string& key);
    void releaseInBackground(std::unique_ptr<GrowState> state);
    // Waits for that work; if the upload failed, the next run uploads again.
    void awaitBackground();
    template <typename Result>
    void describeRun(Result& result, const GrowRun& run, const GrowVariant& variant) const;

    ComputeDevice& device_;
    std::shared_ptr<const LumaImage> image_;
    Use use_;
    std::unique_ptr<GrowState> state_;
    std::future<void> lumaUpload_; // state_'s luma, uploading after a first run in a window
    std::future<void> released_;   // a window's buffers, being released
    // The prefiltered luma of the last prefilter run, and which it was.
    std::string filteredKey_;
    std::shared_ptr<const std::vector<uint16_t>> filtered_;
};

} // namespace rgx
