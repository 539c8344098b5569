// Seed points from the command line, from seeds files, and the input checks
// of SPEC.md (inside the image, no two on one pixel, 1..65535 of them).
#include "Seeds.h"

#include "Errors.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <unordered_map>

namespace rgx {

namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

std::string trimmed(const std::string& text)
{
    size_t begin = 0;
    size_t end = text.size();
    while (begin < end && isSpace(text[begin]))
        ++begin;
    while (end > begin && isSpace(text[end - 1]))
        --end;
    return text.substr(begin, end - begin);
}

// A whole decimal integer (optional sign) fitting an int; nothing else.
std::optional<int> parseInteger(const std::string& text)
{
    if (text.empty())
        return std::nullopt;
    size_t digitsFrom = (text[0] == '-' || text[0] == '+') ? 1 : 0;
    if (digitsFrom == text.size())
        return std::nullopt;
    for (size_t i = digitsFrom; i < text.size(); ++i) {
        if (text[i] < '0' || text[i] > '9')
            return std::nullopt;
    }
    errno = 0;
    const long long value = std::strtoll(text.c_str(), nullptr, 10);
    if (errno == ERANGE || value < INT_MIN || value > INT_MAX)
        return std::nullopt;
    return int(value);
}

// "x,y", "x y", "x, y" (or three of them for a voxel, "x,y,z", "x y z"):
// integers separated by commas or by spaces.
std::optional<Seed> parseSeed(const std::string& text)
{
    std::vector<std::string> parts;
    if (text.find(',') != std::string::npos) {
        size_t begin = 0;
        for (size_t comma; (comma = text.find(',', begin)) != std::string::npos; begin = comma + 1)
            parts.push_back(trimmed(text.substr(begin, comma - begin)));
        parts.push_back(trimmed(text.substr(begin)));
    } else {
        std::istringstream words(text);
        for (std::string word; words >> word;)
            parts.push_back(word);
    }
    if (parts.size() != 2 && parts.size() != 3)
        return std::nullopt;
    Seed seed;
    int* coordinates[3] = {&seed.x, &seed.y, &seed.z};
    for (size_t i = 0; i < parts.size(); ++i) {
        const std::optional<int> value = parseInteger(parts[i]);
        if (!value)
            return std::nullopt;
        *coordinates[i] = *value;
    }
    return seed;
}

std::string describeSeed(size_t index, const Seed& seed)
{
    std::string at = std::to_string(seed.x) + "," + std::to_string(seed.y);
    if (seed.z != 0)
        at += "," + std::to_string(seed.z);
    return "seed " + std::to_string(index + 1) + " (" + at + ")";
}

} // namespace

std::vector<Seed> parseSeedList(const std::string& text)
{
    std::vector<Seed> seeds;
    if (trimmed(text).empty())
        return seeds; // validateSeeds says "no seeds given"
    size_t entryBegin = 0;
    int entryNumber = 0;
    while (entryBegin <= text.size()) {
        size_t entryEnd = text.find(';', entryBegin);
        if (entryEnd == std::string::npos)
            entryEnd = text.size();
        const std::string entry = trimmed(text.substr(entryBegin, entryEnd - entryBegin));
        ++entryNumber;
        const bool isLast = entryEnd == text.size();
        // One trailing ';' (an empty last entry) is allowed; empty entries
        // in the middle are typing mistakes worth pointing out.
        if (entry.empty() && isLast && entryNumber > 1)
            break;
        const std::optional<Seed> seed = parseSeed(entry);
        if (!seed) {
            throw InputError("bad seed '" + entry + "' (entry " + std::to_string(entryNumber)
                             + " of --seeds \"" + text + "\"): expected x,y pairs (x,y,z for a volume) separated by ';', e.g. \"10,20;30,40\"");
        }
        seeds.push_back(*seed);
        entryBegin = entryEnd + 1;
    }
    return seeds;
}

std::vector<Seed> parseSeedsText(const std::string& text, const std::string& origin)
{
    std::vector<Seed> seeds;
    // Some editors start UTF-8 files with a byte order mark.
    const std::string byteOrderMark = "\xEF\xBB\xBF";
    const bool hasByteOrderMark = text.compare(0, byteOrderMark.size(), byteOrderMark) == 0;
    std::istringstream lines(hasByteOrderMark ? text.substr(byteOrderMark.size()) : text);
    std::string line;
    int lineNumber = 0;
    while (std::getline(lines, line)) {
        ++lineNumber;
        const size_t comment = line.find('#');
        const std::string content = trimmed(comment == std::string::npos ? line : line.substr(0, comment));
        if (content.empty())
            continue;
        const std::optional<Seed> seed = parseSeed(content);
        if (!seed) {
            throw InputError(origin + " line " + std::to_string(lineNumber) + ": bad seed '" + content
                             + "': expected \"x y\" or \"x,y\" (\"x y z\" for a volume)");
        }
        seeds.push_back(*seed);
    }
    return seeds;
}

