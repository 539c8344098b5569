// Volumes in and out (SPEC.md "Volumes (3D)", docs/VOLUMES.md): NIfTI-1 and
// NIfTI-2 (.nii, .nii.gz), DICOM (a folder of one series, or a multi-frame
// file), multi-page TIFF and folders of numbered 2D slices are read into a
// LumaImage; labels and stamps of a volume are written as NIfTI, multi-page
// TIFF or .npy (D, H, W). Every failure throws InputError naming the file and
// what is wrong; every file is written through QSaveFile, all or nothing.
#pragma once

#include "Image.h"

#include <QString>
#include <cstdint>
#include <vector>

namespace rgx {

// Whether loadLumaVolume (rather than loadLumaImage) is the reader for path:
// a .nii or .nii.gz file, a .tif/.tiff of more than one page, a DICOM file, or
// a folder holding DICOM files or 2D image files (png, tif, jpg, bmp, ...).
bool isVolumePath(const QString& path);

// Reads a volume: spacing (mm), orientation and format in `volume`; signed
// values shifted into 0..65535 with the shift in volume.valueShift.
LumaImage loadLumaVolume(const QString& path);

// NIfTI-1 holds at most 32767 voxels a side; Automatic takes NIfTI-2 beyond.
enum class NiftiVersion { Automatic, One, Two };

// .nii or .nii.gz (gzip), chosen by the suffix; uint16 (labels) or uint32
// (stamps) with the spacing and, where info.hasOrientation, the orientation
// (sform and qform, code "scanner") of info.
void writeVolumeNifti(const QString& path, int width, int height, int depth, const std::vector<uint16_t>& values,
                      const VolumeInfo& info, NiftiVersion version = NiftiVersion::Automatic);
void writeVolumeNifti(const QString& path, int width, int height, int depth, const std::vector<uint32_t>& values,
                      const VolumeInfo& info, NiftiVersion version = NiftiVersion::Automatic);

// Multi-page TIFF, one page a slice: 16-bit (labels) or 32-bit (stamps)
// unsigned grey, deflate-compressed, with ImageJ's description (slices,
// unit mm, z spacing) and the x/y spacing as resolution.
void writeVolumeTiff(const QString& path, int width, int height, int depth, const std::vector<uint16_t>& values,
                     const VolumeInfo& info);
void writeVolumeTiff(const QString& path, int width, int height, int depth, const std::vector<uint32_t>& values,
                     const VolumeInfo& info);

// .npy of shape (D, H, W): uint16 or uint32, little-endian, C order.
void writeVolumeNpy(const QString& path, int width, int height, int depth, const std::vector<uint16_t>& values);
void writeVolumeNpy(const QString& path, int width, int height, int depth, const std::vector<uint32_t>& values);

// One of the three above, chosen by the suffix (.nii, .nii.gz, .tif, .tiff,
// .npy); any other suffix is an InputError.
void writeVolumeFile(const QString& path, int width, int height, int depth, const std::vector<uint16_t>& values,
                     const VolumeInfo& info);
void writeVolumeFile(const QString& path, int width, int height, int depth, const std::vector<uint32_t>& values,
                     const VolumeInfo& info);

} // namespace rgx
