// Seed points: parsing, seed files (DESIGN.md format) and the checks of SPEC.md.
#pragma once

#include "ParameterCodec.h"
#include <QString>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rgx {

struct Seed {
    int x = 0;
    int y = 0;
    bool operator==(const Seed& other) const { return x == other.x && y == other.y; }
};

constexpr int maxSeeds = 65535;

// "x,y;x,y" as given to --seeds; throws InputError naming the bad entry.
std::vector<Seed> parseSeedList(const std::string& text);

// Seeds file text: one seed a line, "x y" or "x,y"; '#' starts a comment.
std::vector<Seed> parseSeedsText(const std::string& text, const std::string& origin);
std::vector<Seed> readSeedsFile(const QString& path);      // throws InputError
std::string formatSeedsText(const std::vector<Seed>& seeds); // readable by parseSeedsText
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

// The luma of each seed's pixel in a width-pixels-wide image, in seed order.
std::vector<uint32_t> seedLumaOf(const std::vector<Seed>& seeds, const std::vector<uint16_t>& luma, int width);

// Throws InputError naming the first offending seed: none at all, more than
// 65535, outside a width x height image, or on the pixel of an earlier seed.
void validateSeeds(const std::vector<Seed>& seeds, int width, int height);

} // namespace rgx
