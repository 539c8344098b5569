// What a pipeline run is asked to do (DESIGN.md): the prefilter, the
// region-growing parameters and the postfilter, with their text forms and
// limits. Data only: the runs are in Pipeline.h and DeviceSession.h.
#pragma once

#include "GrowParams.h"
#include <string>

namespace rgx {

// Limits that keep the filters' integer arithmetic exact (docs/STAGES.md):
// a boxmean window sum of 16-bit luma stays below 2^32, a gaussian sum below 2^64.
constexpr int maxBoxMeanWindow = 255;
constexpr int maxGaussianRadius = 12;

struct PrefilterSpec {
    enum class Kind { None, BoxMean, Gaussian } kind = Kind::None;
    int size = 0;             // boxmean: window W; gaussian: radius R
    std::string variant;      // stage variant name (StageVariants.h); empty: the stage's default
};

struct PostfilterSpec {
    bool enabled = false;     // density:W:MIN
    int window = 0;
    int minimum = 0;
    std::string variant;      // stage variant name; empty: the stage's default
};

struct PipelineParams {
    PrefilterSpec prefilter;
    GrowParams grow;
    PostfilterSpec postfilter;
};

// "none", "boxmean:W", "gaussian:R", each optionally with ":VARIANT"
// ("boxmean:5:direct"); throws InputError naming what is wrong.
PrefilterSpec parsePrefilter(const std::string& text);
// "none", "density:W:MIN", optionally "density:W:MIN:VARIANT".
PostfilterSpec parsePostfilter(const std::string& text);
// The forms above; the variant part only where one is chosen.
std::string prefilterText(const PrefilterSpec& spec);
std::string postfilterText(const PostfilterSpec& spec);

// Throws InputError for filter sizes outside their limits or unknown stage
// variant names (parse* check the same; this covers specs built in code).
void checkFilters(const PipelineParams& params);
// The same, and that a volume (depth > 1) has no filter: the filters are 2D.
void checkFilters(const PipelineParams& params, int depth);


} // namespace rgx
