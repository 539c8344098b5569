// The one table of a run's parameters: each field's option name, session
// key, limits and text form. The command line, a seeds file's
// "# parameters:" line, the session file, the parameters panel's limits, the
// command line the explorer hands to rgx-cli and the explorer's cache keys
// are all made from it, so a value one of them accepts the others accept,
// and a bad value gets the same message everywhere.
#pragma once

#include "PipelineParams.h"

#include <string>
#include <string_view>
#include <vector>

namespace rgx {

struct ParameterField {
    enum class Id { Mode, Tolerance, Lower, Upper, Rule, Connectivity, MaxIterations, Prefilter, Postfilter };
    enum class Kind {
        Word,    // one of `choices` (mode, rule)
        Count,   // one of `choices`, a number (connectivity)
        Whole,   // a whole number from minimum to maximum
        Decimal, // a number from minimum to maximum
        Filter,  // a filter spec (PipelineParams.h)
    };
    Id id;
    std::string_view option;  // "--lower"
    std::string_view key;     // "lower": the session file's name
    std::string_view meaning; // "range mode: accept luma >= seed luma - LO"
    Kind kind;
    double minimum = 0;       // Whole and Decimal
    double maximum = 0;
    std::vector<std::string> choices; // Word and Count

    bool isNumber() const { return kind == Kind::Count || kind == Kind::Whole || kind == Kind::Decimal; }
};

// Every field, in the command line's order.
const std::vector<ParameterField>& parameterFields();
// The field named by its option ("--lower") or session key ("lower"); null
// where there is none.
const ParameterField* findParameterField(std::string_view name);
// As findParameterField, but throws InputError naming the known options.
const ParameterField& parameterField(std::string_view name);

// Sets one field from its text. Throws InputError with the one message every
// entry point gives, e.g. "option --lower needs a whole number from 0 to
// 65535, not '-1'" (callers put where the text came from in front).
void setParameter(PipelineParams& params, const ParameterField& field, const std::string& text);
// The field's text form, which setParameter reads back to the same value.
std::string parameterText(const PipelineParams& params, const ParameterField& field);
// The shortest text that reads back as exactly this number ("45", "0.5").
std::string numberText(double value);

// Every field as rgx-cli segment options: {"--mode", "range", "--tolerance", ...}.
std::vector<std::string> parameterArguments(const PipelineParams& params);
// The same in one line, as a seeds file's "# parameters:" line holds it.
std::string parameterLine(const PipelineParams& params);
// The fields whose values differ, by option name.
std::vector<std::string_view> changedParameters(const PipelineParams& before, const PipelineParams& after);
bool sameParameters(const PipelineParams& a, const PipelineParams& b);

// One "# parameters:" assignment of a seeds file, checked.
struct ParameterAssignment {
    const ParameterField* field;
    std::string text;
};
// Reads "--mode adaptive --tolerance 45" (the options of parameterArguments);
// throws InputError for an unknown option, a missing value or a bad one.
std::vector<ParameterAssignment> parseParameterWords(const std::string& words);
PipelineParams applyParameters(PipelineParams params, const std::vector<ParameterAssignment>& assignments);

} // namespace rgx
