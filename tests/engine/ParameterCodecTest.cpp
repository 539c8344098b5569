// The parameter table (engine/ParameterCodec.h): every field reads back its
// own text and refuses values outside its limits with one message
// (tests/cli/cli_contract.sh checks that rgx-cli segment gives it too).
#include "Errors.h"
#include "ParameterCodec.h"

#include <functional>
#include <gtest/gtest.h>

namespace {

std::string messageOf(const std::function<void()>& action)
{
    try {
        action();
    } catch (const rgx::InputError& error) {
        return error.what();
    }
    return "(accepted)";
}

} // namespace

TEST(ParameterCodec, EveryFieldReadsBackItsOwnText)
{
    rgx::PipelineParams params;
    params.grow.mode = rgx::Mode::Range;
    params.grow.tolerance = 0.1;
    params.grow.lower = 65535;
    params.grow.upper = 3;
    params.grow.rule = rgx::Rule::All;
    params.grow.connectivity = 8;
    params.grow.maxIterations = 4294967294u;
    params.prefilter = rgx::parsePrefilter("boxmean:5:direct");
    params.postfilter = rgx::parsePostfilter("density:3:4");
    rgx::PipelineParams again;
    for (const rgx::ParameterField& field : rgx::parameterFields())
        rgx::setParameter(again, field, rgx::parameterText(params, field));
    EXPECT_TRUE(rgx::sameParameters(params, again)) << rgx::parameterLine(again);
    EXPECT_EQ(again.grow.tolerance, 0.1);
    EXPECT_EQ(again.prefilter.variant, "direct");
    EXPECT_EQ(rgx::changedParameters(rgx::PipelineParams{}, params).size(), rgx::parameterFields().size());
}

TEST(ParameterCodec, OneMessageForABadValue)
{
    rgx::PipelineParams params;
    EXPECT_EQ(messageOf([&] { rgx::setParameter(params, rgx::parameterField("--lower"), "-1"); }),
              "option --lower needs a whole number from 0 to 65535, not '-1'");
    EXPECT_EQ(messageOf([&] { rgx::setParameter(params, rgx::parameterField("lower"), "4294967295"); }),
              "option --lower needs a whole number from 0 to 65535, not '4294967295'");
    EXPECT_EQ(messageOf([&] { rgx::setParameter(params, rgx::parameterField("--tolerance"), "1e9"); }),
              "option --tolerance needs a number from 0 to 65535, not '1e9'");
    EXPECT_EQ(messageOf([&] { rgx::setParameter(params, rgx::parameterField("--connectivity"), "5"); }),
              "option --connectivity needs 4, 8, 6, 18 or 26, not '5'");
    EXPECT_EQ(messageOf([&] { rgx::setParameter(params, rgx::parameterField("--mode"), "fuzzy"); }),
              "option --mode: unknown mode 'fuzzy' (expected competitive, adaptive or range)");
    EXPECT_NE(messageOf([&] { rgx::parameterField("--colour"); }).find("unknown parameter '--colour'"),
              std::string::npos);
    EXPECT_EQ(params.grow.lower, 0u); // nothing was set by a refused value
}

TEST(ParameterCodec, TheArgumentsReadBackAsOptions)
{
    rgx::PipelineParams params;
    params.grow.mode = rgx::Mode::Adaptive;
    params.grow.tolerance = 12.5;
    params.grow.maxIterations = 9;
    const auto assignments = rgx::parseParameterWords(rgx::parameterLine(params));
    EXPECT_EQ(assignments.size(), rgx::parameterFields().size());
    EXPECT_TRUE(rgx::sameParameters(rgx::applyParameters({}, assignments), params));
    // Session keys are not options.
    EXPECT_NE(messageOf([] { rgx::parseParameterWords("lower 3"); }).find("did you mean --lower"), std::string::npos);
    EXPECT_EQ(messageOf([] { rgx::parseParameterWords("--upper"); }), "option --upper needs a value");
}
