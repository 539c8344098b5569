// Multi-page TIFF volumes through libtiff: one page a slice, grey (8 to 64-bit,
// signed or not) or colour; other 8-bit layouts (palette, YCbCr, bilevel)
// through libtiff's RGBA conversion. Spacing from ImageJ's description or the
// resolution tags. Writing builds the whole file in memory.
#include "io/VolumeFormats.h"
#include "io/VolumeValues.h"

#include "Errors.h"

#include <QFile>
#include <QStringList>

#include <tiffio.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstring>
#include <memory>

namespace rgx::volume {

namespace {

// libtiff's complaints go to the handle's own handlers (libtiff 4.5), not to
// stderr or to the process-wide handlers that Qt's TIFF plugin may use.
struct TiffMessages {
    std::string lastError;
};

int collectError(TIFF*, void* user, const char* module, const char* format, va_list arguments)
{
    char text[512];
    std::vsnprintf(text, sizeof text, format, arguments);
    auto* messages = static_cast<TiffMessages*>(user);
    if (messages)
        messages->lastError = std::string(module ? module : "libtiff") + ": " + text;
    return 1; // handled: libtiff calls no other handler
}

int ignoreWarning(TIFF*, void*, const char*, const char*, va_list) { return 1; }

struct TiffClose {
    void operator()(TIFF* tiff) const { TIFFClose(tiff); }
};
using TiffPointer = std::unique_ptr<TIFF, TiffClose>;

TIFFOpenOptions* quietOptions(TiffMessages& messages)
{
    TIFFOpenOptions* options = TIFFOpenOptionsAlloc();
    TIFFOpenOptionsSetErrorHandlerExtR(options, collectError, &messages);
    TIFFOpenOptionsSetWarningHandlerExtR(options, ignoreWarning, nullptr);
    return options;
}

TiffPointer openTiff(const QString& path, TiffMessages& messages)
{
    TIFFOpenOptions* options = quietOptions(messages);
    TIFF* tiff = TIFFOpenExt(QFile::encodeName(path).constData(), "r", options);
    TIFFOpenOptionsFree(options);
    return TiffPointer(tiff);
}

bool isReducedImage(TIFF* tiff)
{
    uint32_t subfileType = 0;
    return TIFFGetField(tiff, TIFFTAG_SUBFILETYPE, &subfileType) && (subfileType & FILETYPE_REDUCEDIMAGE);
}

// How one page's pixels are read.
enum class PageReading {
    Samples, // grey or RGB(A) samples as stored
    Rgba8,   // libtiff's RGBA conversion (palette, YCbCr, bilevel, ...)
};

struct PageLayout {
    uint32_t width = 0;
    uint32_t height = 0;
    uint16_t bitsPerSample = 1;
    uint16_t samplesPerPixel = 1;
    uint16_t photometric = PHOTOMETRIC_MINISBLACK;
    uint16_t planar = PLANARCONFIG_CONTIG;
    uint16_t sampleFormat = SAMPLEFORMAT_UINT;
    PageReading reading = PageReading::Samples;
    SampleType type = SampleType::UInt8;
    int channels = 1;

