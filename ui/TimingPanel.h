// Timing charts of runs (QCustomPlot): per-iteration stacked kernel times, total
// per kernel, and the launch timeline with its gaps; runs can be kept and
// compared side by side.
#pragma once

#include "TimingCharts.h"
#include <QSize>
#include <QString>
#include <QWidget>
#include <vector>

class QCustomPlot;
class QCheckBox;
class QLabel;
class QListWidget;
class QMouseEvent;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace rgx::ui {

class TimelinePlot;

class TimingPanel : public QWidget {
    Q_OBJECT
public:
    explicit TimingPanel(QWidget* parent = nullptr);

    void setCurrentRun(const RunEntry& run);
    // The comparison of a run with the CPU reference, once it is computed:
    // the per-iteration chart draws its differing pixels per iteration.
    void setDifferences(const GrowResultPtr& result, std::shared_ptr<const ResultDiff> differences);
    void clearCurrentRun();
    // Keeps the current run in the comparison list (checked).
    bool keepCurrentRun();
    int keptRunCount() const { return int(kept_.size()); }
    void setKeptRunChecked(int index, bool checked);
    // The runs the charts show: the checked kept runs, then the current one.
    std::vector<RunEntry> shownRuns() const;

    enum Chart { PerIteration, PerKernel, Timeline };
    void showChart(Chart chart);
    // Marks the playback's iteration on the per-iteration chart (-1: none).
    void setPlaybackIteration(int iteration);
    int playbackIteration() const { return playbackIteration_; }
    Chart currentChart() const;
    QCustomPlot* plot(Chart chart) const;
    // The "Kernels" tab: compiler facts (work-group limits, memory,
    // registers) of every kernel of the kept runs and the current one.
    QTableWidget* kernelTable() const { return kernelTable_; }
    void showKernelTable();
    // The summary under the charts: one line per shown run (rich text).
    QString summaryText() const;

    // Writes the shown chart as PNG or PDF (by suffix) at a size in pixels
    // (points for PDF), through a temporary file and QSaveFile; throws
    // rgx::InputError naming the file and the reason.
    void exportChart(const QString& path, QSize size) const;

signals:
    void keptRunsChanged();

private:
    void rebuild();
    // "; 2.1x faster than #1": host time relative to the first kept run.
    QString speedUpText(const RunEntry& run) const;
    void refreshKeptList();
    void showHover(QCustomPlot* plot, QMouseEvent* event);
    QCustomPlot* makePlot(const char* name, const QString& title);
    // Name, size, legend row and axis style, as every chart of the panel has.
    void setUpPlot(QCustomPlot* plot, const char* name);

    std::vector<RunEntry> kept_;
    std::vector<bool> keptChecked_;
    RunEntry current_;
    QTabWidget* tabs_;
    QCustomPlot* iterationPlot_;
    QCustomPlot* kernelPlot_;
    TimelinePlot* timelinePlot_;
    QTableWidget* kernelTable_;
    QListWidget* keptList_;
    QPushButton* keepButton_;
    QPushButton* removeButton_;
    QLabel* summary_;
    QCheckBox* logScale_;
    int playbackIteration_ = -1;
    bool updatingList_ = false;
};

} // namespace rgx::ui
