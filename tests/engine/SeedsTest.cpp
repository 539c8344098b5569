// Seeds: the --seeds list, seeds files (DESIGN.md format) and the input
// checks of SPEC.md, with the messages a user sees.
#include "InputErrors.h"
#include "Errors.h"
#include "Seeds.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>

#include <random>
#include <string>
#include <vector>

namespace {

using rgx::InputError;
using rgx::Seed;
using Seeds = std::vector<Seed>;

using rgx::test::inputErrorOf;

void writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly)) << path.toStdString();
    file.write(bytes);
}

TEST(SeedList, ParsesPairsSeparatedBySemicolons)
{
    EXPECT_EQ(rgx::parseSeedList("10,20;30,40"), (Seeds{{10, 20}, {30, 40}}));
}

TEST(SeedList, AllowsSpacesAndATrailingSemicolon)
{
    EXPECT_EQ(rgx::parseSeedList(" 10 , 20 ; 30,40 ;"), (Seeds{{10, 20}, {30, 40}}));
}

TEST(SeedList, SingleSeed)
{
    EXPECT_EQ(rgx::parseSeedList("0,0"), (Seeds{{0, 0}}));
}

TEST(SeedList, EmptyTextGivesNoSeeds)
{
    EXPECT_TRUE(rgx::parseSeedList("").empty());
}

TEST(SeedList, BadEntryIsNamed)
{
    const std::string message = inputErrorOf([] { rgx::parseSeedList("10,20;30;40,50"); });
    EXPECT_NE(message.find("'30'"), std::string::npos) << message;
    EXPECT_NE(message.find("entry 2"), std::string::npos) << message;
}

TEST(SeedList, EmptyEntryInTheMiddleIsAnError)
{
    EXPECT_THROW(rgx::parseSeedList("10,20;;30,40"), InputError);
}

TEST(SeedList, NonNumbersAreErrors)
{
    EXPECT_THROW(rgx::parseSeedList("1x,20"), InputError);
    EXPECT_THROW(rgx::parseSeedList("10,20,30,40"), InputError); // x,y,z is a volume's seed
    EXPECT_THROW(rgx::parseSeedList("10,,30"), InputError);
    EXPECT_THROW(rgx::parseSeedList("10.5,20"), InputError);
    EXPECT_THROW(rgx::parseSeedList("99999999999,20"), InputError);
}

TEST(SeedList, NegativeCoordinatesParseAndFailValidation)
{
    const Seeds seeds = rgx::parseSeedList("-1,5");
    EXPECT_EQ(seeds, (Seeds{{-1, 5}}));
    EXPECT_THROW(rgx::validateSeeds(seeds, 10, 10), InputError);
}

TEST(SeedsText, AcceptsSpaceOrCommaCommentsAndBlankLines)
{
    const std::string text = "# coins\n"
                             "10 20\n"
                             "\n"
                             "30,40   # a coin\n"
                             "  50\t60  \r\n"
                             "70, 80\n";
    EXPECT_EQ(rgx::parseSeedsText(text, "test"), (Seeds{{10, 20}, {30, 40}, {50, 60}, {70, 80}}));
}

TEST(SeedsText, ByteOrderMarkIsSkipped)
{
    EXPECT_EQ(rgx::parseSeedsText("\xEF\xBB\xBF" "1 2\n", "test"), (Seeds{{1, 2}}));
}

TEST(SeedsText, LastLineNeedsNoNewline)
{
    EXPECT_EQ(rgx::parseSeedsText("1 2\n3 4", "test"), (Seeds{{1, 2}, {3, 4}}));
}

TEST(SeedsText, ErrorNamesOriginAndLineNumber)
{
    const std::string message = inputErrorOf([] { rgx::parseSeedsText("# header\n1 2\n3 4 5 6\n", "my.seeds"); });
    EXPECT_NE(message.find("my.seeds"), std::string::npos) << message;
    EXPECT_NE(message.find("line 3"), std::string::npos) << message;
    EXPECT_NE(message.find("'3 4 5 6'"), std::string::npos) << message;
}

TEST(SeedsText, FormattedTextParsesBack)
{
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> coordinate(0, 5000);
    Seeds seeds;
    for (int i = 0; i < 100; ++i)
        seeds.push_back({coordinate(rng), coordinate(rng)});
    const std::string text = rgx::formatSeedsText(seeds);
    EXPECT_EQ(text.front(), '#') << "a header comment says what the file is";
    EXPECT_EQ(rgx::parseSeedsText(text, "formatted"), seeds) << "RNG seed 7";
}

TEST(SeedsText, FormatWritesOneSeedALine)
{
    const std::string text = rgx::formatSeedsText({{3, 4}, {5, 6}});
    EXPECT_NE(text.find("\n3 4\n5 6\n"), std::string::npos) << text;
}

