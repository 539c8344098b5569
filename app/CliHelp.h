// What each rgx-cli command does and takes, for `rgx-cli COMMAND --help` and
// `rgx-cli help COMMAND`.
#pragma once

#include <optional>
#include <string>

namespace rgx {

// The help of one command (devices, variants, segment, lab, bench); nullopt
// for an unknown one.
std::optional<std::string> commandHelp(const std::string& command);

// Whether the arguments after a command ask for its help.
bool asksForHelp(int argc, const std::string* arguments);

} // namespace rgx
