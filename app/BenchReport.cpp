// rgx-cli bench's tables and files (BenchReport.h).
#include "BenchReport.h"
#include "BenchText.h"
#include "Device.h"
#include "bench/NppBaseline.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <iomanip>
#include <sstream>
#include <thread>

namespace rgx {

using bench::BenchCase;
using bench::GridBarrierFloor;
using bench::Kind;
using bench::LaunchFloor;
using bench::Measurement;
using bench::megapixelsPerSecond;
using bench::perIterationUs;

std::string seedsText(int count)
{
    return std::to_string(count) + (count == 1 ? " seed" : " seeds");
}

namespace {

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

} // namespace

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
            if (ratio)
                out << "; " << versusText(*ratio, what);
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

namespace {

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

QJsonObject gridBarrierJson(const GridBarrierFloor& floor)
{
    return QJsonObject{{"barriers", floor.barriers},
                       {"groups", floor.groups},
                       {"microseconds", floor.us ? QJsonValue(spreadJson(*floor.us)) : QJsonValue()},
                       {"fusedGroups", floor.fusedGroups},
                       {"fusedMicroseconds", floor.fusedUs ? QJsonValue(spreadJson(*floor.fusedUs)) : QJsonValue()},
                       {"whyNot", QString::fromStdString(floor.whyNot)}};
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

} // namespace

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

} // namespace rgx
