// Timing charts: every chart is rebuilt from the shown runs' timing records
// whenever the runs or the kept selection change.
#include "TimingPanel.h"

#include "Errors.h"
#include "Format.h"
#include "TimelineBars.h"
#include "Timing.h"
#include "io/Export.h"
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QHeaderView>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <qcustomplot.h>

namespace rgx::ui {

namespace {

// Colours told apart easily (Tableau 10), one per kernel name.
const QColor kernelPalette[] = {
    QColor(31, 119, 180), QColor(255, 127, 14), QColor(44, 160, 44),  QColor(214, 39, 40),
    QColor(148, 103, 189), QColor(140, 86, 75), QColor(227, 119, 194), QColor(127, 127, 127),
    QColor(188, 189, 34), QColor(23, 190, 207),
};

// Runs after the first are told apart by a hatch pattern on the same colours.
Qt::BrushStyle runPattern(size_t run)
{
    static const Qt::BrushStyle patterns[] = {Qt::SolidPattern, Qt::BDiagPattern, Qt::FDiagPattern,
                                              Qt::CrossPattern, Qt::DiagCrossPattern, Qt::Dense4Pattern};
    return patterns[run % (sizeof(patterns) / sizeof(patterns[0]))];
}

QString text(const std::string& value) { return QString::fromStdString(value); }

QString shortLabel(const RunEntry& run) { return QStringLiteral("#%1 %2").arg(run.number).arg(run.label); }

// Kernel names in order of first appearance over all runs, for stable colours.
class KernelColours {
public:
    QColor colour(const QString& kernel)
    {
        auto found = index_.find(kernel);
        if (found == index_.end())
            found = index_.emplace(kernel, int(index_.size())).first;
        return kernelPalette[size_t(found->second) % (sizeof(kernelPalette) / sizeof(kernelPalette[0]))];
    }

private:
    std::map<QString, int> index_;
};

void styleAxes(QCustomPlot* plot)
{
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
        axis->setLabelFont(QFont(plot->font().family(), 9));
        axis->setTickLabelFont(QFont(plot->font().family(), 8));
        axis->grid()->setPen(QPen(QColor(220, 220, 220), 0, Qt::DotLine));
    }
}

QCPTextElement* titleOf(QCustomPlot* plot)
{
    return qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
}

} // namespace

