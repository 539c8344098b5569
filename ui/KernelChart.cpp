// The per-kernel chart: total time of each kernel (and of the copies each
// way, and of the idle gaps) per shown run, each bar labelled with its time
// and launches; a log scale shows small kernels beside large ones.
#include "TimingCharts.h"

#include "ChartView.h"
#include "Format.h"
#include "TimelinePlot.h"
#include "Timing.h"
#include <algorithm>
#include <set>
#include <qcustomplot.h>

namespace rgx::ui {

namespace {

// One bar of the per-kernel chart: a kernel, or all copies in one direction
// (a dozen small transfers would otherwise crowd out the kernels).
struct KernelCategory {
    QString name;
    uint64_t totalNs = 0;
    int commands = 0;
    std::set<int> iterations; // those its launches belong to
    int outside = 0;          // launches in no iteration (set-up, read-back)
    int beyond = 0;           // launches past the run's last iteration (the rest of a batch)
    QStringList parts;
};

std::vector<KernelCategory> categoriesOf(const std::vector<TimingRecord>& records, uint32_t lastIteration)
{
    std::vector<KernelCategory> categories;
    auto categoryOf = [&](const QString& name) {
        auto found = std::find_if(categories.begin(), categories.end(), [&](const KernelCategory& c) { return c.name == name; });
        if (found == categories.end()) {
            categories.push_back({name, 0, 0, {}, 0, 0, {}});
            found = categories.end() - 1;
        }
        return found;
    };
    for (const KernelTotal& total : kernelTotals(records)) {
        auto category = categoryOf(commandCategory(total.kernel));
        category->totalNs += total.totalNs;
        category->commands += total.launches;
        category->parts << QStringLiteral("%1 (%2 stage): %3 x, %4")
                               .arg(QString::fromStdString(total.kernel), QString::fromStdString(total.stage))
                               .arg(total.launches)
                               .arg(formatDuration(double(total.totalNs)));
    }
    for (const TimingRecord& record : records) {
        auto category = categoryOf(commandCategory(record.kernel));
        if (record.iteration < 0)
            ++category->outside;
        else if (lastIteration > 0 && record.iteration > int(lastIteration))
            ++category->beyond;
        else
            category->iterations.insert(record.iteration);
    }
    return categories;
}

// What the launches of a bar were: "764 launches in 704 iterations (60 more
// where an iteration ran it again), 2 outside them (set-up, read-back)".
QString launchesText(const KernelCategory& category)
{
    const int inIterations = category.commands - category.outside - category.beyond;
    QString text = QStringLiteral("%1 launch%2").arg(category.commands).arg(category.commands == 1 ? "" : "es");
    if (!category.iterations.empty()) {
        text += QStringLiteral(" in %1 iteration%2").arg(category.iterations.size()).arg(category.iterations.size() == 1 ? "" : "s");
        const int extra = inIterations - int(category.iterations.size());
        if (extra > 0)
            text += QStringLiteral(" (%1 more where an iteration ran it again)").arg(extra);
        if (category.beyond > 0)
            text += QStringLiteral(", %1 past the last iteration (the rest of a batch, nothing left to grow)").arg(category.beyond);
        if (category.outside > 0)
            text += QStringLiteral(", %1 outside them (set-up, read-back)").arg(category.outside);
    }
    return text;
}

} // namespace

void drawPerKernel(QCustomPlot* plot, const std::vector<RunEntry>& runs, bool logScale)
{
    plot->clearPlottables();
    plot->clearItems();
    qDeleteAll(plot->findChildren<QCPBarsGroup*>());
    // Categories: the kernels and copies of any shown run, then the idle time.
    QStringList names;
    std::vector<std::vector<KernelCategory>> perRun;
    double largest = 0, smallest = 0;
    auto note = [&](double ns) {
        largest = std::max(largest, ns);
        if (ns > 0)
            smallest = smallest > 0 ? std::min(smallest, ns) : ns;
    };
    for (const RunEntry& run : runs) {
        perRun.push_back(categoriesOf(run.result->timings, run.result->iterations));
        for (const KernelCategory& category : perRun.back()) {
            if (!names.contains(category.name))
                names << category.name;
            note(double(category.totalNs));
        }
        note(double(summarizeTimeline(run.result->timings).gapNs));
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

    // A log axis has no zero: bars stand on a floor below the smallest value.
    const double floor = logScale && smallest > 0 ? smallest / unit.nanoseconds / 3 : 0;
    QCPBarsGroup* group = nullptr;
    if (runs.size() > 1) {
        group = new QCPBarsGroup(plot);
        group->setSpacingType(QCPBarsGroup::stAbsolute);
        group->setSpacing(0); // so that a label's place is its bar's (below)
    }
    const double width = 0.8 / double(std::max<size_t>(1, runs.size()));
    // Upright labels where the bars are wide enough, else along the bar.
    const bool upright = runs.size() == 1 && names.size() <= 6;
    for (size_t r = 0; r < runs.size(); ++r) {
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setName(shortLabel(runs[r]));
        bars->setWidth(width);
        bars->setBaseValue(floor);
        const QColor colour = kernelPalette[r % 10];
        bars->setBrush(colour);
        bars->setPen(QPen(colour.darker(130)));
        const double offset = (double(r) - double(runs.size() - 1) / 2) * width;
        QVector<double> keys, values;
        QStringList tips;
        auto addBar = [&](double key, double ns, const QString& label, const QString& tip) {
            if (logScale && ns <= 0)
                return; // nothing to draw on a log axis
            keys << key;
            values << ns / unit.nanoseconds;
            tips << tip;
            auto* valueLabel = new QCPItemText(plot);
            valueLabel->setObjectName(QStringLiteral("valueLabel"));
            valueLabel->setText(label);
            valueLabel->setFont(QFont(plot->font().family(), 7));
            valueLabel->setColor(QColor(40, 40, 40));
            valueLabel->setClipToAxisRect(true);
            valueLabel->position->setCoords(key + offset, std::max(ns / unit.nanoseconds, floor));
            valueLabel->setPositionAlignment(upright ? Qt::AlignHCenter | Qt::AlignBottom : Qt::AlignLeft | Qt::AlignVCenter);
            valueLabel->setRotation(upright ? 0 : -90);
            valueLabel->setPadding(QMargins(2, 0, 2, 2));
        };
        for (int c = 0; c + 1 < names.size(); ++c) {
            for (const KernelCategory& category : perRun[r]) {
                if (category.name != names[c])
                    continue;
                const QString launches = launchesText(category);
                // The launches are in the tooltip: a label stays short enough to fit above its bar.
                addBar(double(c + 1), double(category.totalNs), formatDuration(double(category.totalNs)),
                       QStringLiteral("%1: %2 in total, %3\n%4")
                           .arg(category.name, formatDuration(double(category.totalNs)), launches,
                                category.parts.join(QLatin1Char('\n'))));
            }
        }
        const TimelineSummary summary = summarizeTimeline(runs[r].result->timings);
        addBar(double(names.size()), double(summary.gapNs), formatDuration(double(summary.gapNs)),
               QStringLiteral("Idle time between commands: %1 of a %2 span (host overhead)")
                   .arg(formatDuration(double(summary.gapNs)), formatDuration(double(summary.spanNs))));
        bars->setData(keys, values, true);
        bars->setProperty("tips", tips);
        bars->setProperty("run", shortLabel(runs[r]));
        if (group)
            bars->setBarsGroup(group);
    }
    plot->xAxis->setLabel(QString());
    plot->yAxis->setLabel(QStringLiteral("Total time (%1)%2").arg(unit.symbol, logScale ? QStringLiteral(", log scale") : QString()));
    const double top = largest > 0 ? largest / unit.nanoseconds : 1.0;
    if (logScale && floor > 0) {
        plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
        plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        // Room above the tallest bar for its label, in decades.
        setHomeRanges(plot, QCPRange(0.4, double(names.size()) + 0.6), QCPRange(floor, top * (upright ? 3 : 30)));
    } else {
        plot->yAxis->setScaleType(QCPAxis::stLinear);
        plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        setHomeRanges(plot, QCPRange(0.4, double(names.size()) + 0.6), QCPRange(0, top * (upright ? 1.15 : 1.6)));
    }
    plot->legend->setVisible(!runs.empty());
    plot->replot();
}

} // namespace rgx::ui
