// Playback of a run's iterations (play, pause, step, scrub, speed) and the
// display options of the overlay (opacity, outlines, frontier, corruption view).
#pragma once

#include <QTimer>
#include <QWidget>
#include <cstdint>

class QAction;
class QCheckBox;
class QLabel;
class QSlider;
class QSpinBox;
class QToolButton;

namespace rgx::ui {

class PlaybackPanel : public QWidget {
    Q_OBJECT
public:
    explicit PlaybackPanel(QWidget* parent = nullptr);

    // A new run with frames 0..lastFrame; shows the last frame.
    void setFrameCount(uint32_t lastFrame);
    void clearFrames();
    uint32_t frame() const;
    uint32_t lastFrame() const { return lastFrame_; }
    bool isPlaying() const { return timer_.isActive(); }
    int speed() const;
    void setSpeed(int framesPerSecond);

    double opacity() const;
    void setOpacity(double opacity);
    bool outlines() const;
    void setOutlines(bool on);
    bool frontier() const;
    void setFrontier(bool on);
    bool overlayShown() const;
    // Draw the regions over the prefilter's output instead of the image.
    bool showFiltered() const;
    void setFilteredAvailable(bool available);
    // Draw the regions as they were before the postfilter removed pixels.
    bool showBeforePostfilter() const;
    void setBeforePostfilterAvailable(bool available);

    // The corruption-view toggle is the main window's action; the panel shows
    // it next to the label with the diff's numbers.
    void setCorruptionAction(QAction* action);
    void setDiffText(const QString& text);

public slots:
    void setFrame(uint32_t frame);
    void play();
    void pause();
    void togglePlay();
    void stepForward();
    void stepBack();
    void firstFrame();
    void lastFrameSlot();

signals:
    void frameChanged(uint32_t frame);
    void displayChanged();

private:
    void advance();
    void updateLabels();

    QTimer timer_;
    uint32_t lastFrame_ = 0;
    bool hasFrames_ = false;
    QToolButton* first_;
    QToolButton* stepBack_;
    QToolButton* play_;
    QToolButton* stepForward_;
    QToolButton* last_;
    QSlider* slider_;
    QLabel* frameLabel_;
    QSpinBox* speed_;
    QCheckBox* showOverlay_;
    QSlider* opacity_;
    QLabel* opacityLabel_;
    QCheckBox* outlines_;
    QCheckBox* frontier_;
    QCheckBox* filtered_;
    QCheckBox* beforePostfilter_;
    QToolButton* corruption_;
    QLabel* diffLabel_;
};

} // namespace rgx::ui
