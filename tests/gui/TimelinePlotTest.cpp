// Tests of TimelinePlot, the launch timeline of the timings panel and the
// lab, and of how a run's timing records become its rows and bars; and of
// what the per-iteration chart says of a run it has no bars for.
#include "Format.h"
#include "TimelinePlot.h"
#include "TimingCharts.h"
#include <QTest>
#include <qcustomplot.h>

using namespace rgx;
using namespace rgx::ui;

namespace {

TimingRecord record(const char* kernel, uint64_t queued, uint64_t start, uint64_t end, bool measured = true)
{
    TimingRecord result;
    result.kernel = kernel;
    result.queued = queued;
    result.start = start;
    result.end = end;
    result.measured = measured;
    return result;
}

// Copies, two kernels, a copy back and one command the device could not time.
std::vector<TimingRecord> someRun()
{
    return {record("write:labels", 1000, 1100, 1200), record("write:luma", 1010, 1200, 1300),
            record("grow", 1020, 1300, 2300),           record("summarize", 1030, 2300, 2400),
            record("grow", 0, 0, 0, false),             record("read:labels", 1040, 2400, 2600)};
}

} // namespace

class TimelinePlotTest : public QObject {
    Q_OBJECT

private slots:
    void rowsAreKernelsAndCopiesInOrderOfFirstAppearance();
    void barsStartAtTheFirstQueuedCommand();
    void unmeasuredCommandsHaveNoBar();
    void anEmptyTimelineShowsEmptyAxes();
    void showingReplacesTheBarsAndNamesTheRows();
    void theBarUnderTheMouseIsFound();
    void thePerIterationChartSaysWhyARunHasNoBars();
};

void TimelinePlotTest::rowsAreKernelsAndCopiesInOrderOfFirstAppearance()
{
    const TimelineLayout layout = timelineLayout(someRun());
    QCOMPARE(layout.rows, (QStringList{QStringLiteral("copies to device"), QStringLiteral("grow"), QStringLiteral("summarize"),
                                       QStringLiteral("copies to host")}));
    QCOMPARE(commandCategory("read:stamps"), QStringLiteral("copies to host"));
    QCOMPARE(commandCategory("grow_queue"), QStringLiteral("grow_queue"));
}

void TimelinePlotTest::barsStartAtTheFirstQueuedCommand()
{
    const std::vector<TimingRecord> records = someRun();
    const TimelineLayout layout = timelineLayout(records);
    QCOMPARE(layout.origin, uint64_t(1000)); // the unmeasured command's 0 is not a time
    TimeUnit unit;
    unit.nanoseconds = 100.0;
    const auto segments = timelineSegments(records, layout, 10.0, unit, [](const QString&) { return QColor(Qt::red); },
                                           [](const TimingRecord& r) { return QString::fromStdString(r.kernel); });
    QCOMPARE(segments.front().start, 1.0);
    QCOMPARE(segments.front().end, 2.0);
    QCOMPARE(segments.front().row, 10.0);
    QCOMPARE(segments[2].row, 11.0); // grow: the second row, from row 10 on
    QCOMPARE(segments[2].toolTip, QStringLiteral("grow"));
    QCOMPARE(segments.back().row, 13.0);
}

void TimelinePlotTest::unmeasuredCommandsHaveNoBar()
{
    const std::vector<TimingRecord> records = someRun();
    KernelColours colours;
    const auto segments = timelineSegments(records, timelineLayout(records), 0.0, TimeUnit{},
                                           [&](const QString& row) { return colours.colour(row); },
                                           [](const TimingRecord&) { return QString(); });
    QCOMPARE(segments.size(), records.size() - 1);
    // One colour per row: both copies to the device share the first one.
    QCOMPARE(segments[0].colour, kernelPalette[0]);
    QCOMPARE(segments[1].colour, kernelPalette[0]);
    QCOMPARE(segments[2].colour, kernelPalette[1]);
}

void TimelinePlotTest::anEmptyTimelineShowsEmptyAxes()
{
    TimelinePlot plot(QStringLiteral("Launch timeline"));
    plot.showTimeline({}, {}, QStringLiteral("Time (ms)"));
    QVERIFY(plot.bars());
    QVERIFY(plot.bars()->segments().empty());
    QCOMPARE(plot.xAxis->range(), QCPRange(0, 1));
    QCOMPARE(plot.yAxis->range(), QCPRange(-0.5, 0.5));
    QVERIFY(plot.yAxis->rangeReversed()); // rows top down
    QCOMPARE(plot.xAxis->label(), QStringLiteral("Time (ms)"));
}

