// The volume formats one by one, behind VolumeFile.h: each reader returns a
// LumaImage with its VolumeInfo or throws one InputError naming the file;
// each writer returns the whole file's bytes, so that VolumeFile.cpp saves
// them all or nothing.
#pragma once

#include "Image.h"
#include "io/VolumeFile.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <string>

namespace rgx::volume {

// Labels (2 bytes a value) or stamps (4 bytes a value) to write, x fastest,
// then y, then z, in host byte order.
struct VoxelsToWrite {
    int width = 0;
    int height = 0;
    int depth = 0;
    int bytesPerValue = 2;
    const void* data = nullptr;
    uint64_t count() const { return uint64_t(width) * uint64_t(height) * uint64_t(depth); }
};

// "'path'", as every message quotes a path.
std::string quoted(const QString& path);
// Throws InputError for a missing, unreadable, directory-typed or empty
// file; `subject` is e.g. "NIfTI file 'a.nii'".
void requireReadableFile(const QString& path, const std::string& subject);

// NiftiFile.cpp: NIfTI-1 and NIfTI-2, .nii and .nii.gz, through nifti_clib.
LumaImage readNifti(const QString& path);
QByteArray niftiBytes(const VoxelsToWrite& voxels, const VolumeInfo& info, NiftiVersion version, bool gzip,
                      const QString& path);

// DicomSeries.cpp: a folder of one series, or one (multi-frame) file, through GDCM.
bool isDicomFile(const QString& path);
bool folderHasDicom(const QString& folder);
LumaImage readDicom(const QString& path);

// TiffStack.cpp: multi-page TIFF through libtiff.
// Full-resolution pages, counted up to `stopAt`; 0 when not a readable TIFF.
int tiffPageCount(const QString& path, int stopAt);
LumaImage readTiffStack(const QString& path);
QByteArray tiffBytes(const VoxelsToWrite& voxels, const VolumeInfo& info, const QString& path);

// SliceFolder.cpp: a folder of 2D images, one slice each, through QImageReader.
// The folder's image files in natural order ("2.png" before "10.png").
QStringList sliceFilesOf(const QString& folder);
LumaImage readSliceFolder(const QString& path);

} // namespace rgx::volume
