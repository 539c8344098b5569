// The per-iteration chart: kernel time per iteration of the shown runs.
// Up to lineThreshold iterations a run is bars (stacked by kernel, runs side
// by side); beyond, bars would be thinner than a pixel and it is lines. With
// one run the colours are its kernels; with several each run has its own
// colour (its kernels in shades of it), so that runs never share one.
#include "TimingCharts.h"

#include "ChartView.h"
#include "Format.h"
#include "TimelinePlot.h"
#include "Timing.h"
#include <algorithm>
#include <map>
#include <qcustomplot.h>

namespace rgx::ui {

namespace {

constexpr int lineThreshold = 100;

QString text(const std::string& value) { return QString::fromStdString(value); }

// A kernel's time in each iteration of one run, and how many launches made it.
struct Series {
    QString kernel;
    std::map<int, double> nanoseconds;
    std::map<int, int> launches;
};

struct RunSeries {
    std::vector<Series> kernels;
    std::map<int, double> totals; // every kernel of an iteration
    int outside = 0;              // launches that belong to no iteration (set-up, read-back)
    int repeated = 0;             // launches beyond one per kernel and iteration
    int beyond = 0;               // launches numbered past the run's last iteration
};

RunSeries seriesOf(const RunEntry& run)
{
    RunSeries out;
    for (const TimingRecord& record : run.result->timings) {
        if (record.iteration < 0) {
            out.outside += record.kernel.rfind("read:", 0) == 0 || record.kernel.rfind("write:", 0) == 0 ? 0 : 1;
            continue;
        }
        const QString kernel = text(record.kernel);
        auto found = std::find_if(out.kernels.begin(), out.kernels.end(), [&](const Series& s) { return s.kernel == kernel; });
        if (found == out.kernels.end()) {
            out.kernels.push_back({kernel, {}, {}});
            found = out.kernels.end() - 1;
        }
        // A launch of several iterations is shown as its average over them.
        const int last = std::max(record.iteration, record.lastIteration);
        // A batch of host-batched launches is checked after it ran: those
        // past the last iteration found nothing left to grow.
        if (run.result->iterations > 0 && record.iteration > int(run.result->iterations))
            ++out.beyond;
        const double share = double(record.duration()) / double(last - record.iteration + 1);
        for (int iteration = record.iteration; iteration <= last; ++iteration) {
            found->nanoseconds[iteration] += share;
            out.repeated += found->launches[iteration]++ > 0 ? 1 : 0;
            out.totals[iteration] += share;
        }
    }
    return out;
}

// The kernels of run r in shades of the run's colour, told apart by lightness.
QColor shadeOf(const QColor& runColour, size_t kernel)
{
    static const int factors[] = {100, 145, 70, 190, 55};
    const int factor = factors[kernel % (sizeof(factors) / sizeof(factors[0]))];
    return factor >= 100 ? runColour.lighter(factor) : runColour.darker(100 * 100 / factor);
}

QColor runColour(size_t run) { return kernelPalette[run % 10]; }

// A competitive run of fusion=tiles: no iteration ran at all.
QString stampsAtOnce() { return QStringLiteral("stamps at once, as distances from the seeds"); }

// Why a run has no per-iteration bars, or an empty string.
QString whyNoIterations(const RunEntry& run)
{
    bool anyIterations = false, tileRounds = false, bricks = false, distances = false, labelsFused = false,
         ties = false, settled = false;
    for (const TimingRecord& record : run.result->timings) {
        anyIterations = anyIterations || record.iteration > 0;
        tileRounds = tileRounds || record.note.rfind("tile round", 0) == 0;
        bricks = bricks || record.kernel == "grow_bricks";
        distances = distances || record.kernel == "seed_distances";
        labelsFused = labelsFused || record.kernel == "label_levels_fused";
        ties = ties || record.kernel == "label_ties";
        settled = settled || record.kernel == "settle_ties";
    }
    if (anyIterations)
        return {};
    // Device-side enqueue runs its iterations without the host, and
    // fusion=tiles runs many levels in each tile (a volume's brick) between
    // grid barriers (launches), or, in mode competitive, computes every
    // pixel's stamp at once as its distance from the nearest seed; a
    // competitive run of several regions then labels its ties between
    // seeds level by level in one work-group, or by passes over every level
    // at once (a few regions), or every level in one launch.
    QString why = tileRounds  ? QStringLiteral("levels ran inside tiles")
                  : bricks    ? QStringLiteral("levels ran inside bricks")
                  : distances ? stampsAtOnce()
                              : QStringLiteral("the device enqueued its iterations");
    if (ties)
        why += QStringLiteral(", then the ties by level in one work-group");
    else if (settled)
        why += QStringLiteral(", then the ties by passes over every level in one work-group");
    else if (labelsFused)
        why += QStringLiteral(", then the labels level by level in one launch");
    return why;
}

void addBars(QCustomPlot* plot, const RunEntry& run, const RunSeries& series, size_t r, size_t runCount,
             QCPBarsGroup* group, double unitNs, KernelColours& colours)
{
    const double width = 0.85 / double(std::max<size_t>(1, runCount));
    QCPBars* below = nullptr;
    for (size_t k = 0; k < series.kernels.size(); ++k) {
        const Series& kernel = series.kernels[k];
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setName(runCount > 1 ? shortLabel(run) : kernel.kernel);
        bars->setProperty("run", shortLabel(run));
        bars->setProperty("kernel", kernel.kernel);
        bars->setWidthType(QCPBars::wtPlotCoords);
        bars->setWidth(width);
        const QColor colour = runCount > 1 ? shadeOf(runColour(r), k) : colours.colour(kernel.kernel);
        bars->setBrush(colour);
        bars->setPen(QPen(colour.darker(130), 0));
        QVector<double> keys, values;
        QStringList launches;
        for (const auto& [iteration, ns] : kernel.nanoseconds) {
            keys << iteration;
            values << ns / unitNs;
            const int count = kernel.launches.at(iteration);
            launches << (count > 1 ? QStringLiteral(" (%1 launches)").arg(count) : QString());
        }
        bars->setData(keys, values, true);
        bars->setProperty("launches", launches);
        if (below)
            bars->moveAbove(below);
        below = bars;
        if (group)
            bars->setBarsGroup(group);
        // One legend entry per run (several runs) or per kernel (one run).
        if (runCount > 1 && k > 0)
            bars->removeFromLegend();
    }
}

void addLines(QCustomPlot* plot, const RunEntry& run, const RunSeries& series, size_t r, size_t runCount, double unitNs,
              KernelColours& colours)
{
    auto addLine = [&](const QString& name, const std::map<int, double>& points, const QColor& colour) {
        auto* graph = plot->addGraph(plot->xAxis, plot->yAxis);
        graph->setName(name);
        graph->setProperty("run", shortLabel(run));
        graph->setProperty("kernel", runCount > 1 ? QStringLiteral("all kernels") : name);
        graph->setPen(QPen(colour, 1.5));
        graph->setLineStyle(QCPGraph::lsStepCenter);
        QVector<double> keys, values;
        for (const auto& [iteration, ns] : points) {
            keys << iteration;
            values << ns / unitNs;
        }
        graph->setData(keys, values, true);
    };
    if (runCount > 1) {
        addLine(shortLabel(run), series.totals, runColour(r));
        return;
    }
    for (const Series& kernel : series.kernels)
        addLine(kernel.kernel, kernel.nanoseconds, colours.colour(kernel.kernel));
}

// What the bars do not show by themselves, in a box in the chart's top
// right corner (so that the title stays one line, and an export keeps it).
void showNotes(QCustomPlot* plot, const QStringList& notes)
{
    auto* box = plot->findChild<QCPItemText*>(QStringLiteral("chartNotes"));
    if (!box) {
        box = new QCPItemText(plot);
        box->setObjectName(QStringLiteral("chartNotes"));
        box->setFont(QFont(plot->font().family(), 7));
        box->setColor(QColor(60, 60, 60));
        box->setBrush(QColor(255, 255, 255, 220));
        box->setPen(QPen(QColor(190, 190, 190)));
        box->setPadding(QMargins(4, 2, 4, 2));
        box->setTextAlignment(Qt::AlignLeft);
        box->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
        box->position->setType(QCPItemPosition::ptAxisRectRatio);
        box->position->setCoords(0.995, 0.01);
        box->setLayer(QStringLiteral("legend"));
    }
    box->setText(notes.join(QLatin1Char('\n')));
    box->setVisible(!notes.isEmpty());
}

QCPTextElement* titleOf(QCustomPlot* plot) { return qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0)); }

} // namespace

