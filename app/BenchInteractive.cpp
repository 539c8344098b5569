// rgx-cli bench --interactive: the click script of engine/bench/ClickBench on
// generated images, one resident session per size and variant, printed as a
// table per session and written as JSON (an array "clicks").
#include "Bench.h"
#include "BenchText.h"
#include "CliOptions.h"
#include "Device.h"
#include "Errors.h"
#include "Export.h"
#include "bench/BenchInputs.h"
#include "bench/ClickBench.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <iomanip>
#include <iostream>

namespace rgx {
namespace {

double mebibytes(uint64_t bytes) { return double(bytes) / (1024.0 * 1024.0); }

// Where the time of one click went, command by command: each command's
// start after the first was queued, and its length, in microseconds; then
// the host time outside them (the result's maps, the bookkeeping).
void printCommands(std::ostream& out, const bench::ClickMeasurement& click, const std::string& which = "")
{
    if (click.commands.empty())
        return;
    const uint64_t origin = click.commands.front().queued;
    uint64_t last = origin;
    out << "where \"" << click.step << "\" went (" << (which.empty() ? "" : which + "; ")
        << "us: start after the first command was queued + length):";
    for (const TimingRecord& command : click.commands) {
        out << "\n  " << std::left << std::setw(28) << command.kernel << std::right << std::setw(9)
            << readable((command.start - origin) / 1e3) << " + " << readable(command.duration() / 1e3);
        last = std::max(last, command.end);
    }
    out << "\n  the click took " << readable(click.hostMs.median * 1e3) << " us on the host, the queue "
        << readable((last - origin) / 1e3) << " us from the first command to the last\n";
}

QJsonArray commandsJson(const bench::ClickMeasurement& click)
{
    QJsonArray commands;
    const uint64_t origin = click.commands.empty() ? 0 : click.commands.front().queued;
    for (const TimingRecord& command : click.commands)
        commands.append(QJsonObject{{"command", QString::fromStdString(command.kernel)},
                                    {"startUs", (command.start - origin) / 1e3},
                                    {"us", command.duration() / 1e3}});
    return commands;
}

void printRun(std::ostream& out, int size, const bench::ClickRun& run)
{
    out << "\nnoise-" << size << " " << size << "x" << size << ", " << run.variant << "\n";
    out << std::left << std::setw(32) << "step" << std::setw(9) << "resident" << std::right << std::setw(10)
        << "host ms" << std::setw(22) << "(min..max)" << std::setw(11) << "device ms" << std::setw(7) << "iters"
        << std::setw(10) << "pixels" << std::setw(10) << "box px" << "  check\n";
    for (const bench::ClickMeasurement& click : run.clicks) {
        out << std::left << std::setw(32) << click.step << std::setw(9) << (click.resident ? "yes" : "no (first)")
            << std::right << std::setw(10) << readable(click.hostMs.median) << std::setw(22)
            << "(" + readable(click.hostMs.min) + ".." + readable(click.hostMs.max) + ")" << std::setw(11)
            << readable(click.deviceMs.median) << std::setw(7) << click.iterations << std::setw(10)
            << click.classified << std::setw(10) << click.boxPixels << "  " << click.check << "\n";
        if (!click.note.empty())
            out << "  note: " << click.note << "\n";
    }
    const bench::ClickMeasurement& first = run.clicks.front();
    printCommands(out, first);
    printCommands(out, run.clicks.back());
    // And the slowest resident click, where the script's time mostly goes.
    if (run.clicks.size() > 2) {
        const auto slowest = std::max_element(run.clicks.begin() + 1, run.clicks.end(),
                                              [](const auto& a, const auto& b) { return a.hostMs.median < b.hostMs.median; });
        if (slowest != run.clicks.end() - 1)
            printCommands(out, *slowest, "the slowest resident click");
    }
    if (first.uploadMs > 0)
        out << "upload of the first click: " << readable(mebibytes(first.uploadBytes)) << " MiB of luma"
            << (first.uploadWindow.empty() ? "" : " (a window of " + first.uploadWindow + " pixels)") << " in "
            << readable(first.uploadMs) << " ms = " << readable(double(first.uploadBytes) / first.uploadMs / 1e6)
            << " GB/s\n";
    out << "footprint after the script: device " << readable(mebibytes(run.footprint.deviceBytes))
        << " MiB (bound " << readable(mebibytes(run.footprintBound)) << " MiB: "
        << (run.footprint.deviceBytes <= run.footprintBound ? "within" : "ABOVE") << "), pinned host "
        << readable(mebibytes(run.footprint.hostBytes)) << " MiB\n";
    out.flush();
}

} // namespace

const char* interactiveBenchUsage =
    "  rgx-cli bench --interactive [--sizes 4096] [--device D] [--variants \"V;V\"] [--repeat 5]\n"
    "          [--range 40] [--noise-seed 1] [--json FILE]\n";

bool runInteractiveBench(const std::vector<std::string>& arguments)
{
    const CliOptions options("bench --interactive", arguments, {"--sizes", "--device", "--variants", "--repeat", "--range", "--noise-seed", "--json"},
                             {"--interactive"});
    std::vector<int> sizes;
    for (const std::string& part : splitOn(options.value("--sizes", "4096"), ',')) {
        const long size = std::atol(part.c_str());
        if (size < 16 || size > 46340)
            throw InputError("option --sizes needs whole numbers from 16 to 46340 separated by commas, not '" + part + "'");
        sizes.push_back(int(size));
    }
    const int repeat = int(options.integer("--repeat", 5, 1, 1000));
    const uint32_t range = uint32_t(options.integer("--range", 40, 0, 65535));
    const uint32_t noiseSeed = uint32_t(options.integer("--noise-seed", 1, 0, 0x7FFFFFFF));
    if (options.has("--json") && options.value("--json").empty())
        throw InputError("option --json needs a file name");
    const DeviceInfo info = selectDevice(options.value("--device"));
    std::vector<GrowVariant> variants;
    for (const std::string& text : splitOn(options.value("--variants", "fusion=tiles"), ';')) {
        const GrowVariant variant = parseVariant(text);
        if (auto reason = whyUnavailable(variant, info))
            throw InputError("variant " + variant.text() + " cannot run on " + info.name + ": " + *reason);
        variants.push_back(variant);
    }
    if (variants.empty())
        throw InputError("option --variants needs variants separated by ';'");

    ComputeDevice device(info);
    std::ostream& out = std::cout;
    out << "device: " << info.id() << " " << info.name << " (" << info.platformName << ", driver "
        << info.driverVersion << ")\n"
        << "interactive: one resident session per image and variant; each click timed from the request to the "
           "result's\n"
           "  maps in host memory (the box of its classified pixels, narrowest types); the first click of a new "
           "session\n"
           "  uploads the image (or a window around the seeds first) and makes the buffers; medians of " << repeat << ", every result checked against "
           "the CPU reference\n";
    QJsonArray clicks, sessions;
    bool allEqual = true;
    for (int size : sizes) {
        const auto image = std::make_shared<const LumaImage>(bench::smoothNoise(size, noiseSeed));
        const std::vector<bench::ClickStep> script = bench::clickScript(size, size, range);
        for (const GrowVariant& variant : variants) {
            const bench::ClickRun run = bench::runClickScript(device, image, script, variant, repeat, true);
            printRun(out, size, run);
            for (const bench::ClickMeasurement& click : run.clicks) {
                allEqual = allEqual && click.check == "ok";
                QJsonObject object{{"step", QString::fromStdString(click.step)},
                                   {"resident", click.resident},
                                   {"hostMs", click.hostMs.median},
                                   {"hostMilliseconds", spreadJson(click.hostMs)},
                                   {"deviceMs", click.deviceMs.median},
                                   {"iterations", double(click.iterations)},
                                   {"classifiedPixels", double(click.classified)},
                                   {"boxPixels", double(click.boxPixels)},
                                   {"check", QString::fromStdString(click.check)},
                                   {"size", size},
                                   {"variant", QString::fromStdString(variant.text())},
                                   {"commands", commandsJson(click)}};
                if (!click.resident && click.uploadMs > 0)
                    object["uploadGBps"] = double(click.uploadBytes) / click.uploadMs / 1e6;
                if (!click.note.empty())
                    object["note"] = QString::fromStdString(click.note);
                clicks.append(object);
            }
            sessions.append(QJsonObject{{"size", size},
                                        {"variant", QString::fromStdString(variant.text())},
                                        {"deviceBytes", double(run.footprint.deviceBytes)},
                                        {"deviceBytesBound", double(run.footprintBound)},
                                        {"hostBytes", double(run.footprint.hostBytes)}});
            allEqual = allEqual && run.footprint.deviceBytes <= run.footprintBound;
        }
    }
    if (options.has("--json")) {
        const QJsonObject root{{"device", QString::fromStdString(info.name)},
                               {"repeat", repeat},
                               {"range", int(range)},
                               {"clicks", clicks},
                               {"sessions", sessions}};
        saveFileAtomically(QString::fromStdString(options.value("--json")),
                           QJsonDocument(root).toJson(QJsonDocument::Indented));
    }
    if (!allEqual)
        out << "\nsome clicks differ from the CPU reference, or a session held more than its bound\n";
    return allEqual;
}

} // namespace rgx
