// rgx-cli bench: its options, and the cases that engine/bench/CaseBench
// measures printed as tables and written as JSON and CSV.
#include "Bench.h"
#include "CliOptions.h"
#include "Device.h"
#include "bench/BenchInputs.h"
#include "bench/CaseBench.h"
#include "bench/FloodFillBaseline.h"
#include "bench/NppBaseline.h"
#include "bench/Floors.h"
#include "bench/Measure.h"
#include "Errors.h"
#include "Export.h"
#include "ParameterCodec.h"
#include "Image.h"
#include "InstallPaths.h"
#include "Pipeline.h"
#include "Seeds.h"
#include "Variant.h"
#include "reference/FastCpuGrowing.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

namespace rgx {

const char* benchUsage =
    "  rgx-cli bench [--device D] [--sizes 512,2048,4096] [--samples] [--samples-dir DIR]\n"
    "          [--seeds 1,4,64] [--modes competitive,range] [--variants all|\"V;V\"]\n"
    "          [--repeat 5] [--warmup 1] [--reference-repeat 1] [--cpu-threads N]\n"
    "          [--lower 40] [--upper 40] [--tolerance 12] [--connectivity 4|8]\n"
    "          [--noise-seed 1] [--photos] [--photos-dir DIR] [--photo-sizes LIST] [--npp-dir DIR]\n"
    "          [--json FILE] [--csv FILE]\n"
    "  rgx-cli bench --volume [--sizes 128,256,512] [--device D] [--variants queue|all|\"V;V\"]\n"
    "          [--repeats 5] [--connectivity 6|18|26] [--cpu-reference auto|always|never] [--json FILE]\n";

// bench --volume (app/BenchVolume.cpp): a phantom volume's cases on resident
// sessions beside a CPU flood fill and the CPU reference. Returns false when
// a result differs or a correct variant failed.
bool runVolumeBench(const std::vector<std::string>& arguments);

namespace {

// ---------------------------------------------------------------------------
// Settings

// The options; how each implementation runs is the CaseSettings part.
struct BenchSettings : bench::CaseSettings {
    std::string deviceSpec;
    std::vector<int> sizes;
    QString samplesDirectory; // empty: no sample images
    bool photos = false;      // the photograph cases, scaled to photoSizes
    QString photosDirectory;  // --photos-dir: every photograph in it instead of the default set
    std::vector<int> photoSizes;
    std::string nppDirectory; // empty: RGX_NPP_DIR or the loader's path
    std::vector<int> seedCounts;
    std::vector<Mode> modes;
    std::string variantsText; // "all" or a ';'-separated list
    uint32_t noiseSeed = 1;
    std::string jsonPath;
    std::string csvPath;
};

std::vector<std::string> splitOn(const std::string& text, char separator)
{
    std::vector<std::string> parts;
    std::stringstream stream(text);
    for (std::string part; std::getline(stream, part, separator);) {
        part.erase(0, part.find_first_not_of(" \t"));
        part.erase(part.find_last_not_of(" \t") + 1);
        if (!part.empty())
            parts.push_back(part);
    }
    return parts;
}

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

} // namespace

std::vector<GrowVariant> chooseVariants(const std::string& text, const DeviceInfo& device,
                                        const std::function<bool(const GrowVariant&)>& keep,
                                        const std::string& expected)
{
    std::vector<GrowVariant> variants;
    if (keep) {
        for (const GrowVariant& variant : allVariants())
            if (!variant.wrongOnPurpose() && !whyUnavailable(variant, device) && keep(variant))
                variants.push_back(variant);
        if (variants.empty())
            throw InputError("no region-growing variant can run on " + device.name + " (rgx-cli variants says why)");
        return variants;
    }
    for (const std::string& part : splitOn(text, ';')) {
        const GrowVariant variant = parseVariant(part);
        if (auto reason = whyUnavailable(variant, device))
            throw InputError("variant " + variant.text() + " cannot run on " + device.name + ": " + *reason);
        if (std::find(variants.begin(), variants.end(), variant) == variants.end())
            variants.push_back(variant);
    }
    if (variants.empty())
        throw InputError("option --variants needs " + expected + " or variants separated by ';'");
    return variants;
}

namespace {

// ---------------------------------------------------------------------------
// Inputs

struct BenchImage {
    std::string name;
    LumaImage image;
};

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

// The photographs of --photos: the bundled samples, and a few photographs of
// scikit-image's data folder (Debian's python3-skimage), or every picture of
// --photos-dir. Missing ones are named in `missing`.
const char* const packagePhotos[] = {"camera.png", "coffee.png", "chelsea.png"};

QString defaultPhotosDirectory()
{
    const QString fromEnvironment = qEnvironmentVariable("RGX_PHOTOS_DIR");
    return fromEnvironment.isEmpty() ? QStringLiteral("/usr/lib/python3/dist-packages/skimage/data") : fromEnvironment;
}

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

using bench::BenchCase;
using bench::GridBarrierFloor;
using bench::Kind;
using bench::LaunchFloor;
using bench::Measurement;
using bench::Spread;
using bench::gridSeeds;
using bench::megapixelsPerSecond;
using bench::perIterationUs;
using bench::scaledPhoto;
using bench::smoothNoise;

// ---------------------------------------------------------------------------
// Output

std::string fixed(double value, int decimals)
{
    std::ostringstream text;
    text << std::fixed << std::setprecision(decimals) << value;
    return text.str();
}

// Three significant figures or so, whatever the size.
std::string readable(double value)
{
    const double magnitude = std::fabs(value);
    return fixed(value, magnitude >= 100 ? 1 : magnitude >= 10 ? 2 : 3);
}

std::string ratioText(const std::optional<double>& ratio)
{
    if (!ratio)
        return "-";
    const double r = *ratio;
    return fixed(r, r >= 100 ? 0 : r >= 10 ? 1 : r >= 0.1 ? 2 : r >= 0.01 ? 3 : 4) + "x";
}

std::string seedsText(int count)
{
    return std::to_string(count) + (count == 1 ? " seed" : " seeds");
}

struct Column {
    const char* title;
    int width;
    bool left = false;
};

const Column columns[] = {
    {"implementation", 0, true}, {"host ms", 9}, {"(min..max)", 20}, {"first ms", 9}, {"device ms", 10},
    {"idle ms", 9},  {"iters", 6},  {"us/iter", 9},  {"Mpix/s", 8},
    {"vs sync", 8},  {"/floor", 7}, {"/gbar", 7}, {"vs ref", 8},   {"vs fast", 8}, {"vs fill", 8},
    {"check", 11},
};

// labelWidth: the first column's, as wide as the longest implementation name.
void printRow(std::ostream& out, const std::vector<std::string>& cells, int labelWidth)
{
    std::string line;
    for (size_t i = 0; i < cells.size(); ++i) {
        const Column& column = columns[i];
        std::ostringstream cell;
        if (column.left)
            cell << std::left;
        else
            cell << std::right;
        cell << std::setw(i == 0 ? labelWidth : column.width) << cells[i];
        line += (i ? " " : "") + cell.str();
    }
    while (!line.empty() && line.back() == ' ')
        line.pop_back();
    out << line << "\n";
}

void printCase(std::ostream& out, const BenchCase& benchCase)
{
    out << "\n" << benchCase.image << " " << benchCase.width << "x" << benchCase.height << ", "
        << seedsText(benchCase.seedCount) << ", " << modeName(benchCase.mode) << ": "
        << benchCase.iterations << " iterations, " << benchCase.classified << " of "
        << uint64_t(benchCase.width) * uint64_t(benchCase.height) << " pixels classified\n";
    int labelWidth = 14;
    for (const Measurement& row : benchCase.rows)
        labelWidth = std::max(labelWidth, int(row.label.size()));
    std::vector<std::string> titles;
    for (const Column& column : columns)
        titles.push_back(column.title);
    printRow(out, titles, labelWidth);
    for (const Measurement& row : benchCase.rows) {
        if (!row.skipped.empty()) {
            out << std::left << std::setw(labelWidth) << row.label << (row.failed ? " FAILED: " : " skipped: ")
                << row.skipped << "\n";
            continue;
        }
        const bool iterates = row.kind != Kind::FloodFill && row.kind != Kind::Npp;
        printRow(out, {row.label, readable(row.hostMs.median),
                       "(" + readable(row.hostMs.min) + ".." + readable(row.hostMs.max) + ")",
                       row.firstMs ? readable(row.firstMs->median) : "-",
                       row.deviceMs ? readable(row.deviceMs->median) : "-",
                       row.idleMs ? readable(row.idleMs->median) : "-",
                       iterates ? std::to_string(row.iterations) : "-",
                       iterates && row.iterations ? readable(perIterationUs(row)) : "-",
                       readable(megapixelsPerSecond(row, benchCase)), ratioText(row.speedupOverHostSync),
                       ratioText(row.perIterationOverFloor), ratioText(row.perLevelOverBarrier),
                       ratioText(row.speedupOverReference),
                       ratioText(row.speedupOverFastCpu), ratioText(row.speedupOverFloodFill),
                       row.kind == Kind::Reference ? "reference" : row.check.text()},
                 labelWidth);
    }
    // The best variant in one sentence, ratios spelled out.
    const Measurement* best = nullptr;
    for (const Measurement& row : benchCase.rows)
        if (row.kind == Kind::Variant && row.skipped.empty() && row.check.ok() &&
            (!best || row.hostMs.median < best->hostMs.median))
            best = &row;
    if (best) {
        out << "best variant: " << best->label << ", " << readable(best->hostMs.median) << " ms";
        if (best->speedupOverHostSync && best->variant.driver != Driver::HostSync)
            out << "; " << ratioText(best->speedupOverHostSync) << " faster than host-sync";
        if (best->perIterationOverFloor)
            out << "; " << readable(perIterationUs(*best)) << " us per iteration = "
                << ratioText(best->perIterationOverFloor) << " the launch floor";
        if (best->perLevelOverBarrier)
            out << "; kernel time per level " << ratioText(best->perLevelOverBarrier) << " the grid barrier floor";
        if (best->firstMs)
            out << "; first click " << readable(best->firstMs->median) << " ms";
        auto versus = [&](const std::optional<double>& ratio, const char* what) {
            if (!ratio)
                return;
            out << "; " << (*ratio >= 1 ? ratioText(ratio) + " faster than " : ratioText(1.0 / *ratio) + " slower than ")
                << what;
        };
        versus(best->speedupOverReference, "the CPU reference");
        versus(best->speedupOverFastCpu, "the fast CPU");
        versus(best->speedupOverFloodFill, "cv::floodFill");
        versus(best->speedupOverNpp, "NPP");
        out << "\n";
        if (!best->kernels.empty())
            out << deviceTimeLine(best->kernels) << "\n";
    }
    // NPP's region against the reference's, so that a wrong one reads as wrong, not as fast.
    for (const Measurement& row : benchCase.rows) {
        if (row.kind != Kind::Npp)
            continue;
        if (!row.skipped.empty()) {
            out << "NPP: " << (row.failed ? "FAILED: " : "skipped: ") << row.skipped << "\n";
            continue;
        }
        out << "NPP: " << *row.reportedPixels << " px, CPU " << benchCase.classified << " px: ";
        if (row.check.ok())
            out << "the same region; " << readable(row.hostMs.median) << " ms (" << readable(row.hostMs.min) << ".."
                << readable(row.hostMs.max) << ") from the call to the stream's synchronize, "
                << readable(row.deviceMs->median) << " ms by CUDA events\n";
        else
            out << "WRONG (" << row.check.differingPixels << " pixels differ from the CPU's region); its "
                << readable(row.hostMs.median) << " ms is no baseline\n";
    }
    out.flush();
}

QJsonObject spreadJson(const Spread& spread)
{
    return QJsonObject{{"median", spread.median}, {"min", spread.min}, {"max", spread.max}};
}

QJsonValue optionalJson(const std::optional<double>& value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

const char* kindName(Kind kind)
{
    switch (kind) {
    case Kind::Reference: return "cpu-reference";
    case Kind::FastCpu: return "fast-cpu";
    case Kind::FloodFill: return "opencv-floodfill";
    case Kind::Npp: return "npp-floodfill";
    case Kind::Variant: return "variant";
    }
    return "variant";
}

QJsonObject deviceJson(const DeviceInfo& device)
{
    return QJsonObject{{"id", QString::fromStdString(device.id())},
                       {"name", QString::fromStdString(device.name)},
                       {"platform", QString::fromStdString(device.platformName)},
                       {"platformVersion", QString::fromStdString(device.platformVersion)},
                       {"driverVersion", QString::fromStdString(device.driverVersion)},
                       {"openClVersion", QString::fromStdString(device.openClVersion)},
                       {"openClCVersion", QString::fromStdString(device.openClCVersion)},
                       {"type", QString::fromStdString(device.type)},
                       {"computeUnits", int(device.computeUnits)},
                       {"globalMemoryBytes", double(device.globalMemoryBytes)},
                       {"maxAllocationBytes", double(device.maxAllocationBytes)}};
}

QJsonObject gridBarrierJson(const GridBarrierFloor& floor)
{
    return QJsonObject{{"barriers", floor.barriers},
                       {"groups", floor.groups},
                       {"microseconds", floor.us ? QJsonValue(spreadJson(*floor.us)) : QJsonValue()},
                       {"fusedGroups", floor.fusedGroups},
                       {"fusedMicroseconds", floor.fusedUs ? QJsonValue(spreadJson(*floor.fusedUs)) : QJsonValue()},
                       {"whyNot", QString::fromStdString(floor.whyNot)}};
}

QByteArray benchJson(const BenchSettings& settings, const DeviceInfo& device, const LaunchFloor& floor,
                     const GridBarrierFloor& barrierFloor, bool haveFloodFill, const bench::NppBaseline& npp,
                     const std::vector<QString>& photos, const std::vector<BenchCase>& cases,
                     const std::vector<std::string>& skipped)
{
    QJsonArray caseArray;
    for (const BenchCase& benchCase : cases) {
        QJsonArray rows;
        for (const Measurement& row : benchCase.rows) {
            QJsonObject object{{"implementation", QString::fromStdString(row.name)},
                               {"kind", kindName(row.kind)}};
            if (!row.skipped.empty()) {
                object["skipped"] = QString::fromStdString(row.skipped);
                object["failed"] = row.failed;
                rows.append(object);
                continue;
            }
            object["hostMilliseconds"] = spreadJson(row.hostMs);
            if (row.firstMs)
                object["firstClickMilliseconds"] = spreadJson(*row.firstMs);
            object["deviceMilliseconds"] = row.deviceMs ? QJsonValue(spreadJson(*row.deviceMs)) : QJsonValue();
            object["idleMilliseconds"] = row.idleMs ? QJsonValue(spreadJson(*row.idleMs)) : QJsonValue();
            if (row.kind == Kind::Variant)
                object["kernels"] = deviceTimeJson(row.kernels);
            object["iterations"] = double(row.iterations);
            object["microsecondsPerIteration"] = row.iterations ? QJsonValue(perIterationUs(row)) : QJsonValue();
            object["pixelsPerSecond"] = megapixelsPerSecond(row, benchCase) * 1e6;
            if (row.kind == Kind::Variant) {
                object["wrongOnPurpose"] = row.variant.wrongOnPurpose();
                object["deviceBytes"] = double(row.deviceBytes);
            }
            object["check"] = QString::fromStdString(row.kind == Kind::Reference ? "reference" : row.check.text());
            object["verified"] = row.kind == Kind::Reference || row.check.ok();
            object["differingPixels"] = double(row.check.differingPixels);
            object["speedupOverHostSync"] = optionalJson(row.speedupOverHostSync);
            object["perIterationOverLaunchFloor"] = optionalJson(row.perIterationOverFloor);
            object["perLevelOverGridBarrierFloor"] = optionalJson(row.perLevelOverBarrier);
            object["speedupOverReference"] = optionalJson(row.speedupOverReference);
            object["speedupOverFastCpu"] = optionalJson(row.speedupOverFastCpu);
            object["speedupOverFloodFill"] = optionalJson(row.speedupOverFloodFill);
            object["speedupOverNpp"] = optionalJson(row.speedupOverNpp);
            if (row.reportedPixels)
                object["reportedPixels"] = double(*row.reportedPixels);
            rows.append(object);
        }
        caseArray.append(QJsonObject{{"image", QString::fromStdString(benchCase.image)},
                                     {"width", benchCase.width},
                                     {"height", benchCase.height},
                                     {"seeds", benchCase.seedCount},
                                     {"mode", QString::fromStdString(modeName(benchCase.mode))},
                                     {"iterations", double(benchCase.iterations)},
                                     {"classifiedPixels", double(benchCase.classified)},
                                     {"results", rows}});
    }
    QJsonArray sizes, seedCounts, modes, skippedArray, photoArray, photoSizes;
    for (const QString& photo : photos)
        photoArray.append(photo);
    for (int size : settings.photoSizes)
        photoSizes.append(size);
    for (int size : settings.sizes)
        sizes.append(size);
    for (int count : settings.seedCounts)
        seedCounts.append(count);
    for (Mode mode : settings.modes)
        modes.append(QString::fromStdString(modeName(mode)));
    for (const std::string& reason : skipped)
        skippedArray.append(QString::fromStdString(reason));
    const QJsonObject settingsObject{
        {"sizes", sizes}, {"samples", settings.samplesDirectory}, {"seeds", seedCounts}, {"modes", modes},
        {"variants", QString::fromStdString(settings.variantsText)}, {"repeat", settings.repeat},
        {"warmup", settings.warmup}, {"referenceRepeat", settings.referenceRepeat},
        {"cpuThreads", settings.cpuThreads}, {"lower", int(settings.grow.lower)},
        {"upper", int(settings.grow.upper)}, {"tolerance", settings.grow.tolerance},
        {"connectivity", settings.grow.connectivity}, {"noiseSeed", double(settings.noiseSeed)},
        {"photos", photoArray}, {"photoSizes", photoSizes}};
    const QJsonObject root{
        {"device", deviceJson(device)},
        {"hostThreads", int(std::thread::hardware_concurrency())},
        {"openCv", haveFloodFill},
        {"npp", QJsonObject{{"available", npp.available()},
                            {"description", QString::fromStdString(npp.available() ? npp.description() : npp.whyNot())}}},
        {"settings", settingsObject},
        {"launchFloor", QJsonObject{{"launches", floor.launches},
                                    {"pipelinedMicroseconds", spreadJson(floor.pipelinedUs)},
                                    {"blockingReadMicroseconds", spreadJson(floor.blockingUs)}}},
        {"gridBarrierFloorUs", barrierFloor.us ? QJsonValue(barrierFloor.us->median) : QJsonValue()},
        {"gridBarrierFloor", gridBarrierJson(barrierFloor)},
        {"skipped", skippedArray},
        {"cases", caseArray}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

std::string csvNumber(const std::optional<double>& value)
{
    if (!value)
        return "";
    std::ostringstream text;
    text << std::setprecision(8) << *value;
    return text.str();
}

std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

QByteArray benchCsv(const DeviceInfo& device, const LaunchFloor& floor, const GridBarrierFloor& barrierFloor,
                    const std::vector<BenchCase>& cases)
{
    std::ostringstream out;
    out << "device,image,width,height,seeds,mode,implementation,kind,host_ms_median,host_ms_min,host_ms_max,"
           "first_click_ms_median,device_ms_median,device_ms_min,device_ms_max,idle_ms_median,iterations,us_per_iteration,"
           "pixels_per_second,check,differing_pixels,speedup_vs_host_sync,per_iteration_vs_floor,"
           "per_level_vs_grid_barrier,speedup_vs_reference,speedup_vs_fast_cpu,speedup_vs_floodfill,floor_pipelined_us,"
           "floor_blocking_us,grid_barrier_floor_us,skipped\n";
    for (const BenchCase& benchCase : cases) {
        for (const Measurement& row : benchCase.rows) {
            const bool ran = row.skipped.empty();
            auto when = [&](bool present, double value) { return present ? std::optional<double>(value) : std::nullopt; };
            out << csvField(device.name) << "," << csvField(benchCase.image) << "," << benchCase.width << ","
                << benchCase.height << "," << benchCase.seedCount << "," << modeName(benchCase.mode) << ","
                << csvField(row.name) << "," << kindName(row.kind) << ","
                << csvNumber(when(ran, row.hostMs.median)) << "," << csvNumber(when(ran, row.hostMs.min)) << ","
                << csvNumber(when(ran, row.hostMs.max)) << ","
                << csvNumber(when(row.firstMs.has_value(), row.firstMs ? row.firstMs->median : 0)) << ","
                << csvNumber(when(row.deviceMs.has_value(), row.deviceMs ? row.deviceMs->median : 0)) << ","
                << csvNumber(when(row.deviceMs.has_value(), row.deviceMs ? row.deviceMs->min : 0)) << ","
                << csvNumber(when(row.deviceMs.has_value(), row.deviceMs ? row.deviceMs->max : 0)) << ","
                << csvNumber(when(row.idleMs.has_value(), row.idleMs ? row.idleMs->median : 0)) << ","
                << (ran ? std::to_string(row.iterations) : "") << ","
                << csvNumber(when(ran && row.iterations > 0, perIterationUs(row))) << ","
                << csvNumber(when(ran, megapixelsPerSecond(row, benchCase) * 1e6)) << ","
                << (ran ? (row.kind == Kind::Reference ? "reference" : csvField(row.check.text())) : "") << ","
                << (ran ? std::to_string(row.check.differingPixels) : "") << ","
                << csvNumber(row.speedupOverHostSync) << "," << csvNumber(row.perIterationOverFloor) << ","
                << csvNumber(row.perLevelOverBarrier) << "," << csvNumber(row.speedupOverReference) << "," << csvNumber(row.speedupOverFastCpu) << ","
                << csvNumber(row.speedupOverFloodFill) << "," << csvNumber(floor.pipelinedUs.median) << ","
                << csvNumber(floor.blockingUs.median) << ","
                << csvNumber(barrierFloor.us ? std::optional<double>(barrierFloor.us->median) : std::nullopt) << ","
                << csvField(row.skipped) << "\n";
        }
    }
    return QByteArray::fromStdString(out.str());
}

// The two floors, in the words rgx-cli bench's contract uses.
void printFloors(std::ostream& out, const LaunchFloor& floor, const GridBarrierFloor& barrierFloor)
{
    out << "launch floor (empty kernel, " << floor.launches << " launches): " << readable(floor.pipelinedUs.median)
        << " us per launch pipelined (" << readable(floor.pipelinedUs.min) << ".." << readable(floor.pipelinedUs.max)
        << "), " << readable(floor.blockingUs.median) << " us with a blocking 4-byte read after each ("
        << readable(floor.blockingUs.min) << ".." << readable(floor.blockingUs.max) << ")\n";
    if (barrierFloor.us) {
        out << "grid barrier floor: " << readable(barrierFloor.us->median) << " us per barrier ("
            << barrierFloor.barriers << " barriers between " << barrierFloor.groups
            << " work-groups of 256, one per compute unit; " << readable(barrierFloor.us->min) << ".."
            << readable(barrierFloor.us->max) << ")";
        if (barrierFloor.fusedUs && barrierFloor.fusedGroups != barrierFloor.groups)
            out << "; " << readable(barrierFloor.fusedUs->median) << " us between the " << barrierFloor.fusedGroups
                << " work-groups of the fused drivers";
        out << "\n";
    } else {
        out << "grid barrier floor: not measured: " << barrierFloor.whyNot << "\n";
    }
}

std::string hostProcessor()
{
    QFile cpuinfo(QStringLiteral("/proc/cpuinfo"));
    if (cpuinfo.open(QIODevice::ReadOnly | QIODevice::Text)) {
        for (QByteArray line = cpuinfo.readLine(); !line.isEmpty(); line = cpuinfo.readLine())
            if (line.startsWith("model name")) {
                const int colon = line.indexOf(':');
                return line.mid(colon + 1).trimmed().toStdString();
            }
    }
    return "unknown processor";
}

} // namespace

QJsonArray deviceTimeJson(const std::vector<KernelTotal>& totals)
{
    QJsonArray kernels;
    for (const KernelTotal& total : totals)
        kernels.append(QJsonObject{{"stage", QString::fromStdString(total.stage)},
                                   {"kernel", QString::fromStdString(total.kernel)},
                                   {"launches", total.launches},
                                   {"ms", double(total.totalNs) / 1e6}});
    return kernels;
}

std::string deviceTimeLine(const std::vector<KernelTotal>& totals)
{
    std::string line = "where its last click's device time went:";
    const char* separator = " ";
    for (const KernelTotal& total : totals) {
        line += separator + total.kernel + " " + readable(double(total.totalNs) / 1e6) + " ms";
        if (total.launches > 1)
            line += " in " + std::to_string(total.launches);
        separator = ", ";
    }
    return line;
}

std::string queueTimeLine(const std::vector<TimingRecord>& commands)
{
    // The commands of the main queue in their order of start (a second
    // queue's read overlaps them: left out of the gaps).
    std::vector<const TimingRecord*> order;
    for (const TimingRecord& command : commands)
        if (command.measured && command.end > command.start)
            order.push_back(&command);
    if (order.empty())
        return {};
    std::sort(order.begin(), order.end(), [](const TimingRecord* a, const TimingRecord* b) { return a->start < b->start; });
    struct Gap {
        uint64_t ns;
        std::string before;
    };
    std::vector<Gap> gaps;
    uint64_t busyUntil = order.front()->start, idle = 0;
    for (const TimingRecord* command : order) {
        if (command->start > busyUntil) {
            idle += command->start - busyUntil;
            gaps.push_back({command->start - busyUntil, command->kernel});
        }
        busyUntil = std::max(busyUntil, command->end);
    }
    std::sort(gaps.begin(), gaps.end(), [](const Gap& a, const Gap& b) { return a.ns > b.ns; });
    std::string line = "its last click on the device: " + readable(double(busyUntil - order.front()->start) / 1e6) +
                       " ms from the first command's start to the last's end, idle " + readable(double(idle) / 1e6) +
                       " ms in " + std::to_string(gaps.size()) + " gaps";
    for (size_t i = 0; i < std::min<size_t>(gaps.size(), 3); ++i)
        line += std::string(i == 0 ? ", the largest " : ", ") + readable(double(gaps[i].ns) / 1e3) + " us before " +
                gaps[i].before;
    return line;
}

bool runBench(const std::vector<std::string>& arguments)
{
    if (std::find(arguments.begin(), arguments.end(), "--interactive") != arguments.end())
        return runInteractiveBench(arguments);
    if (std::find(arguments.begin(), arguments.end(), "--volume") != arguments.end())
        return runVolumeBench(arguments);
    const BenchSettings settings = parseSettings(arguments);
    const DeviceInfo deviceInfo = selectDevice(settings.deviceSpec);
    // "all": every correct variant the device can run.
    const std::vector<GrowVariant> variants = chooseVariants(
        settings.variantsText, deviceInfo,
        settings.variantsText == "all" ? [](const GrowVariant&) { return true; }
                                        : std::function<bool(const GrowVariant&)>(),
        "'all'");
    std::vector<QString> samples;
    if (!settings.samplesDirectory.isEmpty())
        samples = sampleFiles(settings.samplesDirectory);
    std::string missingPhotos;
    std::vector<QString> photos;
    if (settings.photos)
        photos = photoFiles(settings, missingPhotos);
    ComputeDevice device(deviceInfo);
    const bench::FloodFillBaseline floodFill; // after the device: see FloodFillBaseline.h
    const bench::NppBaseline npp(settings.nppDirectory);
    std::ostream& out = std::cout;

    out << "device: " << deviceInfo.id() << " " << deviceInfo.name << " (" << deviceInfo.platformName << ", "
        << deviceInfo.platformVersion << ", driver " << deviceInfo.driverVersion << ", " << deviceInfo.openClCVersion
        << ", " << deviceInfo.computeUnits << " compute units, " << deviceInfo.globalMemoryBytes / (1024 * 1024)
        << " MiB)\n"
        << "host: " << hostProcessor() << ", " << std::thread::hardware_concurrency() << " hardware threads\n"
        << "runs: " << settings.warmup << " warm-up + " << settings.repeat << " measured per implementation ("
        << settings.referenceRepeat << " for the CPU reference); medians, (min..max)\n"
        << "variants: " << variants.size() << "; cv::floodFill: "
        << (floodFill.available() ? "yes (mode range, one seed)" : "no, " + floodFill.whyNot())
        << "\n"
        << "NPP: "
        << (npp.available() ? npp.description() + " (nppiFloodFillRange_8u_C1IR_Ctx: mode range, one seed, 8-bit images)"
                            : "not available (" + npp.whyNot() + ")")
        << "\n";
    if (settings.photos) {
        out << "photos:";
        for (size_t i = 0; i < photos.size(); ++i)
            out << (i ? ", " : " ") << QFileInfo(photos[i]).completeBaseName().toStdString();
        out << "; scaled to " << sizesText(settings.photoSizes) << ", +-2 grey levels of noise (--noise-seed)";
        if (!missingPhotos.empty())
            out << "; " << missingPhotos;
        out << "\n";
    }

    const LaunchFloor floor = bench::measureLaunchFloor(device, std::max(settings.repeat, 3));
    const GridBarrierFloor barrierFloor = bench::measureGridBarrierFloor(device, std::max(settings.repeat, 3));
    printFloors(out, floor, barrierFloor);
    out << "columns: host ms = a click of a resident session (request to the result's maps in host memory);\n"
           "  first ms = the first click of a new session (the image, or a window of it, uploaded, the buffers made);\n"
           "  device ms = "
           "kernel time\n"
           "  from the profiling events; idle ms = gaps between commands; vs sync/ref/fast/fill = speed-up over "
           "host-sync\n"
           "  of the same frontier and collectives, the CPU reference, the fast CPU, cv::floodFill (above 1: this "
           "row is\n"
           "  faster); /floor = host time per iteration over the pipelined launch floor; /gbar = kernel time per "
           "level of a\n"
           "  fused row over the grid barrier floor of the fused grid\n";

    bench::CaseBench measuring(settings, device, variants, floor, barrierFloor, floodFill, &npp);
    std::vector<BenchCase> cases;
    std::vector<std::string> skipped;
    bool allEqual = true;
    auto runImage = [&](const BenchImage& input) {
        for (int seedCount : settings.seedCounts) {
            const std::vector<Seed> seeds = gridSeeds(input.image.width, input.image.height, seedCount);
            if (seeds.empty()) {
                skipped.push_back(input.name + " skipped for " + seedsText(seedCount) + ": too small for them");
                out << "\n" << skipped.back() << "\n";
                continue;
            }
            if (auto reason = bench::tooLargeForDevice(input.image, input.name, seeds.size(), variants, deviceInfo)) {
                skipped.push_back(*reason);
                out << "\n" << *reason << "\n";
                return;
            }
            for (Mode mode : settings.modes) {
                cases.push_back(measuring.runCase(input.name, input.image, seeds, mode));
                printCase(out, cases.back());
                for (const Measurement& row : cases.back().rows)
                    if (bench::rowFailed(row))
                        allEqual = false;
            }
        }
    };
    for (int size : settings.sizes)
        runImage({"noise-" + std::to_string(size), smoothNoise(size, settings.noiseSeed)});
    for (const QString& path : photos) {
        const LumaImage photo = loadLumaImage(path);
        for (int size : settings.photoSizes)
            runImage({"photo-" + QFileInfo(path).completeBaseName().toStdString(),
                      scaledPhoto(photo, size, settings.noiseSeed)});
    }
    for (const QString& path : samples)
        runImage({QFileInfo(path).completeBaseName().toStdString(), loadLumaImage(path)});

    if (!settings.jsonPath.empty())
        saveFileAtomically(QString::fromStdString(settings.jsonPath),
                           benchJson(settings, deviceInfo, floor, barrierFloor, floodFill.available(), npp, photos, cases,
                                     skipped));
    if (!settings.csvPath.empty())
        saveFileAtomically(QString::fromStdString(settings.csvPath), benchCsv(deviceInfo, floor, barrierFloor, cases));
    if (!allEqual)
        out << "\nsome results differ from the CPU reference or failed (see the check column)\n";
    return allEqual;
}

} // namespace rgx
