// Tests of TimelinePlot, the launch timeline of the timings panel and the
// lab, and of how a run's timing records become its rows and bars; and of
// what the per-iteration chart says of a run it has no bars for, and of the
// pixels that differ from the CPU reference at each iteration.
#include "Format.h"
#include "TimelinePlot.h"
#include "ChartView.h"
#include "TimingCharts.h"
#include "Timing.h"
#include "TimingPanel.h"
#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>
#include <memory>
#include <set>

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
    void eachRunHasItsOwnColourAndLongRunsAreLines();
    void zoomAndDragKeepZeroAndResetGoesHome();
    void perKernelBarsAreLabelledAndMayBeLogarithmic();
    void launchesThatAreNoIterationsAreSaid();
    void timelineRowsNeverOverlapTheirNames();
    void thePerIterationChartCountsDifferingPixelsAndMarksTheFirst();
    void anExportedChartCarriesTheDifferences();
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
    // A competitive run of several regions in two passes: tiles, then every level of labels in one launch.
    auto twoPasses = tiles;
    twoPasses[3].kernel = "label_levels_fused";
    drawPerIteration(&plot, {run(5, twoPasses)});
    QVERIFY2(title().startsWith(QStringLiteral(
                 "No per-iteration times: levels ran inside tiles, then the labels level by level in one launch")),
             qPrintable(title()));
    // Mode competitive: the stamps as distances, at once; then the ties alone.
    auto distances = someRun();
    distances[2].kernel = "seed_distances";
    drawPerIteration(&plot, {run(7, distances)});
    QCOMPARE(title(), QStringLiteral("No per-iteration times: stamps at once, as distances from the seeds (see the "
                                     "timeline)"));
    distances[3].kernel = "label_ties";
    drawPerIteration(&plot, {run(8, distances)});
    QCOMPARE(title(), QStringLiteral("No per-iteration times: stamps at once, as distances from the seeds, then the "
                                     "ties by level in one work-group (see the timeline)"));
    distances[3].kernel = "settle_ties"; // a few regions: every level at once, pass after pass
    drawPerIteration(&plot, {run(9, distances)});
    QCOMPARE(title(), QStringLiteral("No per-iteration times: stamps at once, as distances from the seeds, then the "
                                     "ties by passes over every level in one work-group (see the timeline)"));
    auto bricks = someRun(); // a volume in bricks: no round notes
    bricks[2].kernel = "grow_bricks";
    drawPerIteration(&plot, {run(6, bricks)});
    QVERIFY2(title().startsWith(QStringLiteral("No per-iteration times: levels ran inside bricks")),
             qPrintable(title()));
    tiles[2].note.clear(); // a device-side enqueue chain: one launch, no note
    drawPerIteration(&plot, {run(4, tiles)});
    QVERIFY2(title().contains(QStringLiteral("the device enqueued its iterations")), qPrintable(title()));
}

namespace {

// A run of `iterations` iterations with two kernels each, and a set-up launch.
std::vector<TimingRecord> iterations(int count, uint64_t growNs = 1000)
{
    std::vector<TimingRecord> records = {record("write:luma", 10, 20, 120), record("place_seeds", 11, 120, 220)};
    uint64_t t = 220;
    for (int i = 1; i <= count; ++i) {
        for (const char* kernel : {"grow", "summarize"}) {
            TimingRecord launch = record(kernel, t, t, t + (kernel[0] == 'g' ? growNs : 100));
            launch.iteration = i;
            t = launch.end;
            records.push_back(launch);
        }
    }
    return records;
}

RunEntry runOf(int number, std::vector<TimingRecord> records)
{
    auto result = std::make_shared<GrowResult>();
    result->timings = std::move(records);
    return RunEntry{number, QStringLiteral("run"), result, {}};
}

// A chart as the timings panel has it: a title row above the axes.
std::unique_ptr<QCustomPlot> titledPlot()
{
    auto plot = std::make_unique<QCustomPlot>();
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, new QCPTextElement(plot.get(), QString()));
    plot->resize(640, 360);
    return plot;
}

