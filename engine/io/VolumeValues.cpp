// The shared rule from stored voxel values to luma (VolumeValues.h), written
// once so that NIfTI, DICOM and TIFF volumes of the same values read the same.
#include "io/VolumeValues.h"

#include "Errors.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace rgx::volume {

namespace {

constexpr uint64_t maxVoxels = 0xFFFFFFFFull; // 2^32 - 1: stamps and indices stay 32-bit

template <typename T>
T loadSample(const uint8_t* bytes)
{
    T value;
    std::memcpy(&value, bytes, sizeof value);
    return value;
}

// Calls visit(T{}) with the C++ type of a sample type.
template <typename Visit>
decltype(auto) withSampleType(SampleType type, Visit visit)
{
    switch (type) {
    case SampleType::UInt8: return visit(uint8_t{});
    case SampleType::Int8: return visit(int8_t{});
    case SampleType::UInt16: return visit(uint16_t{});
    case SampleType::Int16: return visit(int16_t{});
    case SampleType::UInt32: return visit(uint32_t{});
    case SampleType::Int32: return visit(int32_t{});
    case SampleType::UInt64: return visit(uint64_t{});
    case SampleType::Int64: break;
    }
    return visit(int64_t{});
}

struct Range {
    __int128 min = 0;
    __int128 max = 0;
};

std::string text(__int128 value)
{
    // Every value printed here fits int64 (stored values do; rescaled ones
    // are products of two int64 and may not, which is then said plainly).
    if (value > std::numeric_limits<int64_t>::max())
        return "more than 2^63";
    if (value < std::numeric_limits<int64_t>::min())
        return "less than -2^63";
    return std::to_string(int64_t(value));
}

// The smallest and largest stored sample of one slice.
Range storedRangeOf(const uint8_t* slice, size_t count, SampleType type)
{
    return withSampleType(type, [&](auto sample) {
        using T = decltype(sample);
        T low = std::numeric_limits<T>::max();
        T high = std::numeric_limits<T>::lowest();
        for (size_t i = 0; i < count; ++i) {
            const T value = loadSample<T>(slice + i * sizeof(T));
            low = std::min(low, value);
            high = std::max(high, value);
        }
        return Range{__int128(low), __int128(high)};
    });
}

Range rescaled(Range stored, Rescale rescale)
{
    __int128 a = stored.min * rescale.slope + rescale.intercept;
    __int128 b = stored.max * rescale.slope + rescale.intercept;
    return Range{std::min(a, b), std::max(a, b)};
}

std::string rescaleText(const StoredVolume& stored)
{
    const Rescale& first = stored.sliceRescale.front();
    const bool same = std::all_of(stored.sliceRescale.begin(), stored.sliceRescale.end(), [&](const Rescale& r) {
        return r.slope == first.slope && r.intercept == first.intercept;
    });
    if (!same)
        return " after each slice's rescale";
    return " after the rescale slope " + std::to_string(first.slope) + " and intercept "
           + std::to_string(first.intercept);
}

LumaImage colourLuma(const StoredVolume& stored, const std::string& subject)
{
    if (stored.type != SampleType::UInt8 && stored.type != SampleType::UInt16)
        throw InputError("cannot read " + subject + ": colour voxels of " + sampleTypeName(stored.type)
                         + " samples (RGX reads unsigned 8- or 16-bit colour)");
    for (const Rescale& rescale : stored.sliceRescale) {
        if (!rescale.isIdentity())
            throw InputError("cannot read " + subject + ": a colour volume with a rescale slope or intercept");
    }
    LumaImage image;
    image.width = stored.width;
    image.height = stored.height;
    image.depth = stored.depth;
    image.colour = true;
    image.bitDepth = stored.type == SampleType::UInt8 ? 8 : 16;
    const size_t voxels = size_t(stored.width) * size_t(stored.height) * size_t(stored.depth);
    image.luma.resize(voxels);
    const auto* bytes = static_cast<const uint8_t*>(stored.data);
    const size_t channels = size_t(stored.channels);
    withSampleType(stored.type, [&](auto sample) {
        using T = decltype(sample);
        for (size_t i = 0; i < voxels; ++i) {
            const uint8_t* voxel = bytes + i * channels * sizeof(T);
            image.luma[i] = lumaOfRgb(loadSample<T>(voxel), loadSample<T>(voxel + sizeof(T)),
                                      loadSample<T>(voxel + 2 * sizeof(T)));
        }
        return 0;
    });
    return image;
}

} // namespace

