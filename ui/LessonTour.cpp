// A lesson's steps applied to the window: settings first (device, variant,
// filters, layers, panels), then the run, then what reads the run (playback's
// frame, the race check, a lab); each wait ends on the window's own signal.
#include "LessonTour.h"

#include "DevicePanel.h"
#include "LabPanel.h"
#include "MainWindow.h"
#include "ParametersPanel.h"
#include "PipelineParams.h"
#include "PlaybackPanel.h"
#include "RaceList.h"
#include "ResidencyLabPanel.h"
#include "TourCard.h"
#include "Variant.h"
#include "WorkGroupMap.h"
#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QTextDocumentFragment>
#include <algorithm>

namespace rgx::ui {

namespace {

QString text(const std::string& value) { return QString::fromStdString(value); }

} // namespace

LessonTour::LessonTour(MainWindow* window, TourCard* card, QDockWidget* dock)
    : QObject(window), window_(window), card_(card), dock_(dock)
{
    connect(card_, &TourCard::nextClicked, this, &LessonTour::next);
    connect(card_, &TourCard::backClicked, this, &LessonTour::back);
    connect(card_, &TourCard::closeClicked, this, &LessonTour::close);
    connect(window_->runs(), &RunController::runSubmitted, this, [this](quint64 id) { lastSubmitted_ = id; });
    // A live run that superseded the step's run answers for it.
    connect(window_, &MainWindow::runFinished, this, [this](quint64 id) {
        if (id >= awaitedRun_)
            resume(Waiting::Run);
    });
    connect(window_, &MainWindow::runFailed, this, [this](const QString& message) {
        if (waiting_ != Waiting::Run)
            return;
        problems_ << QStringLiteral("The run failed: %1").arg(message);
        resume(Waiting::Run);
    });
    connect(window_, &MainWindow::devicesListed, this, [this] { resume(Waiting::Devices); });
    connect(window_, &MainWindow::raceCheckFinished, this, [this] { resume(Waiting::RaceCheck); });
    connect(window_, &MainWindow::labFinished, this, [this] { resume(Waiting::BinarySearchLab); });
    connect(window_->labPanel()->residencyLab(), &ResidencyLabPanel::finished, this,
            [this] { resume(Waiting::ResidencyLab); });
}

void LessonTour::fillMenu(QMenu* menu)
{
    for (const Lesson& lesson : seedLessons()) {
        QAction* action = menu->addAction(lesson.title, this, [this, id = lesson.id] { start(id); });
        action->setObjectName(QStringLiteral("lessonAction_") + lesson.id);
        action->setToolTip(QStringLiteral("A short tour: opens %1, runs the variants and turns on the layers "
                                          "that show it")
                               .arg(lesson.sample));
    }
}

bool LessonTour::start(const QString& lessonId)
{
    const Lesson* lesson = findLesson(lessonId);
    if (!lesson)
        return false;
    lesson_ = lesson;
    step_ = 0;
    waiting_ = Waiting::Nothing;
    then_ = nullptr;
    problems_.clear();
    deviceNote_.clear();
    deviceHasFeature_ = true;
    dock_->show();
    dock_->raise();
    if (!window_->devicesReady()) {
        setStatus(QStringLiteral("Waiting for the device list..."));
        wait(Waiting::Devices, [this] {
            chooseDevice();
            apply(0, true);
        });
        return true;
    }
    chooseDevice();
    apply(0, true);
    return true;
}

void LessonTour::chooseDevice()
{
    DevicePanel* devices = window_->devicePanel();
    const LessonDeviceChoice choice = chooseLessonDevice(*lesson_, devices->devices(), devices->currentDeviceId());
    if (choice.deviceId != devices->currentDeviceId())
        window_->selectDevice(text(choice.deviceId));
    deviceNote_ = choice.note;
    deviceHasFeature_ = choice.hasFeature;
}

void LessonTour::next()
{
    if (lesson_ && !isBusy() && step_ + 1 < int(lesson_->steps.size()))
        apply(step_ + 1, true);
}

// Back shows the step before as it was set up, without keeping a run again.
void LessonTour::back()
{
    if (lesson_ && !isBusy() && step_ > 0)
        apply(step_ - 1, false);
}

// The window stays as the tour left it: the user explores from there.
void LessonTour::close()
{
    waiting_ = Waiting::Nothing;
    then_ = nullptr;
    lesson_ = nullptr;
    dock_->hide();
}

void LessonTour::apply(int step, bool forward)
{
    step_ = step;
    problems_.clear();
    status_.clear();
    const LessonStep* shown = &lesson_->steps[size_t(step)];
    const bool first = step == 0;
    if (forward && shown->keepRunFirst) {
        auto keepThenSetUp = [this, shown, first] {
            if (window_->result())
                window_->keepRun();
            setUp(*shown, first);
        };
        if (window_->isRunning()) {
            awaitedRun_ = lastSubmitted_;
            setStatus(QStringLiteral("Waiting for the run to finish before keeping it..."));
            wait(Waiting::Run, keepThenSetUp);
        } else {
            keepThenSetUp();
        }
        return;
    }
    setUp(*shown, first);
}

void LessonTour::setUp(const LessonStep& step, bool first)
{
    refreshCard();
    // The variant and the view come first: opening the sample runs at once.
    if (!step.variant.isEmpty())
        window_->setVariantText(step.variant);
    if (step.corruptionView)
        window_->setCorruptionView(*step.corruptionView);
    if (step.workGroupMap)
        window_->workGroupMap()->action()->setChecked(*step.workGroupMap);
    if (step.clearRaceMarkers)
        window_->raceList()->clear();
    showPanel(step);

    const quint64 submittedBefore = lastSubmitted_;
    if (first && !window_->openSample(lesson_->sample))
        problems_ << QStringLiteral("The sample %1 could not be opened (see the log).").arg(lesson_->sample);
    // The sample's suggested parameters are in; the step's filters go over them.
    bool filtersChanged = false;
    if (!step.prefilter.isEmpty() || !step.postfilter.isEmpty()) {
        PipelineParams params = window_->parametersPanel()->params();
        try {
            if (!step.prefilter.isEmpty())
                params.prefilter = parsePrefilter(step.prefilter.toStdString());
            if (!step.postfilter.isEmpty())
                params.postfilter = parsePostfilter(step.postfilter.toStdString());
            filtersChanged = prefilterText(params.prefilter) != prefilterText(window_->parametersPanel()->params().prefilter)
                             || postfilterText(params.postfilter)
                                    != postfilterText(window_->parametersPanel()->params().postfilter);
            window_->parametersPanel()->setParams(params);
        } catch (const std::exception& error) {
            problems_ << QString::fromUtf8(error.what());
        }
    }
    const bool sampleRan = lastSubmitted_ != submittedBefore;
    if (!step.run && !sampleRan) {
        afterRun(step);
        return;
    }
    if (const auto problem = window_->devicePanel()->currentProblem()) {
        // Said on the card, never a silent failure; the steps after still play.
        window_->cancelRun();
        problems_ << QStringLiteral("This device cannot run %1: %2.")
                         .arg(text(window_->devicePanel()->variant().shortText()), text(*problem));
        if (!deviceHasFeature_)
            problems_ << QStringLiteral("The result shown is the last step's.");
        finish();
        return;
    }
    if (!sampleRan || filtersChanged)
        window_->runNow();
    if (lastSubmitted_ == submittedBefore) {
        problems_ << QStringLiteral("The run did not start (see the log).");
        finish();
        return;
    }
    awaitedRun_ = lastSubmitted_;
    setStatus(QStringLiteral("Running %1 (run #%2)...")
                  .arg(text(window_->devicePanel()->variant().shortText()))
                  .arg(awaitedRun_));
    wait(Waiting::Run, [this, shown = &step] { afterRun(*shown); });
}

void LessonTour::showPanel(const LessonStep& step)
{
    switch (step.panel) {
    case LessonPanel::PerIterationChart: window_->showTimingChart(TimingPanel::PerIteration); break;
    case LessonPanel::PerKernelChart: window_->showTimingChart(TimingPanel::PerKernel); break;
    case LessonPanel::TimelineChart: window_->showTimingChart(TimingPanel::Timeline); break;
    case LessonPanel::KernelTable:
        window_->showTimingChart(TimingPanel::PerKernel);
        window_->timingPanel()->showKernelTable();
        break;
    case LessonPanel::RacesDock: window_->showRacesDock(); break;
    case LessonPanel::BinarySearchLab:
        window_->labPanel()->showBinarySearchLab();
        window_->showLab();
        break;
    case LessonPanel::ResidencyLab:
        window_->labPanel()->showResidencyLab();
        window_->showLab();
        break;
    case LessonPanel::None: break;
    }
}

void LessonTour::afterRun(const LessonStep& step)
{
    const auto diff = window_->diff();
    if (step.frame == LessonFrame::FirstDifference) {
        if (diff && diff->firstDifferingIteration >= 0)
            window_->playbackPanel()->setFrame(uint32_t(diff->firstDifferingIteration));
        else if (diff)
            problems_ << QStringLiteral("Nothing differs from the CPU reference on this device.");
    } else if (step.frame == LessonFrame::Iteration && window_->result()) {
        PlaybackPanel* playback = window_->playbackPanel();
        playback->setFrame(std::min(step.frameIteration, playback->lastFrame()));
    } else if (window_->result()) {
        window_->playbackPanel()->lastFrameSlot();
    }
    if (step.checkRaces) {
        window_->checkRaces();
        if (window_->isCheckingRaces()) {
            setStatus(QStringLiteral("Checking for races under Oclgrind (up to a minute)..."));
            wait(Waiting::RaceCheck, [this, shown = &step] { startLab(*shown); });
            return;
        }
        problems_ << QStringLiteral("The race check did not start (see the log).");
    }
    startLab(step);
}

void LessonTour::startLab(const LessonStep& step)
{
    LabPanel* lab = window_->labPanel();
    if (step.panel == LessonPanel::ResidencyLab) {
        ResidencyLabPanel* residency = lab->residencyLab();
        residency->start();
        if (!residency->isRunning()) {
            problems_ << QStringLiteral("The residency lab did not start: %1").arg(residency->resultText());
            finish();
            return;
        }
        setStatus(QStringLiteral("The residency lab runs on the engine thread (seconds; longer on a busy CPU)..."));
        wait(Waiting::ResidencyLab, [this] { finish(); });
        return;
    }
    if (step.panel == LessonPanel::BinarySearchLab) {
        Driver driver = Driver::HostBatched;
        try {
            driver = parseVariant("driver=" + step.labDriver.toStdString()).driver;
        } catch (const std::exception& error) {
            problems_ << QString::fromUtf8(error.what());
        }
        if (!lab->setDriver(driver)) {
            problems_ << QStringLiteral("This device cannot run the lab with driver=%1; it runs host-batched.")
                             .arg(step.labDriver);
            lab->setDriver(Driver::HostBatched);
        }
        bool requested = false;
        const auto connection = connect(lab, &LabPanel::runRequested, this, [&requested] { requested = true; });
        lab->start();
        disconnect(connection);
        if (!requested) {
            problems_ << QStringLiteral("The binary-search lab did not start (is one running?).");
            finish();
            return;
        }
        setStatus(QStringLiteral("The binary-search lab runs..."));
        wait(Waiting::BinarySearchLab, [this] { finish(); });
        return;
    }
    finish();
}

void LessonTour::finish()
{
    waiting_ = Waiting::Nothing;
    status_ = runSummary();
    refreshCard();
    emit stepReady(step_);
}

// What the step's result says, in the card's words.
QString LessonTour::runSummary() const
{
    QStringList lines = problems_;
    const LessonStep& step = lesson_->steps[size_t(step_)];
    if (const GrowResultPtr result = window_->result()) {
        QString line = QStringLiteral("Shown: run #%1, %2, %3 iterations")
                           .arg(window_->runs()->resultRequest().id)
                           .arg(text(window_->runs()->resultRequest().variant.shortText()))
                           .arg(result->iterations);
        const PipelineParams& params = window_->runs()->resultRequest().params;
        if (params.prefilter.kind != PrefilterSpec::Kind::None)
            line += QStringLiteral(", prefilter %1").arg(text(prefilterText(params.prefilter)));
        if (params.postfilter.enabled)
            line += QStringLiteral(", postfilter %1").arg(text(postfilterText(params.postfilter)));
        if (const auto diff = window_->diff()) {
            line += diff->differingPixels == 0
                        ? QStringLiteral("; 0 pixels differ from the CPU reference")
                        : QStringLiteral("; %1 pixels differ from the CPU reference, first at iteration %2")
                              .arg(diff->differingPixels)
                              .arg(diff->firstDifferingIteration);
        }
        const int kept = window_->timingPanel()->keptRunCount();
        if (kept > 0)
            line += QStringLiteral("; %1 run%2 kept for comparison").arg(kept).arg(kept == 1 ? "" : "s");
        lines << line + QLatin1Char('.');
    }
    if (step.checkRaces)
        lines << QStringLiteral("Race check: %1 marker(s) on the image.").arg(window_->raceList()->markers().size());
    // The labs' results are rich text: their first line, and the roll call's verdict.
    auto plainLines = [](const QString& html) {
        return QTextDocumentFragment::fromHtml(html).toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    };
    if (step.panel == LessonPanel::ResidencyLab) {
        for (const QString& line : plainLines(window_->labPanel()->residencyLab()->resultText()))
            if (line.startsWith(QStringLiteral("Resident")) || line.contains(QStringLiteral("verdict")))
                lines << line;
    }
    if (step.panel == LessonPanel::BinarySearchLab) {
        const QStringList lab = plainLines(window_->labPanel()->resultText());
        if (!lab.isEmpty())
            lines << lab.first();
    }
    return lines.join(QLatin1Char('\n'));
}

void LessonTour::wait(Waiting what, std::function<void()> then)
{
    waiting_ = what;
    then_ = std::move(then);
    refreshCard();
}

void LessonTour::resume(Waiting what)
{
    if (waiting_ != what)
        return;
    waiting_ = Waiting::Nothing;
    const std::function<void()> then = std::exchange(then_, nullptr);
    if (then)
        then();
}

void LessonTour::setStatus(const QString& status)
{
    status_ = status;
    refreshCard();
}

void LessonTour::refreshCard()
{
    if (!lesson_)
        return;
    QStringList lines = problems_;
    if (isBusy() && !status_.isEmpty())
        lines << status_;
    card_->showStep(*lesson_, step_, deviceNote_, deviceHasFeature_, isBusy() ? lines.join(QLatin1Char('\n')) : status_,
                    isBusy());
}

} // namespace rgx::ui
