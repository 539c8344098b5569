// Timings panel: the chart tabs, the kept runs and the summary; every chart
// is drawn again (TimingCharts) whenever the runs or the kept selection change.
#include "TimingPanel.h"

#include "ChartView.h"
#include "Errors.h"
#include "Format.h"
#include "TimelinePlot.h"
#include "Timing.h"
#include "io/Export.h"
#include <QCheckBox>
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
#include <qcustomplot.h>

namespace rgx::ui {

namespace {

QString text(const std::string& value) { return QString::fromStdString(value); }

void styleAxes(QCustomPlot* plot)
{
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
        axis->setLabelFont(QFont(plot->font().family(), 9));
        axis->setTickLabelFont(QFont(plot->font().family(), 8));
        axis->grid()->setPen(QPen(QColor(220, 220, 220), 0, Qt::DotLine));
    }
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
    timelinePlot_ = new TimelinePlot(QStringLiteral("Launch timeline"), this);
    setUpPlot(timelinePlot_, "timelinePlot");
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
    auto* chartControls = new QHBoxLayout;
    auto* reset = new QPushButton(QStringLiteral("Reset view"), chartSide);
    reset->setObjectName(QStringLiteral("resetChartButton"));
    reset->setToolTip(QStringLiteral("Show the whole run again. In a chart, the wheel zooms, a drag pans and a "
                                     "double-click resets; time and iterations stay at zero or above."));
    logScale_ = new QCheckBox(QStringLiteral("Log scale (per kernel)"), chartSide);
    logScale_->setObjectName(QStringLiteral("kernelLogScale"));
    logScale_->setToolTip(QStringLiteral("A logarithmic time axis for the per-kernel chart, so that short kernels "
                                         "and copies show beside the longest"));
    chartControls->addWidget(reset);
    chartControls->addWidget(logScale_);
    chartControls->addStretch(1);
    chartLayout->addLayout(chartControls);
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

    connect(reset, &QPushButton::clicked, this, [this] {
        QCustomPlot* chart = plot(currentChart());
        if (resetToHome(chart))
            chart->replot();
    });
    connect(logScale_, &QCheckBox::toggled, this, [this] { drawPerKernel(kernelPlot_, shownRuns(), logScale_->isChecked()); });
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
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot->axisRect()->setRangeDrag(Qt::Horizontal);
    plot->axisRect()->setRangeZoom(Qt::Horizontal);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot, title, QFont(plot->font().family(), 10, QFont::Bold)));
    setUpPlot(plot, name);
    keepWithinHome(plot);
    connect(plot, &QCustomPlot::mouseMove, this, [this, plot](QMouseEvent* event) { showHover(plot, event); });
    return plot;
}

void TimingPanel::setUpPlot(QCustomPlot* plot, const char* name)
{
    plot->setObjectName(QString::fromLatin1(name));
    plot->setMinimumSize(320, 200);
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
}

void TimingPanel::setCurrentRun(const RunEntry& run)
{
    current_ = run;
    keepButton_->setEnabled(run.result != nullptr);
    rebuild();
    // A new run is shown at its last iteration (PlaybackPanel::setFrameCount),
    // compared with the reference at the later of the two (ViewState::lastFrame).
    int last = run.result ? int(run.result->iterations) : -1;
    if (run.result && run.differences && !run.differences->perIteration.empty())
        last = std::max(last, int(run.differences->perIteration.size()) - 1);
    setPlaybackIteration(last);
}

void TimingPanel::setDifferences(const GrowResultPtr& result, std::shared_ptr<const ResultDiff> differences)
{
    if (!result)
        return;
    bool changed = false;
    if (current_.result == result) {
        current_.differences = differences;
        changed = true;
    }
    // A run kept before its reference came keeps the comparison too.
    for (RunEntry& run : kept_)
        if (run.result == result) {
            run.differences = differences;
            changed = true;
        }
    if (changed)
        rebuild();
}

