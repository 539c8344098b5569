// rgx-cli: the headless twin of rgx, with the command-line contract of
// DESIGN.md. Exit codes come from the error types, here and nowhere else.
#include "Bench.h"
#include "CliHelp.h"
#include "CliOptions.h"
#include "Device.h"
#include "Errors.h"
#include "Export.h"
#include "Image.h"
#include "Lab.h"
#include "RaceCheck.h"
#include "Overlay.h"
#include "Pipeline.h"
#include "Seeds.h"
#include "SegmentOptions.h"
#include "Variant.h"
#include "VolumeSegment.h"
#include "stages/StageVariants.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QImage>
#include <QJsonArray>
#include <QLoggingCategory>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <array>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace rgx {
namespace {

enum ExitCode { Done = 0, BadInput = 2, OpenClFailure = 3, VerifyFailed = 4 };

const char* usage =
    "usage:\n"
    "  rgx-cli devices [--json]\n"
    "  rgx-cli variants [--device D] [--json]\n"
    "  rgx-cli segment --image FILE (--seeds \"x,y;x,y\" | --seeds-file FILE)\n"
    "          [--mode competitive|adaptive|range] [--tolerance T] [--lower LO] [--upper UP]\n"
    "          [--rule adjacent|all] [--connectivity 4|8|6|18|26] [--max-iterations N]\n"
    "          [--prefilter none|boxmean:W[:V]|gaussian:R[:V]] [--postfilter none|density:W:MIN[:V]]\n"
    "          [--device D] [--variant driver=..,frontier=..,collectives=..,tile=..] [--timeout S]\n"
    "          [--out-labels FILE.png|FILE.npy|FILE.nii.gz|FILE.tif] [--out-stamps FILE.npy]\n"
    "          [--out-overlay FILE.png] [--timings FILE.json|FILE.csv] [--verify]\n"
    "          [--check-races]\n"
    "          (a volume: --image FILE.nii[.gz], a DICOM or slice folder, a multi-page .tif; seeds x,y,z)\n"
    "  rgx-cli lab binary-search --size N --keys K [--device D] [--variant driver=..]\n"
    "  rgx-cli lab residency [--device D] [--time-limit S]\n";

int commandDevices(const CliOptions& options)
{
    const std::vector<DeviceInfo> devices = listDevices();
    if (options.has("--json")) {
        std::cout << devicesJson(devices);
        return Done;
    }
    if (devices.empty())
        std::cout << "no OpenCL device found\n";
    std::cout << devicesText(devices);
    return Done;
}

int commandVariants(const CliOptions& options)
{
    const DeviceInfo device = selectDevice(options.value("--device"));
    const std::vector<GrowVariant> variants = allVariants();
    if (options.has("--json")) {
        QJsonArray array;
        for (const GrowVariant& variant : variants) {
            const auto reason = whyUnavailable(variant, device);
            QJsonObject object;
            object["variant"] = QString::fromStdString(variant.text());
            object["driver"] = QString::fromStdString(driverName(variant.driver));
            object["frontier"] = QString::fromStdString(frontierName(variant.frontier));
            object["collectives"] = QString::fromStdString(collectivesName(variant.collectives));
            object["tile"] = QString::fromStdString(tileName(variant.tile));
            object["fusion"] = QString::fromStdString(fusionName(variant.fusion));
            object["wrongOnPurpose"] = variant.wrongOnPurpose();
            object["available"] = !reason.has_value();
            object["reason"] = reason ? QString::fromStdString(*reason) : QString();
            array.append(object);
        }
        QJsonArray stages;
        for (const StageVariantInfo& info : stageVariants()) {
            QJsonObject object;
            object["stage"] = QString::fromStdString(info.stage);
            object["variant"] = QString::fromStdString(info.name);
            object["default"] = info.isDefault;
            object["wrongOnPurpose"] = info.wrongOnPurpose;
            object["description"] = QString::fromStdString(info.description);
            stages.append(object);
        }
        QJsonObject root;
        root["device"] = QString::fromStdString(device.id() + " " + device.name);
        root["variants"] = array;
        root["stageVariants"] = stages;
        std::cout << QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
        return Done;
    }
    std::cout << "device " << device.id() << ": " << device.name << " (" << device.platformName << ", "
              << device.openClCVersion << ")\n";
    for (const GrowVariant& variant : variants) {
        const auto reason = whyUnavailable(variant, device);
        std::cout << (reason ? "  no   " : "  yes  ") << variant.text();
        if (variant.wrongOnPurpose())
            std::cout << "  [wrong on purpose]";
        if (reason)
            std::cout << "  -- " << *reason;
        std::cout << "\n";
    }
    // The filter stages run everywhere (OpenCL 1.2); V in --prefilter
    // boxmean:W:V, gaussian:R:V and --postfilter density:W:MIN:V.
    std::cout << "filter stage variants (--prefilter boxmean:W:V|gaussian:R:V, --postfilter density:W:MIN:V):\n";
    for (const StageVariantInfo& info : stageVariants()) {
        std::cout << "  " << std::left << std::setw(9) << info.stage << " " << std::setw(16) << info.name
                  << " " << (info.isDefault ? "(default) " : "") << (info.wrongOnPurpose ? "[wrong on purpose] " : "")
                  << info.description << "\n";
    }
    std::cout << std::right;
    return Done;
}


void printSummary(const GrowResult& result, const DeviceInfo& device, const LumaImage& image,
                  size_t seedCount, const PipelineParams& params)
{
    std::cout << "device: " << device.id() << " " << device.name << " (" << device.platformName << ")\n"
              << "variant: " << result.variant << "\n";
    if (params.prefilter.kind == PrefilterSpec::Kind::BoxMean)
        std::cout << "prefilter: " << prefilterText(params.prefilter) << " (variant "
                  << boxMeanVariantName(parseBoxMeanVariant(params.prefilter.variant)) << ")\n";
    else if (params.prefilter.kind == PrefilterSpec::Kind::Gaussian)
        std::cout << "prefilter: " << prefilterText(params.prefilter) << " (variant "
                  << gaussianVariantName(parseGaussianVariant(params.prefilter.variant)) << ")\n";
    if (params.postfilter.enabled)
        std::cout << "postfilter: " << postfilterText(params.postfilter) << " (variant "
                  << densityVariantName(parseDensityVariant(params.postfilter.variant)) << ")\n";
    std::cout
              << describeInput(image) << "; seeds: " << seedCount << "\n"
              << "iterations: " << result.iterations
              << (result.stoppedAtCap ? " (stopped at the iteration cap)" : "") << "\n";
    uint64_t classified = 0;
    for (const RegionStats& region : result.regions)
        classified += region.count;
    std::cout << "classified: " << classified << " of " << image.pixelCount() << " " << elementsOf(image) << "\n";
    const size_t shown = std::min<size_t>(result.regions.size(), 10);
    const std::array<double, 3>& spacing = image.volume.spacing;
    for (size_t k = 0; k < shown; ++k) {
        std::cout << "  region " << k + 1 << ": " << result.regions[k].count << " " << elementsOf(image);
        if (image.isVolume())
            std::cout << " (" << std::fixed << std::setprecision(1)
                      << double(result.regions[k].count) * spacing[0] * spacing[1] * spacing[2] << " mm^3)";
        std::cout << ", mean luma " << std::fixed << std::setprecision(2) << result.regions[k].mean() << "\n";
    }
    if (shown < result.regions.size())
        std::cout << "  ... " << result.regions.size() - shown << " more regions\n";
    for (const KernelReport& kernel : result.kernels) {
        std::cout << "kernel " << kernel.kernel << ": work-group limit " << kernel.workGroupSizeLimit
                  << ", private " << kernel.privateMemoryBytes << " B, local " << kernel.localMemoryBytes << " B";
        if (kernel.registers >= 0)
            std::cout << ", " << kernel.registers << " registers, spills " << kernel.spillStores
                      << " B stored / " << kernel.spillLoads << " B loaded";
        std::cout << "\n";
    }
    if (!result.note.empty())
        std::cout << "note: " << result.note << "\n";
    const TimelineSummary timeline = summarizeTimeline(result.timings);
    std::cout << std::fixed << std::setprecision(3) << "time: " << result.hostMilliseconds
              << " ms on the host; device busy " << timeline.busyNs / 1e6 << " ms, idle gaps "
              << timeline.gapNs / 1e6 << " ms, " << result.timings.size() << " commands\n";
}

int commandSegment(const CliOptions& options)
{
    if (!options.has("--image"))
        throw InputError("segment needs --image FILE");
    if (options.has("--seeds") == options.has("--seeds-file"))
        throw InputError("segment needs exactly one of --seeds \"x,y;x,y\" or --seeds-file FILE");
    const QString imagePath = QString::fromStdString(options.value("--image"));
    QImage picture; // null for a volume
    const LumaImage image = readSegmentInput(imagePath, picture);
    const std::vector<Seed> seeds = options.has("--seeds")
        ? parseSeedList(options.value("--seeds"))
        : readSeedsFile(QString::fromStdString(options.value("--seeds-file")));
    validateSeeds(seeds, image.width, image.height, image.depth);
    PipelineParams params = pipelineParams(options);
    // A volume's default neighbourhood is its 6 faces (4 and 8 are for images).
    if (image.isVolume() && !options.has("--connectivity"))
        params.grow.connectivity = 6;
    if (image.isVolume())
        checkVolumeOutputNames(options);
    if (image.isVolume() && options.has("--check-races"))
        throw InputError("--check-races cuts a 2D image down for Oclgrind; it does not take a volume");
    const GrowVariant variant = parseVariant(options.value("--variant"));
    const DeviceInfo deviceInfo = selectDevice(options.value("--device"));
    if (auto reason = whyUnavailable(variant, deviceInfo))
        throw InputError("variant " + variant.text() + " cannot run on " + deviceInfo.name + ": " + *reason);
    for (const char* option : {"--out-labels", "--out-stamps", "--out-overlay", "--timings"})
        if (options.has(option) && options.value(option).empty())
            throw InputError(std::string("option ") + option + " needs a file name");

    RunControl control;
    control.timeoutSeconds = options.decimal("--timeout", control.timeoutSeconds, 0.0);

    ComputeDevice device(deviceInfo);
    const GrowResultPtr result = runDevicePipeline(device, image, seeds, params, variant, control);
    printSummary(*result, deviceInfo, image, seeds.size(), params);
    if (qEnvironmentVariableIsSet(raceCheckChildVariable))
        std::cout << raceCheckBuildLines(result->kernels); // the race check's tile and segment sizes

    if (image.isVolume())
        writeVolumeOutputs(options, *result, image, seeds.front().z);
    if (options.has("--out-labels") && !image.isVolume())
        writeLabels(QString::fromStdString(options.value("--out-labels")), *result);
    if (options.has("--out-stamps") && !image.isVolume())
        writeStampsNpy(QString::fromStdString(options.value("--out-stamps")), *result);
    if (options.has("--out-overlay") && !image.isVolume()) {
        const QImage overlay = renderOverlay(picture, *result, OverlayStyle{});
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        overlay.save(&buffer, "PNG");
        saveFileAtomically(QString::fromStdString(options.value("--out-overlay")), bytes);
    }
    if (options.has("--timings"))
        writeTimings(QString::fromStdString(options.value("--timings")), *result);

    if (options.has("--check-races")) {
        std::vector<std::string> forwarded;
        for (const char* option : {"--mode", "--tolerance", "--lower", "--upper", "--rule", "--connectivity",
                                   "--max-iterations", "--prefilter", "--postfilter", "--variant"})
            if (options.has(option)) {
                forwarded.push_back(option);
                forwarded.push_back(options.value(option));
            }
        const RaceCheckInput cut = cutDownForRaceCheck(image, seeds);
        std::cout << "race check: Oclgrind on the " << cut.image.width << "x" << cut.image.height
                  << " part at (" << cut.left << "," << cut.top << ") with " << cut.seeds.size()
                  << " seeds\n";
        const std::vector<RaceReport> races = checkRaces(cut, forwarded, QCoreApplication::applicationFilePath());
        if (races.empty())
            std::cout << "races: none\n";
        for (const RaceReport& race : races) {
            const std::string line = "race: " + race.kernel + " " + race.location + " " + race.kind;
            if (race.places.empty())
                std::cout << line << "\n";
            for (const RacePlace& place : race.places)
                std::cout << line << " at " << place.x << "," << place.y << "\n";
        }
    }

    if (options.has("--verify")) {
        const GrowResultPtr reference = runReferencePipeline(image, seeds, params);
        const ResultDiff diff = compareResults(*reference, *result);
        std::cout << "verify: " << diff.differingPixels << " pixels differ";
        if (diff.differingPixels > 0) {
            const int64_t p = diff.firstDifferingPixel;
            const int64_t slice = int64_t(image.width) * image.height;
            std::cout << " (first at (" << p % image.width << "," << p % slice / image.width;
            if (image.isVolume())
                std::cout << "," << p / slice;
            std::cout << "), from iteration " << diff.firstDifferingIteration << ")";
        }
        std::cout << "\n";
        if (diff.differingPixels > 0)
            return VerifyFailed;
    }
    return Done;
}

int run(const std::vector<std::string>& arguments)
{
    if (arguments.size() >= 2 && arguments[0] == "help") {
        if (auto help = commandHelp(arguments[1])) {
            std::cout << *help;
            return Done;
        }
        throw InputError("no command '" + arguments[1] + "' (expected devices, variants, segment, lab or bench)");
    }
    if (arguments.empty() || arguments[0] == "--help" || arguments[0] == "-h" || arguments[0] == "help") {
        std::cout << usage << benchUsage << interactiveBenchUsage
                  << "rgx-cli COMMAND --help, or rgx-cli help COMMAND: what a command does and takes.\n"
                  << "rgx-cli --version: the version.\n";
        return arguments.empty() ? BadInput : Done;
    }
    if (arguments[0] == "--version" || arguments[0] == "-v") {
        std::cout << "rgx-cli " RGX_VERSION "\n";
        return Done;
    }
    const std::string command = arguments[0];
    const std::vector<std::string> rest(arguments.begin() + 1, arguments.end());
    // rgx-cli COMMAND --help, rgx-cli help COMMAND: that command's help.
    if (asksForHelp(int(rest.size()), rest.data())) {
        if (auto help = commandHelp(command)) {
            std::cout << *help;
            return Done;
        }
    }
    if (command == "devices")
        return commandDevices(CliOptions("devices", rest, {}, {"--json"}));
    if (command == "variants")
        return commandVariants(CliOptions("variants", rest, {"--device"}, {"--json"}));
    if (command == "lab")
        return commandLab(rest);
    if (command == "segment")
        return commandSegment(segmentOptions(rest));
    if (command == "bench")
        return runBench(rest) ? Done : VerifyFailed;
    throw InputError("unknown command '" + command + "' (expected devices, variants, segment, lab or bench; see rgx-cli --help)");
}

} // namespace
} // namespace rgx

int main(int argc, char** argv)
{
    QCoreApplication application(argc, argv);
    // Image plug-ins talk on stderr (libpng warnings, allocation limits); the
    // contract is one clear line from rgx-cli itself.
    QLoggingCategory::setFilterRules(QStringLiteral("qt.gui.imageio*=false"));
    std::vector<std::string> arguments;
    for (int i = 1; i < argc; ++i)
        arguments.emplace_back(argv[i]);
    try {
        return rgx::run(arguments);
    } catch (const rgx::InputError& error) {
        std::cerr << "rgx-cli: " << error.what() << "\n";
        return rgx::BadInput;
    } catch (const rgx::OpenClError& error) {
        std::cerr << "rgx-cli: " << error.what() << "\n";
        if (!error.buildLog().empty())
            std::cerr << "build log:\n" << error.buildLog() << "\n";
        return rgx::OpenClFailure;
    } catch (const rgx::RunInterrupted& error) {
        std::cerr << "rgx-cli: " << error.what() << "\n";
        return rgx::OpenClFailure;
    } catch (const std::exception& error) {
        std::cerr << "rgx-cli: unexpected failure: " << error.what() << "\n";
        return rgx::OpenClFailure;
    }
}