TimingPanel::TimingPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("timingPanel"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    layout->addWidget(splitter);

    auto* chartSide = new QWidget(splitter);
    auto* chartLayout = new QVBoxLayout(chartSide);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    tabs_ = new QTabWidget(chartSide);
    tabs_->setObjectName(QStringLiteral("timingTabs"));
    iterationPlot_ = makePlot("iterationPlot", QStringLiteral("Kernel time per iteration"));
    iterationPlot_->axisRect()->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    iterationPlot_->axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    kernelPlot_ = makePlot("kernelPlot", QStringLiteral("Total time per kernel"));
    timelinePlot_ = makePlot("timelinePlot", QStringLiteral("Launch timeline"));
    tabs_->addTab(iterationPlot_, QStringLiteral("Per iteration"));
    tabs_->addTab(kernelPlot_, QStringLiteral("Per kernel"));
    tabs_->addTab(timelinePlot_, QStringLiteral("Timeline"));
    kernelTable_ = new QTableWidget(this);
    kernelTable_->setObjectName(QStringLiteral("kernelTable"));
    kernelTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    kernelTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    kernelTable_->verticalHeader()->setVisible(false);
    kernelTable_->setAlternatingRowColors(true);
    tabs_->addTab(kernelTable_, QStringLiteral("Kernels"));
    chartLayout->addWidget(tabs_, 1);
    summary_ = new QLabel(chartSide);
    summary_->setObjectName(QStringLiteral("timingSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    chartLayout->addWidget(summary_);

    auto* listSide = new QWidget(splitter);
    auto* listLayout = new QVBoxLayout(listSide);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->addWidget(new QLabel(QStringLiteral("Kept runs (checked ones are compared):"), listSide));
    keptList_ = new QListWidget(listSide);
    keptList_->setObjectName(QStringLiteral("keptRunsList"));
    keptList_->setWordWrap(true);
    listLayout->addWidget(keptList_, 1);
    auto* buttons = new QHBoxLayout;
    keepButton_ = new QPushButton(QStringLiteral("Keep current run"), listSide);
    keepButton_->setObjectName(QStringLiteral("keepRunButton"));
    keepButton_->setToolTip(QStringLiteral("Keep the last run to compare it with later ones (Ctrl+K)"));
    keepButton_->setEnabled(false);
    removeButton_ = new QPushButton(QStringLiteral("Remove"), listSide);
    removeButton_->setObjectName(QStringLiteral("removeRunButton"));
    buttons->addWidget(keepButton_);
    buttons->addWidget(removeButton_);
    listLayout->addLayout(buttons);
    splitter->addWidget(chartSide);
    splitter->addWidget(listSide);
    splitter->setStretchFactor(0, 4);
    splitter->setStretchFactor(1, 1);

    connect(keepButton_, &QPushButton::clicked, this, &TimingPanel::keepCurrentRun);
    connect(removeButton_, &QPushButton::clicked, this, [this] {
        const int row = keptList_->currentRow();
        if (row < 0 || row >= int(kept_.size()))
            return;
        kept_.erase(kept_.begin() + row);
        keptChecked_.erase(keptChecked_.begin() + row);
        refreshKeptList();
        rebuild();
        emit keptRunsChanged();
    });
    connect(keptList_, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        if (updatingList_)
            return;
        const int row = keptList_->row(item);
        if (row >= 0 && row < int(keptChecked_.size())) {
            keptChecked_[size_t(row)] = item->checkState() == Qt::Checked;
            rebuild();
            emit keptRunsChanged();
        }
    });
    rebuild();
}

QCustomPlot* TimingPanel::makePlot(const char* name, const QString& title)
{
    auto* plot = new QCustomPlot(this);
    plot->setObjectName(QString::fromLatin1(name));
    plot->setMinimumSize(320, 200);
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot->axisRect()->setRangeDrag(Qt::Horizontal);
    plot->axisRect()->setRangeZoom(Qt::Horizontal);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, title, QFont(plot->font().family(), 10, QFont::Bold)));
    // The legend goes below the chart, in rows, so it never hides bars.
    auto* legendCell = new QCPLayoutGrid;
    plot->plotLayout()->addElement(2, 0, legendCell);
    legendCell->setMargins(QMargins(6, 0, 6, 4));
    // Empty cells on both sides: the legend's fixed width must not limit the
    // width of the whole column (and so of the chart); it stays centred.
    legendCell->addElement(0, 0, new QCPLayoutElement(plot));
    legendCell->addElement(0, 1, plot->legend);
    legendCell->addElement(0, 2, new QCPLayoutElement(plot));
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setWrap(4);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setFont(QFont(plot->font().family(), 8));
    plot->legend->setVisible(true);
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    plot->plotLayout()->setRowStretchFactor(2, 0.001);
    styleAxes(plot);
    connect(plot, &QCustomPlot::mouseMove, this, [this, plot](QMouseEvent* event) { showHover(plot, event); });
    return plot;
}

void TimingPanel::setCurrentRun(const RunEntry& run)
{
    current_ = run;
    keepButton_->setEnabled(run.result != nullptr);
    rebuild();
}

void TimingPanel::clearCurrentRun()
{
    current_ = RunEntry{};
    keepButton_->setEnabled(false);
    rebuild();
}

bool TimingPanel::keepCurrentRun()
{
    if (!current_.result)
        return false;
    for (const RunEntry& run : kept_)
        if (run.result == current_.result)
            return false;
    kept_.push_back(current_);
    keptChecked_.push_back(true);
    refreshKeptList();
    rebuild();
    emit keptRunsChanged();
    return true;
}

