// rgx-cli segment --check-races maps Oclgrind's races to image coordinates
// (engine/RaceCheck): Oclgrind 21.10's output as RaceCheck captured it
// (RGX_RACE_LOG) on the 32 x 32 part at (84,84) of coins.png, seeds
// (100,100) and (110,100), excerpts in tests/data/oclgrind/, fed to the
// parser. The expected places follow from the kernels' geometry, not from
// the parser's arithmetic.
#include "RaceCheck.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

using namespace rgx;

namespace {

const std::string sourceDir = RGX_SAMPLES_DIR "/../..";

std::string readText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in.good()) << path;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Line (1-based) and column of `token` in the first line of kernels/<file>
// that holds `statement`.
std::pair<int, int> placeInKernel(const std::string& file, const std::string& statement, const std::string& token)
{
    std::istringstream source(readText(sourceDir + "/kernels/" + file));
    int number = 0;
    for (std::string line; std::getline(source, line);) {
        ++number;
        if (line.find(statement) != std::string::npos)
            return {number, int(line.find(token)) + 1};
    }
    ADD_FAILURE() << statement << " is not in " << file;
    return {0, 0};
}

// A capture with the places (line, column) recorded on `recordedLine` of
// `file` moved to where the statement and its tokens are now, so that
// edits elsewhere in the kernel leave the test standing.
std::string capture(const std::string& name, const std::string& file, int recordedLine, const std::string& statement,
                    const std::vector<std::pair<int, std::string>>& recordedColumns)
{
    std::string text = readText(sourceDir + "/tests/data/oclgrind/" + name);
    for (const auto& [recordedColumn, token] : recordedColumns) {
        const auto [line, column] = placeInKernel(file, statement, token);
        const std::string from = "At line " + std::to_string(recordedLine) + " (column " +
                                 std::to_string(recordedColumn) + ") of " + file;
        const std::string to =
            "At line " + std::to_string(line) + " (column " + std::to_string(column) + ") of " + file + "\x01";
        for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
            text.replace(at, from.size(), to);
    }
    // The marks keep a moved place from being moved again.
    text.erase(std::remove(text.begin(), text.end(), '\x01'), text.end());
    return text;
}

const RacePlacement cut{84, 84, 32, 32};

} // namespace

TEST(RaceCheck, SweepTileRaceIsTheStampOfTheReadersNeighbour)
{
    // tile=async-nobarrier: the labels' copy overwrites the tile's stamps
    // while work-items still read their neighbours' stamps (line 520).
    const std::string text = capture("sweep-async-nobarrier.txt", "region_growing.cl", 520,
                                     "const uint stamp = NEIGHBOUR_STAMP(d, n);", {{32, "NEIGHBOUR_STAMP"}});
    const std::vector<RaceReport> races = parseOclgrindReport(text, cut);
    ASSERT_EQ(races.size(), 1u);
    const RaceReport& race = races[0];
    EXPECT_EQ(race.kernel, "grow_sweep");
    EXPECT_EQ(race.kind, "read-write data race (local memory)");
    EXPECT_EQ(race.location,
              "region_growing.cl:" + std::to_string(placeInKernel("region_growing.cl", "NEIGHBOUR_STAMP(d, n);",
                                                                  "NEIGHBOUR_STAMP").first));
    // 24 reports (6 in each of the 4 work-groups), 24 different elements.
    ASSERT_EQ(race.places.size(), 24u);
    for (const RacePlace& place : race.places) {
        // The reader, a work-item: the stamp it read is one of its 8 neighbours'.
        ASSERT_TRUE(place.second.workItem);
        const int readerX = cut.left + place.second.global[0];
        const int readerY = cut.top + place.second.global[1];
        EXPECT_LE(std::abs(place.x - readerX), 1) << place.x << "," << place.y;
        EXPECT_LE(std::abs(place.y - readerY), 1) << place.x << "," << place.y;
        EXPECT_FALSE(place.x == readerX && place.y == readerY);
        // The copy that overwrote it: its work-group, the reader's.
        EXPECT_FALSE(place.first.workItem);
        EXPECT_EQ(place.first.group, place.second.group);
        // The labels (ushort, 18 x 18) fill the first 162 of the tile's 324
        // uints: stamp rows 0..8, image rows 16 g - 1 .. 16 g + 7.
        const int row = (place.y - cut.top + 1) % 16;
        EXPECT_LE(row, 8) << place.x << "," << place.y;
    }
    // The first report by hand: address 0x280 = uint 160 = tile row 8,
    // column 16 of group (1,0): pixel (16 - 1 + 16, -1 + 8) of the part.
    const auto first = std::find_if(race.places.begin(), race.places.end(), [](const RacePlace& place) {
        return place.second.global == std::array<int, 3>{{31, 6, 0}};
    });
    ASSERT_NE(first, race.places.end());
    EXPECT_EQ(first->x, 84 + 31);
    EXPECT_EQ(first->y, 84 + 7);
    EXPECT_EQ(first->first.text(), "work-group (1,0,0)");
    EXPECT_EQ(first->second.text(), "work-item (31,6,0) (local (15,6,0), group (1,0,0))");
    // By row, then column.
    for (size_t i = 1; i < race.places.size(); ++i)
        EXPECT_TRUE(std::tie(race.places[i - 1].y, race.places[i - 1].x) < std::tie(race.places[i].y, race.places[i].x));
}