// The title and the notes box under it (IterationChart.cpp).
QString titleOf(QCustomPlot* plot)
{
    QString text = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0))->text();
    if (auto* notes = plot->findChild<QCPItemText*>(QStringLiteral("chartNotes")); notes && notes->visible())
        text += QLatin1Char('\n') + notes->text();
    return text;
}

} // namespace

// Issue 28: two kept runs were the same blue at 261 iterations (a hatch
// pattern told them apart, invisible at that width).
void TimelinePlotTest::eachRunHasItsOwnColourAndLongRunsAreLines()
{
    auto plot = titledPlot();
    drawPerIteration(plot.get(), {runOf(1, iterations(30)), runOf(2, iterations(30))});
    std::set<QRgb> first, second;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        auto* bars = qobject_cast<QCPBars*>(plot->plottable(i));
        QVERIFY(bars);
        QCOMPARE(bars->brush().style(), Qt::SolidPattern);
        (bars->property("run").toString().startsWith(QStringLiteral("#1")) ? first : second).insert(bars->brush().color().rgb());
    }
    QCOMPARE(first.size(), size_t(2)); // its two kernels, in shades of its colour
    for (QRgb colour : first)
        QVERIFY(!second.count(colour));
    QCOMPARE(plot->legend->itemCount(), 2); // one entry per run

    drawPerIteration(plot.get(), {runOf(1, iterations(261)), runOf(2, iterations(261))});
    QCOMPARE(plot->plottableCount(), 2);
    auto* one = qobject_cast<QCPGraph*>(plot->plottable(0));
    auto* two = qobject_cast<QCPGraph*>(plot->plottable(1));
    QVERIFY(one && two);
    QVERIFY(one->pen().color() != two->pen().color());
    QCOMPARE(one->data()->size(), 261);
    QVERIFY2(titleOf(plot.get()).contains(QStringLiteral("one line per run")), qPrintable(titleOf(plot.get())));
}

// Issue 28: wheel zoom moved the y axis off zero, zooming out went to
// negative iterations and times, and there was no reset.
void TimelinePlotTest::zoomAndDragKeepZeroAndResetGoesHome()
{
    auto plot = titledPlot();
    keepWithinHome(plot.get());
    drawPerIteration(plot.get(), {runOf(1, iterations(40))});
    const QCPRange homeX = plot->xAxis->range(), homeY = plot->yAxis->range();
    QCOMPARE(homeY.lower, 0.0);
    plot->yAxis->scaleRange(0.5, homeY.center()); // a wheel step in, about the middle
    QCOMPARE(plot->yAxis->range().lower, 0.0);
    QVERIFY(plot->yAxis->range().upper < homeY.upper);
    plot->xAxis->scaleRange(10.0, homeX.center()); // far out
    QCOMPARE(plot->xAxis->range().lower, homeX.lower);
    QCOMPARE(plot->xAxis->range().upper, homeX.upper);
    plot->xAxis->setRange(10, 20);
    plot->xAxis->moveRange(-50); // dragged past the start
    QVERIFY(plot->xAxis->range().lower >= homeX.lower);
    QCOMPARE(plot->xAxis->range().size(), 10.0);
    QVERIFY(resetToHome(plot.get()));
    QCOMPARE(plot->xAxis->range(), homeX);
    QCOMPARE(plot->yAxis->range(), homeY);
    // A stalled iteration is cut off the axis; the title says so and says
    // nothing of the mouse (an exported chart has none).
    auto records = iterations(200);
    records[10].end += 1000000;
    drawPerIteration(plot.get(), {runOf(1, records)});
    QVERIFY2(titleOf(plot.get()).contains(QStringLiteral("are cut")), qPrintable(titleOf(plot.get())));
    QVERIFY2(!titleOf(plot.get()).contains(QStringLiteral("wheel")), qPrintable(titleOf(plot.get())));
    // ...and zooming out may show the tall bar.
    plot->yAxis->scaleRange(1000.0, 0);
    QVERIFY(plot->yAxis->range().upper * 1e3 > 1000);
}

