// Tests of ViewState on its own: a document, a bare image view and playback
// panel, and results made by the CPU reference (no engine, no main window).
#include "Document.h"
#include "GuiTestSupport.h"
#include "ImageView.h"
#include "LogPanel.h"
#include "Notices.h"
#include "PlaybackPanel.h"
#include "ViewState.h"
#include <QLabel>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>
#include <memory>

using namespace rgx;
using namespace rgx::ui;
using namespace rgx::ui::testing;

namespace {

constexpr int width = 40;
constexpr int height = 20;

bool isGrey(QRgb colour) { return qRed(colour) == qGreen(colour) && qGreen(colour) == qBlue(colour); }

} // namespace

class ViewStateTest : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void theImageAloneIsShownBeforeAnyResult();
    void aResultIsShownAtItsLastIteration();
    void anEarlierIterationShowsLess();
    void theDiffLineSaysWhatTheCorruptionViewWaitsFor();
    void differingPixelsAreLitInMagenta();
    void eachFrameLightsThePixelsThatDifferAtIt();
    void aRunThatStoppedEarlyPlaysOnToTheReferencesLastIteration();
    void pixelInfoNamesLumaLabelAndStamp();
    void partialPicturesAreDrawnAndCounted();
    void anEmptyOutcomeLeavesTheImageAlone();

private:
    QString diffText() const { return playback_->findChild<QLabel*>(QStringLiteral("diffLabel"))->text(); }

    std::unique_ptr<QWidget> window_;
    QStatusBar* statusBar_ = nullptr;
    Notices* notices_ = nullptr;
    Document* document_ = nullptr;
    ImageView* view_ = nullptr;
    PlaybackPanel* playback_ = nullptr;
    ViewState* state_ = nullptr;
    QImage image_;
    RunOutcome outcome_;
};

void ViewStateTest::init()
{
    window_ = std::make_unique<QWidget>();
    statusBar_ = new QStatusBar(window_.get());
    notices_ = new Notices(new LogPanel(window_.get()), statusBar_, window_.get());
    document_ = new Document(notices_, window_.get());
    view_ = new ImageView(window_.get());
    playback_ = new PlaybackPanel(window_.get());
    state_ = new ViewState(document_, view_, playback_, notices_, window_.get());
    image_ = twoHalves(width, height);
    document_->setImage(QStringLiteral("/test/halves.png"), image_, std::make_shared<LumaImage>(lumaFromImage(image_)));
    state_->showImage();
    outcome_ = referenceOutcome(document_->luma(), halvesSeeds(width));
}

void ViewStateTest::cleanup() { window_.reset(); }

void ViewStateTest::theImageAloneIsShownBeforeAnyResult()
{
    const QImage picture = state_->currentPicture();
    QCOMPARE(picture.size(), image_.size());
    for (QPoint pixel : {QPoint(0, 0), QPoint(10, 5), QPoint(width - 1, height - 1)})
        QCOMPARE(QColor(picture.pixel(pixel)), QColor(image_.pixel(pixel)));
    QVERIFY(diffText().contains(QStringLiteral("Corruption view off")));
}

void ViewStateTest::aResultIsShownAtItsLastIteration()
{
    state_->showResult(outcome_);
    QCOMPARE(playback_->lastFrame(), outcome_.result->iterations);
    QCOMPARE(state_->frame(), outcome_.result->iterations);
    const QImage picture = state_->currentPicture();
    // Both halves are regions now: no pixel is left grey.
    for (QPoint pixel : {QPoint(2, 2), QPoint(10, 10), QPoint(width - 3, 2), QPoint(width - 1, height - 1)})
        QVERIFY2(!isGrey(picture.pixel(pixel)), qPrintable(QStringLiteral("(%1, %2)").arg(pixel.x()).arg(pixel.y())));
}

