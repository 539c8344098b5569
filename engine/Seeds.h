// Seed points: parsing, seed files (DESIGN.md format) and the checks of SPEC.md.
#pragma once

#include "ParameterCodec.h"
#include <QString>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rgx {

// A seed pixel, or a voxel of a volume (z: its slice; 0 for images).
struct Seed {
    int x = 0;
    int y = 0;
    int z = 0;
    bool operator==(const Seed& other) const { return x == other.x && y == other.y && z == other.z; }
};

constexpr int maxSeeds = 65535;

// "x,y;x,y" (or "x,y,z;..." for volumes) as given to --seeds; throws
// InputError naming the bad entry.
std::vector<Seed> parseSeedList(const std::string& text);

// Seeds file text: one seed a line, "x y" or "x,y" (volumes: "x y z" or
// "x,y,z"); '#' starts a comment.
std::vector<Seed> parseSeedsText(const std::string& text, const std::string& origin);
std::vector<Seed> readSeedsFile(const QString& path);      // throws InputError
// Readable by parseSeedsText; "x y z" lines when any seed has z != 0.
std::string formatSeedsText(const std::vector<Seed>& seeds);
// The same with a "# parameters:" line that suggests params (below).
std::string formatSeedsText(const std::vector<Seed>& seeds, const PipelineParams& params);

// The parameters a seeds file suggests for its seeds: a comment line
// "# parameters: --mode adaptive --tolerance 45" with options of rgx-cli
// segment (ParameterCodec.h), each checked as the command line checks it.
// nullopt when there is no such line; InputError, naming the file, for one
// that cannot be read. applyParameters sets them; the rest keep their values.
std::optional<std::vector<ParameterAssignment>> parseSuggestedParameters(const std::string& text,
                                                                         const std::string& origin);
std::optional<std::vector<ParameterAssignment>> readSuggestedParameters(const QString& path);

// The luma of each seed's voxel in a width x height (x depth) volume, in
// seed order (x fastest, then y, then z).
std::vector<uint32_t> seedLumaOf(const std::vector<Seed>& seeds, const std::vector<uint16_t>& luma, int width,
                                 int height = 0);

// Index of a seed's voxel, x fastest, then y, then z.
inline uint64_t seedIndex(const Seed& seed, int width, int height)
{
    return (uint64_t(seed.z) * uint64_t(height) + uint64_t(seed.y)) * uint64_t(width) + uint64_t(seed.x);
}

// Throws InputError naming the first offending seed: none at all, more than
// 65535, outside a width x height (x depth) image or volume, or on the
// pixel of an earlier seed.
void validateSeeds(const std::vector<Seed>& seeds, int width, int height, int depth = 1);

} // namespace rgx
