// A folder of numbered 2D images as a volume: one slice a file, in natural
// order of the names ("slice2.png" before "slice10.png"), each read and turned
// into luma as an image is (Image.h), all of one size and bit depth.
#include "io/VolumeFormats.h"
#include "io/VolumeValues.h"

#include "Errors.h"

#include <QDir>
#include <QFileInfo>
#include <QImageReader>

#include <algorithm>

namespace rgx::volume {

namespace {

// Suffixes of single-picture formats that a slice may have (where Qt has a
// plugin for them); .tif slices are read as their first page.
bool isSliceSuffix(const QString& suffix)
{
    static const QStringList sliceSuffixes = {"png", "tif", "tiff", "jpg", "jpeg", "bmp", "pgm", "ppm", "pbm", "webp"};
    static const QList<QByteArray> readable = QImageReader::supportedImageFormats();
    return sliceSuffixes.contains(suffix) && readable.contains(suffix.toLatin1());
}

} // namespace

QStringList sliceFilesOf(const QString& folder)
{
    const QDir directory(folder);
    QStringList files;
    const QStringList names = directory.entryList(QDir::Files | QDir::NoDotAndDotDot);
    for (const QString& name : names) {
        if (isSliceSuffix(QFileInfo(name).suffix().toLower()))
            files << directory.filePath(name);
    }
    std::sort(files.begin(), files.end(),
              [](const QString& a, const QString& b) { return naturalLess(QFileInfo(a).fileName(), QFileInfo(b).fileName()); });
    return files;
}

LumaImage readSliceFolder(const QString& path)
{
    const std::string subject = "slice folder " + quoted(path);
    const QFileInfo info(path);
    if (!info.exists())
        throw InputError("cannot open " + subject + ": the folder does not exist");
    if (!info.isDir())
        throw InputError("cannot read " + subject + ": it is not a folder");
    if (!info.isReadable())
        throw InputError("cannot read " + subject + ": permission denied");
    const QStringList files = sliceFilesOf(path);
    if (files.isEmpty())
        throw InputError("cannot read " + subject
                         + ": it holds no DICOM files and no image slices (png, tif, jpg, bmp, pgm, webp)");

    LumaImage volume;
    QString firstFile;
    for (qsizetype index = 0; index < files.size(); ++index) {
        const QString& file = files[index];
        LumaImage slice;
        try {
            slice = lumaFromImage(readImageFile(file));
        } catch (const InputError& error) {
            throw InputError(std::string(error.what()) + " (slice " + std::to_string(index + 1) + " of "
                             + subject + ")");
        }
        if (index == 0) {
            firstFile = file;
            requireVolumeSize(slice.width, slice.height, files.size(), subject);
            volume.width = slice.width;
            volume.height = slice.height;
            volume.depth = int(files.size());
            volume.bitDepth = slice.bitDepth;
            volume.luma.reserve(size_t(volume.pixelCount()));
        } else if (slice.width != volume.width || slice.height != volume.height) {
            throw InputError("cannot read " + subject + ": slice " + quoted(file) + " is "
                             + std::to_string(slice.width) + " x " + std::to_string(slice.height) + " pixels, "
                             + quoted(firstFile) + " " + std::to_string(volume.width) + " x "
                             + std::to_string(volume.height) + " (all slices of a volume must be the same size)");
        } else if (slice.bitDepth != volume.bitDepth) {
            throw InputError("cannot read " + subject + ": slice " + quoted(file) + " is "
                             + std::to_string(slice.bitDepth) + "-bit, " + quoted(firstFile) + " "
                             + std::to_string(volume.bitDepth) + "-bit (all slices must have one bit depth)");
        }
        volume.colour = volume.colour || slice.colour;
        volume.luma.insert(volume.luma.end(), slice.luma.begin(), slice.luma.end());
    }
    volume.volume.spacing = {1.0, 1.0, 1.0};
    volume.volume.toWorld = scaledIdentity(volume.volume.spacing);
    volume.volume.hasOrientation = false;
    volume.volume.format = "slice folder";
    return volume;
}

} // namespace rgx::volume
