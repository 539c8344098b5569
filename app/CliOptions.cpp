// rgx-cli option parsing.
#include "CliOptions.h"
#include "Errors.h"

#include <cmath>

namespace rgx {

CliOptions::CliOptions(const std::string& command, const std::vector<std::string>& arguments,
                       const std::set<std::string>& valued,
                       const std::set<std::string>& flags)
{
    for (size_t i = 0; i < arguments.size(); ++i) {
        std::string name = arguments[i];
        std::string value;
        bool inlineValue = false;
        if (name.rfind("--", 0) != 0)
            throw InputError("unexpected argument '" + name + "' (options start with --)");
        const size_t equals = name.find('=');
        if (equals != std::string::npos) {
            value = name.substr(equals + 1);
            name = name.substr(0, equals);
            inlineValue = true;
        }
        if (values_.count(name))
            throw InputError("option " + name + " given twice");
        if (flags.count(name)) {
            if (inlineValue)
                throw InputError("option " + name + " takes no value");
            values_[name] = "";
        } else if (valued.count(name)) {
            if (!inlineValue) {
                if (i + 1 >= arguments.size())
                    throw InputError("option " + name + " needs a value");
                value = arguments[++i];
            }
            values_[name] = value;
        } else {
            throw InputError("unknown option " + name + " for " + command + " (rgx-cli " + command +
                             " --help lists its options)");
        }
    }
}

bool CliOptions::has(const std::string& name) const
{
    return values_.count(name) > 0;
}

std::string CliOptions::value(const std::string& name, const std::string& fallback) const
{
    auto found = values_.find(name);
    return found == values_.end() ? fallback : found->second;
}

long CliOptions::integer(const std::string& name, long fallback, long minimum, long maximum) const
{
    if (!has(name))
        return fallback;
    const std::string text = value(name);
    try {
        size_t used = 0;
        const long number = std::stol(text, &used);
        if (used == text.size() && number >= minimum && number <= maximum)
            return number;
    } catch (const std::exception&) {
    }
    throw InputError("option " + name + " needs a whole number from " + std::to_string(minimum) +
                     " to " + std::to_string(maximum) + ", not '" + text + "'");
}

double CliOptions::decimal(const std::string& name, double fallback, double minimum) const
{
    if (!has(name))
        return fallback;
    const std::string text = value(name);
    try {
        size_t used = 0;
        const double number = std::stod(text, &used);
        if (used == text.size() && std::isfinite(number) && number >= minimum)
            return number;
    } catch (const std::exception&) {
    }
    throw InputError("option " + name + " needs a number >= " + std::to_string(int(minimum)) +
                     ", not '" + text + "'");
}

} // namespace rgx
