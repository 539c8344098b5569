// The launch timeline, one widget for the timings panel and the lab: a
// QCustomPlot with a title, one row per kernel (and one per direction of
// copies), bars from each command's start to its end (TimelineBars), time
// running right from the first queued command, drag and wheel along time,
// and the bar under the mouse described in a tooltip.
#pragma once

#include "TimelineBars.h"
#include "Timing.h"
#include <QColor>
#include <QMap>
#include <QString>
#include <QStringList>
#include <functional>
#include <map>
#include <optional>
#include <qcustomplot.h>
#include <vector>

namespace rgx::ui {

struct TimeUnit;

// Colours told apart easily (Tableau 10).
extern const QColor kernelPalette[10];

// One colour per kernel name, in order of first appearance, for colours
// that stay the same over every chart of a set of runs.
class KernelColours {
public:
    QColor colour(const QString& kernel);

private:
    std::map<QString, int> index_;
};

// The row (and per-kernel bar) a command belongs to: its kernel, or all
// copies in one direction ("copies to device", "copies to host").
QString commandCategory(const std::string& kernel);

// One run's commands laid out for the timeline.
struct TimelineLayout {
    QStringList rows;    // top down, in order of first appearance
    uint64_t origin = 0; // time 0: the first queued command
};
TimelineLayout timelineLayout(const std::vector<TimingRecord>& records);

// The bars of a run's measured commands, its rows from `firstRow` on, times
// in `unit` from the layout's origin.
std::vector<TimelineBars::Segment> timelineSegments(
    const std::vector<TimingRecord>& records, const TimelineLayout& layout, double firstRow, const TimeUnit& unit,
    const std::function<QColor(const QString& row)>& colour,
    const std::function<QString(const TimingRecord& record)>& toolTip);

class TimelinePlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit TimelinePlot(const QString& title, QWidget* parent = nullptr);

    // The bars shown now (null before the first show).
    TimelineBars* bars() const { return bars_; }
    // Replaces the bars; rowNames: the y axis's labels by row position.
    // rowRange: the rows shown; none: those of the bars.
    void showTimeline(std::vector<TimelineBars::Segment> segments, const QMap<double, QString>& rowNames,
              const QString& timeLabel, std::optional<QCPRange> rowRange = std::nullopt);

private:
    // Rows closer than a label's height would overlap their names: the row
    // axis then shows as many as fit, and drags up and down over the rest.
    void fitRows();

    TimelineBars* bars_ = nullptr;
    int rowCount_ = 0;
};

} // namespace rgx::ui
