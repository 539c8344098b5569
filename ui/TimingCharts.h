// The charts of the timings panel, each drawn from the shown runs' timing
// records: kernel time per iteration (stacked by kernel, runs side by side),
// total time per kernel, the launch timeline, and the table of kernels.
#pragma once

#include "Result.h"
#include <QString>
#include <vector>

class QCustomPlot;
class QTableWidget;

namespace rgx::ui {

class TimelinePlot;

struct RunEntry {
    int number = 0;
    QString label;       // e.g. "host-sync, queue, atomics on cpu-haswell"
    GrowResultPtr result;
};

// "#3 host-sync, queue, atomics on cpu-haswell"
QString shortLabel(const RunEntry& run);

// Each one replaces what the chart showed; the plots keep their layout.
void drawPerIteration(QCustomPlot* plot, const std::vector<RunEntry>& runs);
void drawPerKernel(QCustomPlot* plot, const std::vector<RunEntry>& runs);
void drawTimeline(TimelinePlot* plot, const std::vector<RunEntry>& runs);
// Compiler facts (work-group limits, memory, registers) of every kernel of the runs.
void fillKernelTable(QTableWidget* table, const std::vector<RunEntry>& runs);

} // namespace rgx::ui
