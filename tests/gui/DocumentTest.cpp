// Tests of Document: the image and its seeds, and the seed edits of the
// view and the seed table, each one step of undo.
#include "Document.h"
#include "GuiTestSupport.h"
#include "LogPanel.h"
#include "Notices.h"
#include <QSignalSpy>
#include <QTest>
#include <memory>

using namespace rgx;
using namespace rgx::ui;
using namespace rgx::ui::testing;

class DocumentTest : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void seedsAreAddedInsideTheImageOnly();
    void aSeedMoveIsRefusedOutsideOrOntoAnotherSeed();
    void everyEditIsOneUndoStep();
    void clearingTheDocumentLeavesNothingToUndo();

private:
    std::unique_ptr<QWidget> window_;
    Notices* notices_ = nullptr;
    Document* document_ = nullptr;
};

void DocumentTest::init()
{
    window_ = std::make_unique<QWidget>();
    notices_ = new Notices(new LogPanel(window_.get()), nullptr, window_.get());
    document_ = new Document(notices_, window_.get());
    const QImage image = twoHalves(20, 10);
    document_->setImage(QStringLiteral("/test/halves.png"), image, std::make_shared<LumaImage>(lumaFromImage(image)));
}

void DocumentTest::cleanup() { window_.reset(); }

void DocumentTest::seedsAreAddedInsideTheImageOnly()
{
    QCOMPARE(document_->addSeed(QPoint(3, 4)), 0);
    QCOMPARE(document_->addSeed(QPoint(19, 9)), 1);
    QCOMPARE(document_->addSeed(QPoint(3, 4)), -1);  // already a seed there
    QCOMPARE(document_->addSeed(QPoint(20, 4)), -1); // outside
    QCOMPARE(document_->addSeed(QPoint(-1, 4)), -1);
    QCOMPARE(document_->seeds().size(), size_t(2));
    QCOMPARE(document_->image().format(), QImage::Format_Grayscale8);
}

void DocumentTest::aSeedMoveIsRefusedOutsideOrOntoAnotherSeed()
{
    document_->addSeed(QPoint(1, 1));
    document_->addSeed(QPoint(5, 5));
    QSignalSpy refused(document_, &Document::moveRefused);
    QVERIFY(!document_->moveSeed(0, QPoint(1, 1), QPoint(5, 5)));
    QCOMPARE(refused.last().at(0).toString(), QStringLiteral("Seed 2 is already on (5, 5)."));
    QVERIFY(!document_->moveSeed(0, QPoint(1, 1), QPoint(1, 10)));
    QCOMPARE(refused.last().at(0).toString(), QStringLiteral("Seeds must stay inside the image."));
    QCOMPARE(document_->seeds()[0].x, 1);
    QVERIFY(document_->moveSeed(0, QPoint(1, 1), QPoint(2, 3)));
    QCOMPARE(document_->seeds()[0].y, 3);
    QCOMPARE(refused.count(), 2);
}

void DocumentTest::everyEditIsOneUndoStep()
{
    QUndoStack* undo = document_->undoStack();
    document_->addSeed(QPoint(1, 1));
    document_->addSeed(QPoint(2, 2));
    document_->moveSeed(1, QPoint(2, 2), QPoint(4, 4));
    document_->removeSeed(0);
    document_->clearSeeds();
    document_->clearSeeds(); // nothing to clear: no step
    QCOMPARE(undo->count(), 5);
    QVERIFY(document_->seeds().empty());
    undo->undo(); // clear
    QCOMPARE(document_->seeds().size(), size_t(1));
    undo->undo(); // remove
    undo->undo(); // move
    QCOMPARE(document_->seeds()[1].x, 2);
}

void DocumentTest::clearingTheDocumentLeavesNothingToUndo()
{
    document_->addSeed(QPoint(1, 1));
    QSignalSpy changed(document_->seedSet(), &SeedSet::changed);
    bool imageGoneFirst = false;
    connect(document_->seedSet(), &SeedSet::changed, this, [&] { imageGoneFirst = !document_->hasImage(); });
    document_->clear();
    QVERIFY(!document_->hasImage());
    QVERIFY(document_->seeds().empty());
    QCOMPARE(document_->undoStack()->count(), 0);
    QCOMPARE(changed.count(), 1);
    QVERIFY(imageGoneFirst); // so that clearing the seeds starts no live run
}

QTEST_MAIN(DocumentTest)
#include "DocumentTest.moc"