void TimingPanel::setKeptRunChecked(int index, bool checked)
{
    if (index < 0 || index >= int(kept_.size()))
        return;
    keptList_->item(index)->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}

void TimingPanel::refreshKeptList()
{
    updatingList_ = true;
    keptList_->clear();
    for (size_t i = 0; i < kept_.size(); ++i) {
        const RunEntry& run = kept_[i];
        const TimelineSummary summary = summarizeTimeline(run.result->timings);
        auto* item = new QListWidgetItem(
            QStringLiteral("%1\n%2 iterations, span %3").arg(shortLabel(run)).arg(run.result->iterations).arg(formatDuration(double(summary.spanNs))),
            keptList_);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(keptChecked_[i] ? Qt::Checked : Qt::Unchecked);
        item->setToolTip(QStringLiteral("%1 on %2").arg(text(run.result->variant), text(run.result->device)));
    }
    updatingList_ = false;
}

std::vector<RunEntry> TimingPanel::shownRuns() const
{
    std::vector<RunEntry> runs;
    for (size_t i = 0; i < kept_.size(); ++i)
        if (keptChecked_[i])
            runs.push_back(kept_[i]);
    if (current_.result) {
        bool alreadyShown = false;
        for (const RunEntry& run : runs)
            alreadyShown = alreadyShown || run.result == current_.result;
        bool kept = false;
        for (const RunEntry& run : kept_)
            kept = kept || run.result == current_.result;
        // A kept run that was unchecked stays hidden, even if it is the last run.
        if (!alreadyShown && !kept)
            runs.push_back(current_);
    }
    return runs;
}

void TimingPanel::showChart(Chart chart) { tabs_->setCurrentIndex(int(chart)); }
QString TimingPanel::summaryText() const { return summary_->text(); }
void TimingPanel::showKernelTable() { tabs_->setCurrentWidget(kernelTable_); }

TimingPanel::Chart TimingPanel::currentChart() const
{
    // The kernel table is a tab but not a chart: the charts' default then.
    const int index = tabs_->currentIndex();
    return index >= PerIteration && index <= Timeline ? Chart(index) : PerIteration;
}

QCustomPlot* TimingPanel::plot(Chart chart) const
{
    switch (chart) {
    case PerIteration: return iterationPlot_;
    case PerKernel: return kernelPlot_;
    case Timeline: return timelinePlot_;
    }
    return iterationPlot_;
}

void TimingPanel::rebuild()
{
    const std::vector<RunEntry> runs = shownRuns();
    buildPerIteration(runs);
    buildPerKernel(runs);
    buildTimeline(runs);
    buildKernelTable();

    QStringList lines;
    for (const RunEntry& run : runs) {
        const TimelineSummary summary = summarizeTimeline(run.result->timings);
        const double hostNs = run.result->hostMilliseconds * 1e6;
        QString line = QStringLiteral("<b>%1</b>: %2 iterations, %3 commands; span %4, device busy %5, idle gaps %6; host %7")
                           .arg(shortLabel(run).toHtmlEscaped())
                           .arg(run.result->iterations)
                           .arg(run.result->timings.size())
                           .arg(formatDuration(double(summary.spanNs)), formatDuration(double(summary.busyNs)),
                                formatDuration(double(summary.gapNs)), formatDuration(hostNs));
        if (run.result->iterations > 0)
            line += QStringLiteral(" (%1 per iteration)").arg(formatDuration(hostNs / double(run.result->iterations)));
        line += speedUpText(run);
        lines << line;
    }
    summary_->setText(lines.isEmpty() ? QStringLiteral("Run the pipeline to see its kernel timings.")
                                      : lines.join(QStringLiteral("<br>")));
}

QString TimingPanel::speedUpText(const RunEntry& run) const
{
    // Host time, the time the user waits, against the first kept run.
    if (kept_.empty() || run.result == kept_.front().result)
        return {};
    const double first = kept_.front().result->hostMilliseconds;
    const double own = run.result->hostMilliseconds;
    if (first <= 0 || own <= 0)
        return {};
    const double ratio = first / own;
    const int number = kept_.front().number;
    if (ratio >= 1.0)
        return QStringLiteral("; <b>%1x faster than #%2</b>").arg(ratio, 0, 'f', 1).arg(number);
    return QStringLiteral("; <b>%1x slower than #%2</b>").arg(1.0 / ratio, 0, 'f', 1).arg(number);
}

