// Running rgx-cli under Oclgrind and reading what it reports.
#include "RaceCheck.h"
#include "EmbeddedKernels.h"
#include "Errors.h"
#include "Export.h"

#include <QImage>
#include <QElapsedTimer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace rgx {

RaceCheckInput cutDownForRaceCheck(const LumaImage& image, const std::vector<Seed>& seeds, int side)
{
    RaceCheckInput input;
    const int width = std::min(image.width, side);
    const int height = std::min(image.height, side);
    const Seed first = seeds.empty() ? Seed{0, 0} : seeds.front();
    input.left = std::clamp(first.x - width / 2, 0, image.width - width);
    input.top = std::clamp(first.y - height / 2, 0, image.height - height);
    input.image.width = width;
    input.image.height = height;
    input.image.bitDepth = image.bitDepth;
    input.image.colour = false;
    input.image.luma.resize(size_t(width) * size_t(height));
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            input.image.luma[size_t(y) * size_t(width) + size_t(x)] = image.at(input.left + x, input.top + y);
    for (const Seed& seed : seeds) {
        const Seed moved{seed.x - input.left, seed.y - input.top};
        if (moved.x >= 0 && moved.y >= 0 && moved.x < width && moved.y < height)
            input.seeds.push_back(moved);
    }
    return input;
}

