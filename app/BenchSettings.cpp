// rgx-cli bench's options and the pictures they name (BenchSettings.h).
#include "BenchSettings.h"
#include "BenchText.h"
#include "CliOptions.h"
#include "Errors.h"
#include "InstallPaths.h"
#include "ParameterCodec.h"
#include "Pipeline.h"
#include "Seeds.h"
#include "reference/FastCpuGrowing.h"

#include <QDir>

namespace rgx {
namespace {

std::vector<int> parseNumberList(const std::string& option, const std::string& text, int minimum,
                                 int maximum)
{
    std::vector<int> numbers;
    for (const std::string& part : splitOn(text, ',')) {
        try {
            size_t used = 0;
            const long number = std::stol(part, &used);
            if (used == part.size() && number >= minimum && number <= maximum) {
                numbers.push_back(int(number));
                continue;
            }
        } catch (const std::exception&) {
        }
        throw InputError("option " + option + " needs whole numbers from " + std::to_string(minimum) +
                         " to " + std::to_string(maximum) + " separated by commas, not '" + part + "'");
    }
    if (numbers.empty())
        throw InputError("option " + option + " needs at least one number, e.g. " + option + " 512,1024");
    return numbers;
}

} // namespace

BenchSettings parseSettings(const std::vector<std::string>& arguments)
{
    const CliOptions options("bench", arguments,
                             {"--device", "--sizes", "--samples-dir", "--seeds", "--modes", "--variants",
                              "--repeat", "--warmup", "--reference-repeat", "--cpu-threads", "--lower",
                              "--upper", "--tolerance", "--connectivity", "--noise-seed", "--json", "--csv",
                              "--photos-dir", "--photo-sizes", "--npp-dir"},
                             {"--samples", "--photos"});
    BenchSettings settings;
    settings.deviceSpec = options.value("--device");
    const std::string sizes = options.value("--sizes", "512,2048,4096");
    if (sizes != "none")
        settings.sizes = parseNumberList("--sizes", sizes, 1, 46340);
    if (options.has("--samples-dir"))
        settings.samplesDirectory = QString::fromStdString(options.value("--samples-dir"));
    else if (options.has("--samples"))
        settings.samplesDirectory = rgx::samplesDirectory();
    settings.photos = options.has("--photos") || options.has("--photos-dir");
    if (options.has("--photos-dir"))
        settings.photosDirectory = QString::fromStdString(options.value("--photos-dir"));
    if (options.has("--photo-sizes"))
        settings.photoSizes = parseNumberList("--photo-sizes", options.value("--photo-sizes"), 1, 46340);
    else if (settings.photos)
        settings.photoSizes = settings.sizes;
    if (settings.photos && settings.photoSizes.empty())
        throw InputError("--photos with --sizes none needs --photo-sizes, e.g. --photo-sizes 4096,8192");
    if (!settings.photos)
        settings.photoSizes.clear();
    settings.nppDirectory = options.value("--npp-dir");
    if (options.has("--npp-dir") && settings.nppDirectory.empty())
        throw InputError("option --npp-dir needs a folder (scripts/npp-fetch.sh DIR fills one)");
    if (settings.sizes.empty() && settings.samplesDirectory.isEmpty() && !settings.photos)
        throw InputError("--sizes none leaves nothing to run: add --samples or --photos, or give sizes");
    settings.seedCounts = parseNumberList("--seeds", options.value("--seeds", "1,4,64"), 1, maxSeeds);
    for (const std::string& mode : splitOn(options.value("--modes", "competitive,range"), ','))
        settings.modes.push_back(parseMode(mode));
    if (settings.modes.empty())
        throw InputError("option --modes needs at least one of competitive, adaptive, range");
    settings.variantsText = options.value("--variants", "all");
    settings.repeat = int(options.integer("--repeat", 5, 1, 1000));
    settings.warmup = int(options.integer("--warmup", 1, 0, 1000));
    settings.referenceRepeat = int(options.integer("--reference-repeat", 1, 1, 1000));
    settings.cpuThreads = int(options.integer("--cpu-threads", fastCpuDefaultThreads(), 1, 1024));
    PipelineParams grow; // the bench's own defaults, read as segment reads them
    grow.grow = settings.grow;
    grow.grow.lower = 40;
    grow.grow.upper = 40;
    grow.grow.tolerance = 12.0;
    for (const char* option : {"--lower", "--upper", "--tolerance", "--connectivity"})
        if (options.has(option))
            setParameter(grow, parameterField(option), options.value(option));
    settings.grow = grow.grow;
    settings.noiseSeed = uint32_t(options.integer("--noise-seed", 1, 0, 0x7FFFFFFF));
    for (const char* option : {"--json", "--csv"})
        if (options.has(option) && options.value(option).empty())
            throw InputError(std::string("option ") + option + " needs a file name");
    settings.jsonPath = options.value("--json");
    settings.csvPath = options.value("--csv");
    return settings;
}

std::vector<QString> sampleFiles(const QString& directory)
{
    const QDir dir(directory);
    if (!dir.exists())
        throw InputError("the sample images folder " + directory.toStdString() +
                         " does not exist (give the folder of the sample images with --samples-dir, or set RGX_SAMPLES_DIR)");
    std::vector<QString> files;
    for (const QString& name : dir.entryList({QStringLiteral("*.png")}, QDir::Files, QDir::Name))
        files.push_back(dir.filePath(name));
    if (files.empty())
        throw InputError("no .png images in " + directory.toStdString());
    return files;
}

namespace {

// The photographs of scikit-image's data folder that --photos takes.
const char* const packagePhotos[] = {"camera.png", "coffee.png", "chelsea.png"};

QString defaultPhotosDirectory()
{
    const QString fromEnvironment = qEnvironmentVariable("RGX_PHOTOS_DIR");
    return fromEnvironment.isEmpty() ? QStringLiteral("/usr/lib/python3/dist-packages/skimage/data") : fromEnvironment;
}

} // namespace

std::vector<QString> photoFiles(const BenchSettings& settings, std::string& missing)
{
    std::vector<QString> files;
    if (!settings.photosDirectory.isEmpty()) {
        const QDir dir(settings.photosDirectory);
        if (!dir.exists())
            throw InputError("the photographs folder " + settings.photosDirectory.toStdString() + " does not exist");
        for (const QString& name :
             dir.entryList({QStringLiteral("*.png"), QStringLiteral("*.jpg"), QStringLiteral("*.jpeg")}, QDir::Files,
                           QDir::Name))
            files.push_back(dir.filePath(name));
        if (files.empty())
            throw InputError("no .png or .jpg pictures in " + settings.photosDirectory.toStdString());
        return files;
    }
    const QDir samples(rgx::samplesDirectory());
    for (const QString& name : samples.entryList({QStringLiteral("*.png")}, QDir::Files, QDir::Name))
        files.push_back(samples.filePath(name));
    const QDir package(defaultPhotosDirectory());
    std::vector<std::string> absent;
    for (const char* name : packagePhotos) {
        if (package.exists(QString::fromLatin1(name)))
            files.push_back(package.filePath(QString::fromLatin1(name)));
        else
            absent.push_back(name);
    }
    if (!absent.empty()) {
        for (size_t i = 0; i < absent.size(); ++i)
            missing += (i ? ", " : "") + absent[i];
        missing += " not found in " + package.path().toStdString() +
                   " (Debian: apt-get install python3-skimage, or RGX_PHOTOS_DIR or --photos-dir DIR)";
    }
    if (files.empty())
        throw InputError("no photographs found: the samples folder " + samples.path().toStdString() +
                         " and " + package.path().toStdString() + " hold none (give --photos-dir DIR)");
    return files;
}

std::string sizesText(const std::vector<int>& sizes)
{
    std::string text;
    for (size_t i = 0; i < sizes.size(); ++i)
        text += (i ? ", " : "") + std::to_string(sizes[i]) + "x" + std::to_string(sizes[i]);
    return text;
}

} // namespace rgx
