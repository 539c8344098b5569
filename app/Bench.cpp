// rgx-cli bench: the cases that engine/bench/CaseBench measures, over the
// images the options name (BenchSettings), printed as tables and written as
// JSON and CSV (BenchReport).
#include "Bench.h"
#include "BenchReport.h"
#include "BenchSettings.h"
#include "BenchText.h"
#include "Device.h"
#include "Errors.h"
#include "Export.h"
#include "Image.h"
#include "Variant.h"
#include "bench/BenchInputs.h"
#include "bench/CaseBench.h"
#include "bench/FloodFillBaseline.h"
#include "bench/Floors.h"
#include "bench/NppBaseline.h"

#include <QFileInfo>
#include <algorithm>
#include <iostream>
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

struct BenchImage {
    std::string name;
    LumaImage image;
};

using bench::BenchCase;
using bench::GridBarrierFloor;
using bench::LaunchFloor;
using bench::Measurement;
using bench::gridSeeds;
using bench::scaledPhoto;
using bench::smoothNoise;

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
