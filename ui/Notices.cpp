// Notices: the log line, the status-bar message and the one reused box.
#include "Notices.h"

#include "LogPanel.h"
#include <QStatusBar>

namespace rgx::ui {

Notices::Notices(LogPanel* log, QStatusBar* statusBar, QWidget* boxParent)
    : QObject(boxParent), log_(log), statusBar_(statusBar), boxParent_(boxParent)
{
}

void Notices::warn(const QString& title, const QString& text, const QString& details)
{
    log_->error(text, details);
    show(title, text, details, QMessageBox::Warning);
}

void Notices::show(const QString& title, const QString& text, const QString& details, QMessageBox::Icon icon)
{
    last_ = text;
    status(text, 15000);
    if (!box_) {
        box_ = new QMessageBox(boxParent_);
        box_->setObjectName(QStringLiteral("noticeBox"));
        box_->setStandardButtons(QMessageBox::Close);
        box_->setModal(false);
        box_->setWindowModality(Qt::NonModal);
    }
    box_->setIcon(icon);
    box_->setWindowTitle(QStringLiteral("RGX: %1").arg(title));
    box_->setText(text);
    box_->setDetailedText(details);
    box_->show();
    box_->raise();
    emit shown(text);
}

void Notices::status(const QString& text, int milliseconds)
{
    if (statusBar_)
        statusBar_->showMessage(text, milliseconds);
}

} // namespace rgx::ui
