// Plays a seed lesson (LessonTours.h) in the window, step by step: each step
// sets the device, variant, filters and layers through the same public calls
// the menus and panels use, runs on the engine thread like any run, waits for
// what it started (the run, the race check, a lab), and shows its card.
// Help > Lessons holds one action per lesson.
#pragma once

#include "LessonTours.h"
#include <QObject>
#include <QString>
#include <functional>

class QDockWidget;
class QMenu;

namespace rgx::ui {

class MainWindow;
class TourCard;

class LessonTour : public QObject {
    Q_OBJECT
public:
    // `card` is shown in `dock`, which the tour raises and hides.
    LessonTour(MainWindow* window, TourCard* card, QDockWidget* dock);

    // One action per lesson ("lessonAction_<id>").
    void fillMenu(QMenu* menu);
    // Opens the lesson's card at its first step and plays it; false for an unknown id.
    bool start(const QString& lessonId);
    const Lesson* lesson() const { return lesson_; }
    int step() const { return step_; }
    // The step still runs what it started; Next waits for it.
    bool isBusy() const { return waiting_ != Waiting::Nothing; }
    // What the device shows of the lesson, or cannot.
    QString deviceNote() const { return deviceNote_; }
    bool deviceHasFeature() const { return deviceHasFeature_; }
    // What the step is doing, what it found, or why it could not.
    QString status() const { return status_; }

public slots:
    void next();
    void back();
    void close();

signals:
    // Step `step` has done everything it promises (its runs are in).
    void stepReady(int step);

private:
    enum class Waiting { Nothing, Devices, Run, RaceCheck, BinarySearchLab, ResidencyLab };
    void chooseDevice();
    void apply(int step, bool forward);
    void setUp(const LessonStep& step, bool first);
    void afterRun(const LessonStep& step);
    void showPanel(const LessonStep& step);
    void startLab(const LessonStep& step);
    void finish();
    // Waits for `what`, then goes on with `then`.
    void wait(Waiting what, std::function<void()> then);
    void resume(Waiting what);
    void setStatus(const QString& status);
    void refreshCard();
    QString runSummary() const;

    MainWindow* window_;
    TourCard* card_;
    QDockWidget* dock_;
    const Lesson* lesson_ = nullptr;
    int step_ = 0;
    Waiting waiting_ = Waiting::Nothing;
    std::function<void()> then_;
    quint64 lastSubmitted_ = 0;
    quint64 awaitedRun_ = 0;
    bool runFailed_ = false;
    QString deviceNote_;
    bool deviceHasFeature_ = true;
    QString status_;
    QStringList problems_; // what the step could not do, said on the card
};

} // namespace rgx::ui
