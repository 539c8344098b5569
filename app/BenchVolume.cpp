// rgx-cli bench --volume: the options, and the cases of
// engine/bench/VolumeBench printed as a table per phantom and case and
// written as JSON (docs/PERFORMANCE.md, "Volumes").
#include "Bench.h"
#include "BenchText.h"
#include "CliOptions.h"
#include "Device.h"
#include "Errors.h"
#include "Export.h"
#include "bench/VolumeBench.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <functional>
#include <iomanip>
#include <iostream>
#include <thread>

namespace rgx {

namespace {

using bench::VolumeCaseResult;
using bench::VolumeVariantRun;

void printCase(std::ostream& out, const VolumeCaseResult& result)
{
    const bench::VolumeCase& volumeCase = result.volumeCase;
    out << "\n" << result.phantom << " " << volumeCase.name << ": " << volumeCase.description << "\n";
    if (result.floodFillMs || result.referenceMs)
        out << "  classified: " << result.classified << " voxels, " << result.iterations << " iterations (by the "
            << (result.floodFillMs ? "flood fill" : "CPU reference") << ")\n";
    if (result.floodFillMs)
        out << "  flood fill (ITK-style ConnectedThreshold, BFS, 1 thread): " << readable(result.floodFillMs->median)
            << " ms (" << readable(result.floodFillMs->min) << ".." << readable(result.floodFillMs->max)
            << "), " << result.floodFillVoxels << " voxels\n";
    if (result.referenceMs) {
        out << "  CPU reference: " << readable(*result.referenceMs) << " ms";
        if (result.referenceCheck)
            out << "; against the flood fill: " << result.referenceCheck->text();
        out << "\n";
    } else {
        out << "  CPU reference: skipped (" << result.referenceSkipped << ")\n";
    }
    if (!result.floodFillMs && !result.referenceMs)
        out << "  nothing checks this case: the check column says \"-\"\n";

    size_t labelWidth = 7;
    for (const VolumeVariantRun& run : result.variants)
        labelWidth = std::max(labelWidth, run.label.size());
    out << "  " << std::left << std::setw(int(labelWidth)) << "variant" << std::right << std::setw(10) << "first ms"
        << std::setw(13) << "resident ms" << std::setw(20) << "(min..max)" << std::setw(11) << "kernel ms"
        << std::setw(7) << "iters" << std::setw(12) << "voxels" << "  check\n";
    for (const VolumeVariantRun& run : result.variants) {
        out << "  " << std::left << std::setw(int(labelWidth)) << run.label << std::right;
        if (!run.skipped.empty()) {
            out << "  " << (run.failed ? "FAILED: " : "skipped: ") << run.skipped << "\n";
            continue;
        }
        out << std::setw(10) << readable(run.firstClickMs) << std::setw(13) << readable(run.residentMs.median)
            << std::setw(20) << "(" + readable(run.residentMs.min) + ".." + readable(run.residentMs.max) + ")"
            << std::setw(11) << readable(run.kernelMs.median) << std::setw(7) << run.iterations << std::setw(12)
            << run.classified << "  " << run.check.text() << "\n";
    }
    // Notes once each: the engine's word on how a variant deviated.
    std::vector<std::string> notes;
    for (const VolumeVariantRun& run : result.variants)
        if (!run.note.empty() && std::find(notes.begin(), notes.end(), run.note) == notes.end())
            notes.push_back(run.note);
    for (const std::string& note : notes)
        out << "  note: " << note << "\n";

    if (const VolumeVariantRun* best = result.best()) {
        out << "  best variant: " << best->label << ", resident click " << readable(best->residentMs.median)
            << " ms (kernel " << readable(best->kernelMs.median) << " ms; first click "
            << readable(best->firstClickMs) << " ms)";
        if (best->speedupOverFloodFill)
            out << "; " << versusText(*best->speedupOverFloodFill, "the flood fill");
        if (best->speedupOverReference)
            out << "; " << versusText(*best->speedupOverReference, "the CPU reference");
        out << "\n";
        if (!best->kernels.empty())
            out << "  " << deviceTimeLine(best->kernels) << "\n";
        if (const std::string queue = queueTimeLine(best->commands); !queue.empty())
            out << "  " << queue << "\n";
        if (volumeCase.targetMs && result.size == 512)
            out << "  issue 27 target at 512^3: at most " << readable(*volumeCase.targetMs) << " ms: "
                << (best->residentMs.median <= *volumeCase.targetMs ? "met" : "MISSED") << "\n";
    } else {
        out << "  best variant: none ran with a right result\n";
    }
    out.flush();
}

QJsonValue checkJson(const bench::Check& check)
{
    return check.done ? QJsonValue(QString::fromStdString(check.text())) : QJsonValue();
}

QJsonObject caseJson(const VolumeCaseResult& result)
{
    const bench::VolumeCase& volumeCase = result.volumeCase;
    QJsonArray seeds, variants;
    for (const Seed& seed : volumeCase.seeds)
        seeds.append(QJsonArray{seed.x, seed.y, seed.z});
    for (const VolumeVariantRun& run : result.variants) {
        QJsonObject object{{"variant", QString::fromStdString(run.variant.text())},
                           {"wrongOnPurpose", !run.expectedEqual},
                           {"skipped", QString::fromStdString(run.skipped)},
                           {"failed", run.failed}};
        if (run.skipped.empty()) {
            object["firstClickMs"] = run.firstClickMs;
            object["residentHostMs"] = spreadJson(run.residentMs);
            object["kernelMs"] = spreadJson(run.kernelMs);
            object["kernels"] = deviceTimeJson(run.kernels);
            object["iterations"] = double(run.iterations);
            object["classifiedVoxels"] = double(run.classified);
            object["check"] = checkJson(run.check);
            object["differingVoxels"] = double(run.check.differingPixels);
            object["checkedAgainst"] = QString::fromStdString(run.checkedAgainst);
            object["speedupOverFloodFill"] = optionalJson(run.speedupOverFloodFill);
            object["speedupOverReference"] = optionalJson(run.speedupOverReference);
            object["note"] = QString::fromStdString(run.note);
        }
        variants.append(object);
    }
    const VolumeVariantRun* best = result.best();
    return QJsonObject{
        {"phantom", QString::fromStdString(result.phantom)},
        {"size", result.size},
        {"case", QString::fromStdString(volumeCase.name)},
        {"description", QString::fromStdString(volumeCase.description)},
        {"mode", QString::fromStdString(modeName(volumeCase.params.grow.mode))},
        {"lower", int(volumeCase.params.grow.lower)},
        {"upper", int(volumeCase.params.grow.upper)},
        {"connectivity", volumeCase.params.grow.connectivity},
        {"seeds", seeds},
        {"classifiedVoxels", double(result.classified)},
        {"iterations", double(result.iterations)},
        {"floodFillMs", result.floodFillMs ? spreadJson(*result.floodFillMs) : QJsonValue()},
        {"cpuReferenceMs", optionalJson(result.referenceMs)},
        {"cpuReferenceSkipped", QString::fromStdString(result.referenceSkipped)},
        {"cpuReferenceCheck", result.referenceCheck ? checkJson(*result.referenceCheck) : QJsonValue()},
        {"targetMs", optionalJson(volumeCase.targetMs)},
        {"best", best ? QJsonValue(QString::fromStdString(best->variant.text())) : QJsonValue()},
        {"variants", variants}};
}

} // namespace

bool runVolumeBench(const std::vector<std::string>& arguments)
{
    const CliOptions options("bench --volume", arguments,
                             {"--sizes", "--device", "--variants", "--repeats", "--connectivity", "--json",
                              "--cpu-reference"},
                             {"--volume"});
    std::vector<int> sizes;
    for (const std::string& part : splitOn(options.value("--sizes", "128,256,512"), ',')) {
        size_t used = 0;
        long size = 0;
        try {
            size = std::stol(part, &used);
        } catch (const std::exception&) {
        }
        if (used != part.size() || size < 16 || size > 1024)
            throw InputError("option --sizes needs edges from 16 to 1024 separated by commas, not '" + part + "'");
        sizes.push_back(int(size));
    }
    if (sizes.empty())
        throw InputError("option --sizes needs at least one edge, e.g. --sizes 128,256");
    bench::VolumeSettings settings;
    settings.repeats = int(options.integer("--repeats", 5, 1, 1000));
    settings.cpuReference = bench::parseCpuReference(options.value("--cpu-reference", "auto"));
    const int connectivity = int(options.integer("--connectivity", 6, 6, 26));
    if (connectivity != 6 && connectivity != 18 && connectivity != 26)
        throw InputError("option --connectivity needs 6, 18 or 26 for a volume, not " + std::to_string(connectivity));
    const uint32_t phantomSeed = 1; // the phantom is the same in every run
    if (options.has("--json") && options.value("--json").empty())
        throw InputError("option --json needs a file name");
    const DeviceInfo info = selectDevice(options.value("--device"));
    const std::string variantsText = options.value("--variants", "queue");
    // "queue" (the default): every correct variant with the queue frontier
    // that the device runs; "all": the sweeps too (each visits every voxel at
    // every level); otherwise the listed ones (chooseVariants, Bench.h).
    std::function<bool(const GrowVariant&)> keep;
    if (variantsText == "queue")
        keep = [](const GrowVariant& variant) { return variant.frontier == Frontier::Queue; };
    else if (variantsText == "all")
        keep = [](const GrowVariant&) { return true; };
    const std::vector<GrowVariant> variants = chooseVariants(variantsText, info, keep, "queue, all");

    ComputeDevice device(info);
    std::ostream& out = std::cout;
    out << "device: " << info.id() << " " << info.name << " (" << info.platformName << ", driver "
        << info.driverVersion << ", " << info.computeUnits << " compute units, "
        << info.globalMemoryBytes / (1024 * 1024) << " MiB)\n"
        << "host: " << hostProcessor() << ", " << std::thread::hardware_concurrency() << " hardware threads\n"
        << "volumes: a 16-bit phantom per size (seed " << phantomSeed
        << "): background 1000 +-10, balls of their own levels +-10; connectivity " << connectivity << "\n"
        << "variants: " << variants.size() << "; per variant a first click on a new session (the volume uploaded, "
           "the buffers made;\n"
           "  its programs built before, untimed), then "
        << settings.repeats << (settings.repeats == 1 ? " click" : " clicks")
        << " on the resident session, each from the request to the maps\n"
           "  in host memory (resident ms: median (min..max)); kernel ms from the profiling events; check: the first\n"
           "  and the last click against the flood fill (range, one seed: the same voxels, stamps the BFS distances)\n"
           "  or else the CPU reference\n";

    bench::VolumeBench measuring(settings, device, variants);
    QJsonArray cases;
    bool allEqual = true;
    for (int size : sizes) {
        const bench::Phantom phantom = bench::makePhantom(size, phantomSeed);
        const auto volume = std::make_shared<const LumaImage>(phantom.volume);
        const std::string name = "phantom-" + std::to_string(size);
        out << "\n" << name << " " << size << "x" << size << "x" << size << " (" << volume->pixelCount()
            << " voxels, 16-bit, " << phantom.spheres.size() << " balls)\n";
        for (const bench::VolumeCase& volumeCase : bench::volumeCases(phantom, connectivity)) {
            const VolumeCaseResult result = measuring.runCase(name, volume, volumeCase);
            printCase(out, result);
            cases.append(caseJson(result));
            allEqual = allEqual && !result.failed();
        }
    }
    if (options.has("--json")) {
        QJsonArray sizeArray;
        for (int size : sizes)
            sizeArray.append(size);
        const QJsonObject root{
            {"device", QJsonObject{{"id", QString::fromStdString(info.id())},
                                   {"name", QString::fromStdString(info.name)},
                                   {"platform", QString::fromStdString(info.platformName)},
                                   {"driverVersion", QString::fromStdString(info.driverVersion)},
                                   {"computeUnits", int(info.computeUnits)},
                                   {"globalMemoryBytes", double(info.globalMemoryBytes)}}},
            {"host", QString::fromStdString(hostProcessor())},
            {"hostThreads", int(std::thread::hardware_concurrency())},
            {"settings", QJsonObject{{"sizes", sizeArray},
                                     {"variants", QString::fromStdString(variantsText)},
                                     {"repeats", settings.repeats},
                                     {"connectivity", connectivity},
                                     {"cpuReference", QString::fromStdString(options.value("--cpu-reference", "auto"))},
                                     {"phantomSeed", double(phantomSeed)}}},
            {"cases", cases}};
        saveFileAtomically(QString::fromStdString(options.value("--json")),
                           QJsonDocument(root).toJson(QJsonDocument::Indented));
    }
    if (!allEqual)
        out << "\nsome results differ from the flood fill or the CPU reference, or a variant failed (see the check "
               "column)\n";
    return allEqual;
}

} // namespace rgx
