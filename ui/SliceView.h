// One plane of a volume on screen: the image view's zoom, pan, picture and
// seed markers (those on the slice shown), with voxels in their true
// proportions, the crosshair where the other two planes cut this one, the
// wheel and Page Up/Down stepping through slices, Shift+click moving the
// crosshair, a right-drag setting window and level as medical viewers do,
// and the patient's sides (R/L, A/P, S/I) at the picture's edges.
#pragma once

#include "ImageView.h"
#include "VolumeSlice.h"
#include <QColor>

namespace rgx::ui {

class SliceView : public ImageView {
    Q_OBJECT
public:
    SliceView(Plane plane, QWidget* parent = nullptr);

    Plane plane() const { return plane_; }
    // The slice pixel the crosshair's lines cross at.
    void setCrosshair(QPoint pixel);
    QPoint crosshair() const { return crosshair_; }
    // The patient's sides at the picture's edges (empty: none drawn).
    void setEdgeLetters(const EdgeLetters& letters);
    const EdgeLetters& edgeLetters() const { return edgeLetters_; }
    // The colour that marks a plane: its view's title and its crosshair line.
    static QColor planeColour(Plane plane);

signals:
    // The wheel or a key asks for `steps` slices further (negative: back).
    void sliceStepRequested(int steps);
    // Shift+click or Shift+drag: the crosshair to this slice pixel.
    void crosshairMoveRequested(QPoint pixel);
    // A right-drag moved by (dx, dy) screen pixels since its last report.
    void windowLevelDragged(int dx, int dy);

protected:
    void paintOverPicture(QPainter& painter) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    void paintEdgeLetters(QPainter& painter, const QRectF& picture);

    enum class Drag { None, Crosshair, Window };
    Plane plane_;
    QPoint crosshair_;
    EdgeLetters edgeLetters_;
    Drag drag_ = Drag::None;
    QPoint lastPosition_;
    QPoint pressPosition_;
    int pressSeed_ = -1;
    double wheelRemainder_ = 0;
};

} // namespace rgx::ui