void TimingPanel::buildPerIteration(const std::vector<RunEntry>& runs)
{
    QCustomPlot* plot = iterationPlot_;
    plot->clearPlottables();
    qDeleteAll(plot->findChildren<QCPBarsGroup*>());
    KernelColours colours;
    double largest = 0;
    // Sum per (run, kernel, iteration) first, to pick the unit.
    struct Series {
        QString kernel;
        std::map<int, double> nanoseconds;
    };
    std::vector<std::vector<Series>> perRun(runs.size());
    std::vector<double> iterationTotals;
    for (size_t r = 0; r < runs.size(); ++r) {
        std::map<int, double> totals;
        for (const TimingRecord& record : runs[r].result->timings) {
            if (record.iteration < 0)
                continue;
            const QString kernel = text(record.kernel);
            auto found = std::find_if(perRun[r].begin(), perRun[r].end(), [&](const Series& s) { return s.kernel == kernel; });
            if (found == perRun[r].end()) {
                perRun[r].push_back({kernel, {}});
                found = perRun[r].end() - 1;
            }
            // A launch of several iterations is shown as its average over them.
            const int last = std::max(record.iteration, record.lastIteration);
            const double share = double(record.duration()) / double(last - record.iteration + 1);
            for (int iteration = record.iteration; iteration <= last; ++iteration) {
                found->nanoseconds[iteration] += share;
                totals[iteration] += share;
            }
        }
        for (const auto& [iteration, total] : totals) {
            largest = std::max(largest, total);
            iterationTotals.push_back(total);
        }
    }
    // One stalled iteration (another process took the CPU) would flatten all
    // the others: the axis ends a little above the 99th percentile instead,
    // and the title says when taller bars are cut.
    double axisTop = largest;
    if (iterationTotals.size() >= 20) {
        std::sort(iterationTotals.begin(), iterationTotals.end());
        const double percentile = iterationTotals[iterationTotals.size() * 99 / 100];
        axisTop = std::min(largest, percentile * 1.5);
    }
    const bool cut = axisTop < largest;
    const TimeUnit unit = timeUnitFor(axisTop);

    QCPBarsGroup* group = nullptr;
    if (runs.size() > 1) {
        group = new QCPBarsGroup(plot);
        group->setSpacingType(QCPBarsGroup::stAbsolute);
        group->setSpacing(0);
    }
    const double width = 0.85 / double(std::max<size_t>(1, runs.size()));
    bool any = false;
    for (size_t r = 0; r < runs.size(); ++r) {
        QCPBars* below = nullptr;
        for (const Series& series : perRun[r]) {
            auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
            bars->setName(series.kernel);
            bars->setProperty("run", shortLabel(runs[r]));
            bars->setWidthType(QCPBars::wtPlotCoords);
            bars->setWidth(width);
            const QColor colour = colours.colour(series.kernel);
            bars->setBrush(QBrush(colour, runPattern(r)));
            bars->setPen(QPen(colour.darker(130), 0));
            QVector<double> keys, values;
            for (const auto& [iteration, ns] : series.nanoseconds) {
                keys << iteration;
                values << ns / unit.nanoseconds;
            }
            bars->setData(keys, values, true);
            if (below)
                bars->moveAbove(below);
            below = bars;
            if (group)
                bars->setBarsGroup(group);
            // Colours stand for kernels: one legend entry per kernel.
            bool listed = false;
            for (int i = 0; i < plot->legend->itemCount(); ++i) {
                auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i));
                listed = listed || (item && item->plottable() != bars && item->plottable()->name() == series.kernel);
            }
            if (listed)
                bars->removeFromLegend();
            any = true;
        }
    }
    if (runs.size() > 1) {
        // Patterns stand for runs: one swatch per run.
        for (size_t r = 0; r < runs.size(); ++r) {
            auto* swatch = new QCPBars(plot->xAxis, plot->yAxis);
            swatch->setName(shortLabel(runs[r]));
            swatch->setBrush(QBrush(QColor(70, 70, 70), runPattern(r)));
            swatch->setPen(QPen(QColor(70, 70, 70)));
        }
    }
    // Iterations are whole numbers: no ticks between them.
    QSharedPointer<QCPAxisTickerFixed> iterationTicker(new QCPAxisTickerFixed);
    iterationTicker->setTickStep(1.0);
    iterationTicker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    plot->xAxis->setTicker(iterationTicker);
    plot->xAxis->setLabel(QStringLiteral("Iteration"));
    plot->yAxis->setLabel(QStringLiteral("Time (%1)").arg(unit.symbol));
    QString title = runs.size() > 1
                        ? QStringLiteral("Kernel time per iteration, stacked by kernel; runs side by side (left to right as listed)")
                        : QStringLiteral("Kernel time per iteration, stacked by kernel");
    if (cut)
        title += QStringLiteral(" - bars above %1 are cut (longest %2; wheel zooms)")
                     .arg(formatDuration(axisTop), formatDuration(largest));
    // Device-side enqueue runs its iterations without the host: the host
    // times one launch, not each iteration.
    bool anyIterations = false;
    for (const RunEntry& run : runs)
        for (const TimingRecord& record : run.result->timings)
            anyIterations = anyIterations || record.iteration > 0;
    if (!runs.empty() && !anyIterations)
        title = QStringLiteral("No per-iteration times: the device enqueued its own iterations (see the timeline)");
    titleOf(plot)->setText(title);
    if (any) {
        plot->rescaleAxes();
        plot->xAxis->setRange(plot->xAxis->range().lower - 0.5, plot->xAxis->range().upper + 0.5);
        plot->yAxis->setRange(0, axisTop / unit.nanoseconds * 1.08);
    } else {
        plot->xAxis->setRange(0, 10);
        plot->yAxis->setRange(0, 1);
    }
    plot->legend->setVisible(any);
    plot->replot();
}

