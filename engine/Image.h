// Images as RGX computes on them: the integer luma of SPEC.md, plus where it
// came from. Files are read through QImageReader (PNG, JPEG, BMP, TIFF...).
#pragma once

#include <QImage>
#include <QString>
#include <cstdint>
#include <vector>

namespace rgx {

struct LumaImage {
    int width = 0;
    int height = 0;
    int bitDepth = 8;        // 8 or 16: the range of the luma values
    bool colour = false;     // the source had colour channels
    std::vector<uint16_t> luma; // row-major, width * height

    uint64_t pixelCount() const { return uint64_t(width) * uint64_t(height); }
    uint16_t at(int x, int y) const { return luma[size_t(y) * size_t(width) + size_t(x)]; }
};

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
