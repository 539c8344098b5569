// A QCustomPlot plottable that draws many horizontal bars (one per command,
// from its start to its end) in one pass: the launch timeline.
#pragma once

#include <qcustomplot.h>
#include <vector>

namespace rgx::ui {

class TimelineBars : public QCPAbstractPlottable {
    Q_OBJECT
public:
    struct Segment {
        double row = 0;     // value coordinate of the bar's centre
        double start = 0;   // key coordinates
        double end = 0;
        QColor colour;
        QString toolTip;
    };

    TimelineBars(QCPAxis* keyAxis, QCPAxis* valueAxis);

    void setSegments(std::vector<Segment> segments);
    const std::vector<Segment>& segments() const { return segments_; }
    // Index of the bar under a pixel position (with a few pixels of slack), or -1.
    int segmentAt(const QPointF& pixel) const;

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    QRectF pixelRect(const Segment& segment) const;

    std::vector<Segment> segments_;
    double barHeight_ = 0.7;
};

} // namespace rgx::ui
