// rgx-cli bench's output: a table per case with the best variant's line,
// the floors, and the JSON and CSV files (docs/PERFORMANCE.md says how to
// read them).
#pragma once

#include "BenchSettings.h"
#include "bench/CaseBench.h"
#include "bench/Floors.h"

#include <QByteArray>
#include <QString>
#include <ostream>
#include <string>
#include <vector>

namespace rgx {

struct DeviceInfo;

namespace bench {
class NppBaseline;
}

// "1 seed", "64 seeds".
std::string seedsText(int count);
// A case's table: a row per implementation, then the best variant in one
// sentence and NPP's region against the CPU's.
void printCase(std::ostream& out, const bench::BenchCase& benchCase);
// The two floors, in the words rgx-cli bench's contract uses.
void printFloors(std::ostream& out, const bench::LaunchFloor& floor, const bench::GridBarrierFloor& barrierFloor);

QByteArray benchJson(const BenchSettings& settings, const DeviceInfo& device, const bench::LaunchFloor& floor,
                     const bench::GridBarrierFloor& barrierFloor, bool haveFloodFill, const bench::NppBaseline& npp,
                     const std::vector<QString>& photos, const std::vector<bench::BenchCase>& cases,
                     const std::vector<std::string>& skipped);
QByteArray benchCsv(const DeviceInfo& device, const bench::LaunchFloor& floor,
                    const bench::GridBarrierFloor& barrierFloor, const std::vector<bench::BenchCase>& cases);

} // namespace rgx
