// The options of rgx-cli segment, parsed into pipeline parameters.
#include "SegmentOptions.h"
#include "Errors.h"

namespace rgx {

CliOptions segmentOptions(const std::vector<std::string>& arguments)
{
    return CliOptions("segment", arguments,
                      {"--image", "--seeds", "--seeds-file", "--mode", "--tolerance", "--lower", "--upper",
                       "--rule", "--connectivity", "--max-iterations", "--prefilter", "--postfilter", "--device",
                       "--variant", "--timeout", "--out-labels", "--out-stamps", "--out-overlay", "--timings"},
                      {"--verify", "--check-races"});
}

PipelineParams pipelineParams(const CliOptions& options)
{
    PipelineParams params;
    params.grow.mode = parseMode(options.value("--mode", "competitive"));
    params.grow.rule = parseRule(options.value("--rule", "adjacent"));
    params.grow.tolerance = options.decimal("--tolerance", 0.0, 0.0);
    params.grow.lower = uint32_t(options.integer("--lower", 0, 0, 65535));
    params.grow.upper = uint32_t(options.integer("--upper", 0, 0, 65535));
    const long connectivity = options.integer("--connectivity", 4, 4, 8);
    if (connectivity != 4 && connectivity != 8)
        throw InputError("option --connectivity needs 4 or 8, not " + std::to_string(connectivity));
    params.grow.connectivity = int(connectivity);
    params.grow.maxIterations = uint32_t(options.integer("--max-iterations", 0, 0, 0xFFFFFFFEl));
    params.prefilter = parsePrefilter(options.value("--prefilter", "none"));
    params.postfilter = parsePostfilter(options.value("--postfilter", "none"));
    return params;
}

} // namespace rgx
