// The race check on its own thread: the cut-down part, rgx-cli under
// Oclgrind, the reports mapped back to the image.
#include "RaceCheckWorker.h"

#include "Errors.h"
#include "RaceCheck.h"
#include <QElapsedTimer>
#include <QFileInfo>
#include <QMetaObject>

namespace rgx::ui {

void RaceCheckWorker::check(const RaceCheckRequest& request)
{
    emit started(request.id);
    QElapsedTimer clock;
    clock.start();
    RaceCheckOutcome outcome;
    outcome.id = request.id;
    outcome.variantText = request.variantText;
    outcome.uniformWrites = request.uniformWrites;
    outcome.automatic = request.automatic;
    try {
        const RaceCheckInput cut = cutDownForRaceCheck(*request.image, request.seeds);
        outcome.left = cut.left;
        outcome.top = cut.top;
        outcome.width = cut.image.width;
        outcome.height = cut.image.height;
        outcome.seedCount = cut.seeds.size();
        if (!QFileInfo(request.cliPath).isExecutable())
            throw InputError("the race check runs rgx-cli under Oclgrind, but there is no rgx-cli at " +
                             request.cliPath.toStdString() + " (build the rgx-cli target beside rgx)");
        if (stop_)
            throw OpenClError("the explorer is closing");
        outcome.races =
            rgx::checkRaces(cut, request.segmentOptions, request.cliPath, request.uniformWrites, &stop_);
    } catch (const std::exception& error) {
        outcome.error = QString::fromUtf8(error.what());
    }
    outcome.seconds = double(clock.elapsed()) / 1000.0;
    emit finished(outcome);
}

RaceCheckThread::RaceCheckThread(QObject* parent) : QObject(parent)
{
    registerEngineMetaTypes();
    worker_ = new RaceCheckWorker;
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    thread_.setObjectName(QStringLiteral("rgx-race-check"));
    thread_.start();
}

RaceCheckThread::~RaceCheckThread()
{
    // A check in progress stops: Oclgrind is killed within a tenth of a second.
    worker_->stop();
    thread_.quit();
    thread_.wait();
}

void RaceCheckThread::check(const RaceCheckRequest& request)
{
    RaceCheckWorker* worker = worker_;
    QMetaObject::invokeMethod(
        worker_, [worker, request] { worker->check(request); }, Qt::QueuedConnection);
}

} // namespace rgx::ui
