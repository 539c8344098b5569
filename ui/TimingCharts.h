// The charts of the timings panel, each drawn from the shown runs' timing
// records: kernel time per iteration (stacked by kernel, runs side by side),
// total time per kernel, the launch timeline, and the table of kernels.
#pragma once

#include "Result.h"
#include <QString>
#include <memory>
#include <string>
#include <vector>

class QCustomPlot;
class QTableWidget;

namespace rgx::ui {

class TimelinePlot;

// What a run's times depend on besides the device and the variant: two runs'
// times compare only where these are equal.
struct RunInputs {
    QString image;      // the file and its size
    std::string seeds;
    std::string params;
};

struct RunEntry {
    int number = 0;
    QString label;       // e.g. "host-sync, queue, atomics on cpu-haswell"
    GrowResultPtr result;
    RunInputs inputs;
    // The comparison with the CPU reference (the corruption view), or null:
    // the per-iteration chart draws its differing pixels per iteration.
    std::shared_ptr<const ResultDiff> differences;
};

// "#3 host-sync, queue, atomics on cpu-haswell"
QString shortLabel(const RunEntry& run);
// What differs between two runs' inputs ("another image, other seeds"); empty when nothing does.
QString inputsDifference(const RunInputs& a, const RunInputs& b);

// Each one replaces what the chart showed; the plots keep their layout.
// The per-iteration chart carries, on its right axis, the pixels that differ
// from the CPU reference at each iteration of the runs compared with it
// (DifferencesSeries.cpp), the first differing iteration marked.
void drawPerIteration(QCustomPlot* plot, const std::vector<RunEntry>& runs);
// The differing-pixel lines and the first-difference marker (hidden where no
// run has differences), drawn once the key range is set; the last iteration
// they cover (-1: none), for that range.
void drawDifferences(QCustomPlot* plot, const std::vector<RunEntry>& runs);
int lastDifferenceIteration(const std::vector<RunEntry>& runs);
// logScale: a logarithmic time axis, so that small kernels show beside large ones.
void drawPerKernel(QCustomPlot* plot, const std::vector<RunEntry>& runs, bool logScale = false);
void drawTimeline(TimelinePlot* plot, const std::vector<RunEntry>& runs);
// Compiler facts (work-group limits, memory, registers) of every kernel of the runs.
void fillKernelTable(QTableWidget* table, const std::vector<RunEntry>& runs);

} // namespace rgx::ui
