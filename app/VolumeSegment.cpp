// segment's inputs and outputs where they differ for volumes.
#include "VolumeSegment.h"

#include "Errors.h"
#include "Export.h"
#include "Overlay.h"
#include "VolumeFile.h"

#include <QBuffer>
#include <iomanip>
#include <sstream>

namespace rgx {
namespace {

// One slice of a volume's result, as an image's result.
GrowResult sliceOf(const GrowResult& result, int z)
{
    GrowResult slice;
    slice.width = result.width;
    slice.height = result.height;
    slice.regions = result.regions;
    slice.iterations = result.iterations;
    const size_t size = size_t(result.width) * size_t(result.height);
    const size_t from = size * size_t(z);
    slice.labels.assign(result.labels.begin() + long(from), result.labels.begin() + long(from + size));
    slice.stamps.assign(result.stamps.begin() + long(from), result.stamps.begin() + long(from + size));
    return slice;
}

// The luma of one slice as a picture, 16-bit values scaled down.
QImage slicePicture(const LumaImage& volume, int z)
{
    LumaImage slice;
    slice.width = volume.width;
    slice.height = volume.height;
    slice.bitDepth = volume.bitDepth;
    const size_t size = size_t(volume.width) * size_t(volume.height);
    slice.luma.assign(volume.luma.begin() + long(size * size_t(z)), volume.luma.begin() + long(size * size_t(z + 1)));
    return lumaToQImage(slice);
}

} // namespace

LumaImage readSegmentInput(const QString& path, QImage& picture)
{
    if (isVolumePath(path))
        return loadLumaVolume(path);
    picture = readImageFile(path);
    return lumaFromImage(picture);
}

std::string describeInput(const LumaImage& image)
{
    std::ostringstream text;
    const std::string kind = std::to_string(image.bitDepth) + "-bit " + (image.colour ? "colour" : "grey");
    if (!image.isVolume()) {
        text << "image: " << image.width << "x" << image.height << ", " << kind;
        return text.str();
    }
    const VolumeInfo& info = image.volume;
    text << "volume: " << image.width << "x" << image.height << "x" << image.depth << ", " << kind;
    if (!info.format.empty())
        text << " (" << info.format << ")";
    text << ", spacing " << info.spacing[0] << " x " << info.spacing[1] << " x " << info.spacing[2] << " mm";
    if (info.valueShift != 0)
        text << ", values shifted by " << std::showpos << info.valueShift << std::noshowpos;
    return text.str();
}

void checkVolumeOutputNames(const CliOptions& options)
{
    for (const char* option : {"--out-labels", "--out-stamps"}) {
        if (!options.has(option))
            continue;
        const QString name = QString::fromStdString(options.value(option)).toLower();
        const bool known = name.endsWith(".nii") || name.endsWith(".nii.gz") || name.endsWith(".tif") ||
                           name.endsWith(".tiff") || name.endsWith(".npy");
        if (!known)
            throw InputError(std::string("option ") + option + " of a volume needs a .nii, .nii.gz, .tif, .tiff or "
                             ".npy file, not '" + options.value(option) + "'");
    }
    if (options.has("--out-overlay") && !QString::fromStdString(options.value("--out-overlay")).toLower().endsWith(".png"))
        throw InputError("option --out-overlay needs a .png file, not '" + options.value("--out-overlay") + "'");
}

const char* elementsOf(const LumaImage& image) { return image.isVolume() ? "voxels" : "pixels"; }

void writeVolumeOutputs(const CliOptions& options, const GrowResult& result, const LumaImage& volume, int overlaySlice)
{
    if (options.has("--out-labels"))
        writeVolumeFile(QString::fromStdString(options.value("--out-labels")), result.width, result.height,
                        result.depth, result.labels, volume.volume);
    if (options.has("--out-stamps"))
        writeVolumeFile(QString::fromStdString(options.value("--out-stamps")), result.width, result.height,
                        result.depth, result.stamps, volume.volume);
    if (options.has("--out-overlay")) {
        const QImage overlay =
            renderOverlay(slicePicture(volume, overlaySlice), sliceOf(result, overlaySlice), OverlayStyle{});
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        overlay.save(&buffer, "PNG");
        saveFileAtomically(QString::fromStdString(options.value("--out-overlay")), bytes);
    }
}

} // namespace rgx
