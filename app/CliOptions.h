// Command-line parsing for rgx-cli: "--name value" pairs and flags, with one
// clear error for anything unknown or incomplete.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace rgx {

class CliOptions {
public:
    // command: the command these options belong to, named in the errors;
    // valued: options that take a value; flags: options that do not.
    // Throws InputError for an unknown option, a missing value or a repeat.
    CliOptions(const std::string& command, const std::vector<std::string>& arguments,
               const std::set<std::string>& valued,
               const std::set<std::string>& flags);

    bool has(const std::string& name) const;
    std::string value(const std::string& name, const std::string& fallback = {}) const;
    // Whole numbers and decimals, with the option named in the error.
    long integer(const std::string& name, long fallback, long minimum, long maximum) const;
    double decimal(const std::string& name, double fallback, double minimum) const;

private:
    std::map<std::string, std::string> values_;
};

} // namespace rgx
