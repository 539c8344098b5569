// The options of `rgx-cli segment` and the pipeline parameters they give,
// apart from running anything (the fuzz target tests/fuzz/fuzz_cli.cpp
// parses them as rgx-cli does).
#pragma once

#include "CliOptions.h"
#include "Pipeline.h"

#include <string>
#include <vector>

namespace rgx {

// The option table of segment; throws InputError for an unknown option, a
// missing value or a repeat.
CliOptions segmentOptions(const std::vector<std::string>& arguments);

// --mode, --rule, --tolerance, --lower, --upper, --connectivity,
// --max-iterations, --prefilter, --postfilter; throws InputError naming the
// option that is wrong.
PipelineParams pipelineParams(const CliOptions& options);

} // namespace rgx