void TimingPanel::clearCurrentRun()
{
    current_ = RunEntry{};
    keepButton_->setEnabled(false);
    setPlaybackIteration(-1);
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

void TimingPanel::setPlaybackIteration(int iteration)
{
    playbackIteration_ = iteration;
    markKey(iterationPlot_, iteration, QStringLiteral("playback: iteration %1").arg(iteration));
    iterationPlot_->replot(QCustomPlot::rpQueuedReplot);
}
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
    drawPerIteration(iterationPlot_, runs);
    drawPerKernel(kernelPlot_, runs, logScale_->isChecked());
    drawTimeline(timelinePlot_, runs);
    // The kernel table: every kept run (checked or not: the table is cheap
    // to read), then the current run when it is not kept.
    std::vector<RunEntry> tableRuns = kept_;
    if (current_.result && std::none_of(kept_.begin(), kept_.end(),
                                        [&](const RunEntry& run) { return run.result == current_.result; }))
        tableRuns.push_back(current_);
    fillKernelTable(kernelTable_, tableRuns);

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
        // How the run deviated from its variant (a fallback, levels run one by one): seen, not only logged.
        if (!run.result->note.empty())
            line += QStringLiteral("; <span style=\"color:#a05a00\">%1</span>")
                        .arg(QString::fromStdString(run.result->note).toHtmlEscaped());
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
    const int number = kept_.front().number;
    // A ratio between runs on different inputs says nothing about the variants.
    const QString difference = inputsDifference(run.inputs, kept_.front().inputs);
    if (!difference.isEmpty())
        return QStringLiteral("; not compared with #%1 (%2)").arg(number).arg(difference);
    const double ratio = first / own;
    if (ratio >= 1.0)
        return QStringLiteral("; <b>%1x faster than #%2</b>").arg(ratio, 0, 'f', 1).arg(number);
    return QStringLiteral("; <b>%1x slower than #%2</b>").arg(1.0 / ratio, 0, 'f', 1).arg(number);
}

// The bar charts' values under the mouse (the timeline plot has its own).
void TimingPanel::showHover(QCustomPlot* plot, QMouseEvent* event)
{
    QString tip;
    int dataIndex = -1;
    QCPAbstractPlottable* under = plot->plottableAt(event->position(), false, &dataIndex);
    const QString unitSymbol = plot->yAxis->label().section(QLatin1Char('('), -1).section(QLatin1Char(')'), 0, 0);
    auto* graph = qobject_cast<QCPGraph*>(under);
    if (graph && dataIndex >= 0 && dataIndex < graph->data()->size() && graph->property("differences").isValid()) {
        const auto point = graph->data()->at(dataIndex);
        tip = QStringLiteral("%1\niteration %2: %3 %4 differ from the CPU reference")
                  .arg(graph->property("run").toString())
                  .arg(int(point->key))
                  .arg(formatCount(uint64_t(point->value)), graph->property("differences").toString());
    } else if (graph && dataIndex >= 0 && dataIndex < graph->data()->size()) {
        const auto point = graph->data()->at(dataIndex);
        tip = QStringLiteral("%1\n%2, iteration %3: %4 %5")
                  .arg(graph->property("run").toString(), graph->property("kernel").toString())
                  .arg(int(point->key))
                  .arg(point->value, 0, 'f', 2)
                  .arg(unitSymbol);
    }
    auto* bars = qobject_cast<QCPBars*>(under);
    if (bars && dataIndex >= 0 && dataIndex < bars->data()->size()) {
        const auto point = bars->data()->at(dataIndex);
        const QString run = bars->property("run").toString();
        if (plot == iterationPlot_) {
            const QStringList launches = bars->property("launches").toStringList();
            tip = QStringLiteral("%1\n%2, iteration %3: %4 %5%6")
                      .arg(run, bars->property("kernel").toString())
                      .arg(int(point->key))
                      .arg(point->value, 0, 'f', 2)
                      .arg(unitSymbol, dataIndex < launches.size() ? launches[dataIndex] : QString());
        } else {
            const QStringList tips = bars->property("tips").toStringList();
            tip = run + QLatin1Char('\n') + (dataIndex < tips.size() ? tips[dataIndex] : QString());
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
