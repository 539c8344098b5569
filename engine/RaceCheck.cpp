// Running rgx-cli under Oclgrind and reading what it reports.
#include "RaceCheck.h"
#include "Errors.h"
#include "Export.h"

#include <QImage>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

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

std::vector<RaceReport> parseOclgrindReport(const std::string& output)
{
    static const std::regex headline(
        R"((Read-write|Write-write|Read-only|Write-only)?\s*data race at (\w+) memory|(Work-group divergence|Work-item divergence|barrier divergence)[^\n]*)",
        std::regex::icase);
    static const std::regex kernelLine(R"(^\s*Kernel:\s*(\S+))");
    static const std::regex locationLine(R"(^\s*At line (\d+) \(column \d+\) of (\S+?):?\s*$)");
    std::vector<RaceReport> reports;
    std::set<std::string> seen;
    std::istringstream in(output);
    RaceReport current;
    bool open = false;
    auto finish = [&]() {
        if (!open)
            return;
        const std::string key = current.kernel + "|" + current.location + "|" + current.kind;
        if (seen.insert(key).second)
            reports.push_back(current);
        open = false;
    };
    for (std::string line; std::getline(in, line);) {
        std::smatch match;
        if (std::regex_search(line, match, headline) && line.find("Kernel:") == std::string::npos) {
            finish();
            current = RaceReport{};
            if (match[2].matched) {
                std::string kind = match[1].matched ? match[1].str() + " data race" : "data race";
                kind[0] = char(std::tolower(static_cast<unsigned char>(kind[0])));
                current.kind = kind + " (" + match[2].str() + " memory)";
            } else {
                current.kind = "barrier divergence";
            }
            open = true;
        } else if (open && std::regex_search(line, match, kernelLine) && current.kernel.empty()) {
            current.kernel = match[1].str();
        } else if (open && std::regex_search(line, match, locationLine) && current.location.empty()) {
            current.location = match[2].str() + ":" + match[1].str();
        }
    }
    finish();
    return reports;
}

std::vector<RaceReport> checkRaces(const RaceCheckInput& input, const std::vector<std::string>& segmentOptions,
                                   const QString& cliPath)
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

    QStringList arguments = {QStringLiteral("--data-races"), cliPath,
                             QStringLiteral("segment"), QStringLiteral("--image"), imagePath,
                             QStringLiteral("--seeds-file"), seedsPath, QStringLiteral("--device"),
                             QStringLiteral("oclgrind")};
    for (const std::string& option : segmentOptions)
        arguments << QString::fromStdString(option);
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(oclgrind, arguments);
    if (!process.waitForStarted(10000))
        throw OpenClError("--check-races could not start Oclgrind: " + process.errorString().toStdString());
    if (!process.waitForFinished(600000)) {
        process.kill();
        throw OpenClError("--check-races: Oclgrind did not finish within 10 minutes");
    }
    const std::string output = process.readAll().toStdString();
    const bool ran = process.exitStatus() == QProcess::NormalExit &&
                     (process.exitCode() == 0 || process.exitCode() == 4);
    if (!ran || output.find("OCLGRIND FATAL ERROR") != std::string::npos) {
        // The child's own one-line message says why (e.g. a variant Oclgrind cannot run).
        std::string reason = output.substr(output.size() > 1500 ? output.size() - 1500 : 0);
        while (!reason.empty() && reason.back() == '\n')
            reason.pop_back();
        throw OpenClError("--check-races: the pipeline did not run under Oclgrind: " + reason);
    }
    return parseOclgrindReport(output);
}

} // namespace rgx