    bool isGrey() const { return photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE; }
    size_t pixelBytes() const { return size_t(channels) * sampleBytes(type); }
    size_t bytes() const { return size_t(width) * size_t(height) * pixelBytes(); }
    bool sameAs(const PageLayout& other) const
    {
        return reading == other.reading && type == other.type && channels == other.channels
               && isGrey() == other.isGrey();
    }
    std::string describe() const
    {
        return std::to_string(channels) + " x " + sampleTypeName(type) + (isGrey() ? " grey" : " colour");
    }
};

std::optional<SampleType> integerType(uint16_t bits, bool isSignedFormat)
{
    switch (bits) {
    case 8: return isSignedFormat ? SampleType::Int8 : SampleType::UInt8;
    case 16: return isSignedFormat ? SampleType::Int16 : SampleType::UInt16;
    case 32: return isSignedFormat ? SampleType::Int32 : SampleType::UInt32;
    case 64: return isSignedFormat ? SampleType::Int64 : SampleType::UInt64;
    default: return std::nullopt;
    }
}

// The layout of the current page, or an InputError saying why RGX cannot read it.
PageLayout layoutOf(TIFF* tiff, const std::string& subject, int page)
{
    PageLayout layout;
    TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &layout.width);
    TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &layout.height);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_BITSPERSAMPLE, &layout.bitsPerSample);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLESPERPIXEL, &layout.samplesPerPixel);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_PLANARCONFIG, &layout.planar);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLEFORMAT, &layout.sampleFormat);
    if (!TIFFGetField(tiff, TIFFTAG_PHOTOMETRIC, &layout.photometric))
        layout.photometric = layout.samplesPerPixel >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
    const std::string where = "cannot read " + subject + ": page " + std::to_string(page + 1);

    if (layout.sampleFormat == SAMPLEFORMAT_IEEEFP)
        throw InputError(where + " holds floating-point samples; RGX reads integer voxels only");
    if (layout.sampleFormat == SAMPLEFORMAT_COMPLEXINT || layout.sampleFormat == SAMPLEFORMAT_COMPLEXIEEEFP)
        throw InputError(where + " holds complex samples; RGX reads integer voxels only");
    const bool signedSamples = layout.sampleFormat == SAMPLEFORMAT_INT;
    const std::optional<SampleType> type = integerType(layout.bitsPerSample, signedSamples);

    if (layout.isGrey() && layout.samplesPerPixel == 1 && type) {
        layout.type = *type;
        layout.channels = 1;
    } else if (layout.photometric == PHOTOMETRIC_RGB && (layout.samplesPerPixel == 3 || layout.samplesPerPixel == 4)
               && !signedSamples && (layout.bitsPerSample == 8 || layout.bitsPerSample == 16)) {
        layout.type = *type;
        layout.channels = layout.samplesPerPixel;
    } else {
        char reason[1024] = "";
        if (layout.bitsPerSample > 8 || !TIFFRGBAImageOK(tiff, reason)) {
            throw InputError(where + " has a pixel layout RGX cannot read (photometric "
                             + std::to_string(layout.photometric) + ", " + std::to_string(layout.samplesPerPixel)
                             + " samples of " + std::to_string(layout.bitsPerSample) + " bits"
                             + (reason[0] ? std::string(": ") + reason : std::string()) + ")");
        }
        layout.reading = PageReading::Rgba8;
        layout.type = SampleType::UInt8;
        layout.channels = 4;
    }
    return layout;
}

// Copies one decoded row of one plane (or of all samples, when contiguous)
// into its place in the page's interleaved pixels.
void placeRow(const PageLayout& layout, const uint8_t* row, uint32_t firstX, uint32_t count, uint32_t y,
              int plane, uint8_t* page)
{
    const size_t sampleSize = sampleBytes(layout.type);
    uint8_t* out = page + (size_t(y) * layout.width + firstX) * layout.pixelBytes();
    if (layout.planar == PLANARCONFIG_CONTIG || layout.channels == 1) {
        std::memcpy(out, row, size_t(count) * layout.pixelBytes());
        return;
    }
    for (uint32_t x = 0; x < count; ++x)
        std::memcpy(out + x * layout.pixelBytes() + size_t(plane) * sampleSize, row + x * sampleSize, sampleSize);
}