namespace {

// One bar of the per-kernel chart: a kernel, or all copies in one direction
// (a dozen small transfers would otherwise crowd out the kernels).
struct KernelCategory {
    QString name;
    uint64_t totalNs = 0;
    int commands = 0;
    QStringList parts;
};

QString categoryOf(const std::string& kernel)
{
    if (kernel.rfind("write:", 0) == 0)
        return QStringLiteral("copies to device");
    if (kernel.rfind("read:", 0) == 0)
        return QStringLiteral("copies to host");
    return QString::fromStdString(kernel);
}

std::vector<KernelCategory> categoriesOf(const std::vector<TimingRecord>& records)
{
    std::vector<KernelCategory> categories;
    for (const KernelTotal& total : kernelTotals(records)) {
        const QString name = categoryOf(total.kernel);
        auto found = std::find_if(categories.begin(), categories.end(),
                                  [&](const KernelCategory& c) { return c.name == name; });
        if (found == categories.end()) {
            categories.push_back({name, 0, 0, {}});
            found = categories.end() - 1;
        }
        found->totalNs += total.totalNs;
        found->commands += total.launches;
        found->parts << QStringLiteral("%1 (%2 stage): %3 x, %4")
                            .arg(QString::fromStdString(total.kernel), QString::fromStdString(total.stage))
                            .arg(total.launches)
                            .arg(formatDuration(double(total.totalNs)));
    }
    return categories;
}

} // namespace

