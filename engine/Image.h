// Images as RGX computes on them: the integer luma of SPEC.md, plus where it
// came from. Files are read through QImageReader (PNG, JPEG, BMP, TIFF...).
#pragma once

#include <QImage>
#include <QString>
#include <array>
#include <string>
#include <cstdint>
#include <vector>

namespace rgx {

// What a volume file says beyond its voxels (SPEC "Volumes (3D)": spacing
// changes nothing in the result; it is kept for display and export).
struct VolumeInfo {
    std::array<double, 3> spacing{1.0, 1.0, 1.0}; // mm between voxel centres in x, y, z
    // Added to every stored value to make it unsigned (signed 16-bit CT:
    // 32768); luma = stored + valueShift. Shown and kept in exports.
    int32_t valueShift = 0;
    // Voxel (i, j, k, 1) to world (mm) as NIfTI's sform/qform, row-major
    // 4x4; identity scaled by the spacing where the file gives none.
    std::array<double, 16> toWorld{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    bool hasOrientation = false; // toWorld came from the file
    std::string format;          // "NIfTI-1", "DICOM series", "TIFF stack", ... ("" for images)
};

// An image, or a volume of `depth` slices (depth 1: an image).
struct LumaImage {
    int width = 0;
    int height = 0;
    int depth = 1;
    int bitDepth = 8;        // 8 or 16: the range of the luma values
    bool colour = false;     // the source had colour channels
    std::vector<uint16_t> luma; // x fastest, then y, then z: width * height * depth
    // The same lumas a byte each where every one fits (keepLumaBytes, for
    // 8-bit images): a device takes them in half the bytes. Empty otherwise;
    // whoever changes luma afterwards calls keepLumaBytes again.
    std::vector<uint8_t> lumaBytes;
    VolumeInfo volume;

    bool isVolume() const { return depth > 1; }
    uint64_t pixelCount() const { return uint64_t(width) * uint64_t(height) * uint64_t(depth); }
    uint64_t slicePixels() const { return uint64_t(width) * uint64_t(height); }
    uint16_t at(int x, int y) const { return luma[size_t(y) * size_t(width) + size_t(x)]; }
    uint16_t at(int x, int y, int z) const
    {
        return luma[(size_t(z) * size_t(height) + size_t(y)) * size_t(width) + size_t(x)];
    }
};

// Fills image.lumaBytes with its lumas where every one is at most 255, and
// empties it otherwise.
void keepLumaBytes(LumaImage& image);

// Reads an image file; throws InputError naming the file and what is wrong
// (missing, unreadable, corrupt, empty).
QImage readImageFile(const QString& path);

// Luma of SPEC.md: grey values as they are, colour through
// (77 R + 150 G + 29 B + 128) >> 8 on 8- or 16-bit channels, alpha ignored.
LumaImage lumaFromImage(const QImage& image);

// readImageFile + lumaFromImage.
LumaImage loadLumaImage(const QString& path);

// An 8-bit grey picture of a luma image (16-bit luma scaled down), for views.
QImage lumaToQImage(const LumaImage& image);

} // namespace rgx