bool readSamples(TIFF* tiff, const PageLayout& layout, uint8_t* page)
{
    const int planes = layout.planar == PLANARCONFIG_SEPARATE ? layout.channels : 1;
    const size_t planeSampleBytes = (planes == 1 ? layout.pixelBytes() : sampleBytes(layout.type));
    if (TIFFIsTiled(tiff)) {
        uint32_t tileWidth = 0;
        uint32_t tileHeight = 0;
        TIFFGetField(tiff, TIFFTAG_TILEWIDTH, &tileWidth);
        TIFFGetField(tiff, TIFFTAG_TILELENGTH, &tileHeight);
        if (tileWidth == 0 || tileHeight == 0)
            return false;
        std::vector<uint8_t> tile(size_t(TIFFTileSize(tiff)));
        const size_t tileRowBytes = size_t(tileWidth) * planeSampleBytes;
        for (int plane = 0; plane < planes; ++plane) {
            for (uint32_t y0 = 0; y0 < layout.height; y0 += tileHeight) {
                for (uint32_t x0 = 0; x0 < layout.width; x0 += tileWidth) {
                    const uint32_t index = TIFFComputeTile(tiff, x0, y0, 0, uint16_t(plane));
                    const tmsize_t read = TIFFReadEncodedTile(tiff, index, tile.data(), tmsize_t(tile.size()));
                    const uint32_t rows = std::min(tileHeight, layout.height - y0);
                    const uint32_t columns = std::min(tileWidth, layout.width - x0);
                    if (read < 0 || size_t(read) < size_t(rows - 1) * tileRowBytes + columns * planeSampleBytes)
                        return false;
                    for (uint32_t r = 0; r < rows; ++r)
                        placeRow(layout, tile.data() + r * tileRowBytes, x0, columns, y0 + r, plane, page);
                }
            }
        }
        return true;
    }
    uint32_t rowsPerStrip = layout.height;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_ROWSPERSTRIP, &rowsPerStrip);
    rowsPerStrip = std::clamp<uint32_t>(rowsPerStrip, 1, layout.height);
    const uint32_t stripsPerPlane = (layout.height + rowsPerStrip - 1) / rowsPerStrip;
    std::vector<uint8_t> strip(size_t(TIFFStripSize(tiff)));
    const size_t rowBytes = size_t(layout.width) * planeSampleBytes;
    for (int plane = 0; plane < planes; ++plane) {
        for (uint32_t s = 0; s < stripsPerPlane; ++s) {
            const uint32_t index = uint32_t(plane) * stripsPerPlane + s;
            const tmsize_t read = TIFFReadEncodedStrip(tiff, index, strip.data(), tmsize_t(strip.size()));
            const uint32_t firstRow = s * rowsPerStrip;
            const uint32_t rows = std::min(rowsPerStrip, layout.height - firstRow);
            if (read < 0 || size_t(read) < size_t(rows) * rowBytes)
                return false;
            for (uint32_t r = 0; r < rows; ++r)
                placeRow(layout, strip.data() + r * rowBytes, 0, layout.width, firstRow + r, plane, page);
        }
    }
    return true;
}

bool readRgba(TIFF* tiff, const PageLayout& layout, uint8_t* page)
{
    std::vector<uint32_t> raster(size_t(layout.width) * size_t(layout.height));
    if (!TIFFReadRGBAImageOriented(tiff, layout.width, layout.height, raster.data(), ORIENTATION_TOPLEFT, 0))
        return false;
    for (size_t i = 0; i < raster.size(); ++i) {
        page[4 * i + 0] = uint8_t(TIFFGetR(raster[i]));
        page[4 * i + 1] = uint8_t(TIFFGetG(raster[i]));
        page[4 * i + 2] = uint8_t(TIFFGetB(raster[i]));
        page[4 * i + 3] = uint8_t(TIFFGetA(raster[i]));
    }
    return true;
}

// White-is-zero grey pages read as they look: the largest value minus the stored one.
void invertMinIsWhite(const PageLayout& layout, uint8_t* page)
{
    if (layout.photometric != PHOTOMETRIC_MINISWHITE || layout.reading != PageReading::Samples
        || isSigned(layout.type))
        return;
    const size_t count = size_t(layout.width) * size_t(layout.height);
    const auto invert = [&](auto sample) {
        using T = decltype(sample);
        for (size_t i = 0; i < count; ++i) {
            T value;
            std::memcpy(&value, page + i * sizeof(T), sizeof(T));
            value = T(std::numeric_limits<T>::max() - value);
            std::memcpy(page + i * sizeof(T), &value, sizeof(T));
        }
    };
    switch (layout.type) {
    case SampleType::UInt8: invert(uint8_t{}); break;
    case SampleType::UInt16: invert(uint16_t{}); break;
    case SampleType::UInt32: invert(uint32_t{}); break;
    case SampleType::UInt64: invert(uint64_t{}); break;
    default: break;
    }
}

