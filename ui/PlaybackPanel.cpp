// Playback panel: a timer steps the frame; every frame is rebuilt from the
// final label and stamp maps, so scrubbing never touches the device.
#include "PlaybackPanel.h"

#include <QAction>
#include <QCheckBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>
#include <cstdint>

namespace rgx::ui {

PlaybackPanel::PlaybackPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("playbackPanel"));
    auto* layout = new QVBoxLayout(this);

    auto* playBox = new QGroupBox(QStringLiteral("Playback"), this);
    auto* playLayout = new QVBoxLayout(playBox);
    auto* buttons = new QHBoxLayout;
    auto makeButton = [&](const char* name, QStyle::StandardPixmap icon, const QString& tip) {
        auto* button = new QToolButton(playBox);
        button->setObjectName(QString::fromLatin1(name));
        button->setIcon(style()->standardIcon(icon));
        button->setToolTip(tip);
        button->setAutoRaise(true);
        buttons->addWidget(button);
        return button;
    };
    first_ = makeButton("firstFrameButton", QStyle::SP_MediaSkipBackward, QStringLiteral("First iteration (Home)"));
    stepBack_ = makeButton("stepBackButton", QStyle::SP_MediaSeekBackward, QStringLiteral("Step back (,)"));
    play_ = makeButton("playButton", QStyle::SP_MediaPlay, QStringLiteral("Play / pause (Ctrl+Space)"));
    stepForward_ = makeButton("stepForwardButton", QStyle::SP_MediaSeekForward, QStringLiteral("Step forward (.)"));
    last_ = makeButton("lastFrameButton", QStyle::SP_MediaSkipForward, QStringLiteral("Last iteration (End)"));
    buttons->addStretch(1);
    speed_ = new QSpinBox(playBox);
    speed_->setObjectName(QStringLiteral("speedSpin"));
    speed_->setRange(1, 240);
    speed_->setValue(15);
    speed_->setSuffix(QStringLiteral(" it/s"));
    speed_->setToolTip(QStringLiteral("Playback speed in iterations per second"));
    buttons->addWidget(speed_);
    playLayout->addLayout(buttons);

    slider_ = new QSlider(Qt::Horizontal, playBox);
    slider_->setObjectName(QStringLiteral("frameSlider"));
    slider_->setRange(0, 0);
    slider_->setToolTip(QStringLiteral("Scrub through the iterations"));
    playLayout->addWidget(slider_);
    frameLabel_ = new QLabel(QStringLiteral("No run yet"), playBox);
    frameLabel_->setObjectName(QStringLiteral("frameLabel"));
    playLayout->addWidget(frameLabel_);
    layout->addWidget(playBox);

    auto* displayBox = new QGroupBox(QStringLiteral("Display"), this);
    auto* display = new QGridLayout(displayBox);
    showOverlay_ = new QCheckBox(QStringLiteral("Regions"), displayBox);
    showOverlay_->setObjectName(QStringLiteral("overlayCheck"));
    showOverlay_->setChecked(true);
    display->addWidget(showOverlay_, 0, 0);
    opacity_ = new QSlider(Qt::Horizontal, displayBox);
    opacity_->setObjectName(QStringLiteral("opacitySlider"));
    opacity_->setRange(0, 100);
    opacity_->setValue(50);
    opacity_->setToolTip(QStringLiteral("Opacity of the region colours"));
    display->addWidget(opacity_, 0, 1);
    opacityLabel_ = new QLabel(QStringLiteral("50 %"), displayBox);
    opacityLabel_->setMinimumWidth(opacityLabel_->fontMetrics().horizontalAdvance(QStringLiteral("100 %")));
    display->addWidget(opacityLabel_, 0, 2);
    outlines_ = new QCheckBox(QStringLiteral("Outlines"), displayBox);
    outlines_->setObjectName(QStringLiteral("outlinesCheck"));
    outlines_->setChecked(true);
    frontier_ = new QCheckBox(QStringLiteral("Frontier"), displayBox);
    frontier_->setObjectName(QStringLiteral("frontierCheck"));
    frontier_->setChecked(true);
    frontier_->setToolTip(QStringLiteral("Highlight the pixels classified in the shown iteration"));
    filtered_ = new QCheckBox(QStringLiteral("Prefiltered"), displayBox);
    filtered_->setObjectName(QStringLiteral("filteredCheck"));
    filtered_->setToolTip(QStringLiteral("Show the prefilter's output (what the regions grew on) under the regions"));
    filtered_->setEnabled(false);
    beforePostfilter_ = new QCheckBox(QStringLiteral("Before postfilter"), displayBox);
    beforePostfilter_->setObjectName(QStringLiteral("beforePostfilterCheck"));
    beforePostfilter_->setToolTip(QStringLiteral("Show the regions as they grew, before the density postfilter removed pixels"));
    beforePostfilter_->setEnabled(false);
    auto* toggles = new QHBoxLayout;
    toggles->addWidget(outlines_);
    toggles->addWidget(frontier_);
    toggles->addStretch(1);
    display->addLayout(toggles, 1, 0, 1, 3);
    // The stage views get a row of their own so the dock stays narrow.
    auto* stageViews = new QHBoxLayout;
    stageViews->addWidget(filtered_);
    stageViews->addWidget(beforePostfilter_);
    stageViews->addStretch(1);
    display->addLayout(stageViews, 2, 0, 1, 3);
    corruption_ = new QToolButton(displayBox);
    corruption_->setObjectName(QStringLiteral("corruptionButton"));
    corruption_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    corruption_->setVisible(false);
    display->addWidget(corruption_, 3, 0, 1, 3);
    diffLabel_ = new QLabel(displayBox);
    diffLabel_->setObjectName(QStringLiteral("diffLabel"));
    diffLabel_->setWordWrap(true);
    display->addWidget(diffLabel_, 4, 0, 1, 3);
    layout->addWidget(displayBox);
    layout->addStretch(1);

    connect(&timer_, &QTimer::timeout, this, &PlaybackPanel::advance);
    connect(first_, &QToolButton::clicked, this, &PlaybackPanel::firstFrame);
    connect(stepBack_, &QToolButton::clicked, this, &PlaybackPanel::stepBack);
    connect(play_, &QToolButton::clicked, this, &PlaybackPanel::togglePlay);
    connect(stepForward_, &QToolButton::clicked, this, &PlaybackPanel::stepForward);
    connect(last_, &QToolButton::clicked, this, &PlaybackPanel::lastFrameSlot);
    connect(slider_, &QSlider::valueChanged, this, [this](int value) {
        updateLabels();
        emit frameChanged(uint32_t(value));
    });
    connect(speed_, qOverload<int>(&QSpinBox::valueChanged), this, [this](int value) {
        timer_.setInterval(1000 / value);
    });
    timer_.setInterval(1000 / speed_->value());
    connect(opacity_, &QSlider::valueChanged, this, [this](int value) {
        opacityLabel_->setText(QStringLiteral("%1 %").arg(value));
        emit displayChanged();
    });
    for (QCheckBox* box : {showOverlay_, outlines_, frontier_, filtered_, beforePostfilter_})
        connect(box, &QCheckBox::toggled, this, &PlaybackPanel::displayChanged);
    clearFrames();
}