void TimingPanel::buildPerKernel(const std::vector<RunEntry>& runs)
{
    QCustomPlot* plot = kernelPlot_;
    plot->clearPlottables();
    qDeleteAll(plot->findChildren<QCPBarsGroup*>());
    // Categories: the kernels and copies of any shown run, then the idle time.
    QStringList names;
    std::vector<std::vector<KernelCategory>> perRun;
    double largest = 0;
    for (const RunEntry& run : runs) {
        perRun.push_back(categoriesOf(run.result->timings));
        for (const KernelCategory& category : perRun.back()) {
            if (!names.contains(category.name))
                names << category.name;
            largest = std::max(largest, double(category.totalNs));
        }
        largest = std::max(largest, double(summarizeTimeline(run.result->timings).gapNs));
    }
    // Copies first and last, as they happen.
    const QString toDevice = QStringLiteral("copies to device"), toHost = QStringLiteral("copies to host");
    if (names.removeAll(toDevice))
        names.prepend(toDevice);
    if (names.removeAll(toHost))
        names.append(toHost);
    names.append(QStringLiteral("idle gaps"));
    const TimeUnit unit = timeUnitFor(largest);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int c = 0; c < names.size(); ++c)
        ticker->addTick(double(c + 1), names[c]);
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setTickLabelRotation(names.size() > 7 ? 25 : 0);
    plot->xAxis->setSubTicks(false);
    plot->xAxis->setTickLength(0, 4);

    QCPBarsGroup* group = runs.size() > 1 ? new QCPBarsGroup(plot) : nullptr;
    const double width = 0.8 / double(std::max<size_t>(1, runs.size()));
    for (size_t r = 0; r < runs.size(); ++r) {
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setName(shortLabel(runs[r]));
        bars->setWidth(width);
        const QColor colour = kernelPalette[r % (sizeof(kernelPalette) / sizeof(kernelPalette[0]))];
        bars->setBrush(colour);
        bars->setPen(QPen(colour.darker(130)));
        QVector<double> keys, values;
        QStringList tips;
        for (int c = 0; c + 1 < names.size(); ++c) {
            for (const KernelCategory& category : perRun[r]) {
                if (category.name != names[c])
                    continue;
                keys << double(c + 1);
                values << double(category.totalNs) / unit.nanoseconds;
                tips << QStringLiteral("%1: %2 commands, %3 in total\n%4")
                            .arg(category.name)
                            .arg(category.commands)
                            .arg(formatDuration(double(category.totalNs)))
                            .arg(category.parts.join(QLatin1Char('\n')));
            }
        }
        const TimelineSummary summary = summarizeTimeline(runs[r].result->timings);
        keys << double(names.size());
        values << double(summary.gapNs) / unit.nanoseconds;
        tips << QStringLiteral("Idle time between commands: %1 of a %2 span (host overhead)")
                    .arg(formatDuration(double(summary.gapNs)), formatDuration(double(summary.spanNs)));
        bars->setData(keys, values, true);
        bars->setProperty("tips", tips);
        bars->setProperty("run", shortLabel(runs[r]));
        if (group)
            bars->setBarsGroup(group);
    }
    plot->xAxis->setLabel(QString());
    plot->yAxis->setLabel(QStringLiteral("Total time (%1)").arg(unit.symbol));
    plot->xAxis->setRange(0.4, double(names.size()) + 0.6);
    plot->yAxis->setRange(0, largest > 0 ? largest / unit.nanoseconds * 1.1 : 1.0);
    plot->legend->setVisible(!runs.empty());
    plot->replot();
}

