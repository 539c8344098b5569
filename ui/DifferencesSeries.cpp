// The corruption as it happens, on the per-iteration chart: beside the kernel
// times, how many pixels differ from the CPU reference at each iteration
// (ResultDiff::perIteration, counted on the engine thread), on the right
// axis, with the first differing iteration marked where a screenshot shows it.
#include "TimingCharts.h"

#include "Format.h"
#include "TimelinePlot.h"
#include <algorithm>
#include <qcustomplot.h>

namespace rgx::ui {

namespace {

const QColor differenceColour(170, 0, 170); // the corruption view's magenta, darker for lines and text

bool hasCounts(const RunEntry& run) { return run.differences && !run.differences->perIteration.empty(); }

QString unitOf(const RunEntry& run)
{
    return run.result && run.result->depth > 1 ? QStringLiteral("voxels") : QStringLiteral("pixels");
}

// The vertical line at the first differing iteration and its label, made once per chart.
void markFirstDifference(QCustomPlot* plot, int iteration, const QString& label)
{
    auto* line = plot->findChild<QCPItemStraightLine*>(QStringLiteral("firstDifferenceMarker"));
    auto* text = plot->findChild<QCPItemText*>(QStringLiteral("firstDifferenceLabel"));
    if (!line) {
        line = new QCPItemStraightLine(plot);
        line->setObjectName(QStringLiteral("firstDifferenceMarker"));
        line->setPen(QPen(differenceColour, 2));
        line->setLayer(QStringLiteral("overlay"));
        text = new QCPItemText(plot);
        text->setObjectName(QStringLiteral("firstDifferenceLabel"));
        text->setColor(differenceColour);
        text->setFont(QFont(plot->font().family(), 9, QFont::Bold));
        text->setBrush(QColor(255, 255, 255, 230));
        text->setPadding(QMargins(3, 1, 3, 1));
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        text->setLayer(QStringLiteral("overlay"));
    }
    const bool shown = iteration >= 0;
    line->setVisible(shown);
    text->setVisible(shown);
    if (!shown)
        return;
    line->point1->setCoords(iteration, 0);
    line->point2->setCoords(iteration, 1);
    // Below the chart's notes, beside the line on the side with room (the
    // key range is the chart's home range, set before).
    text->position->setCoords(iteration, 0.12);
    const QCPRange keys = plot->xAxis->range();
    const bool rightHalf = iteration > keys.center();
    text->setPositionAlignment((rightHalf ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    text->setText(label);
    text->setProperty("iteration", iteration);
}

} // namespace

int lastDifferenceIteration(const std::vector<RunEntry>& runs)
{
    int last = -1;
    for (const RunEntry& run : runs)
        if (hasCounts(run))
            last = std::max(last, int(run.differences->perIteration.size()) - 1);
    return last;
}

void drawDifferences(QCustomPlot* plot, const std::vector<RunEntry>& runs)
{
    const size_t compared = size_t(std::count_if(runs.begin(), runs.end(), hasCounts));
    double largest = 0;
    const RunEntry* marked = nullptr;
    for (size_t r = 0; r < runs.size(); ++r) {
        const RunEntry& run = runs[r];
        if (!hasCounts(run))
            continue;
        const std::vector<uint64_t>& counts = run.differences->perIteration;
        auto* graph = plot->addGraph(plot->xAxis, plot->yAxis2);
        graph->setObjectName(QStringLiteral("differencesGraph"));
        const QString name = QStringLiteral("%1 differing from the CPU reference").arg(unitOf(run));
        graph->setName(compared > 1 ? QStringLiteral("#%1 %2").arg(run.number).arg(name) : name);
        graph->setProperty("run", shortLabel(run));
        graph->setProperty("differences", unitOf(run));
        // With several runs compared, each line takes its run's colour.
        const QColor colour = compared > 1 ? kernelPalette[r % 10] : differenceColour;
        graph->setPen(QPen(colour, 2));
        QColor fill = colour;
        fill.setAlpha(compared > 1 ? 0 : 40);
        graph->setBrush(fill);
        graph->setLineStyle(QCPGraph::lsStepCenter);
        // Under the kernel times (the grid's layer is below the plottables'), so its fill never hides them.
        graph->setLayer(QStringLiteral("grid"));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, colour, colour, 4));
        QVector<double> keys, values;
        for (size_t k = 0; k < counts.size(); ++k) {
            keys << double(k);
            values << double(counts[k]);
            largest = std::max(largest, double(counts[k]));
        }
        graph->setData(keys, values, true);
        if (run.differences->firstDifferingIteration >= 0)
            marked = &run;
    }
    plot->yAxis2->setVisible(compared > 0);
    if (compared > 0) {
        plot->yAxis2->setLabel(QStringLiteral("Differing %1").arg(unitOf(runs.back())));
        plot->yAxis2->setLabelColor(differenceColour);
        plot->yAxis2->setTickLabelColor(differenceColour);
        plot->yAxis2->setLabelFont(plot->yAxis->labelFont());
        plot->yAxis2->setTickLabelFont(plot->yAxis->tickLabelFont());
        plot->yAxis2->setRange(0, std::max(1.0, largest * 1.15));
    }
    if (!marked) {
        markFirstDifference(plot, -1, QString());
        return;
    }
    const ResultDiff& diff = *marked->differences;
    const int first = int(diff.firstDifferingIteration);
    const uint64_t atFirst = size_t(first) < diff.perIteration.size() ? diff.perIteration[size_t(first)] : 0;
    markFirstDifference(plot, first,
                        QStringLiteral("%1first difference: iteration %2, %3 %4")
                            .arg(compared > 1 ? QStringLiteral("#%1 ").arg(marked->number) : QString())
                            .arg(first)
                            .arg(formatCount(atFirst),
                                 atFirst == 1 ? unitOf(*marked).chopped(1) : unitOf(*marked))); // "1 pixel"
}

} // namespace rgx::ui
