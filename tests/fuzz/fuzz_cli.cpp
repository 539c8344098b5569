// The rgx-cli argument list, parsed as rgx-cli parses it up to the point
// where it would open a file or a device: lines of the input are the
// arguments, the first names the command. Bad arguments are refused with
// InputError (exit 2); nothing else may happen.
#include "CliOptions.h"
#include "Errors.h"
#include "FuzzSupport.h"
#include "Seeds.h"
#include "SegmentOptions.h"
#include "Variant.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
    std::vector<std::string> arguments;
    for (std::string line; std::getline(lines, line);)
        arguments.push_back(line);
    if (arguments.empty())
        return 0;
    const std::string command = arguments.front();
    const std::vector<std::string> rest(arguments.begin() + 1, arguments.end());
    try {
        if (command == "devices") {
            (void)rgx::CliOptions("devices", rest, {}, {"--json"});
        } else if (command == "variants") {
            (void)rgx::CliOptions("variants", rest, {"--device"}, {"--json"});
        } else {
            const rgx::CliOptions options = rgx::segmentOptions(rest);
            (void)rgx::pipelineParams(options);
            if (options.has("--seeds"))
                (void)rgx::parseSeedList(options.value("--seeds"));
            (void)rgx::parseVariant(options.value("--variant"));
            (void)options.decimal("--timeout", 120.0, 0.0);
        }
    } catch (const rgx::InputError&) {
    }
    return 0;
}