void ViewStateTest::anEarlierIterationShowsLess()
{
    state_->showResult(outcome_);
    const QPoint far(width / 2 - 2, height - 2); // classified late: far from the seed at (2, 2)
    QVERIFY(!isGrey(state_->currentPicture().pixel(far)));
    playback_->setFrame(0);
    QCOMPARE(state_->frame(), 0u);
    QCOMPARE(QColor(state_->currentPicture().pixel(far)), QColor(image_.pixel(far)));
    QVERIFY(!isGrey(state_->currentPicture().pixel(2, 2))); // the seed itself is stamp 0
}

void ViewStateTest::theDiffLineSaysWhatTheCorruptionViewWaitsFor()
{
    QSignalSpy changed(state_, &ViewState::corruptionViewChanged);
    state_->setCorruptionView(true);
    state_->setCorruptionView(true);
    QCOMPARE(changed.count(), 1);
    QVERIFY(state_->corruptionView());
    QVERIFY(diffText().contains(QStringLiteral("Run the pipeline to compare")));
    state_->showResult(outcome_);
    QVERIFY(diffText().contains(QStringLiteral("Computing the CPU reference")));
    state_->showReference(outcome_.result, std::make_shared<ResultDiff>(compareResults(*outcome_.result, *outcome_.result)));
    QVERIFY(diffText().contains(QStringLiteral("Identical to the CPU reference")));
    QCOMPARE(statusBar_->currentMessage(), diffText());
    state_->setCorruptionView(false);
    QCOMPARE(changed.count(), 2);
    QVERIFY(diffText().contains(QStringLiteral("Corruption view off")));
}

void ViewStateTest::differingPixelsAreLitInMagenta()
{
    // A result that differs from the reference in one pixel of the right half.
    auto wrong = std::make_shared<GrowResult>(*outcome_.result);
    const QPoint pixel(width - 5, height - 5);
    const size_t p = size_t(pixel.y()) * width + size_t(pixel.x());
    wrong->labels[p] = 1;
    RunOutcome outcome = outcome_;
    outcome.result = wrong;
    outcome.reference = outcome_.result;
    outcome.diff = std::make_shared<ResultDiff>(compareResults(*outcome_.result, *wrong));
    QCOMPARE(outcome.diff->differingPixels, uint64_t(1));
    state_->setCorruptionView(true);
    state_->showResult(outcome);
    QVERIFY2(diffText().startsWith(QStringLiteral("1 pixels differ")), qPrintable(diffText()));
    const QRgb lit = state_->currentPicture().pixel(pixel);
    QVERIFY(qRed(lit) >= 191 && qBlue(lit) >= 191 && qGreen(lit) < 64);
    const QRgb neighbour = state_->currentPicture().pixel(pixel - QPoint(3, 0));
    QVERIFY(!(qRed(neighbour) >= 191 && qBlue(neighbour) >= 191 && qGreen(neighbour) < 64));
}

// Playback in the corruption view shows the damage as it happens: frame k
// lights the pixels whose state at k differs from the reference's, the last
// frame every difference.
void ViewStateTest::eachFrameLightsThePixelsThatDifferAtIt()
{
    const GrowResult& reference = *outcome_.result;
    const uint32_t last = reference.iterations;
    QVERIFY(last >= 6);
    auto wrong = std::make_shared<GrowResult>(reference);
    // A pixel classified two iterations late, in its own region, and one in
    // the other region at its own iteration.
    size_t late = 0, stolen = 0;
    while (!(reference.stamps[late] >= 1 && reference.stamps[late] + 3 <= last))
        ++late;
    while (!(stolen != late && reference.labels[stolen] == 2 && reference.stamps[stolen] >= 2))
        ++stolen;
    wrong->stamps[late] += 2;
    wrong->labels[stolen] = 1;
    RunOutcome outcome = outcome_;
    outcome.result = wrong;
    outcome.reference = outcome_.result;
    outcome.diff = std::make_shared<ResultDiff>(compareResults(reference, *wrong));
    state_->setCorruptionView(true);
    state_->showResult(outcome);
    auto lit = [this](size_t p) {
        const QRgb colour = state_->currentPicture().pixel(int(p % width), int(p / width));
        return qRed(colour) >= 191 && qBlue(colour) >= 191 && qGreen(colour) < 64;
    };
    const uint32_t lateStamp = reference.stamps[late], stolenStamp = reference.stamps[stolen];
    for (uint32_t frame = 0; frame <= last; ++frame) {
        playback_->setFrame(frame);
        QCOMPARE(state_->frame(), frame);
        const bool lateDiffers = frame == last || (frame >= lateStamp && frame < lateStamp + 2);
        QVERIFY2(lit(late) == lateDiffers, qPrintable(QStringLiteral("late pixel, frame %1").arg(frame)));
        QVERIFY2(lit(stolen) == (frame >= stolenStamp), qPrintable(QStringLiteral("stolen pixel, frame %1").arg(frame)));
        QCOMPARE(outcome.diff->perIteration[frame], uint64_t((frame >= lateStamp && frame < lateStamp + 2 ? 1 : 0) +
                                                             (frame >= stolenStamp ? 1 : 0)));
    }
}