// Millimetres per unit of ImageJ's "unit=" (0 when unknown or "pixel").
double millimetresPerImageJUnit(const QString& unit)
{
    if (unit == "micron" || unit == "um" || unit == QString::fromUtf8("\u00B5m") || unit == "\\u00B5m")
        return 0.001;
    if (unit == "nm")
        return 1e-6;
    if (unit == "mm")
        return 1.0;
    if (unit == "cm")
        return 10.0;
    if (unit == "m" || unit == "meter")
        return 1000.0;
    if (unit == "inch")
        return 25.4;
    return 0.0;
}

// Spacing from the first page: ImageJ's description (unit, z spacing; x/y
// resolution in pixels per unit), else the resolution tags (per inch or cm).
std::array<double, 3> spacingOf(TIFF* tiff)
{
    std::array<double, 3> spacing{1.0, 1.0, 1.0};
    float xResolution = 0;
    float yResolution = 0;
    uint16_t resolutionUnit = RESUNIT_NONE;
    const bool hasResolution = TIFFGetField(tiff, TIFFTAG_XRESOLUTION, &xResolution)
                               && TIFFGetField(tiff, TIFFTAG_YRESOLUTION, &yResolution) && xResolution > 0
                               && yResolution > 0;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_RESOLUTIONUNIT, &resolutionUnit);

    double imageJUnit = 0.0;
    double imageJZ = 0.0;
    char* description = nullptr;
    if (TIFFGetField(tiff, TIFFTAG_IMAGEDESCRIPTION, &description) && description
        && std::strncmp(description, "ImageJ=", 7) == 0) {
        const QStringList lines = QString::fromUtf8(description).split('\n');
        for (const QString& line : lines) {
            const qsizetype equals = line.indexOf('=');
            if (equals < 0)
                continue;
            const QString key = line.left(equals).trimmed();
            const QString value = line.mid(equals + 1).trimmed();
            if (key == "unit")
                imageJUnit = millimetresPerImageJUnit(value);
            else if (key == "spacing")
                imageJZ = value.toDouble();
        }
    }
    double perResolutionUnit = 0.0; // mm per unit of the resolution tags
    if (imageJUnit > 0)
        perResolutionUnit = imageJUnit;
    else if (resolutionUnit == RESUNIT_CENTIMETER)
        perResolutionUnit = 10.0;
    else if (resolutionUnit == RESUNIT_INCH)
        perResolutionUnit = 25.4;
    if (hasResolution && perResolutionUnit > 0) {
        spacing[0] = perResolutionUnit / xResolution;
        spacing[1] = perResolutionUnit / yResolution;
    }
    if (imageJUnit > 0 && imageJZ > 0)
        spacing[2] = imageJZ * imageJUnit;
    return spacing;
}

// An in-memory file for libtiff's client I/O, so that a written TIFF is one
// block of bytes saved all or nothing.
struct MemoryFile {
    QByteArray bytes;
    qint64 position = 0;
};

tmsize_t memoryRead(thandle_t handle, void* buffer, tmsize_t size)
{
    auto* file = static_cast<MemoryFile*>(handle);
    const qint64 available = std::max<qint64>(0, file->bytes.size() - file->position);
    const qint64 count = std::min<qint64>(available, size);
    std::memcpy(buffer, file->bytes.constData() + file->position, size_t(count));
    file->position += count;
    return tmsize_t(count);
}

tmsize_t memoryWrite(thandle_t handle, void* buffer, tmsize_t size)
{
    auto* file = static_cast<MemoryFile*>(handle);
    const qint64 end = file->position + size;
    if (end > file->bytes.size())
        file->bytes.resize(end);
    std::memcpy(file->bytes.data() + file->position, buffer, size_t(size));
    file->position = end;
    return size;
}

toff_t memorySeek(thandle_t handle, toff_t offset, int whence)
{
    auto* file = static_cast<MemoryFile*>(handle);
    qint64 base = 0;
    if (whence == SEEK_CUR)
        base = file->position;
    else if (whence == SEEK_END)
        base = file->bytes.size();
    file->position = base + qint64(offset);
    return toff_t(file->position);
}