void TimelinePlotTest::showingReplacesTheBarsAndNamesTheRows()
{
    TimelinePlot plot(QStringLiteral("Launch timeline"));
    const std::vector<TimingRecord> records = someRun();
    const TimelineLayout layout = timelineLayout(records);
    auto segments = [&] {
        return timelineSegments(records, layout, 0.0, TimeUnit{}, [](const QString&) { return QColor(Qt::blue); },
                                [](const TimingRecord&) { return QString(); });
    };
    QMap<double, QString> names;
    for (int k = 0; k < layout.rows.size(); ++k)
        names.insert(double(k), layout.rows[k]);
    plot.showTimeline(segments(), names, QStringLiteral("Time (ns)"));
    plot.showTimeline(segments(), names, QStringLiteral("Time (ns)"), QCPRange(-0.6, 3.6));
    QCOMPARE(plot.plottableCount(), 1);
    QCOMPARE(plot.bars()->segments().size(), size_t(5));
    QCOMPARE(plot.yAxis->range(), QCPRange(-0.6, 3.6));
    QCOMPARE(plot.xAxis->range().lower, 0.0); // time starts at 0, whatever the data
    QVERIFY(plot.xAxis->range().upper > 1600.0); // the last end, and a little room
    auto ticker = plot.yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().value(3.0), QStringLiteral("copies to host"));
}

void TimelinePlotTest::theBarUnderTheMouseIsFound()
{
    TimelinePlot plot(QStringLiteral("Launch timeline"));
    plot.resize(600, 300);
    const std::vector<TimingRecord> records = someRun();
    plot.showTimeline(timelineSegments(records, timelineLayout(records), 0.0, TimeUnit{},
                                       [](const QString&) { return QColor(Qt::blue); },
                                       [](const TimingRecord& r) { return QString::fromStdString(r.kernel); }),
                      {}, QString());
    plot.replot();
    const TimelineBars::Segment& grow = plot.bars()->segments()[2];
    const QPointF middle(plot.xAxis->coordToPixel((grow.start + grow.end) / 2), plot.yAxis->coordToPixel(grow.row));
    QCOMPARE(plot.bars()->segmentAt(middle), 2);
    QCOMPARE(plot.bars()->segments()[2].toolTip, QStringLiteral("grow"));
}

// A level run has a bar per iteration; a fusion=tiles run's launches of
// tile rounds are no iterations: the title says so instead of drawing them.
void TimelinePlotTest::thePerIterationChartSaysWhyARunHasNoBars()
{
    auto run = [](int number, std::vector<TimingRecord> records) {
        auto result = std::make_shared<GrowResult>();
        result->timings = std::move(records);
        return RunEntry{number, QStringLiteral("run"), result};
    };
    auto levels = someRun();
    for (int i = 0; i < int(levels.size()); ++i)
        levels[size_t(i)].iteration = i + 1;
    auto tiles = someRun();
    tiles[2].kernel = "grow_tiles";
    tiles[2].note = "tile rounds 1 to 7 in one launch, a grid barrier between them";
    QCustomPlot plot;
    plot.plotLayout()->insertRow(0);
    plot.plotLayout()->addElement(0, 0, new QCPTextElement(&plot, QString()));
    auto title = [&plot] { return qobject_cast<QCPTextElement*>(plot.plotLayout()->element(0, 0))->text(); };

    drawPerIteration(&plot, {run(1, levels)});
    QCOMPARE(title(), QStringLiteral("Kernel time per iteration, stacked by kernel"));
    QVERIFY(plot.plottableCount() > 0);
    drawPerIteration(&plot, {run(1, levels), run(2, tiles)});
    QVERIFY2(title().contains(QStringLiteral("#2 has none (levels ran inside tiles")), qPrintable(title()));
    drawPerIteration(&plot, {run(3, tiles)});
    QVERIFY2(title().startsWith(QStringLiteral("No per-iteration times: levels ran inside tiles")), qPrintable(title()));
    QCOMPARE(plot.plottableCount(), 0);
    tiles[2].note.clear(); // a device-side enqueue chain: one launch, no note
    drawPerIteration(&plot, {run(4, tiles)});
    QVERIFY2(title().contains(QStringLiteral("the device enqueued its iterations")), qPrintable(title()));
}

QTEST_MAIN(TimelinePlotTest)
#include "TimelinePlotTest.moc"
