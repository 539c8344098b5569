// rgx-cli segment --check-races: the same pipeline and variant run under
// Oclgrind's race and divergence detectors, on the image cut down to a
// size the simulator finishes quickly.
#pragma once

#include "Image.h"
#include "Seeds.h"
#include <QString>
#include <string>
#include <vector>

namespace rgx {

struct RaceReport {
    std::string kernel;
    std::string location; // "file:line"
    std::string kind;     // e.g. "read-write data race (local memory)"
};

// The part of the image (at most side x side pixels, around the first
// seed) that is checked, and the seeds inside it, moved with it.
struct RaceCheckInput {
    LumaImage image;
    std::vector<Seed> seeds;
    int left = 0;
    int top = 0;
};
RaceCheckInput cutDownForRaceCheck(const LumaImage& image, const std::vector<Seed>& seeds, int side = 32);

// Parses Oclgrind's diagnostics; identical reports are merged.
std::vector<RaceReport> parseOclgrindReport(const std::string& output);

// Runs `oclgrind --data-races <rgx-cli> segment ...` with the given segment
// options (everything but the image, seeds and device). cliPath: the
// rgx-cli executable (rgx-cli passes itself; the GUI the one beside it).
// Throws OpenClError when Oclgrind is missing or fails.
std::vector<RaceReport> checkRaces(const RaceCheckInput& input, const std::vector<std::string>& segmentOptions,
                                   const QString& cliPath);

} // namespace rgx
