// The log: what the engine and the GUI did, with errors (and build logs) kept
// in full, so a notice can stay short.
#pragma once

#include <QPlainTextEdit>

namespace rgx::ui {

class LogPanel : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit LogPanel(QWidget* parent = nullptr);

    void info(const QString& text);
    void warning(const QString& text);
    void error(const QString& text, const QString& details = {});
    // The plain text of the last line, for tests and the status bar.
    QString lastLine() const { return lastLine_; }

private:
    void append(const QString& colour, const QString& text, const QString& details);
    QString lastLine_;
};

} // namespace rgx::ui