namespace {

// Oclgrind (64-bit) addresses a buffer's bytes as (buffer << 48) | offset.
constexpr uint64_t offsetMask = (uint64_t(1) << 48) - 1;

bool isIdentifierChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The name Oclgrind's debug location points at in a kernel source as
// embedded: a load's column is its array's (or macro's) name, a store's the
// assignment operator after `name[...]`. Empty where there is none.
std::string tokenAt(const std::string& file, int line, int column)
{
    const std::string* source = nullptr;
    try {
        source = &embeddedKernel(file);
    } catch (const std::out_of_range&) {
        return {};
    }
    size_t start = 0;
    for (int i = 1; i < line; ++i) {
        start = source->find('\n', start);
        if (start == std::string::npos)
            return {};
        ++start;
    }
    const std::string text = source->substr(start, source->find('\n', start) - start);
    if (column < 1 || size_t(column) > text.size())
        return {};
    size_t at = size_t(column) - 1;
    if (!isIdentifierChar(text[at])) {
        while (at > 0 && std::isspace(static_cast<unsigned char>(text[at - 1])))
            --at;
        if (at == 0 || text[at - 1] != ']')
            return {};
        int depth = 0;
        do {
            --at;
            depth += text[at] == ']' ? 1 : text[at] == '[' ? -1 : 0;
        } while (at > 0 && depth > 0);
        while (at > 0 && std::isspace(static_cast<unsigned char>(text[at - 1])))
            --at;
        if (at == 0 || !isIdentifierChar(text[at - 1]))
            return {};
        --at;
    }
    size_t begin = at;
    while (begin > 0 && isIdentifierChar(text[begin - 1]))
        --begin;
    size_t end = at;
    while (end < text.size() && isIdentifierChar(text[end]))
        ++end;
    return text.substr(begin, end - begin);
}

// What a name in a kernel source is, as memory.
enum class Layout {
    PixelMap,   // a global map of the image: element p is pixel p
    SweepTile,  // grow_sweep's tile with its one-pixel halo
    BoxSegment, // box_mean_async's local rows of one row segment
};

struct NamedMemory {
    const char* file;
    const char* name;
    bool local;
    Layout layout;
    int bytes;
};

const NamedMemory namedMemories[] = {
    {"region_growing.cl", "NEIGHBOUR_STAMP", true, Layout::SweepTile, 4},
    {"region_growing.cl", "NEIGHBOUR_LABEL", true, Layout::SweepTile, 2},
    {"region_growing.cl", "tile", true, Layout::SweepTile, 4},
    {"region_growing.cl", "tile_labels", true, Layout::SweepTile, 2},
    {"region_growing.cl", "NEIGHBOUR_STAMP", false, Layout::PixelMap, 4},
    {"region_growing.cl", "NEIGHBOUR_LABEL", false, Layout::PixelMap, 2},
    {"region_growing.cl", "stamps_in", false, Layout::PixelMap, 4},
    {"region_growing.cl", "stamps_out", false, Layout::PixelMap, 4},
    {"region_growing.cl", "stamps", false, Layout::PixelMap, 4},
    {"region_growing.cl", "labels_in", false, Layout::PixelMap, 2},
    {"region_growing.cl", "labels_out", false, Layout::PixelMap, 2},
    {"region_growing.cl", "labels", false, Layout::PixelMap, 2},
    {"region_growing.cl", "luma", false, Layout::PixelMap, 2},
    {"box_mean.cl", "corner_row", true, Layout::BoxSegment, 4},
    {"box_mean.cl", "mean_row", true, Layout::BoxSegment, 2},
    {"box_mean.cl", "filtered", false, Layout::PixelMap, 2},
};

// -DNAME=value in a kernel's build options; 0 where absent.
int defineValue(const std::string& options, const std::string& name)
{
    const std::string key = "-D" + name + "=";
    const size_t at = options.find(key);
    return at == std::string::npos ? 0 : std::atoi(options.c_str() + at + key.size());
}

bool readTriple(const std::string& line, const char* name, std::array<int, 3>& value)
{
    const size_t at = line.find(name);
    return at != std::string::npos &&
           std::sscanf(line.c_str() + at + std::strlen(name), "(%d,%d,%d)", &value[0], &value[1], &value[2]) == 3;
}

// One diagnostic as Oclgrind printed it.
struct Diagnostic {
    RaceReport report;
    bool race = false;
    bool local = false;
    uint64_t address = 0;
    std::array<RaceSide, 2> sides;
    std::array<int, 2> accessBytes{{0, 0}}; // from each side's load or store; 0 where unknown
};

std::array<int, 2> placeOf(const Diagnostic& d, const RacePlacement& placement,
                           const std::map<std::string, std::string>& buildOptions, bool& found)
{
    found = false;
    if (!d.race || placement.width <= 0 || placement.height <= 0)
        return {};
    for (int s = 0; s < 2; ++s) {
        const RaceSide& side = d.sides[size_t(s)];
        const size_t colon = side.location.rfind(':');
        if (!side.workItem || colon == std::string::npos)
            continue;
        const std::string file = side.location.substr(0, colon);
        const std::string name = tokenAt(file, std::atoi(side.location.c_str() + colon + 1), side.column);
        for (const NamedMemory& memory : namedMemories) {
            if (file != memory.file || name != memory.name || d.local != memory.local ||
                (d.accessBytes[size_t(s)] != 0 && d.accessBytes[size_t(s)] != memory.bytes))
                continue;
            const uint64_t element = (d.address & offsetMask) / uint64_t(memory.bytes);
            int64_t x = -1;
            int64_t y = -1;
            if (memory.layout == Layout::PixelMap) {
                x = int64_t(element % uint64_t(placement.width));
                y = int64_t(element / uint64_t(placement.width));
            } else {
                const auto options = buildOptions.find(d.report.kernel);
                if (options == buildOptions.end())
                    return {};
                if (memory.layout == Layout::SweepTile && d.report.kernel == "grow_sweep") {
                    const int tileWidth = defineValue(options->second, "RGX_TILE_W");
                    const int tileHeight = defineValue(options->second, "RGX_TILE_H");
                    const uint64_t pitch = uint64_t(tileWidth) + 2;
                    if (tileWidth <= 0 || tileHeight <= 0 || element >= pitch * uint64_t(tileHeight + 2))
                        return {};
                    x = int64_t(side.group[0]) * tileWidth - 1 + int64_t(element % pitch);
                    y = int64_t(side.group[1]) * tileHeight - 1 + int64_t(element / pitch);
                } else if (memory.layout == Layout::BoxSegment && d.report.kernel == "box_mean_async") {
                    const int segment = defineValue(options->second, "RGX_SEGMENT");
                    if (segment <= 0)
                        return {};
                    x = int64_t(side.group[0]) * segment + int64_t(element);
                    y = side.group[1];
                }
            }
            if (x < 0 || y < 0 || x >= placement.width || y >= placement.height)
                return {};
            found = true;
            return {{placement.left + int(x), placement.top + int(y)}};
        }
    }
    return {};
}

} // namespace

std::string RaceSide::text() const
{
    auto triple = [](const std::array<int, 3>& v) {
        return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]) + ")";
    };
    if (workItem)
        return "work-item " + triple(global) + " (local " + triple(local) + ", group " + triple(group) + ")";
    return group[0] >= 0 ? "work-group " + triple(group) : std::string("a work-group");
}

std::string raceCheckBuildLines(const std::vector<KernelReport>& kernels)
{
    std::string lines;
    for (const KernelReport& kernel : kernels)
        lines += "race-check build: " + kernel.kernel + " " + kernel.options + "\n";
    return lines;
}

