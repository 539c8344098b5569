// Parameters of seeded region growing, exactly as ../shared/SPEC.md names them.
#pragma once

#include <cstdint>
#include <string>

namespace rgx {

enum class Mode { Competitive, Adaptive, Range };
enum class Rule { Adjacent, All };

struct GrowParams {
    Mode mode = Mode::Competitive;
    double tolerance = 0.0;   // adaptive: accept when D <= floor(tolerance * 256)
    uint32_t lower = 0;       // range: S_k - lower <= L(p)
    uint32_t upper = 0;       // range: L(p) <= S_k + upper
    Rule rule = Rule::Adjacent;
    int connectivity = 4;     // 4 or 8; volumes 6, 18 or 26 (SPEC "Volumes (3D)")
    uint32_t maxIterations = 0; // 0: no cap but the pixel count (a correct run never needs more)

    // The adaptive threshold in the fixed-point units of D_k(p).
    uint64_t toleranceThreshold() const;
    // The cap in force for an image of pixelCount pixels.
    uint32_t iterationCap(uint64_t pixelCount) const;
};

std::string modeName(Mode mode);
std::string ruleName(Rule rule);
Mode parseMode(const std::string& text);   // throws InputError
// Throws InputError unless `connectivity` is one of SPEC's for a volume of
// `depth` slices (depth 1: an image): 4 and 8 only for depth 1.
void checkConnectivity(int connectivity, int depth);
Rule parseRule(const std::string& text);   // throws InputError

} // namespace rgx