void TimingPanel::buildTimeline(const std::vector<RunEntry>& runs)
{
    QCustomPlot* plot = timelinePlot_;
    plot->clearPlottables();
    timeline_ = new TimelineBars(plot->xAxis, plot->yAxis);
    timeline_->setName(QStringLiteral("commands"));
    timeline_->removeFromLegend();
    KernelColours colours;
    double largest = 0;
    for (const RunEntry& run : runs)
        largest = std::max(largest, double(summarizeTimeline(run.result->timings).spanNs));
    const TimeUnit unit = timeUnitFor(largest);

    std::vector<TimelineBars::Segment> segments;
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double row = 0;
    for (size_t r = 0; r < runs.size(); ++r) {
        const auto& records = runs[r].result->timings;
        if (records.empty())
            continue;
        // Each run starts at its own first queued command, so runs line up at 0.
        uint64_t origin = records.front().queued;
        for (const TimingRecord& record : records)
            if (record.queued && record.queued < origin)
                origin = record.queued;
        // One row per kernel, and one per direction of copies (as in the per-kernel chart).
        QStringList rows;
        for (const TimingRecord& record : records)
            if (!rows.contains(categoryOf(record.kernel)))
                rows << categoryOf(record.kernel);
        for (int k = 0; k < rows.size(); ++k)
            ticker->addTick(row + double(k), QStringLiteral("#%1 %2").arg(runs[r].number).arg(rows[k]));
        for (const TimingRecord& record : records) {
            if (!record.measured)
                continue;
            const double rowOf = row + double(rows.indexOf(categoryOf(record.kernel)));
            const double start = double(record.start - origin) / unit.nanoseconds;
            const double end = double(record.end - origin) / unit.nanoseconds;
            TimelineBars::Segment segment;
            segment.row = rowOf;
            segment.start = start;
            segment.end = std::max(start, end);
            segment.colour = colours.colour(categoryOf(record.kernel));
            segment.toolTip = QStringLiteral("%1\n%2 (%3 stage)%4\nqueued at %5, start %6, end %7\nduration %8, waited %9 from queued to start")
                                  .arg(shortLabel(runs[r]), text(record.kernel), text(record.stage))
                                  .arg(record.iteration >= 0 ? QStringLiteral(", iteration %1").arg(record.iteration) : QString())
                                  .arg(formatDuration(double(record.queued - origin)),
                                       formatDuration(double(record.start - origin)),
                                       formatDuration(double(record.end - origin)),
                                       formatDuration(double(record.duration())),
                                       formatDuration(record.start > record.queued ? double(record.start - record.queued) : 0.0));
            segments.push_back(segment);
        }
        row += double(rows.size()) + 0.6; // a little space between runs
    }
    timeline_->setSegments(std::move(segments));
    plot->yAxis->setTicker(ticker);
    plot->yAxis->setRangeReversed(true);
    plot->yAxis->setSubTicks(false);
    plot->yAxis->grid()->setVisible(false);
    plot->xAxis->setLabel(QStringLiteral("Time since the run's first command was queued (%1); gaps are host overhead")
                              .arg(unit.symbol));
    plot->yAxis->setLabel(QString());
    if (timeline_->segments().empty()) {
        plot->xAxis->setRange(0, 1);
        plot->yAxis->setRange(-0.5, 0.5);
    } else {
        plot->rescaleAxes();
        const QCPRange x = plot->xAxis->range();
        plot->xAxis->setRange(std::min(0.0, x.lower), x.upper + (x.upper - x.lower) * 0.02);
    }
    plot->legend->setVisible(false);
    plot->replot();
}