// Issue 28: the per-kernel bars showed only the largest kernel.
void TimelinePlotTest::perKernelBarsAreLabelledAndMayBeLogarithmic()
{
    auto plot = titledPlot();
    const std::vector<RunEntry> runs = {runOf(1, iterations(10, 1000000))};
    drawPerKernel(plot.get(), runs);
    auto* bars = qobject_cast<QCPBars*>(plot->plottable(0));
    QVERIFY(bars);
    QStringList labels;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)))
            labels << text->text();
    QCOMPARE(labels.size(), bars->data()->size());
    QVERIFY2(labels.contains(QStringLiteral("10.0 ms")), qPrintable(labels.join(QLatin1Char('|'))));
    QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLinear);
    drawPerKernel(plot.get(), runs, true);
    QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLogarithmic);
    QVERIFY(plot->yAxis->range().lower > 0);
    // The smallest bar (1 us of summarize... 100 ns each) is within the axis.
    bars = qobject_cast<QCPBars*>(plot->plottable(0));
    double smallest = 1e300;
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
        smallest = std::min(smallest, it->value);
    QVERIFY(plot->yAxis->range().contains(smallest));
    QVERIFY(plot->yAxis->label().contains(QStringLiteral("log")));
}

// Issue 28: "764 grow_sweep launches for 704 iterations" were drawn without
// saying what the extra ones were.
void TimelinePlotTest::launchesThatAreNoIterationsAreSaid()
{
    auto records = iterations(5);
    TimingRecord again = records.back();
    again.kernel = "grow";
    again.iteration = 5;
    records.push_back(again); // iteration 5 ran grow twice
    auto plot = titledPlot();
    drawPerIteration(plot.get(), {runOf(1, records)});
    const QString title = titleOf(plot.get());
    QVERIFY2(title.contains(QStringLiteral("1 launches repeat a kernel within its iteration")), qPrintable(title));
    QVERIFY2(title.contains(QStringLiteral("1 set-up launches are in no iteration")), qPrintable(title));
    drawPerKernel(plot.get(), {runOf(1, records)});
    const QStringList tips = qobject_cast<QCPBars*>(plot->plottable(0))->property("tips").toStringList();
    QVERIFY2(tips.join(QLatin1Char('|')).contains(QStringLiteral("6 launches in 5 iterations (1 more where an iteration ran it again)")),
             qPrintable(tips.join(QLatin1Char('|'))));
    // host-batched checks a batch after it ran: launches numbered past the
    // run's last iteration are the rest of the batch, and said to be.
    RunEntry batched = runOf(2, iterations(5));
    std::const_pointer_cast<GrowResult>(batched.result)->iterations = 3;
    drawPerIteration(plot.get(), {batched});
    QVERIFY2(titleOf(plot.get()).contains(QStringLiteral("the rest of a batch) #2: 4")),
             qPrintable(titleOf(plot.get())));
    drawPerKernel(plot.get(), {batched});
    const QString grow = qobject_cast<QCPBars*>(plot->plottable(0))->property("tips").toStringList().join(QLatin1Char('|'));
    QVERIFY2(grow.contains(QStringLiteral("5 launches in 3 iterations, 2 past the last iteration")), qPrintable(grow));
}

// Issue 28: with two runs the timeline's row names overlapped.
void TimelinePlotTest::timelineRowsNeverOverlapTheirNames()
{
    TimelinePlot plot(QStringLiteral("t"));
    plot.resize(600, 220);
    std::vector<TimelineBars::Segment> segments;
    QMap<double, QString> names;
    for (int row = 0; row < 40; ++row) {
        segments.push_back({double(row), 0.0, 1.0, Qt::blue, QString()});
        names.insert(row, QStringLiteral("#%1 kernel %2").arg(row / 20 + 1).arg(row));
    }
    plot.showTimeline(segments, names, QStringLiteral("time"));
    plot.replot();
    const double pitch = plot.axisRect()->height() / plot.yAxis->range().size();
    QVERIFY2(pitch >= QFontMetrics(plot.yAxis->tickLabelFont()).height(), qPrintable(QString::number(pitch)));
    QVERIFY(plot.yAxis->label().contains(QStringLiteral("40 rows")));
    QVERIFY(plot.axisRect()->rangeDrag().testFlag(Qt::Vertical));
    plot.yAxis->moveRange(100); // dragged past the last row
    QVERIFY(plot.yAxis->range().upper <= 39.5 + 1e-9);
}

