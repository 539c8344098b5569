// Stored voxel values of any integer width turned into RGX's 16-bit luma, the
// one rule every volume reader shares (docs/VOLUMES.md): a file's rescale is
// applied where it maps integers to integers, then signed values are shifted.
#pragma once

#include "Image.h"

#include <QString>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rgx::volume {

// How one stored sample is laid out in memory (host byte order).
enum class SampleType { UInt8, Int8, UInt16, Int16, UInt32, Int32, UInt64, Int64 };

size_t sampleBytes(SampleType type);
bool isSigned(SampleType type);
// "signed 16-bit" and so on, for messages.
std::string sampleTypeName(SampleType type);

// value = stored * slope + intercept, in integers.
struct Rescale {
    int64_t slope = 1;
    int64_t intercept = 0;
    bool isIdentity() const { return slope == 1 && intercept == 0; }
};

// A file's rescale as integers, or nothing when it would turn integers into
// fractions (a slope or intercept that is not a whole number).
std::optional<Rescale> integerRescale(double slope, double intercept);

// Voxels as a file stores them: width x height x depth voxels of `channels`
// interleaved samples each (1 grey, 3 RGB, 4 RGBA), x fastest, then y, then z.
// `data` stays owned by the caller. `sliceRescale` holds one rescale for all
// slices or one per slice (DICOM gives each file its own).
struct StoredVolume {
    int width = 0;
    int height = 0;
    int depth = 0;
    int channels = 1;
    SampleType type = SampleType::UInt8;
    const void* data = nullptr;
    std::vector<Rescale> sliceRescale{Rescale{}};
};

// The luma of SPEC.md for a stored volume, with bitDepth, colour and
// volume.valueShift set (spacing and orientation are the caller's):
// - unsigned 8- and 16-bit samples without rescale: as they are;
// - signed 8- and 16-bit samples without rescale: + 128 / + 32768;
// - anything else (wider samples, or rescaled values): as they are when all
//   lie in 0..65535, + 32768 when all lie in -32768..32767, else refused;
// - colour (3 or 4 channels, unsigned 8- or 16-bit): SPEC's luma formula.
// `subject` names the file in messages ("NIfTI file '/a/b.nii'").
LumaImage lumaOfStoredVolume(const StoredVolume& stored, const std::string& subject);

// Refuses (InputError naming subject) a volume of more than 2^32 - 1 voxels,
// or with a dimension below 1 or above INT_MAX, before anything is allocated.
void requireVolumeSize(int64_t width, int64_t height, int64_t depth, const std::string& subject);

// Orders file names as a person counts: "slice2" before "slice10".
bool naturalLess(const QString& a, const QString& b);

// (77 R + 150 G + 29 B + 128) >> 8 (SPEC.md), on 8- or 16-bit channels.
inline uint16_t lumaOfRgb(uint32_t red, uint32_t green, uint32_t blue)
{
    return uint16_t((77u * red + 150u * green + 29u * blue + 128u) >> 8);
}

// A number as a person writes it ("0.5", "-1024", "1e-06"), for messages.
std::string decimal(double value);

// A voxel-to-world matrix (row-major 4x4) scaling voxel indices by the
// spacing: what a volume without orientation gets.
std::array<double, 16> scaledIdentity(const std::array<double, 3>& spacing);

} // namespace rgx::volume
