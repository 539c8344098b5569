// rgx-cli segment on a volume (SPEC "Volumes (3D)", DESIGN's contract for
// volumes): the input read by the volume readers, the summary's lines in
// voxels and mm^3, and the outputs as NIfTI, multi-page TIFF or .npy of
// shape (D, H, W).
#pragma once

#include "CliOptions.h"
#include "Image.h"
#include "Result.h"
#include <QImage>
#include <QString>
#include <string>

namespace rgx {

// The input of segment: a volume where isVolumePath says so (then `picture`
// stays null), else the image file and its luma.
LumaImage readSegmentInput(const QString& path, QImage& picture);

// "image: 640x480, 8-bit grey" or "volume: 197x233x189, 8-bit grey (NIfTI-1),
// spacing 1 x 1 x 1 mm, values shifted by +32768".
std::string describeInput(const LumaImage& image);

// "pixels" or "voxels".
const char* elementsOf(const LumaImage& image);

// Throws InputError for a volume output with a suffix the writers do not
// take, before anything runs.
void checkVolumeOutputNames(const CliOptions& options);

// --out-labels, --out-stamps, --out-overlay of a volume's result (an
// overlay is the axial slice through the first seed, as PNG).
void writeVolumeOutputs(const CliOptions& options, const GrowResult& result, const LumaImage& volume, int overlaySlice);

} // namespace rgx
