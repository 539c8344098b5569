// The options of rgx-cli segment, parsed into pipeline parameters.
#include "SegmentOptions.h"
#include "Errors.h"
#include "ParameterCodec.h"

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
    for (const ParameterField& field : parameterFields())
        if (options.has(std::string(field.option)))
            setParameter(params, field, options.value(std::string(field.option)));
    return params;
}

} // namespace rgx