void PlaybackPanel::setFrameCount(uint32_t lastFrame)
{
    pause();
    hasFrames_ = true;
    lastFrame_ = lastFrame;
    const QSignalBlocker blocker(slider_);
    slider_->setRange(0, int(std::min<uint32_t>(lastFrame, uint32_t(INT32_MAX))));
    slider_->setValue(slider_->maximum());
    slider_->setPageStep(std::max(1, slider_->maximum() / 10));
    for (QWidget* widget : std::initializer_list<QWidget*>{first_, stepBack_, play_, stepForward_, last_, slider_})
        widget->setEnabled(true);
    updateLabels();
}

void PlaybackPanel::clearFrames()
{
    pause();
    hasFrames_ = false;
    lastFrame_ = 0;
    const QSignalBlocker blocker(slider_);
    slider_->setRange(0, 0);
    for (QWidget* widget : std::initializer_list<QWidget*>{first_, stepBack_, play_, stepForward_, last_, slider_})
        widget->setEnabled(false);
    updateLabels();
}

uint32_t PlaybackPanel::frame() const { return uint32_t(slider_->value()); }

void PlaybackPanel::setFrame(uint32_t frame)
{
    slider_->setValue(int(std::min(frame, lastFrame_)));
}

int PlaybackPanel::speed() const { return speed_->value(); }
void PlaybackPanel::setSpeed(int framesPerSecond) { speed_->setValue(framesPerSecond); }

void PlaybackPanel::play()
{
    if (!hasFrames_ || lastFrame_ == 0)
        return;
    // Playing from the end starts over.
    if (frame() >= lastFrame_)
        setFrame(0);
    timer_.start();
    play_->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
}

void PlaybackPanel::pause()
{
    timer_.stop();
    play_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
}

void PlaybackPanel::togglePlay()
{
    if (isPlaying())
        pause();
    else
        play();
}

void PlaybackPanel::advance()
{
    if (frame() >= lastFrame_) {
        pause();
        return;
    }
    setFrame(frame() + 1);
}

void PlaybackPanel::stepForward()
{
    pause();
    if (frame() < lastFrame_)
        setFrame(frame() + 1);
}

void PlaybackPanel::stepBack()
{
    pause();
    if (frame() > 0)
        setFrame(frame() - 1);
}

void PlaybackPanel::firstFrame()
{
    pause();
    setFrame(0);
}

void PlaybackPanel::lastFrameSlot()
{
    pause();
    setFrame(lastFrame_);
}

void PlaybackPanel::updateLabels()
{
    if (!hasFrames_)
        frameLabel_->setText(QStringLiteral("No run yet"));
    else
        frameLabel_->setText(QStringLiteral("Iteration %1 of %2").arg(frame()).arg(lastFrame_));
}

double PlaybackPanel::opacity() const { return opacity_->value() / 100.0; }
void PlaybackPanel::setOpacity(double opacity) { opacity_->setValue(int(std::lround(opacity * 100.0))); }
bool PlaybackPanel::outlines() const { return outlines_->isChecked(); }
void PlaybackPanel::setOutlines(bool on) { outlines_->setChecked(on); }
bool PlaybackPanel::frontier() const { return frontier_->isChecked(); }
void PlaybackPanel::setFrontier(bool on) { frontier_->setChecked(on); }
bool PlaybackPanel::overlayShown() const { return showOverlay_->isChecked(); }
bool PlaybackPanel::showFiltered() const { return filtered_->isEnabled() && filtered_->isChecked(); }
void PlaybackPanel::setFilteredAvailable(bool available) { filtered_->setEnabled(available); }
bool PlaybackPanel::showBeforePostfilter() const { return beforePostfilter_->isEnabled() && beforePostfilter_->isChecked(); }
void PlaybackPanel::setBeforePostfilterAvailable(bool available) { beforePostfilter_->setEnabled(available); }

void PlaybackPanel::setCorruptionAction(QAction* action)
{
    corruption_->setDefaultAction(action);
    corruption_->setVisible(true);
}

void PlaybackPanel::setDiffText(const QString& text) { diffLabel_->setText(text); }

} // namespace rgx::ui