namespace {

// The whole file, or InputError naming it.
std::string readSeedsBytes(const QString& path, const std::string& name)
{
    const QFileInfo info(path);
    if (!info.exists())
        throw InputError("cannot open " + name + ": the file does not exist");
    if (info.isDir())
        throw InputError("cannot open " + name + ": it is a directory");
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw InputError("cannot read " + name + ": " + file.errorString().toStdString());
    const QByteArray bytes = file.readAll();
    if (file.error() != QFileDevice::NoError)
        throw InputError("cannot read " + name + ": " + file.errorString().toStdString());
    return bytes.toStdString();
}

std::string seedsFileName(const QString& path) { return "seeds file '" + path.toStdString() + "'"; }

} // namespace

std::vector<Seed> readSeedsFile(const QString& path)
{
    const std::string name = seedsFileName(path);
    return parseSeedsText(readSeedsBytes(path, name), name);
}

std::optional<std::vector<ParameterAssignment>> parseSuggestedParameters(const std::string& text,
                                                                         const std::string& origin)
{
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        const size_t hash = line.find_first_not_of(" \t");
        if (hash == std::string::npos || line[hash] != '#')
            continue;
        std::istringstream words(line.substr(hash + 1));
        std::string word;
        if (!(words >> word) || word != "parameters:")
            continue;
        std::string rest;
        std::getline(words, rest);
        try {
            return parseParameterWords(rest);
        } catch (const InputError& error) {
            throw InputError(origin + ": '# parameters:' " + error.what());
        }
    }
    return std::nullopt;
}

std::optional<std::vector<ParameterAssignment>> readSuggestedParameters(const QString& path)
{
    const std::string name = seedsFileName(path);
    return parseSuggestedParameters(readSeedsBytes(path, name), name);
}

std::string formatSeedsText(const std::vector<Seed>& seeds)
{
    std::string text = "# RGX seeds: one seed a line, \"x y\"; x to the right, y down, (0,0) the top-left pixel.\n"
                       "# Seed k starts region k.\n";
    const bool voxels = std::any_of(seeds.begin(), seeds.end(), [](const Seed& seed) { return seed.z != 0; });
    for (const Seed& seed : seeds) {
        text += std::to_string(seed.x) + " " + std::to_string(seed.y);
        text += voxels ? " " + std::to_string(seed.z) + "\n" : "\n";
    }
    return text;
}

std::string formatSeedsText(const std::vector<Seed>& seeds, const PipelineParams& params)
{
    const std::string text = formatSeedsText(seeds);
    const size_t afterHeader = text.find("region k.\n") + std::string("region k.\n").size();
    return text.substr(0, afterHeader) + "# parameters: " + parameterLine(params) + "\n" + text.substr(afterHeader);
}

void validateSeeds(const std::vector<Seed>& seeds, int width, int height, int depth)
{
    if (seeds.empty())
        throw InputError("no seeds given");
    if (seeds.size() > size_t(maxSeeds)) {
        throw InputError("too many seeds: " + std::to_string(seeds.size()) + " (at most "
                         + std::to_string(maxSeeds) + ")");
    }
    // Pixel index -> index of the first seed on it.
    std::unordered_map<uint64_t, size_t> firstSeedAt;
    firstSeedAt.reserve(seeds.size());
    for (size_t i = 0; i < seeds.size(); ++i) {
        const Seed& seed = seeds[i];
        if (seed.x < 0 || seed.y < 0 || seed.z < 0 || seed.x >= width || seed.y >= height || seed.z >= depth) {
            const std::string size = std::to_string(width) + "x" + std::to_string(height);
            throw InputError(describeSeed(i, seed) + " is outside the "
                             + (depth > 1 ? size + "x" + std::to_string(depth) + " volume" : size + " image"));
        }
        const uint64_t pixel = seedIndex(seed, width, height);
        const auto [earlier, inserted] = firstSeedAt.emplace(pixel, i);
        if (!inserted) {
            throw InputError(describeSeed(i, seed) + " is on the same pixel as seed "
                             + std::to_string(earlier->second + 1));
        }
    }
}

std::vector<uint32_t> seedLumaOf(const std::vector<Seed>& seeds, const std::vector<uint16_t>& luma, int width,
                                 int height)
{
    std::vector<uint32_t> values;
    values.reserve(seeds.size());
    for (const Seed& seed : seeds)
        values.push_back(luma[size_t(seedIndex(seed, width, height))]);
    return values;
}

} // namespace rgx
