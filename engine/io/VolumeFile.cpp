// Which reader a path needs, and the writers' common ground: sizes checked,
// bytes made by the format's file (VolumeFormats.h), saved all or nothing.
#include "io/VolumeFile.h"

#include "Errors.h"
#include "io/Export.h"
#include "io/VolumeFormats.h"
#include "io/VolumeValues.h"

#include <QFile>
#include <QFileInfo>

#include <stdexcept>

namespace rgx {

namespace volume {

std::string quoted(const QString& path) { return "'" + path.toStdString() + "'"; }

void requireReadableFile(const QString& path, const std::string& subject)
{
    const QFileInfo info(path);
    if (!info.exists())
        throw InputError("cannot open " + subject + ": the file does not exist");
    if (info.isDir())
        throw InputError("cannot open " + subject + ": it is a folder");
    if (!info.isReadable())
        throw InputError("cannot read " + subject + ": permission denied");
    if (info.size() == 0)
        throw InputError("cannot read " + subject + ": the file is empty (0 bytes)");
}

} // namespace volume

namespace {

using volume::quoted;

bool hasNiftiName(const QString& path)
{
    const QString name = QFileInfo(path).fileName().toLower();
    return name.endsWith(".nii") || name.endsWith(".nii.gz");
}

bool hasTiffName(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == "tif" || suffix == "tiff";
}

template <typename Value>
volume::VoxelsToWrite voxelsOf(const QString& path, int width, int height, int depth, const std::vector<Value>& values)
{
    if (width < 1 || height < 1 || depth < 1)
        throw std::invalid_argument("cannot write " + quoted(path) + ": a volume of " + std::to_string(width) + " x "
                                    + std::to_string(height) + " x " + std::to_string(depth) + " voxels");
    const uint64_t count = uint64_t(width) * uint64_t(height) * uint64_t(depth);
    if (values.size() != count)
        throw std::invalid_argument("cannot write " + quoted(path) + ": " + std::to_string(values.size())
                                    + " values do not fill a " + std::to_string(width) + " x "
                                    + std::to_string(height) + " x " + std::to_string(depth) + " volume");
    return volume::VoxelsToWrite{width, height, depth, int(sizeof(Value)), values.data()};
}

template <typename Value>
void writeNifti(const QString& path, int width, int height, int depth, const std::vector<Value>& values,
                const VolumeInfo& info, NiftiVersion version)
{
    if (!hasNiftiName(path))
        throw InputError("cannot write NIfTI to " + quoted(path) + ": unknown suffix (use .nii or .nii.gz)");
    const bool gzip = QFileInfo(path).fileName().toLower().endsWith(".gz");
    saveFileAtomically(path, volume::niftiBytes(voxelsOf(path, width, height, depth, values), info, version, gzip, path));
}

template <typename Value>
void writeTiff(const QString& path, int width, int height, int depth, const std::vector<Value>& values,
               const VolumeInfo& info)
{
    if (!hasTiffName(path))
        throw InputError("cannot write TIFF to " + quoted(path) + ": unknown suffix (use .tif or .tiff)");
    saveFileAtomically(path, volume::tiffBytes(voxelsOf(path, width, height, depth, values), info, path));
}

template <typename Value>
void writeNpy(const QString& path, int width, int height, int depth, const std::vector<Value>& values)
{
    if (QFileInfo(path).suffix().toLower() != "npy")
        throw InputError("cannot write .npy to " + quoted(path) + ": unknown suffix (use .npy)");
    voxelsOf(path, width, height, depth, values);
    saveFileAtomically(path, npyBytes(values, width, height, depth));
}

template <typename Value>
void writeBySuffix(const QString& path, int width, int height, int depth, const std::vector<Value>& values,
                   const VolumeInfo& info)
{
    if (hasNiftiName(path))
        writeNifti(path, width, height, depth, values, info, NiftiVersion::Automatic);
    else if (hasTiffName(path))
        writeTiff(path, width, height, depth, values, info);
    else if (QFileInfo(path).suffix().toLower() == "npy")
        writeNpy(path, width, height, depth, values);
    else
        throw InputError("cannot write a volume to " + quoted(path)
                         + ": unknown suffix (use .nii, .nii.gz, .tif, .tiff or .npy)");
}

// NIfTI's header size at the start (348 or 540, either byte order), for a
// NIfTI file whose name does not say so.
bool startsLikeNifti(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray start = file.read(4);
    if (start.size() < 4)
        return false;
    const auto at = [&](int i) { return uint32_t(uint8_t(start[i])); };
    const uint32_t little = at(0) | at(1) << 8 | at(2) << 16 | at(3) << 24;
    const uint32_t big = at(3) | at(2) << 8 | at(1) << 16 | at(0) << 24;
    return little == 348 || little == 540 || big == 348 || big == 540;
}

} // namespace

bool isVolumePath(const QString& path)
{
    const QFileInfo info(path);
    if (info.isDir())
        return volume::folderHasDicom(path) || !volume::sliceFilesOf(path).isEmpty();
    if (hasNiftiName(path))
        return true;
    if (!info.exists())
        return false;
    if (hasTiffName(path))
        return volume::tiffPageCount(path, 2) > 1;
    return volume::isDicomFile(path);
}

LumaImage loadLumaVolume(const QString& path)
{
    const QFileInfo info(path);
    if (!info.exists())
        throw InputError("cannot open volume " + quoted(path) + ": the file or folder does not exist");
    if (info.isDir())
        return volume::folderHasDicom(path) ? volume::readDicom(path) : volume::readSliceFolder(path);
    if (hasNiftiName(path))
        return volume::readNifti(path);
    if (hasTiffName(path))
        return volume::readTiffStack(path);
    if (volume::isDicomFile(path))
        return volume::readDicom(path);
    if (startsLikeNifti(path))
        return volume::readNifti(path);
    throw InputError("cannot read volume " + quoted(path)
                     + ": not a volume format RGX reads (.nii, .nii.gz, DICOM, multi-page .tif, or a folder of "
                       "DICOM files or numbered slices)");
}

void writeVolumeNifti(const QString& path, int width, int height, int depth, const std::vector<uint16_t>& values,
                      const VolumeInfo& info, NiftiVersion version)
{
    writeNifti(path, width, height, depth, values, info, version);
}

void writeVolumeNifti(const QString& path, int width, int height, int depth, const std::vector<uint32_t>& values,
                      const VolumeInfo& info, NiftiVersion version)
{
    writeNifti(path, width, height, depth, values, info, version);
}

void writeVolumeTiff(const QString& path, int width, int height, int depth, const std::vector<uint16_t>& values,
                     const VolumeInfo& info)
{
    writeTiff(path, width, height, depth, values, info);
}

void writeVolumeTiff(const QString& path, int width, int height, int depth, const std::vector<uint32_t>& values,
                     const VolumeInfo& info)
{
    writeTiff(path, width, height, depth, values, info);
}

void writeVolumeNpy(const QString& path, int width, int height, int depth, const std::vector<uint16_t>& values)
{
    writeNpy(path, width, height, depth, values);
}

void writeVolumeNpy(const QString& path, int width, int height, int depth, const std::vector<uint32_t>& values)
{
    writeNpy(path, width, height, depth, values);
}

void writeVolumeFile(const QString& path, int width, int height, int depth, const std::vector<uint16_t>& values,
                     const VolumeInfo& info)
{
    writeBySuffix(path, width, height, depth, values, info);
}

void writeVolumeFile(const QString& path, int width, int height, int depth, const std::vector<uint32_t>& values,
                     const VolumeInfo& info)
{
    writeBySuffix(path, width, height, depth, values, info);
}

} // namespace rgx
