// Timing charts: run labels and comparisons, the launch timeline and the
// kernel table (the bar charts: IterationChart.cpp, KernelChart.cpp).
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

QString text(const std::string& value) { return QString::fromStdString(value); }

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
