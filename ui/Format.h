// Readable numbers for labels and chart axes: durations in ns/µs/ms/s, sizes.
#pragma once

#include <QString>
#include <cstdint>

namespace rgx::ui {

// A unit chosen so that the largest value reads as a few digits.
struct TimeUnit {
    double nanoseconds = 1.0; // one unit in ns
    QString symbol;           // "ns", "µs", "ms", "s"
};
TimeUnit timeUnitFor(double largestNanoseconds);

// "12.3 µs", "4.56 ms", "1.20 s".
QString formatDuration(double nanoseconds);
QString formatCount(uint64_t value);

} // namespace rgx::ui