// A wrong run that lost its frontier stops early; in the corruption view its
// damage spreads on while the reference grows, so playback goes on to the
// reference's last iteration (and back to the run's own without the view).
void ViewStateTest::aRunThatStoppedEarlyPlaysOnToTheReferencesLastIteration()
{
    const GrowResult& reference = *outcome_.result;
    QVERIFY(reference.iterations > 3);
    auto stopped = std::make_shared<GrowResult>(reference);
    for (size_t p = 0; p < stopped->stamps.size(); ++p)
        if (stopped->stamps[p] != unclassifiedStamp && stopped->stamps[p] > 1) {
            stopped->stamps[p] = unclassifiedStamp;
            stopped->labels[p] = 0;
        }
    stopped->iterations = 1;
    RunOutcome outcome = outcome_;
    outcome.result = stopped;
    state_->showResult(outcome);
    QCOMPARE(playback_->lastFrame(), 1u);
    state_->setCorruptionView(true);
    state_->showReference(outcome_.result, std::make_shared<ResultDiff>(compareResults(reference, *stopped)));
    QCOMPARE(playback_->lastFrame(), reference.iterations);
    QCOMPARE(state_->frame(), reference.iterations);
    state_->setCorruptionView(false);
    QCOMPARE(playback_->lastFrame(), 1u);
}

void ViewStateTest::pixelInfoNamesLumaLabelAndStamp()
{
    const QPoint pixel(3, 4);
    const int luma = document_->luma()->at(pixel.x(), pixel.y());
    QCOMPARE(state_->pixelInfo(pixel, true), QStringLiteral("x 3  y 4  luma %1").arg(luma));
    QVERIFY(state_->pixelInfo(pixel, false).isEmpty());
    state_->showResult(outcome_);
    const uint32_t stamp = outcome_.result->stamps[size_t(pixel.y()) * width + size_t(pixel.x())];
    QCOMPARE(state_->pixelInfo(pixel, true), QStringLiteral("x 3  y 4  luma %1  label 1  stamp %2").arg(luma).arg(stamp));
}

void ViewStateTest::partialPicturesAreDrawnAndCounted()
{
    QCOMPARE(state_->partialPictures(), 0);
    state_->showPartial(outcome_.result);
    state_->showPartial(outcome_.result);
    QCOMPARE(state_->partialPictures(), 2);
    QVERIFY(!isGrey(state_->currentPicture().pixel(2, 2)));
}

void ViewStateTest::anEmptyOutcomeLeavesTheImageAlone()
{
    state_->showResult(outcome_);
    QVERIFY(playback_->lastFrame() > 0);
    state_->showResult(RunOutcome{});
    QCOMPARE(playback_->lastFrame(), 0u);
    state_->refreshPicture();
    QCOMPARE(QColor(state_->currentPicture().pixel(2, 2)), QColor(image_.pixel(2, 2)));
}

QTEST_MAIN(ViewStateTest)
#include "ViewStateTest.moc"