int memoryClose(thandle_t) { return 0; }
toff_t memorySize(thandle_t handle) { return toff_t(static_cast<MemoryFile*>(handle)->bytes.size()); }
int memoryMap(thandle_t, void**, toff_t*) { return 0; }
void memoryUnmap(thandle_t, void*, toff_t) {}

} // namespace

int tiffPageCount(const QString& path, int stopAt)
{
    TiffMessages messages;
    TiffPointer tiff = openTiff(path, messages);
    if (!tiff)
        return 0;
    int pages = 0;
    do {
        if (!isReducedImage(tiff.get()))
            ++pages;
    } while (pages < stopAt && TIFFReadDirectory(tiff.get()));
    return pages;
}

LumaImage readTiffStack(const QString& path)
{
    const std::string subject = "TIFF file " + quoted(path);
    requireReadableFile(path, subject);
    TiffMessages messages;
    TiffPointer tiff = openTiff(path, messages);
    if (!tiff)
        throw InputError("cannot read " + subject + ": not a readable TIFF file or corrupt ("
                         + (messages.lastError.empty() ? "libtiff could not open it" : messages.lastError) + ")");

    const std::array<double, 3> spacing = spacingOf(tiff.get());
    // Pages first (their number and layout), so that the size is known and
    // checked before any voxel is read.
    std::vector<tdir_t> pages;
    for (tdir_t directory = 0;; ++directory) {
        if (!isReducedImage(tiff.get()))
            pages.push_back(directory);
        if (!TIFFReadDirectory(tiff.get()))
            break;
    }
    if (pages.empty())
        throw InputError("cannot read " + subject + ": it holds no full-resolution page");

    PageLayout first;
    std::vector<uint8_t> voxels;
    for (size_t p = 0; p < pages.size(); ++p) {
        const int page = int(p);
        if (!TIFFSetDirectory(tiff.get(), pages[p]))
            throw InputError("cannot read " + subject + ": page " + std::to_string(page + 1) + " is corrupt ("
                             + messages.lastError + ")");
        const PageLayout layout = layoutOf(tiff.get(), subject, page);
        if (p == 0) {
            first = layout;
            requireVolumeSize(layout.width, layout.height, int64_t(pages.size()), subject);
            voxels.resize(layout.bytes() * pages.size());
        } else if (layout.width != first.width || layout.height != first.height) {
            throw InputError("cannot read " + subject + ": page " + std::to_string(page + 1) + " is "
                             + std::to_string(layout.width) + " x " + std::to_string(layout.height)
                             + " pixels, page 1 " + std::to_string(first.width) + " x "
                             + std::to_string(first.height) + " (all pages of a volume must be the same size)");
        } else if (!layout.sameAs(first)) {
            throw InputError("cannot read " + subject + ": page " + std::to_string(page + 1) + " holds "
                             + layout.describe() + " samples, page 1 " + first.describe());
        }
        uint8_t* pageVoxels = voxels.data() + p * first.bytes();
        messages.lastError.clear();
        const bool read = layout.reading == PageReading::Samples ? readSamples(tiff.get(), layout, pageVoxels)
                                                                  : readRgba(tiff.get(), layout, pageVoxels);
        if (!read)
            throw InputError("cannot read " + subject + ": page " + std::to_string(page + 1)
                             + " is truncated or corrupt"
                             + (messages.lastError.empty() ? std::string() : " (" + messages.lastError + ")"));
        invertMinIsWhite(layout, pageVoxels);
    }

    StoredVolume stored;
    stored.width = int(first.width);
    stored.height = int(first.height);
    stored.depth = int(pages.size());
    stored.channels = first.channels;
    stored.type = first.type;
    stored.data = voxels.data();
    LumaImage result = lumaOfStoredVolume(stored, subject);
    // Grey pages read through the RGBA conversion (1-bit, 4-bit) stay grey.
    result.colour = !first.isGrey();
    result.volume.spacing = spacing;
    result.volume.toWorld = scaledIdentity(spacing);
    result.volume.hasOrientation = false;
    result.volume.format = "TIFF stack";
    return result;
}