void TimingPanel::buildKernelTable()
{
    // Every kept run (checked or not: the table is cheap to read), then the
    // current run when it is not kept.
    std::vector<RunEntry> runs = kept_;
    if (current_.result && std::none_of(kept_.begin(), kept_.end(),
                                        [&](const RunEntry& run) { return run.result == current_.result; }))
        runs.push_back(current_);
    const QStringList headers = {QStringLiteral("Run"), QStringLiteral("Program"), QStringLiteral("Kernel"),
                                 QStringLiteral("Work-group limit"), QStringLiteral("Preferred multiple"),
                                 QStringLiteral("Private memory"), QStringLiteral("Local memory"),
                                 QStringLiteral("Registers"), QStringLiteral("Spill stores"), QStringLiteral("Spill loads")};
    kernelTable_->clear();
    kernelTable_->setColumnCount(int(headers.size()));
    kernelTable_->setHorizontalHeaderLabels(headers);
    kernelTable_->horizontalHeaderItem(7)->setToolTip(
        QStringLiteral("Registers and spills are reported by NVIDIA's compiler (-cl-nv-verbose) only; – where unknown"));
    int rows = 0;
    for (const RunEntry& run : runs)
        rows += int(run.result->kernels.size());
    kernelTable_->setRowCount(rows);
    // "–" where the device does not say (registers and spills are -1 then).
    auto known = [](int value) { return value >= 0 ? QString::number(value) : QStringLiteral("–"); };
    auto bytes = [](uint64_t value) { return QStringLiteral("%1 B").arg(value); };
    int row = 0;
    for (const RunEntry& run : runs) {
        for (const KernelReport& kernel : run.result->kernels) {
            const QStringList cells = {QStringLiteral("#%1").arg(run.number),
                                       text(kernel.program),
                                       text(kernel.kernel),
                                       QString::number(kernel.workGroupSizeLimit),
                                       QString::number(kernel.preferredWorkGroupMultiple),
                                       bytes(kernel.privateMemoryBytes),
                                       bytes(kernel.localMemoryBytes),
                                       known(kernel.registers),
                                       known(kernel.spillStores),
                                       known(kernel.spillLoads)};
            for (int column = 0; column < cells.size(); ++column) {
                auto* item = new QTableWidgetItem(cells[column]);
                if (column >= 3)
                    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                item->setToolTip(QStringLiteral("%1\nbuild options: %2")
                                     .arg(shortLabel(run), text(kernel.options).isEmpty() ? QStringLiteral("(none)")
                                                                                          : text(kernel.options)));
                kernelTable_->setItem(row, column, item);
            }
            ++row;
        }
    }
    kernelTable_->resizeColumnsToContents();
}

void TimingPanel::showHover(QCustomPlot* plot, QMouseEvent* event)
{
    const QPointF position = event->position();
    QString tip;
    if (plot == timelinePlot_ && timeline_) {
        const int index = timeline_->segmentAt(position);
        if (index >= 0)
            tip = timeline_->segments()[size_t(index)].toolTip;
    } else {
        int dataIndex = -1;
        auto* bars = qobject_cast<QCPBars*>(plot->plottableAt(position, false, &dataIndex));
        if (bars && dataIndex >= 0 && dataIndex < bars->data()->size()) {
            const auto point = bars->data()->at(dataIndex);
            const QString run = bars->property("run").toString();
            if (plot == iterationPlot_) {
                tip = QStringLiteral("%1\n%2, iteration %3: %4 %5")
                          .arg(run, bars->name())
                          .arg(int(point->key))
                          .arg(point->value, 0, 'f', 2)
                          .arg(plot->yAxis->label().section(QLatin1Char('('), -1).chopped(1));
            } else {
                const QStringList tips = bars->property("tips").toStringList();
                tip = run + QLatin1Char('\n') + (dataIndex < tips.size() ? tips[dataIndex] : QString());
            }
        }
    }
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), tip, plot);
}

void TimingPanel::exportChart(const QString& path, QSize size) const
{
    QCustomPlot* chart = plot(currentChart());
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("pdf"))
        throw InputError("chart export " + path.toStdString() + ": choose a .png or .pdf file name");
    if (size.width() < 16 || size.height() < 16 || size.width() > 20000 || size.height() > 20000)
        throw InputError("chart export: size " + std::to_string(size.width()) + " x " +
                         std::to_string(size.height()) + " is out of range (16 to 20000)");
    QTemporaryDir temporary;
    if (!temporary.isValid())
        throw InputError("chart export: cannot create a temporary folder: " + temporary.errorString().toStdString());
    const QString file = temporary.filePath(QStringLiteral("chart.") + suffix);
    const bool saved = suffix == QLatin1String("png") ? chart->savePng(file, size.width(), size.height())
                                                     : chart->savePdf(file, size.width(), size.height());
    QFile rendered(file);
    if (!saved || !rendered.open(QIODevice::ReadOnly))
        throw InputError("chart export " + path.toStdString() + ": rendering the chart failed");
    saveFileAtomically(path, rendered.readAll());
    // savePng/savePdf replot at the export size; draw again at the widget's size.
    chart->replot();
}

} // namespace rgx::ui