QTEST_MAIN(TimelinePlotTest)
namespace {

// A run of six iterations compared with the CPU reference: nothing differs
// before iteration 3, then the damage spreads.
RunEntry comparedRun(int number)
{
    RunEntry run = runOf(number, iterations(6));
    auto diff = std::make_shared<ResultDiff>();
    diff->perIteration = {0, 0, 0, 4, 9, 15, 12};
    diff->firstDifferingIteration = 3;
    diff->differingPixels = 20;
    run.differences = diff;
    return run;
}

QCPGraph* differencesGraph(QCustomPlot* plot)
{
    for (int i = 0; i < plot->graphCount(); ++i)
        if (plot->graph(i)->objectName() == QLatin1String("differencesGraph"))
            return plot->graph(i);
    return nullptr;
}

bool isDifferenceColour(QRgb colour) { return qRed(colour) > 120 && qBlue(colour) > 120 && qGreen(colour) < 60; }

} // namespace

void TimelinePlotTest::thePerIterationChartCountsDifferingPixelsAndMarksTheFirst()
{
    auto plot = titledPlot();
    drawPerIteration(plot.get(), {comparedRun(1)});
    QCPGraph* graph = differencesGraph(plot.get());
    QVERIFY(graph);
    QCOMPARE(graph->valueAxis(), plot->yAxis2); // beside the times, on its own axis
    QVERIFY(plot->yAxis2->visible());
    QCOMPARE(graph->data()->size(), 7);
    for (int k = 0; k < 7; ++k)
        QCOMPARE(graph->data()->at(k)->value, double(std::vector<uint64_t>{0, 0, 0, 4, 9, 15, 12}[size_t(k)]));
    // Every iteration with a count is on screen, from iteration 0.
    QVERIFY(plot->xAxis->range().lower < 0 && plot->xAxis->range().upper > 6);
    auto* marker = plot->findChild<QCPItemStraightLine*>(QStringLiteral("firstDifferenceMarker"));
    auto* label = plot->findChild<QCPItemText*>(QStringLiteral("firstDifferenceLabel"));
    QVERIFY(marker && label && marker->visible() && label->visible());
    QCOMPARE(marker->point1->coords().x(), 3.0);
    QCOMPARE(label->text(), QStringLiteral("first difference: iteration 3, 4 pixels"));
    // The kernel bars are still there.
    QVERIFY(plot->plottableCount() > 1);

    // A run without a comparison has neither the line nor the marker.
    drawPerIteration(plot.get(), {runOf(2, iterations(6))});
    QVERIFY(!differencesGraph(plot.get()));
    QVERIFY(!plot->yAxis2->visible());
    QVERIFY(!marker->visible() && !label->visible());
}

void TimelinePlotTest::anExportedChartCarriesTheDifferences()
{
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    TimingPanel panel;
    RunEntry run = comparedRun(1);
    const auto differences = run.differences;
    run.differences.reset();
    panel.setCurrentRun(run);
    // The comparison comes later than the run (the CPU reference runs after it).
    panel.setDifferences(run.result, differences);
    auto countDifferencePixels = [&](const QString& name) {
        const QString path = folder.filePath(name);
        panel.exportChart(path, QSize(900, 500));
        const QImage image = QImage(path).convertToFormat(QImage::Format_RGB32);
        int count = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                count += isDifferenceColour(image.pixel(x, y)) ? 1 : 0;
        return count;
    };
    QVERIFY(countDifferencePixels(QStringLiteral("with.png")) > 500);
    panel.setDifferences(run.result, nullptr);
    QCOMPARE(countDifferencePixels(QStringLiteral("without.png")), 0);
}

#include "TimelinePlotTest.moc"