TEST(SeedsFile, ReadsAFile)
{
    QTemporaryDir directory;
    const QString path = directory.filePath("a.seeds");
    writeFile(path, "# two seeds\n1 2\n3,4\n");
    EXPECT_EQ(rgx::readSeedsFile(path), (Seeds{{1, 2}, {3, 4}}));
}

TEST(SeedsFile, MissingFileIsNamed)
{
    QTemporaryDir directory;
    const QString path = directory.filePath("missing.seeds");
    const std::string message = inputErrorOf([&] { rgx::readSeedsFile(path); });
    EXPECT_NE(message.find(path.toStdString()), std::string::npos) << message;
    EXPECT_NE(message.find("does not exist"), std::string::npos) << message;
}

TEST(SeedsFile, DirectoryIsNotASeedsFile)
{
    QTemporaryDir directory;
    const std::string message = inputErrorOf([&] { rgx::readSeedsFile(directory.path()); });
    EXPECT_NE(message.find(directory.path().toStdString()), std::string::npos) << message;
}

TEST(SeedsFile, BadLineNamesTheFileAndLine)
{
    QTemporaryDir directory;
    const QString path = directory.filePath("bad.seeds");
    writeFile(path, "1 2\nthree four\n");
    const std::string message = inputErrorOf([&] { rgx::readSeedsFile(path); });
    EXPECT_NE(message.find(path.toStdString()), std::string::npos) << message;
    EXPECT_NE(message.find("line 2"), std::string::npos) << message;
}

TEST(SeedsFile, SampleSeedsFilesAreValid)
{
    const Seeds coins = rgx::readSeedsFile(RGX_SAMPLES_DIR "/coins.seeds");
    EXPECT_GE(coins.size(), 2u);
    EXPECT_NO_THROW(rgx::validateSeeds(coins, 384, 303));
    const Seeds astronaut = rgx::readSeedsFile(RGX_SAMPLES_DIR "/astronaut.seeds");
    EXPECT_GE(astronaut.size(), 2u);
    EXPECT_NO_THROW(rgx::validateSeeds(astronaut, 512, 512));
    // The MNI template's seed is a voxel of its 197 x 233 x 189.
    const Seeds brain = rgx::readSeedsFile(RGX_SAMPLES_DIR "/mni_icbm152_t1_tal_nlin_sym_09a_converted.seeds");
    ASSERT_EQ(brain.size(), 1u);
    EXPECT_EQ(brain[0], (rgx::Seed{98, 116, 94}));
    EXPECT_NO_THROW(rgx::validateSeeds(brain, 197, 233, 189));
}

TEST(SeedsFile, SuggestedParametersComeFromOneCommentLine)
{
    rgx::PipelineParams base;
    base.grow.lower = 7;
    const auto suggested = rgx::parseSuggestedParameters(
        "# a comment\n#parameters: --mode range --upper 12 --connectivity 8 --rule all\n1 2\n", "test");
    ASSERT_TRUE(suggested.has_value());
    ASSERT_EQ(suggested->size(), 4u); // only what the line names
    const rgx::GrowParams params = rgx::applyParameters(base, *suggested).grow;
    EXPECT_EQ(params.mode, rgx::Mode::Range);
    EXPECT_EQ(params.upper, 12u);
    EXPECT_EQ(params.lower, 7u); // not named: the base's
    EXPECT_EQ(params.connectivity, 8);
    EXPECT_EQ(params.rule, rgx::Rule::All);
    EXPECT_FALSE(rgx::parseSuggestedParameters("# parameters are nice\n1 2\n", "test").has_value());
    EXPECT_THROW(rgx::parseSuggestedParameters("# parameters: --mode sideways\n", "test"), rgx::InputError);
    EXPECT_THROW(rgx::parseSuggestedParameters("# parameters: --tolerance\n", "test"), rgx::InputError);
    EXPECT_THROW(rgx::parseSuggestedParameters("# parameters: --colour red\n", "test"), rgx::InputError);
    EXPECT_THROW(rgx::parseSuggestedParameters("# parameters: --connectivity 5\n", "test"), rgx::InputError);
    // Still a comment for the seeds themselves.
    EXPECT_EQ(rgx::parseSeedsText("# parameters: --mode range\n1 2\n", "test").size(), 1u);
}

// Issue 28: "--lower -1" was read as 4294967295 from a seeds file, where the
// command line refuses it; both now give the codec's one message.
TEST(SeedsFile, SuggestedParametersAreCheckedAsTheCommandLineChecksThem)
{
    for (const char* line : {"--lower -1", "--upper 65536", "--tolerance -3", "--tolerance nan", "--lower 1.5",
                             "--max-iterations -2", "--prefilter boxmean:0", "--mode Range"}) {
        try {
            rgx::parseSuggestedParameters(std::string("# parameters: ") + line + "\n", "seeds file 's'");
            ADD_FAILURE() << line << " was accepted";
        } catch (const rgx::InputError& error) {
            const std::string message = error.what();
            const std::string option = std::string(line).substr(0, std::string(line).find(' '));
            EXPECT_EQ(message.rfind("seeds file 's': '# parameters:' option " + option, 0), 0u) << message;
        }
    }
}

