// Slice view: the crosshair, and the wheel, keys and drags of a volume's plane.
#include "SliceView.h"

#include <QApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace rgx::ui {

namespace {

// The other two planes of `plane`: the one whose line runs down this view
// (a column: its slice is this view's first axis) and the one across it.
Plane planeAlongColumns(Plane plane) { return plane == Plane::Sagittal ? Plane::Coronal : Plane::Sagittal; }
Plane planeAlongRows(Plane plane) { return plane == Plane::Axial ? Plane::Coronal : Plane::Axial; }

} // namespace

SliceView::SliceView(Plane plane, QWidget* parent) : ImageView(parent), plane_(plane)
{
    setObjectName(planeName(plane).toLower() + QStringLiteral("View"));
    setMinimumSize(160, 120);
    setToolTip(QStringLiteral("Click: add a seed; drag a seed: move it; right-click a seed: remove it.\n"
                              "Wheel or Page Up/Down: next slice (Shift: 10); Ctrl+wheel: zoom.\n"
                              "Shift+click: move the crosshair; right-drag: window (left-right) and level "
                              "(up-down); drag elsewhere: pan."));
}

QColor SliceView::planeColour(Plane plane)
{
    // As 3D Slicer colours them: axial red, coronal green, sagittal yellow.
    switch (plane) {
    case Plane::Axial: return QColor(235, 80, 80);
    case Plane::Coronal: return QColor(90, 200, 90);
    case Plane::Sagittal: return QColor(235, 200, 60);
    }
    return Qt::white;
}

void SliceView::setCrosshair(QPoint pixel)
{
    if (pixel == crosshair_)
        return;
    crosshair_ = pixel;
    update();
}

void SliceView::setEdgeLetters(const EdgeLetters& letters)
{
    edgeLetters_ = letters;
    update();
}

void SliceView::paintOverPicture(QPainter& painter)
{
    const QSize size = imageSize();
    if (size.isEmpty())
        return;
    const double across = zoom();
    const double down = zoom() * pixelAspect();
    const QPointF first = pixelCentre(0, 0) - QPointF(across / 2, down / 2);
    const QPointF last = pixelCentre(size.width() - 1, size.height() - 1) + QPointF(across / 2, down / 2);
    const QPointF centre = pixelCentre(crosshair_.x(), crosshair_.y());
    // A gap around the crossing leaves the voxel itself in sight.
    const double gap = std::max(6.0, std::max(across, down));
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    QColor column = planeColour(planeAlongColumns(plane_));
    QColor row = planeColour(planeAlongRows(plane_));
    column.setAlpha(200);
    row.setAlpha(200);
    painter.setPen(QPen(column, 1));
    painter.drawLine(QPointF(centre.x(), first.y()), QPointF(centre.x(), centre.y() - gap));
    painter.drawLine(QPointF(centre.x(), centre.y() + gap), QPointF(centre.x(), last.y()));
    painter.setPen(QPen(row, 1));
    painter.drawLine(QPointF(first.x(), centre.y()), QPointF(centre.x() - gap, centre.y()));
    painter.drawLine(QPointF(centre.x() + gap, centre.y()), QPointF(last.x(), centre.y()));
    painter.restore();
    if (!edgeLetters_.isEmpty())
        paintEdgeLetters(painter, QRectF(first, last));
}

// Each letter inside the picture at the middle of its edge (or of the view's,
// when the picture is zoomed past it), light on a dark outline so that it
// reads on black background and on bright tissue alike.
void SliceView::paintEdgeLetters(QPainter& painter, const QRectF& picture)
{
    const QRectF shown = picture.intersected(QRectF(rect()));
    if (shown.width() < 40 || shown.height() < 40)
        return;
    painter.save();
    QFont font = painter.font();
    font.setBold(true);
    font.setPointSizeF(std::max(8.0, font.pointSizeF()));
    painter.setFont(font);
    const QFontMetricsF metrics(font);
    const double margin = 4;
    const double height = metrics.height();
    const auto draw = [&](const QString& letter, QPointF centre) {
        const double width = metrics.horizontalAdvance(letter);
        QPainterPath path;
        path.addText(centre.x() - width / 2, centre.y() + metrics.ascent() - height / 2, font, letter);
        painter.setRenderHint(QPainter::Antialiasing, true);
        painter.strokePath(path, QPen(QColor(0, 0, 0, 200), 3));
        painter.fillPath(path, QColor(255, 255, 210));
    };
    const QPointF middle = shown.center();
    const double side = metrics.horizontalAdvance(QStringLiteral("M")) / 2 + margin;
    draw(edgeLetters_.left, QPointF(shown.left() + side, middle.y()));
    draw(edgeLetters_.right, QPointF(shown.right() - side, middle.y()));
    draw(edgeLetters_.top, QPointF(middle.x(), shown.top() + height / 2 + margin));
    draw(edgeLetters_.bottom, QPointF(middle.x(), shown.bottom() - height / 2 - margin));
    painter.restore();
}