std::vector<RaceReport> parseOclgrindReport(const std::string& output, const RacePlacement& placement)
{
    static const std::regex headline(
        R"((Read-write|Write-write|Read-only|Write-only)?\s*data race at (\w+) memory(?: address 0x([0-9a-fA-F]+))?|(Work-group divergence|Work-item divergence|barrier divergence)[^\n]*)",
        std::regex::icase);
    static const std::regex kernelLine(R"(^\s*Kernel:\s*(\S+))");
    static const std::regex locationLine(R"(^\s*At line (\d+) \(column (\d+)\) of (\S+?):?\s*$)");
    static const std::regex accessLine(R"(\b(?:load|store)(?: atomic)?(?: volatile)? i(\d+)\b)");
    const std::string buildPrefix = "race-check build: ";

    std::map<std::string, std::string> buildOptions; // kernel -> options
    std::vector<Diagnostic> diagnostics;
    std::istringstream in(output);
    bool open = false;
    int side = -1; // the entity whose lines follow
    for (std::string line; std::getline(in, line);) {
        std::smatch match;
        if (line.compare(0, buildPrefix.size(), buildPrefix) == 0) {
            const std::string rest = line.substr(buildPrefix.size());
            const size_t space = rest.find(' ');
            buildOptions[rest.substr(0, space)] = space == std::string::npos ? "" : rest.substr(space + 1);
            continue;
        }
        const bool indented = !line.empty() && std::isspace(static_cast<unsigned char>(line[0]));
        if (!indented && (line.find("data race") != std::string::npos ||
                          line.find("divergence") != std::string::npos) &&
            std::regex_search(line, match, headline)) {
            Diagnostic d;
            if (match[2].matched) {
                std::string kind = match[1].matched ? match[1].str() + " data race" : "data race";
                kind[0] = char(std::tolower(static_cast<unsigned char>(kind[0])));
                d.report.kind = kind + " (" + match[2].str() + " memory)";
                d.race = match[3].matched;
                d.local = match[2].str() == "local";
                if (d.race)
                    d.address = std::stoull(match[3].str(), nullptr, 16);
            } else {
                d.report.kind = "barrier divergence";
            }
            diagnostics.push_back(d);
            open = true;
            side = -1;
            continue;
        }
        if (!open)
            continue;
        Diagnostic& d = diagnostics.back();
        if (line.find("entity:") != std::string::npos &&
            (line.find("First entity:") != std::string::npos || line.find("Second entity:") != std::string::npos)) {
            side = line.find("First entity:") != std::string::npos ? 0 : 1;
            RaceSide& s = d.sides[size_t(side)];
            s.workItem = readTriple(line, "Global", s.global) && readTriple(line, "Local", s.local);
            readTriple(line, "Group", s.group);
        } else if (line.find("At line") != std::string::npos && std::regex_search(line, match, locationLine)) {
            const std::string location = match[3].str() + ":" + match[1].str();
            if (d.report.location.empty())
                d.report.location = location;
            if (side >= 0 && d.sides[size_t(side)].location.empty()) {
                d.sides[size_t(side)].location = location;
                d.sides[size_t(side)].column = std::stoi(match[2].str());
            }
        } else if (d.report.kernel.empty() && line.find("Kernel:") != std::string::npos &&
                   std::regex_search(line, match, kernelLine)) {
            d.report.kernel = match[1].str();
        } else if (side >= 0 && d.accessBytes[size_t(side)] == 0 && line.find(" addrspace(") != std::string::npos &&
                   std::regex_search(line, match, accessLine)) {
            d.accessBytes[size_t(side)] = std::stoi(match[1].str()) / 8;
        }
    }

    std::vector<RaceReport> reports;
    std::map<std::string, size_t> byKey;
    std::vector<std::set<std::pair<int, int>>> pixels; // (y, x) per report
    for (Diagnostic& d : diagnostics) {
        // Oclgrind names a work-group side's group by its index spread over
        // the work-group size: in a local race it is the work-item's group.
        for (int s = 0; s < 2; ++s) {
            RaceSide& group = d.sides[size_t(s)];
            const RaceSide& other = d.sides[size_t(1 - s)];
            if (!group.workItem)
                group.group = d.local && other.workItem ? other.group : std::array<int, 3>{{-1, -1, -1}};
        }
        const std::string key = d.report.kernel + "|" + d.report.location + "|" + d.report.kind;
        auto [entry, inserted] = byKey.emplace(key, reports.size());
        if (inserted) {
            d.report.first = d.sides[0];
            d.report.second = d.sides[1];
            reports.push_back(d.report);
            pixels.emplace_back();
        }
        bool found = false;
        const std::array<int, 2> at = placeOf(d, placement, buildOptions, found);
        if (found && pixels[entry->second].insert({at[1], at[0]}).second)
            reports[entry->second].places.push_back(RacePlace{at[0], at[1], d.sides[0], d.sides[1]});
    }
    for (RaceReport& report : reports)
        std::sort(report.places.begin(), report.places.end(), [](const RacePlace& a, const RacePlace& b) {
            return std::tie(a.y, a.x) < std::tie(b.y, b.x);
        });
    return reports;
}

