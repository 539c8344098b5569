// Reading image files and turning them into the integer luma of SPEC.md.
#include "Image.h"

#include "Errors.h"

#include <QColor>
#include <QFileInfo>
#include <QImageReader>
#include <QRgba64>

#include <algorithm>

namespace rgx {

namespace {

// Qt refuses to decode images above 128 MiB by default; a 4096 x 4096
// 16-bit colour TIFF already needs exactly that much, so allow larger ones.
constexpr int imageAllocationLimitMiB = 2048;

std::string describe(const QString& path) { return "image file '" + path.toStdString() + "'"; }

bool isSixteenBitGrey(QImage::Format format) { return format == QImage::Format_Grayscale16; }

// Formats with more than 8 bits per colour channel: their luma keeps 16 bits.
bool isDeepColour(QImage::Format format)
{
    switch (format) {
    case QImage::Format_RGBX64:
    case QImage::Format_RGBA64:
    case QImage::Format_RGBA64_Premultiplied:
    case QImage::Format_BGR30:
    case QImage::Format_A2BGR30_Premultiplied:
    case QImage::Format_RGB30:
    case QImage::Format_A2RGB30_Premultiplied:
    case QImage::Format_RGBX16FPx4:
    case QImage::Format_RGBA16FPx4:
    case QImage::Format_RGBA16FPx4_Premultiplied:
    case QImage::Format_RGBX32FPx4:
    case QImage::Format_RGBA32FPx4:
    case QImage::Format_RGBA32FPx4_Premultiplied:
        return true;
    default:
        return false;
    }
}

// Palette and 1-bit images count as grey when every palette entry is grey;
// their luma is then the grey value itself (the formula maps (g,g,g) to g).
bool hasGreyPaletteOnly(const QImage& image)
{
    if (image.format() != QImage::Format_Indexed8 && image.format() != QImage::Format_Mono
        && image.format() != QImage::Format_MonoLSB)
        return false;
    const QList<QRgb> table = image.colorTable();
    for (QRgb entry : table) {
        if (!qIsGray(entry))
            return false;
    }
    return !table.isEmpty();
}

uint16_t lumaOf(uint32_t red, uint32_t green, uint32_t blue)
{
    return uint16_t((77u * red + 150u * green + 29u * blue + 128u) >> 8);
}

} // namespace

QImage readImageFile(const QString& path)
{
    const QFileInfo info(path);
    if (!info.exists())
        throw InputError("cannot open " + describe(path) + ": the file does not exist");
    if (info.isDir())
        throw InputError("cannot open " + describe(path) + ": it is a directory");
    if (!info.isReadable())
        throw InputError("cannot read " + describe(path) + ": permission denied");
    if (info.size() == 0)
        throw InputError("cannot read " + describe(path) + ": the file is empty (0 bytes)");

    if (QImageReader::allocationLimit() != 0 && QImageReader::allocationLimit() < imageAllocationLimitMiB)
        QImageReader::setAllocationLimit(imageAllocationLimitMiB);

    QImageReader reader(path);
    // Pixel coordinates (seeds) refer to the stored pixel grid, not to an
    // EXIF-rotated view of it.
    reader.setAutoTransform(false);
    // Say plainly when a picture is too large, before the decoder refuses it
    // with a vaguer message.
    const QSize declared = reader.size();
    const uint64_t declaredBytes = uint64_t(std::max(declared.width(), 0)) *
                                   uint64_t(std::max(declared.height(), 0)) * 8u;
    if (QImageReader::allocationLimit() != 0 &&
        declaredBytes > uint64_t(QImageReader::allocationLimit()) * 1024u * 1024u)
        throw InputError("cannot load " + describe(path) + ": the image is " +
                         std::to_string(declared.width()) + "x" + std::to_string(declared.height()) +
                         " pixels, more than RGX can hold in memory (" +
                         std::to_string(QImageReader::allocationLimit()) + " MiB decoding limit)");
    QImage image;
    if (!reader.read(&image)) {
        throw InputError("cannot read " + describe(path) + ": not a readable image or corrupt ("
                         + reader.errorString().toStdString() + ")");
    }
    if (image.isNull() || image.width() == 0 || image.height() == 0)
        throw InputError("cannot use " + describe(path) + ": the image is empty (0x0)");
    return image;
}

void keepLumaBytes(LumaImage& image)
{
    image.lumaBytes.resize(image.luma.size());
    uint16_t largest = 0;
    for (size_t i = 0; i < image.luma.size(); ++i) {
        largest |= image.luma[i];
        image.lumaBytes[i] = uint8_t(image.luma[i]);
    }
    if (largest > 255)
        image.lumaBytes = {};
}

LumaImage lumaFromImage(const QImage& image)
{
    if (image.isNull() || image.width() == 0 || image.height() == 0)
        throw InputError("cannot compute the luma of an empty image (0x0)");

    LumaImage result;
    result.width = image.width();
    result.height = image.height();
    result.luma.resize(size_t(result.width) * size_t(result.height));
    const size_t width = size_t(result.width);

    const QImage::Format format = image.format();
    if (format == QImage::Format_Grayscale8) {
        result.bitDepth = 8;
        result.colour = false;
        for (int y = 0; y < result.height; ++y) {
            const uchar* row = image.constScanLine(y);
            std::copy(row, row + width, result.luma.begin() + ptrdiff_t(y * width));
        }
    } else if (isSixteenBitGrey(format)) {
        result.bitDepth = 16;
        result.colour = false;
        for (int y = 0; y < result.height; ++y) {
            const auto* row = reinterpret_cast<const quint16*>(image.constScanLine(y));
            std::copy(row, row + width, result.luma.begin() + ptrdiff_t(y * width));
        }
    } else if (isDeepColour(format)) {
        result.bitDepth = 16;
        result.colour = true;
        // RGBA64 (not premultiplied) so that alpha never scales the channels.
        const QImage rgba = image.convertToFormat(QImage::Format_RGBA64);
        for (int y = 0; y < result.height; ++y) {
            const auto* row = reinterpret_cast<const QRgba64*>(rgba.constScanLine(y));
            uint16_t* out = result.luma.data() + y * width;
            for (size_t x = 0; x < width; ++x)
                out[x] = lumaOf(row[x].red(), row[x].green(), row[x].blue());
        }
    } else {
        // Everything else has at most 8 bits a channel: RGB, RGBA, palette,
        // 1-bit, 16-bit packed RGB. ARGB32 (not premultiplied) keeps the
        // colour channels untouched by alpha.
        result.bitDepth = 8;
        result.colour = !hasGreyPaletteOnly(image);
        const QImage argb = image.convertToFormat(QImage::Format_ARGB32);
        for (int y = 0; y < result.height; ++y) {
            const auto* row = reinterpret_cast<const QRgb*>(argb.constScanLine(y));
            uint16_t* out = result.luma.data() + y * width;
            for (size_t x = 0; x < width; ++x)
                out[x] = lumaOf(uint32_t(qRed(row[x])), uint32_t(qGreen(row[x])), uint32_t(qBlue(row[x])));
        }
    }
    if (result.bitDepth == 8)
        keepLumaBytes(result);
    return result;
}

LumaImage loadLumaImage(const QString& path) { return lumaFromImage(readImageFile(path)); }

QImage lumaToQImage(const LumaImage& image)
{
    QImage picture(image.width, image.height, QImage::Format_Grayscale8);
    if (picture.isNull())
        return picture;
    const size_t width = size_t(image.width);
    for (int y = 0; y < image.height; ++y) {
        uchar* row = picture.scanLine(y);
        const uint16_t* in = image.luma.data() + y * width;
        if (image.bitDepth == 16) {
            // Rounded to the nearest 8-bit value: 65535 -> 255, 257 * v -> v.
            for (size_t x = 0; x < width; ++x)
                row[x] = uchar((uint32_t(in[x]) * 255u + 32767u) / 65535u);
        } else {
            for (size_t x = 0; x < width; ++x)
                row[x] = uchar(in[x]);
        }
    }
    return picture;
}

} // namespace rgx
