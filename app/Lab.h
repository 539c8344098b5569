// rgx-cli lab binary-search: the seed sample's second example, on the command line.
#pragma once

#include <string>
#include <vector>

namespace rgx {

// Arguments after "lab"; returns the exit code (4 when a key is wrong).
int commandLab(const std::vector<std::string>& arguments);

} // namespace rgx
