// The card of a lesson's tour: the lesson's title, the step's heading and
// text, the device line (what this device shows or cannot), what the step is
// doing or found, and Back, Next and Close. It only shows; LessonTour acts.
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;

namespace rgx::ui {

struct Lesson;

class TourCard : public QWidget {
    Q_OBJECT
public:
    explicit TourCard(QWidget* parent = nullptr);

    // Step `step` of `lesson`; `busy`: the step still runs (Next waits).
    void showStep(const Lesson& lesson, int step, const QString& deviceNote, bool deviceHasFeature,
                  const QString& status, bool busy);
    QString stepText() const;
    QString statusText() const;
    QString deviceText() const;

signals:
    void backClicked();
    void nextClicked();
    void closeClicked();

private:
    QLabel* title_;
    QLabel* heading_;
    QLabel* text_;
    QLabel* device_;
    QLabel* status_;
    QPushButton* back_;
    QPushButton* next_;
    QPushButton* close_;
};

} // namespace rgx::ui
