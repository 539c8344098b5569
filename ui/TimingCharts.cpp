// Timing charts: how the timing records of the shown runs become bars.
#include "TimingCharts.h"

#include "Format.h"
#include "TimelinePlot.h"
#include "Timing.h"
#include <QHeaderView>
#include <QTableWidget>
#include <algorithm>
#include <map>
#include <qcustomplot.h>

namespace rgx::ui {

namespace {

// Runs after the first are told apart by a hatch pattern on the same colours.
Qt::BrushStyle runPattern(size_t run)
{
    static const Qt::BrushStyle patterns[] = {Qt::SolidPattern, Qt::BDiagPattern, Qt::FDiagPattern,
                                              Qt::CrossPattern, Qt::DiagCrossPattern, Qt::Dense4Pattern};
    return patterns[run % (sizeof(patterns) / sizeof(patterns[0]))];
}

QString text(const std::string& value) { return QString::fromStdString(value); }

QCPTextElement* titleOf(QCustomPlot* plot)
{
    return qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
}

// One bar of the per-kernel chart: a kernel, or all copies in one direction
// (a dozen small transfers would otherwise crowd out the kernels).
struct KernelCategory {
    QString name;
    uint64_t totalNs = 0;
    int commands = 0;
    QStringList parts;
};

std::vector<KernelCategory> categoriesOf(const std::vector<TimingRecord>& records)
{
    std::vector<KernelCategory> categories;
    for (const KernelTotal& total : kernelTotals(records)) {
        const QString name = commandCategory(total.kernel);
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

QString shortLabel(const RunEntry& run) { return QStringLiteral("#%1 %2").arg(run.number).arg(run.label); }

QString inputsDifference(const RunInputs& a, const RunInputs& b)
{
    QStringList differences;
    if (a.image != b.image)
        differences << QStringLiteral("another image");
    if (a.seeds != b.seeds)
        differences << QStringLiteral("other seeds");
    if (a.params != b.params)
        differences << QStringLiteral("other parameters");
    return differences.join(QStringLiteral(", "));
}

void drawPerIteration(QCustomPlot* plot, const std::vector<RunEntry>& runs)
{
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
    // Some runs have no per-iteration times: device-side enqueue runs its
    // iterations without the host, and fusion=tiles runs many levels in each
    // tile between grid barriers (a launch of tile rounds is no iteration).
    QStringList without;
    QString why;
    for (const RunEntry& run : runs) {
        bool anyIterations = false, tileRounds = false;
        for (const TimingRecord& record : run.result->timings) {
            anyIterations = anyIterations || record.iteration > 0;
            tileRounds = tileRounds || record.note.rfind("tile round", 0) == 0;
        }
        if (anyIterations)
            continue;
        without << QStringLiteral("#%1").arg(run.number);
        why = tileRounds ? QStringLiteral("levels ran inside tiles") : QStringLiteral("the device enqueued its iterations");
    }
    // Short enough to fit the panel with the note on cut bars beside it.
    QString title;
    if (!without.isEmpty())
        title = QStringLiteral("Kernel time per iteration; %1 has none (%2: see the timeline)")
                    .arg(without.join(QStringLiteral(", ")), why);
    else if (runs.size() > 1)
        title = QStringLiteral("Kernel time per iteration, stacked by kernel; runs side by side (left to right as listed)");
    else
        title = QStringLiteral("Kernel time per iteration, stacked by kernel");
    if (cut)
        title += QStringLiteral(" - bars above %1 are cut (longest %2; wheel zooms)")
                     .arg(formatDuration(axisTop), formatDuration(largest));
    if (!runs.empty() && without.size() == int(runs.size()))
        title = QStringLiteral("No per-iteration times: %1, many iterations in each launch (see the timeline)").arg(why);
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

void drawPerKernel(QCustomPlot* plot, const std::vector<RunEntry>& runs)
{
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

void drawTimeline(TimelinePlot* plot, const std::vector<RunEntry>& runs)
{
    KernelColours colours;
    double largest = 0;
    for (const RunEntry& run : runs)
        largest = std::max(largest, double(summarizeTimeline(run.result->timings).spanNs));
    const TimeUnit unit = timeUnitFor(largest);

    std::vector<TimelineBars::Segment> segments;
    QMap<double, QString> rowNames;
    double row = 0;
    for (const RunEntry& run : runs) {
        const auto& records = run.result->timings;
        if (records.empty())
            continue;
        // Each run starts at its own first queued command, so runs line up at 0;
        // one row per kernel, and one per direction of copies (as in the per-kernel chart).
        const TimelineLayout layout = timelineLayout(records);
        const uint64_t origin = layout.origin;
        for (int k = 0; k < layout.rows.size(); ++k)
            rowNames.insert(row + double(k), QStringLiteral("#%1 %2").arg(run.number).arg(layout.rows[k]));
        std::vector<TimelineBars::Segment> own = timelineSegments(
            records, layout, row, unit, [&](const QString& name) { return colours.colour(name); },
            [&run, origin](const TimingRecord& record) {
                return QStringLiteral("%1\n%2 (%3 stage)%4\nqueued at %5, start %6, end %7\nduration %8, waited %9 from queued to start%10")
                    .arg(shortLabel(run), text(record.kernel), text(record.stage))
                    .arg(record.iteration >= 0 ? QStringLiteral(", iteration %1").arg(record.iteration) : QString())
                    .arg(formatDuration(double(record.queued - origin)), formatDuration(double(record.start - origin)),
                         formatDuration(double(record.end - origin)), formatDuration(double(record.duration())),
                         formatDuration(record.start > record.queued ? double(record.start - record.queued) : 0.0))
                    .arg(record.note.empty() ? QString() : QStringLiteral("\n") + text(record.note));
            });
        segments.insert(segments.end(), own.begin(), own.end());
        row += double(layout.rows.size()) + 0.6; // a little space between runs
    }
    plot->showTimeline(std::move(segments), rowNames,
                       QStringLiteral("Time since the run's first command was queued (%1); gaps are host overhead")
                           .arg(unit.symbol));
}

void fillKernelTable(QTableWidget* table, const std::vector<RunEntry>& runs)
{
    const QStringList headers = {QStringLiteral("Run"), QStringLiteral("Program"), QStringLiteral("Kernel"),
                                 QStringLiteral("Work-group limit"), QStringLiteral("Preferred multiple"),
                                 QStringLiteral("Private memory"), QStringLiteral("Local memory"),
                                 QStringLiteral("Registers"), QStringLiteral("Spill stores"), QStringLiteral("Spill loads")};
    table->clear();
    table->setColumnCount(int(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    table->horizontalHeaderItem(7)->setToolTip(
        QStringLiteral("Registers and spills are reported by NVIDIA's compiler (-cl-nv-verbose) only; – where unknown"));
    int rows = 0;
    for (const RunEntry& run : runs)
        rows += int(run.result->kernels.size());
    table->setRowCount(rows);
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
                table->setItem(row, column, item);
            }
            ++row;
        }
    }
    table->resizeColumnsToContents();
}

} // namespace rgx::ui