void SliceView::wheelEvent(QWheelEvent* event)
{
    if (!hasPicture())
        return;
    if (event->modifiers() & Qt::ControlModifier) {
        ImageView::wheelEvent(event);
        return;
    }
    // Whole notches step slices; a touchpad's small steps add up to them.
    wheelRemainder_ += event->angleDelta().y() / 120.0;
    const int steps = int(wheelRemainder_);
    wheelRemainder_ -= steps;
    if (steps != 0)
        emit sliceStepRequested(steps);
    event->accept();
}

void SliceView::keyPressEvent(QKeyEvent* event)
{
    const int stride = (event->modifiers() & Qt::ShiftModifier) ? 10 : 1;
    switch (event->key()) {
    case Qt::Key_PageUp:
    case Qt::Key_Up:
        emit sliceStepRequested(stride);
        break;
    case Qt::Key_PageDown:
    case Qt::Key_Down:
        emit sliceStepRequested(-stride);
        break;
    default:
        ImageView::keyPressEvent(event);
        return;
    }
    event->accept();
}

void SliceView::mousePressEvent(QMouseEvent* event)
{
    if (!hasPicture()) {
        ImageView::mousePressEvent(event);
        return;
    }
    if (event->button() == Qt::RightButton) {
        setFocus(Qt::MouseFocusReason);
        drag_ = Drag::Window;
        pressPosition_ = lastPosition_ = event->position().toPoint();
        pressSeed_ = seedAt(event->position());
        event->accept();
        return;
    }
    if (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier)) {
        setFocus(Qt::MouseFocusReason);
        drag_ = Drag::Crosshair;
        const QPoint pixel = pixelAt(event->position());
        if (contains(pixel))
            emit crosshairMoveRequested(pixel);
        event->accept();
        return;
    }
    ImageView::mousePressEvent(event);
}

void SliceView::mouseMoveEvent(QMouseEvent* event)
{
    if (drag_ == Drag::None) {
        ImageView::mouseMoveEvent(event);
        return;
    }
    const QPoint position = event->position().toPoint();
    if (hasPicture()) {
        const QPoint pixel = pixelAt(event->position());
        emit hoverPixel(pixel, contains(pixel));
    }
    if (drag_ == Drag::Crosshair) {
        const QPoint pixel = pixelAt(event->position());
        const QSize size = imageSize();
        emit crosshairMoveRequested(QPoint(std::clamp(pixel.x(), 0, size.width() - 1),
                                           std::clamp(pixel.y(), 0, size.height() - 1)));
    } else if (drag_ == Drag::Window) {
        // A right-click that barely moved still removes the seed under it.
        if (pressSeed_ >= 0 && (position - pressPosition_).manhattanLength() < QApplication::startDragDistance())
            return;
        pressSeed_ = -1;
        const QPoint moved = position - lastPosition_;
        if (!moved.isNull())
            emit windowLevelDragged(moved.x(), moved.y());
    }
    lastPosition_ = position;
}

void SliceView::mouseReleaseEvent(QMouseEvent* event)
{
    if (drag_ == Drag::None) {
        ImageView::mouseReleaseEvent(event);
        return;
    }
    const Drag drag = drag_;
    drag_ = Drag::None;
    if (drag == Drag::Window && pressSeed_ >= 0)
        emit seedRemoveRequested(pressSeed_);
    pressSeed_ = -1;
    event->accept();
}

} // namespace rgx::ui