TEST(RaceCheck, BoxMeanCornerRowElementIsThePixelOfItsSegmentColumn)
{
    // boxmean:5:async-nobarrier: the bottom corner row overwrites corner_row
    // while work-item i still reads corner_row[i] (A1) and [i + 5] (A2).
    const std::string statement = "sum = corner_row[lid] - corner_row[lid + window];";
    const std::string text = capture("boxmean-async-nobarrier.txt", "box_mean.cl", 89, statement,
                                     {{15, "corner_row[lid]"}, {33, "corner_row[lid +"}});
    const std::vector<RaceReport> races = parseOclgrindReport(text, cut);
    ASSERT_EQ(races.size(), 1u);
    EXPECT_EQ(races[0].kernel, "box_mean_async");
    EXPECT_EQ(races[0].kind, "read-write data race (local memory)");
    EXPECT_EQ(races[0].location, "box_mean.cl:" + std::to_string(placeInKernel("box_mean.cl", statement, "sum").first));
    // Reports of work-groups (0,0) and (0,31), the rows 0 and 31 of the part:
    // every corner_row element 0..36 raced, elements 0..31 are the pixels.
    const int a1 = placeInKernel("box_mean.cl", statement, "corner_row[lid]").second;
    const int a2 = placeInKernel("box_mean.cl", statement, "corner_row[lid +").second;
    std::set<std::pair<int, int>> places;
    for (const RacePlace& place : races[0].places) {
        ASSERT_TRUE(place.second.workItem);
        const int lid = place.second.local[0];
        ASSERT_TRUE(place.second.column == a1 || place.second.column == a2);
        EXPECT_EQ(place.x, cut.left + lid + (place.second.column == a2 ? 5 : 0));
        EXPECT_EQ(place.y, cut.top + place.second.global[1]);
        places.insert({place.x, place.y});
    }
    std::set<std::pair<int, int>> rows;
    for (int x = 0; x < 32; ++x)
        for (int y : {0, 31})
            rows.insert({cut.left + x, cut.top + y});
    EXPECT_EQ(places, rows);
}

TEST(RaceCheck, ScratchRacesAreNoPixels)
{
    const std::string text = readText(sourceDir + "/tests/data/oclgrind/queue-local-nobarrier.txt");
    const std::vector<RaceReport> races = parseOclgrindReport(text, cut);
    ASSERT_EQ(races.size(), 9u);
    for (const RaceReport& race : races) {
        EXPECT_EQ(race.kernel, "grow_queue");
        EXPECT_EQ(race.location.rfind("collectives.h:", 0), 0u) << race.location;
        EXPECT_TRUE(race.places.empty()) << race.location;
        EXPECT_TRUE(race.first.workItem);
        EXPECT_TRUE(race.second.workItem);
    }
}

TEST(RaceCheck, GlobalMapRaceIsItsPixelByOffset)
{
    // No RGX variant races on a global map (none does with Oclgrind's
    // --uniform-writes either): a report in Oclgrind's format on
    // box_mean_direct's store to `filtered` (ushort, one per pixel of the part).
    const auto [line, column] = placeInKernel("box_mean.cl", "filtered[(uint)y * (uint)width + (uint)x] =", "=");
    auto report = [&, line = line, column = column](const std::string& address, const std::string& type) {
        const std::string at = "\tAt line " + std::to_string(line) + " (column " + std::to_string(column) +
                                ") of box_mean.cl:\n\t  (source)\n";
        return "Write-write data race at global memory address 0x" + address +
               "\n\tKernel: box_mean_direct\n\t\n"
               "\tFirst entity:  Global(3,2,0) Local(3,2,0) Group(0,0,0)\n"
               "\t  store " + type + " %conv, " + type + " addrspace(1)* %arrayidx, align 2, !dbg !40\n" + at +
               "\t\n\tSecond entity: Global(9,1,0) Local(9,1,0) Group(0,0,0)\n"
               "\t  store " + type + " %conv, " + type + " addrspace(1)* %arrayidx, align 2, !dbg !40\n" + at +
               "\n";
    };
    // Byte 0x86 = ushort 67 = pixel (3, 2) of the 32-wide part.
    std::vector<RaceReport> races = parseOclgrindReport(report("5000000000086", "i16"), cut);
    ASSERT_EQ(races.size(), 1u);
    EXPECT_EQ(races[0].kind, "write-write data race (global memory)");
    EXPECT_EQ(races[0].location, "box_mean.cl:" + std::to_string(line));
    ASSERT_EQ(races[0].places.size(), 1u);
    EXPECT_EQ(races[0].places[0].x, 84 + 3);
    EXPECT_EQ(races[0].places[0].y, 84 + 2);
    EXPECT_EQ(races[0].places[0].second.text(), "work-item (9,1,0) (local (9,1,0), group (0,0,0))");
    // Past the part's last pixel, an access of another size, no placement: no pixel.
    EXPECT_TRUE(parseOclgrindReport(report("5000000000800", "i16"), cut)[0].places.empty());
    EXPECT_TRUE(parseOclgrindReport(report("5000000000086", "i32"), cut)[0].places.empty());
    EXPECT_TRUE(parseOclgrindReport(report("5000000000086", "i16"))[0].places.empty());
}

TEST(RaceCheck, DivergenceIsReportedWithoutPlace)
{
    const std::string text = "Work-group divergence detected (barrier)\n"
                             "\tKernel:     grow_sweep\n"
                             "\tWork-group: (1,0,0)\n"
                             "\tOnly 3 out of 256 work-items executed barrier\n"
                             "\t  call void @_Z7barrierj(i32 1)\n"
                             "\tAt line 531 (column 5) of region_growing.cl:\n"
                             "\t  (source)\n";
    const std::vector<RaceReport> races = parseOclgrindReport(text, cut);
    ASSERT_EQ(races.size(), 1u);
    EXPECT_EQ(races[0].kernel, "grow_sweep");
    EXPECT_EQ(races[0].location, "region_growing.cl:531");
    EXPECT_EQ(races[0].kind, "barrier divergence");
    EXPECT_TRUE(races[0].places.empty());
}