QByteArray tiffBytes(const VoxelsToWrite& voxels, const VolumeInfo& info, const QString& path)
{
    TiffMessages messages;
    MemoryFile file;
    // Classic TIFF addresses 4 GiB; above about 3.5 GiB of pixels write BigTIFF.
    const bool big = voxels.count() * uint64_t(voxels.bytesPerValue) > (uint64_t(7) << 29);
    TIFFOpenOptions* options = quietOptions(messages);
    TiffPointer tiff(TIFFClientOpenExt(QFile::encodeName(path).constData(), big ? "w8" : "w", &file, memoryRead,
                                       memoryWrite, memorySeek, memoryClose, memorySize, memoryMap, memoryUnmap,
                                       options));
    TIFFOpenOptionsFree(options);
    const auto failed = [&] {
        return InputError("cannot write " + quoted(path) + ": libtiff failed ("
                          + (messages.lastError.empty() ? "no reason given" : messages.lastError) + ")");
    };
    if (!tiff)
        throw failed();

    // ImageJ's description: Fiji, tifffile and napari read the stack's
    // slice count, unit and z spacing from it (x/y: pixels per unit).
    const QByteArray description = "ImageJ=1.11a\nimages=" + QByteArray::number(voxels.depth)
                                   + "\nslices=" + QByteArray::number(voxels.depth)
                                   + "\nunit=mm\nspacing=" + QByteArray::number(info.spacing[2], 'g', 17)
                                   + "\nloop=false\n";
    const size_t rowBytes = size_t(voxels.width) * size_t(voxels.bytesPerValue);
    std::vector<uint8_t> row(rowBytes);
    const auto* values = static_cast<const uint8_t*>(voxels.data);
    for (int z = 0; z < voxels.depth; ++z) {
        TIFF* t = tiff.get();
        TIFFSetField(t, TIFFTAG_SUBFILETYPE, FILETYPE_PAGE);
        TIFFSetField(t, TIFFTAG_IMAGEWIDTH, uint32_t(voxels.width));
        TIFFSetField(t, TIFFTAG_IMAGELENGTH, uint32_t(voxels.height));
        TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, uint16_t(8 * voxels.bytesPerValue));
        TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, uint16_t(1));
        TIFFSetField(t, TIFFTAG_SAMPLEFORMAT, uint16_t(SAMPLEFORMAT_UINT));
        TIFFSetField(t, TIFFTAG_PHOTOMETRIC, uint16_t(PHOTOMETRIC_MINISBLACK));
        TIFFSetField(t, TIFFTAG_PLANARCONFIG, uint16_t(PLANARCONFIG_CONTIG));
        TIFFSetField(t, TIFFTAG_COMPRESSION, uint16_t(COMPRESSION_ADOBE_DEFLATE));
        TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(t, 0));
        TIFFSetField(t, TIFFTAG_XRESOLUTION, float(1.0 / info.spacing[0]));
        TIFFSetField(t, TIFFTAG_YRESOLUTION, float(1.0 / info.spacing[1]));
        TIFFSetField(t, TIFFTAG_RESOLUTIONUNIT, uint16_t(RESUNIT_NONE));
        TIFFSetField(t, TIFFTAG_PAGENUMBER, uint16_t(std::min(z, 65535)), uint16_t(std::min(voxels.depth, 65535)));
        if (z == 0)
            TIFFSetField(t, TIFFTAG_IMAGEDESCRIPTION, description.constData());
        for (int y = 0; y < voxels.height; ++y) {
            std::memcpy(row.data(), values + (size_t(z) * size_t(voxels.height) + size_t(y)) * rowBytes, rowBytes);
            if (TIFFWriteScanline(t, row.data(), uint32_t(y), 0) < 0)
                throw failed();
        }
        if (!TIFFWriteDirectory(t))
            throw failed();
    }
    tiff.reset(); // TIFFClose flushes the last directory into `file`
    return file.bytes;
}

} // namespace rgx::volume