size_t sampleBytes(SampleType type)
{
    return withSampleType(type, [](auto sample) { return sizeof(sample); });
}

bool isSigned(SampleType type)
{
    return withSampleType(type, [](auto sample) { return std::is_signed_v<decltype(sample)>; });
}

std::string sampleTypeName(SampleType type)
{
    return std::string(isSigned(type) ? "signed " : "unsigned ") + std::to_string(8 * sampleBytes(type)) + "-bit";
}

std::optional<Rescale> integerRescale(double slope, double intercept)
{
    // Beyond 2^53 doubles hold only even integers; such a rescale maps
    // nothing into 16 bits anyway, so it is refused as not integer.
    constexpr double limit = 9007199254740992.0; // 2^53
    if (!std::isfinite(slope) || !std::isfinite(intercept) || std::fabs(slope) > limit
        || std::fabs(intercept) > limit)
        return std::nullopt;
    if (slope != std::trunc(slope) || intercept != std::trunc(intercept))
        return std::nullopt;
    return Rescale{int64_t(slope), int64_t(intercept)};
}

LumaImage lumaOfStoredVolume(const StoredVolume& stored, const std::string& subject)
{
    requireVolumeSize(stored.width, stored.height, stored.depth, subject);
    if (stored.sliceRescale.size() != 1 && stored.sliceRescale.size() != size_t(stored.depth))
        throw std::logic_error("lumaOfStoredVolume: one rescale, or one per slice");
    if (stored.channels == 3 || stored.channels == 4)
        return colourLuma(stored, subject);
    if (stored.channels != 1)
        throw InputError("cannot read " + subject + ": " + std::to_string(stored.channels)
                         + " samples per voxel (RGX reads grey, RGB or RGBA)");

    const auto* bytes = static_cast<const uint8_t*>(stored.data);
    const size_t sliceVoxels = size_t(stored.width) * size_t(stored.height);
    const size_t sliceBytes = sliceVoxels * sampleBytes(stored.type);
    const auto rescaleOf = [&](int z) {
        return stored.sliceRescale.size() == 1 ? stored.sliceRescale.front() : stored.sliceRescale[size_t(z)];
    };
    const bool anyRescale = std::any_of(stored.sliceRescale.begin(), stored.sliceRescale.end(),
                                        [](const Rescale& r) { return !r.isIdentity(); });

    LumaImage image;
    image.width = stored.width;
    image.height = stored.height;
    image.depth = stored.depth;
    image.colour = false;

    const bool narrow = sampleBytes(stored.type) <= 2;
    if (narrow && !anyRescale) {
        // The type decides, whatever the values: CT stored as signed 16-bit
        // always reads as HU + 32768, so a range typed for one scan fits all.
        image.bitDepth = stored.type == SampleType::UInt8 || stored.type == SampleType::Int8 ? 8 : 16;
        image.volume.valueShift = !isSigned(stored.type) ? 0 : image.bitDepth == 8 ? 128 : 32768;
    } else {
        Range values{};
        for (int z = 0; z < stored.depth; ++z) {
            const Range slice = rescaled(storedRangeOf(bytes + size_t(z) * sliceBytes, sliceVoxels, stored.type),
                                         rescaleOf(z));
            values = z == 0 ? slice : Range{std::min(values.min, slice.min), std::max(values.max, slice.max)};
        }
        if (values.min >= 0 && values.max <= 65535) {
            image.bitDepth = values.max <= 255 ? 8 : 16;
            image.volume.valueShift = 0;
        } else if (values.min >= -32768 && values.max <= 32767) {
            image.bitDepth = 16;
            image.volume.valueShift = 32768;
        } else {
            throw InputError("cannot read " + subject + ": its " + sampleTypeName(stored.type) + " values run from "
                             + text(values.min) + " to " + text(values.max)
                             + (anyRescale ? rescaleText(stored) : std::string())
                             + ", which fit neither 0..65535 nor -32768..32767 (RGX holds 16-bit values)");
        }
    }

    image.luma.resize(sliceVoxels * size_t(stored.depth));
    const int32_t shift = image.volume.valueShift;
    withSampleType(stored.type, [&](auto sample) {
        using T = decltype(sample);
        for (int z = 0; z < stored.depth; ++z) {
            const uint8_t* slice = bytes + size_t(z) * sliceBytes;
            uint16_t* out = image.luma.data() + size_t(z) * sliceVoxels;
            const Rescale rescale = rescaleOf(z);
            if (rescale.isIdentity()) {
                for (size_t i = 0; i < sliceVoxels; ++i)
                    out[i] = uint16_t(int64_t(loadSample<T>(slice + i * sizeof(T))) + shift);
            } else {
                for (size_t i = 0; i < sliceVoxels; ++i) {
                    const __int128 value =
                        __int128(loadSample<T>(slice + i * sizeof(T))) * rescale.slope + rescale.intercept;
                    out[i] = uint16_t(int64_t(value) + shift);
                }
            }
        }
        return 0;
    });
    return image;
}

