// The parameter table and its text forms.
#include "ParameterCodec.h"
#include "Errors.h"

#include <charconv>
#include <cmath>
#include <sstream>

namespace rgx {
namespace {

using Id = ParameterField::Id;
using Kind = ParameterField::Kind;

std::vector<ParameterField> makeFields()
{
    // A tolerance or range of 65535 already takes every 16-bit luma value,
    // so the upper limits lose nothing (SPEC.md: luma is 16-bit).
    return {
        {Id::Mode, "--mode", "mode", "how a pixel picks its region", Kind::Word, 0, 0,
         {"competitive", "adaptive", "range"}},
        {Id::Tolerance, "--tolerance", "tolerance",
         "adaptive mode: accept a pixel within this many luma units of its region's mean", Kind::Decimal, 0, 65535, {}},
        {Id::Lower, "--lower", "lower", "range mode: accept luma >= seed luma - LO", Kind::Whole, 0, 65535, {}},
        {Id::Upper, "--upper", "upper", "range mode: accept luma <= seed luma + UP", Kind::Whole, 0, 65535, {}},
        {Id::Rule, "--rule", "rule", "which neighbours a pixel compares with", Kind::Word, 0, 0, {"adjacent", "all"}},
        {Id::Connectivity, "--connectivity", "connectivity",
         "neighbours of a pixel (4, 8) or of a voxel of a volume (6, 18, 26)", Kind::Count, 0, 0,
         {"4", "8", "6", "18", "26"}},
        {Id::MaxIterations, "--max-iterations", "maxIterations", "stop after N iterations (0: no cap)", Kind::Whole,
         0, 4294967294.0, {}},
        {Id::Prefilter, "--prefilter", "prefilter", "none, boxmean:W or gaussian:R, optionally :VARIANT",
         Kind::Filter, 0, 0, {}},
        {Id::Postfilter, "--postfilter", "postfilter", "none or density:W:MIN, optionally :VARIANT", Kind::Filter, 0,
         0, {}},
    };
}

std::string joined(const std::vector<std::string>& words, const std::string& last)
{
    std::string text;
    for (size_t i = 0; i < words.size(); ++i)
        text += (i == 0 ? "" : i + 1 == words.size() ? " " + last + " " : ", ") + words[i];
    return text;
}

[[noreturn]] void refuse(const ParameterField& field, const std::string& expected, const std::string& text)
{
    throw InputError("option " + std::string(field.option) + " needs " + expected + ", not '" + text + "'");
}

// The whole text as a number, or nothing.
bool readNumber(const std::string& text, double& number)
{
    const char* end = text.data() + text.size();
    const auto [used, error] = std::from_chars(text.data(), end, number);
    return error == std::errc() && used == end && std::isfinite(number);
}

bool readWhole(const std::string& text, long long& number)
{
    const char* end = text.data() + text.size();
    const auto [used, error] = std::from_chars(text.data(), end, number);
    return error == std::errc() && used == end;
}

} // namespace

const std::vector<ParameterField>& parameterFields()
{
    static const std::vector<ParameterField> fields = makeFields();
    return fields;
}

const ParameterField* findParameterField(std::string_view name)
{
    for (const ParameterField& field : parameterFields())
        if (name == field.option || name == field.key)
            return &field;
    return nullptr;
}

const ParameterField& parameterField(std::string_view name)
{
    if (const ParameterField* field = findParameterField(name))
        return *field;
    std::vector<std::string> options;
    for (const ParameterField& field : parameterFields())
        options.emplace_back(field.option);
    throw InputError("unknown parameter '" + std::string(name) + "' (expected " + joined(options, "or") + ")");
}

void setParameter(PipelineParams& params, const ParameterField& field, const std::string& text)
{
    switch (field.kind) {
    case Kind::Word:
    case Kind::Count: {
        size_t index = 0;
        while (index < field.choices.size() && field.choices[index] != text)
            ++index;
        if (index == field.choices.size() && field.kind == Kind::Word) {
            throw InputError("option " + std::string(field.option) + ": unknown " + std::string(field.key) + " '" +
                             text + "' (expected " + joined(field.choices, "or") + ")");
        }
        if (index == field.choices.size())
            refuse(field, joined(field.choices, "or"), text);
        if (field.id == Id::Mode)
            params.grow.mode = Mode(index);
        else if (field.id == Id::Rule)
            params.grow.rule = Rule(index);
        else
            params.grow.connectivity = std::stoi(text);
        return;
    }
    case Kind::Whole: {
        long long number = 0;
        if (!readWhole(text, number) || number < field.minimum || number > field.maximum)
            refuse(field, "a whole number from " + numberText(field.minimum) + " to " + numberText(field.maximum), text);
        const auto value = uint32_t(number);
        if (field.id == Id::Lower)
            params.grow.lower = value;
        else if (field.id == Id::Upper)
            params.grow.upper = value;
        else
            params.grow.maxIterations = value;
        return;
    }
    case Kind::Decimal: {
        double number = 0;
        if (!readNumber(text, number) || number < field.minimum || number > field.maximum)
            refuse(field, "a number from " + numberText(field.minimum) + " to " + numberText(field.maximum), text);
        params.grow.tolerance = number;
        return;
    }
    case Kind::Filter:
        try {
            if (field.id == Id::Prefilter)
                params.prefilter = parsePrefilter(text);
            else
                params.postfilter = parsePostfilter(text);
        } catch (const InputError& error) {
            throw InputError("option " + std::string(field.option) + ": " + error.what());
        }
        return;
    }
}

std::string parameterText(const PipelineParams& params, const ParameterField& field)
{
    switch (field.id) {
    case Id::Mode: return modeName(params.grow.mode);
    case Id::Tolerance: return numberText(params.grow.tolerance);
    case Id::Lower: return std::to_string(params.grow.lower);
    case Id::Upper: return std::to_string(params.grow.upper);
    case Id::Rule: return ruleName(params.grow.rule);
    case Id::Connectivity: return std::to_string(params.grow.connectivity);
    case Id::MaxIterations: return std::to_string(params.grow.maxIterations);
    case Id::Prefilter: return prefilterText(params.prefilter);
    case Id::Postfilter: return postfilterText(params.postfilter);
    }
    return {};
}

std::string numberText(double value)
{
    char text[64];
    const auto written = std::to_chars(text, text + sizeof(text), value);
    return std::string(text, written.ptr);
}

std::vector<std::string> parameterArguments(const PipelineParams& params)
{
    std::vector<std::string> arguments;
    for (const ParameterField& field : parameterFields()) {
        arguments.emplace_back(field.option);
        arguments.push_back(parameterText(params, field));
    }
    return arguments;
}

std::string parameterLine(const PipelineParams& params)
{
    std::string line;
    for (const std::string& word : parameterArguments(params))
        line += (line.empty() ? "" : " ") + word;
    return line;
}

std::vector<std::string_view> changedParameters(const PipelineParams& before, const PipelineParams& after)
{
    std::vector<std::string_view> changed;
    for (const ParameterField& field : parameterFields())
        if (parameterText(before, field) != parameterText(after, field))
            changed.push_back(field.option);
    return changed;
}

bool sameParameters(const PipelineParams& a, const PipelineParams& b) { return changedParameters(a, b).empty(); }

std::vector<ParameterAssignment> parseParameterWords(const std::string& words)
{
    std::istringstream stream(words);
    std::vector<ParameterAssignment> assignments;
    PipelineParams check;
    for (std::string option; stream >> option;) {
        const ParameterField& field = parameterField(option);
        if (field.option != option) // a session key, not an option
            throw InputError("unknown parameter '" + option + "' (did you mean " + std::string(field.option) + "?)");
        std::string value;
        if (!(stream >> value))
            throw InputError("option " + option + " needs a value");
        setParameter(check, field, value);
        assignments.push_back({&field, value});
    }
    return assignments;
}

PipelineParams applyParameters(PipelineParams params, const std::vector<ParameterAssignment>& assignments)
{
    for (const ParameterAssignment& assignment : assignments)
        setParameter(params, *assignment.field, assignment.text);
    return params;
}

} // namespace rgx
