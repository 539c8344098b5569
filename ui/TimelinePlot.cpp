// Timeline plot: the axes and their ranges, the rows of a run, the tooltips.
#include "TimelinePlot.h"

#include "ChartView.h"
#include "Format.h"
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace rgx::ui {

const QColor kernelPalette[10] = {
    QColor(31, 119, 180), QColor(255, 127, 14), QColor(44, 160, 44),  QColor(214, 39, 40),
    QColor(148, 103, 189), QColor(140, 86, 75), QColor(227, 119, 194), QColor(127, 127, 127),
    QColor(188, 189, 34), QColor(23, 190, 207),
};

QColor KernelColours::colour(const QString& kernel)
{
    auto found = index_.find(kernel);
    if (found == index_.end())
        found = index_.emplace(kernel, int(index_.size())).first;
    return kernelPalette[size_t(found->second) % (sizeof(kernelPalette) / sizeof(kernelPalette[0]))];
}

QString commandCategory(const std::string& kernel)
{
    if (kernel.rfind("write:", 0) == 0)
        return QStringLiteral("copies to device");
    if (kernel.rfind("read:", 0) == 0)
        return QStringLiteral("copies to host");
    return QString::fromStdString(kernel);
}

TimelineLayout timelineLayout(const std::vector<TimingRecord>& records)
{
    TimelineLayout layout;
    for (const TimingRecord& record : records) {
        const QString row = commandCategory(record.kernel);
        if (!layout.rows.contains(row))
            layout.rows << row;
        if (record.queued && (!layout.origin || record.queued < layout.origin))
            layout.origin = record.queued;
    }
    return layout;
}

std::vector<TimelineBars::Segment> timelineSegments(
    const std::vector<TimingRecord>& records, const TimelineLayout& layout, double firstRow, const TimeUnit& unit,
    const std::function<QColor(const QString& row)>& colour,
    const std::function<QString(const TimingRecord& record)>& toolTip)
{
    std::vector<TimelineBars::Segment> segments;
    for (const TimingRecord& record : records) {
        if (!record.measured)
            continue;
        const QString row = commandCategory(record.kernel);
        TimelineBars::Segment segment;
        segment.row = firstRow + double(layout.rows.indexOf(row));
        segment.start = double(record.start - layout.origin) / unit.nanoseconds;
        segment.end = std::max(segment.start, double(record.end - layout.origin) / unit.nanoseconds);
        segment.colour = colour(row);
        segment.toolTip = toolTip(record);
        segments.push_back(segment);
    }
    return segments;
}

TimelinePlot::TimelinePlot(const QString& title, QWidget* parent) : QCustomPlot(parent)
{
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal);
    axisRect()->setRangeZoom(Qt::Horizontal);
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, new QCPTextElement(this, title, QFont(font().family(), 10, QFont::Bold)));
    for (QCPAxis* axis : {xAxis, yAxis}) {
        axis->setLabelFont(QFont(font().family(), 9));
        axis->setTickLabelFont(QFont(font().family(), 8));
    }
    // Rows top down, named; time is the only axis to move along.
    yAxis->setRangeReversed(true);
    yAxis->setSubTicks(false);
    yAxis->grid()->setVisible(false);
    keepWithinHome(this);
    connect(this, &QCustomPlot::beforeReplot, this, &TimelinePlot::fitRows);
    connect(this, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const int index = bars_ ? bars_->segmentAt(event->position()) : -1;
        if (index >= 0)
            QToolTip::showText(event->globalPosition().toPoint(), bars_->segments()[size_t(index)].toolTip, this);
        else
            QToolTip::hideText();
    });
}

void TimelinePlot::showTimeline(std::vector<TimelineBars::Segment> segments, const QMap<double, QString>& rowNames,
                        const QString& timeLabel, std::optional<QCPRange> rowRange)
{
    clearPlottables();
    bars_ = new TimelineBars(xAxis, yAxis);
    bars_->setName(QStringLiteral("commands"));
    bars_->removeFromLegend();
    bars_->setSegments(std::move(segments));
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->setTicks(rowNames);
    yAxis->setTicker(ticker);
    xAxis->setLabel(timeLabel);
    yAxis->setLabel(QString());
    rowCount_ = rowNames.size();
    if (bars_->segments().empty()) {
        setHomeRanges(this, QCPRange(0, 1), QCPRange(-0.5, 0.5));
    } else {
        // From the bars themselves: the axes' ranges are held within the
        // previous timeline's (ChartView.h).
        bool found = false;
        const QCPRange x = bars_->getKeyRange(found);
        const QCPRange rows = rowRange ? *rowRange : bars_->getValueRange(found);
        setHomeRanges(this, QCPRange(std::min(0.0, x.lower), x.upper + (x.upper - x.lower) * 0.02), rows);
    }
    legend->setVisible(false);
    replot();
}

void TimelinePlot::fitRows()
{
    const QPointF home = property("homeValues").toPointF();
    const double pitch = QFontMetrics(yAxis->tickLabelFont()).height() + 2;
    const double fitting = std::max(1.0, std::floor(axisRect()->height() / pitch));
    const bool windowed = rowCount_ > 0 && home.y() - home.x() > fitting + 0.01;
    axisRect()->setRangeDrag(windowed ? Qt::Horizontal | Qt::Vertical : Qt::Horizontal);
    yAxis->setLabel(windowed ? QStringLiteral("%1 rows: drag up or down").arg(rowCount_) : QString());
    // Rows do not zoom: the row axis shows as many as fit, from the row
    // at the top (dragged there, or the first).
    if (windowed) {
        const double top = std::min(yAxis->range().lower, home.y() - fitting);
        yAxis->setRange(top, top + fitting);
    } else {
        yAxis->setRange(home.x(), home.y());
    }
}

} // namespace rgx::ui
