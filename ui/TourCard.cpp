// The tour card's layout: text that wraps in the dock's width, the device
// line in amber where the device lacks what the lesson shows.
#include "TourCard.h"
#include "LessonTours.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace rgx::ui {

namespace {

QLabel* wrapped(const char* name, QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setObjectName(QString::fromLatin1(name));
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

TourCard::TourCard(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("tourCard"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    title_ = wrapped("tourTitle", this);
    QFont bold = title_->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.1);
    title_->setFont(bold);
    heading_ = wrapped("tourHeading", this);
    text_ = wrapped("tourText", this);
    text_->setTextFormat(Qt::RichText);
    device_ = wrapped("tourDevice", this);
    status_ = wrapped("tourStatus", this);
    layout->addWidget(title_);
    layout->addWidget(heading_);
    layout->addWidget(text_);
    layout->addWidget(device_);
    layout->addWidget(status_);
    layout->addStretch(1);

    auto* buttons = new QHBoxLayout;
    auto button = [&](const char* name, const QString& label) {
        auto* pushButton = new QPushButton(label, this);
        pushButton->setObjectName(QString::fromLatin1(name));
        buttons->addWidget(pushButton);
        return pushButton;
    };
    back_ = button("tourBackButton", QStringLiteral("< Back"));
    next_ = button("tourNextButton", QStringLiteral("Next >"));
    buttons->addStretch(1);
    close_ = button("tourCloseButton", QStringLiteral("Close"));
    layout->addLayout(buttons);
    connect(back_, &QPushButton::clicked, this, &TourCard::backClicked);
    connect(next_, &QPushButton::clicked, this, &TourCard::nextClicked);
    connect(close_, &QPushButton::clicked, this, &TourCard::closeClicked);
}

void TourCard::showStep(const Lesson& lesson, int step, const QString& deviceNote, bool deviceHasFeature,
                        const QString& status, bool busy)
{
    const LessonStep& shown = lesson.steps[size_t(step)];
    title_->setText(lesson.title);
    heading_->setText(QStringLiteral("<b>Step %1 of %2:</b> %3").arg(step + 1).arg(lesson.steps.size()).arg(shown.heading));
    text_->setText(shown.text);
    device_->setText(deviceNote);
    device_->setStyleSheet(deviceHasFeature ? QStringLiteral("font-style: italic;")
                                            : QStringLiteral("color: #a05a00; font-weight: bold;"));
    device_->setVisible(!deviceNote.isEmpty());
    status_->setText(status);
    status_->setVisible(!status.isEmpty());
    // A step that still runs finishes before the next one starts; Close always works.
    back_->setEnabled(step > 0 && !busy);
    next_->setEnabled(step + 1 < int(lesson.steps.size()) && !busy);
}

QString TourCard::stepText() const { return heading_->text() + QLatin1Char('\n') + text_->text(); }
QString TourCard::statusText() const { return status_->text(); }
QString TourCard::deviceText() const { return device_->text(); }

} // namespace rgx::ui