void drawPerIteration(QCustomPlot* plot, const std::vector<RunEntry>& runs)
{
    plot->clearPlottables();
    qDeleteAll(plot->findChildren<QCPBarsGroup*>());
    std::vector<RunSeries> perRun;
    double largest = 0;
    int lastIteration = 0;
    std::vector<double> iterationTotals;
    for (const RunEntry& run : runs) {
        perRun.push_back(seriesOf(run));
        for (const auto& [iteration, total] : perRun.back().totals) {
            largest = std::max(largest, total);
            lastIteration = std::max(lastIteration, iteration);
            iterationTotals.push_back(total);
        }
    }
    // The iterations at which pixels differ from the CPU reference are shown too.
    const int lastDifference = lastDifferenceIteration(runs);
    lastIteration = std::max(lastIteration, lastDifference);
    // One stalled iteration (another process took the CPU) would flatten all
    // the others: the axis ends a little above the 99th percentile instead,
    // and the title says when taller bars are cut (zoom out to see them).
    double axisTop = largest;
    if (iterationTotals.size() >= 20) {
        std::sort(iterationTotals.begin(), iterationTotals.end());
        const double percentile = iterationTotals[iterationTotals.size() * 99 / 100];
        axisTop = std::min(largest, percentile * 1.5);
    }
    const bool cut = axisTop < largest;
    const TimeUnit unit = timeUnitFor(axisTop);
    const bool lines = lastIteration > lineThreshold;

    QCPBarsGroup* group = nullptr;
    if (!lines && runs.size() > 1) {
        group = new QCPBarsGroup(plot);
        group->setSpacingType(QCPBarsGroup::stAbsolute);
        group->setSpacing(0);
    }
    KernelColours colours;
    for (size_t r = 0; r < runs.size(); ++r) {
        if (lines)
            addLines(plot, runs[r], perRun[r], r, runs.size(), unit.nanoseconds, colours);
        else
            addBars(plot, runs[r], perRun[r], r, runs.size(), group, unit.nanoseconds, colours);
    }
    const bool any = plot->plottableCount() > 0 || lastDifference >= 0;
    // Iterations are whole numbers: no ticks between them.
    QSharedPointer<QCPAxisTickerFixed> iterationTicker(new QCPAxisTickerFixed);
    iterationTicker->setTickStep(1.0);
    iterationTicker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    plot->xAxis->setTicker(iterationTicker);
    plot->xAxis->setLabel(QStringLiteral("Iteration"));
    plot->yAxis->setLabel(QStringLiteral("Time (%1)").arg(unit.symbol));

    QStringList without;
    QString why;
    int outside = 0, repeated = 0;
    QStringList beyond;
    for (size_t r = 0; r < runs.size(); ++r) {
        outside += perRun[r].outside;
        repeated += perRun[r].repeated;
        if (perRun[r].beyond > 0)
            beyond << QStringLiteral("#%1: %2").arg(runs[r].number).arg(perRun[r].beyond);
        const QString reason = whyNoIterations(runs[r]);
        if (reason.isEmpty())
            continue;
        without << QStringLiteral("#%1").arg(runs[r].number);
        why = reason;
    }
    // Short enough to fit the panel with the notes beside it.
    QString title = lines ? (runs.size() > 1 ? QStringLiteral("Kernel time per iteration, one line per run")
                                             : QStringLiteral("Kernel time per iteration, one line per kernel"))
                          : (runs.size() > 1 ? QStringLiteral("Kernel time per iteration; runs side by side, stacked by kernel")
                                             : QStringLiteral("Kernel time per iteration, stacked by kernel"));
    if (!without.isEmpty())
        title = QStringLiteral("Kernel time per iteration; %1 has none (%2: see the timeline)")
                    .arg(without.join(QStringLiteral(", ")), why);
    QStringList notes;
    if (cut)
        notes << QStringLiteral("%1 above %2 are cut (longest %3)")
                     .arg(lines ? QStringLiteral("values") : QStringLiteral("bars"), formatDuration(axisTop), formatDuration(largest));
    if (!beyond.isEmpty())
        notes << QStringLiteral("launches after the last iteration (its check, or the rest of a batch) %1")
                     .arg(beyond.join(QStringLiteral(", ")));
    // Launches that are not one per kernel and iteration are said, not hidden.
    if (repeated > 0)
        notes << QStringLiteral("%1 launches repeat a kernel within its iteration (summed)").arg(repeated);
    if (outside > 0 && any)
        notes << QStringLiteral("%1 set-up launches are in no iteration (Per kernel)").arg(outside);
    showNotes(plot, notes);
    if (!runs.empty() && without.size() == int(runs.size()))
        title = QStringLiteral("No per-iteration times: %1%2 (see the timeline)")
                    .arg(why, why.startsWith(stampsAtOnce()) ? QString() : QStringLiteral(", many iterations in each launch"));
    titleOf(plot)->setText(title);
    if (any) {
        // Iteration 0 (the seeds) has no kernels, but may have differences.
        const double first = lastDifference >= 0 ? -0.5 : (lines ? 0.0 : 0.5);
        setHomeRanges(plot, QCPRange(first, double(lastIteration) + (lines ? 1.0 : 0.5)),
                      QCPRange(0, std::max(axisTop, 1.0) / unit.nanoseconds * 1.08), largest / unit.nanoseconds * 1.08);
    } else {
        setHomeRanges(plot, QCPRange(0, 10), QCPRange(0, 1));
    }
    drawDifferences(plot, runs);
    plot->legend->setVisible(any);
    plot->replot();
}

} // namespace rgx::ui