TEST(SeedsFile, ExportedParametersReadBackAsTheSameParameters)
{
    rgx::PipelineParams params;
    params.grow.mode = rgx::Mode::Adaptive;
    params.grow.tolerance = 45.125;
    params.grow.maxIterations = 4294967294u;
    params.prefilter = rgx::parsePrefilter("gaussian:3");
    const std::string text = rgx::formatSeedsText({{3, 4}, {5, 6}}, params);
    EXPECT_EQ(rgx::parseSeedsText(text, "test").size(), 2u);
    const auto suggested = rgx::parseSuggestedParameters(text, "test");
    ASSERT_TRUE(suggested.has_value());
    EXPECT_TRUE(rgx::sameParameters(rgx::applyParameters({}, *suggested), params));
}

TEST(SeedsFile, TheSamplesSuggestTheirModes)
{
    const auto coins = rgx::readSuggestedParameters(RGX_SAMPLES_DIR "/coins.seeds");
    ASSERT_TRUE(coins.has_value());
    const rgx::GrowParams coinParams = rgx::applyParameters({}, *coins).grow;
    EXPECT_EQ(coinParams.mode, rgx::Mode::Adaptive);
    EXPECT_EQ(coinParams.tolerance, 45.0);
    const auto astronaut = rgx::readSuggestedParameters(RGX_SAMPLES_DIR "/astronaut.seeds");
    ASSERT_TRUE(astronaut.has_value());
    EXPECT_EQ(rgx::applyParameters({}, *astronaut).grow.mode, rgx::Mode::Competitive);
    const auto brain = rgx::readSuggestedParameters(RGX_SAMPLES_DIR "/mni_icbm152_t1_tal_nlin_sym_09a_converted.seeds");
    ASSERT_TRUE(brain.has_value());
    const rgx::GrowParams brainParams = rgx::applyParameters({}, *brain).grow;
    EXPECT_EQ(brainParams.mode, rgx::Mode::Range);
    EXPECT_EQ(brainParams.lower, 15u);
    EXPECT_EQ(brainParams.upper, 57u);
    EXPECT_EQ(brainParams.connectivity, 26);
}

TEST(ValidateSeeds, AcceptsSeedsInsideTheImage)
{
    EXPECT_NO_THROW(rgx::validateSeeds({{0, 0}, {383, 302}, {100, 100}}, 384, 303));
}

TEST(ValidateSeeds, NoSeeds)
{
    EXPECT_EQ(inputErrorOf([] { rgx::validateSeeds({}, 384, 303); }), "no seeds given");
}

TEST(ValidateSeeds, TooManySeeds)
{
    Seeds seeds;
    for (int i = 0; i < 70000; ++i)
        seeds.push_back({i % 1000, i / 1000});
    EXPECT_EQ(inputErrorOf([&] { rgx::validateSeeds(seeds, 1000, 1000); }),
              "too many seeds: 70000 (at most 65535)");
}

TEST(ValidateSeeds, AtMost65535SeedsAreAllowed)
{
    Seeds seeds;
    for (int i = 0; i < rgx::maxSeeds; ++i)
        seeds.push_back({i % 1000, i / 1000});
    EXPECT_NO_THROW(rgx::validateSeeds(seeds, 1000, 1000));
}

TEST(ValidateSeeds, SeedOutsideTheImageIsNamedOneBased)
{
    EXPECT_EQ(inputErrorOf([] { rgx::validateSeeds({{1, 1}, {2, 2}, {512, 10}}, 384, 303); }),
              "seed 3 (512,10) is outside the 384x303 image");
}

TEST(ValidateSeeds, EveryEdgeOfTheImageIsChecked)
{
    EXPECT_THROW(rgx::validateSeeds({{-1, 0}}, 384, 303), InputError);
    EXPECT_THROW(rgx::validateSeeds({{0, -1}}, 384, 303), InputError);
    EXPECT_THROW(rgx::validateSeeds({{384, 0}}, 384, 303), InputError);
    EXPECT_THROW(rgx::validateSeeds({{0, 303}}, 384, 303), InputError);
}

TEST(ValidateSeeds, SeedOnTheSamePixelAsAnEarlierOneIsNamed)
{
    EXPECT_EQ(inputErrorOf([] { rgx::validateSeeds({{1, 1}, {10, 10}, {2, 2}, {3, 3}, {10, 10}}, 384, 303); }),
              "seed 5 (10,10) is on the same pixel as seed 2");
}

TEST(ValidateSeeds, FirstOffendingSeedIsReported)
{
    EXPECT_EQ(inputErrorOf([] { rgx::validateSeeds({{1, 1}, {1, 1}, {999, 0}}, 384, 303); }),
              "seed 2 (1,1) is on the same pixel as seed 1");
}

} // namespace