void requireVolumeSize(int64_t width, int64_t height, int64_t depth, const std::string& subject)
{
    const std::string size = std::to_string(width) + " x " + std::to_string(height) + " x " + std::to_string(depth);
    if (width < 1 || height < 1 || depth < 1)
        throw InputError("cannot read " + subject + ": it is " + size + " voxels (empty)");
    if (width > INT_MAX || height > INT_MAX || depth > INT_MAX)
        throw InputError("cannot read " + subject + ": it is " + size + " voxels, a side longer than "
                         + std::to_string(INT_MAX));
    const unsigned __int128 voxels = (unsigned __int128)(width) * uint64_t(height) * uint64_t(depth);
    if (voxels > maxVoxels) {
        throw InputError("cannot read " + subject + ": it is " + size + " = " + text(__int128(voxels))
                         + " voxels, more than RGX's limit of 4294967295 (2^32 - 1)");
    }
}

bool naturalLess(const QString& a, const QString& b)
{
    qsizetype i = 0;
    qsizetype j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            qsizetype endA = i;
            qsizetype endB = j;
            while (endA < a.size() && a[endA].isDigit())
                ++endA;
            while (endB < b.size() && b[endB].isDigit())
                ++endB;
            // Compare the numbers without their leading zeros: longer is larger.
            qsizetype startA = i;
            qsizetype startB = j;
            while (startA + 1 < endA && a[startA] == '0')
                ++startA;
            while (startB + 1 < endB && b[startB] == '0')
                ++startB;
            const QStringView numberA = QStringView(a).mid(startA, endA - startA);
            const QStringView numberB = QStringView(b).mid(startB, endB - startB);
            if (numberA.size() != numberB.size())
                return numberA.size() < numberB.size();
            const int order = numberA.compare(numberB);
            if (order != 0)
                return order < 0;
            i = endA;
            j = endB;
            continue;
        }
        const int order = QString::compare(QString(a[i]), QString(b[j]), Qt::CaseInsensitive);
        if (order != 0)
            return order < 0;
        ++i;
        ++j;
    }
    if ((a.size() - i) != (b.size() - j))
        return (a.size() - i) < (b.size() - j);
    return a < b; // equal as a person reads them ("01" and "1"): any fixed order
}

std::string decimal(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", value);
    return text;
}

std::array<double, 16> scaledIdentity(const std::array<double, 3>& spacing)
{
    return {spacing[0], 0, 0, 0, 0, spacing[1], 0, 0, 0, 0, spacing[2], 0, 0, 0, 0, 1};
}

} // namespace rgx::volume
