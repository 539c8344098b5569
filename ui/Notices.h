// How the window reports to the user: every problem goes to the log in full,
// to the status bar, and into one non-modal box, reused, so that the program
// keeps running while it is shown.
#pragma once

#include <QMessageBox>
#include <QObject>
#include <QPointer>
#include <QString>

class QStatusBar;

namespace rgx::ui {

class LogPanel;

class Notices : public QObject {
    Q_OBJECT
public:
    // The box opens over boxParent; statusBar may be null (no status line).
    Notices(LogPanel* log, QStatusBar* statusBar, QWidget* boxParent);

    LogPanel* log() const { return log_; }
    // A problem: logged as an error (with its details), then shown.
    void warn(const QString& title, const QString& text, const QString& details = {});
    // The box alone, for reports that are not errors too.
    void show(const QString& title, const QString& text, const QString& details, QMessageBox::Icon icon);
    // A passing message in the status bar.
    void status(const QString& text, int milliseconds);
    // The text of the last box shown.
    QString last() const { return last_; }

signals:
    void shown(const QString& text);

private:
    LogPanel* log_;
    QStatusBar* statusBar_;
    QWidget* boxParent_;
    QPointer<QMessageBox> box_;
    QString last_;
};

} // namespace rgx::ui