std::vector<RaceReport> checkRaces(const RaceCheckInput& input, const std::vector<std::string>& segmentOptions,
                                   const QString& cliPath, bool uniformWrites, const std::atomic<bool>* stop)
{
    const QString oclgrind = QStandardPaths::findExecutable(QStringLiteral("oclgrind"));
    if (oclgrind.isEmpty())
        throw OpenClError("--check-races needs Oclgrind, which is not installed (Debian package oclgrind)");
    QTemporaryDir folder;
    if (!folder.isValid())
        throw OpenClError("--check-races cannot make a temporary folder: " + folder.errorString().toStdString());

    // 16-bit grey keeps every luma value exactly as it was.
    QImage picture(input.image.width, input.image.height, QImage::Format_Grayscale16);
    for (int y = 0; y < input.image.height; ++y) {
        auto* row = reinterpret_cast<quint16*>(picture.scanLine(y));
        for (int x = 0; x < input.image.width; ++x)
            row[x] = input.image.at(x, y);
    }
    const QString imagePath = folder.filePath(QStringLiteral("cut.png"));
    if (!picture.save(imagePath, "PNG"))
        throw OpenClError("--check-races cannot write its cut-down image to " + imagePath.toStdString());
    const QString seedsPath = folder.filePath(QStringLiteral("cut.seeds"));
    saveFileAtomically(seedsPath, QByteArray::fromStdString(formatSeedsText(input.seeds)));

    // Every report, not Oclgrind's first 1000 (the pixels of a race are
    // one report each, repeated every iteration).
    QStringList arguments = {QStringLiteral("--data-races"), QStringLiteral("--max-errors"),
                             QStringLiteral("1000000"), cliPath,
                             QStringLiteral("segment"), QStringLiteral("--image"), imagePath,
                             QStringLiteral("--seeds-file"), seedsPath, QStringLiteral("--device"),
                             QStringLiteral("oclgrind")};
    for (const std::string& option : segmentOptions)
        arguments << QString::fromStdString(option);
    if (uniformWrites)
        arguments.prepend(QStringLiteral("--uniform-writes")); // an option of Oclgrind's, before the program
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QString::fromLatin1(raceCheckChildVariable), QStringLiteral("1"));
    process.setProcessEnvironment(environment);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(oclgrind, arguments);
    if (!process.waitForStarted(10000))
        throw OpenClError("--check-races could not start Oclgrind: " + process.errorString().toStdString());
    // In steps, so that a caller that goes away (the explorer closing) stops it.
    QElapsedTimer clock;
    clock.start();
    while (!process.waitForFinished(100)) {
        if (process.state() == QProcess::NotRunning)
            break;
        if (stop && stop->load()) {
            process.kill();
            process.waitForFinished(5000);
            throw OpenClError("--check-races: stopped before Oclgrind finished");
        }
        if (clock.elapsed() > 600000) {
            process.kill();
            process.waitForFinished(5000);
            throw OpenClError("--check-races: Oclgrind did not finish within 10 minutes");
        }
    }
    const std::string output = process.readAll().toStdString();
    const QString logPath = qEnvironmentVariable("RGX_RACE_LOG");
    if (!logPath.isEmpty())
        saveFileAtomically(logPath, QByteArray::fromStdString(output));
    const bool ran = process.exitStatus() == QProcess::NormalExit &&
                     (process.exitCode() == 0 || process.exitCode() == 4);
    if (!ran || output.find("OCLGRIND FATAL ERROR") != std::string::npos) {
        // The child's own one-line message says why (e.g. a variant Oclgrind cannot run).
        std::string reason = output.substr(output.size() > 1500 ? output.size() - 1500 : 0);
        while (!reason.empty() && reason.back() == '\n')
            reason.pop_back();
        throw OpenClError("--check-races: the pipeline did not run under Oclgrind: " + reason);
    }
    return parseOclgrindReport(output, RacePlacement{input.left, input.top, input.image.width, input.image.height});
}

} // namespace rgx
