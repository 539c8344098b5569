// Timeline plot: the axes and their ranges, the rows of a run, the tooltips.
#include "TimelinePlot.h"

#include "Format.h"
#include <QToolTip>
#include <algorithm>

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
    if (bars_->segments().empty()) {
        xAxis->setRange(0, 1);
        yAxis->setRange(-0.5, 0.5);
    } else {
        rescaleAxes();
        const QCPRange x = xAxis->range();
        xAxis->setRange(std::min(0.0, x.lower), x.upper + (x.upper - x.lower) * 0.02);
        if (rowRange)
            yAxis->setRange(*rowRange);
    }
    legend->setVisible(false);
    replot();
}

} // namespace rgx::ui
