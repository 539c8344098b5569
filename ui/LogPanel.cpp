// Log panel: timestamped lines, warnings and errors coloured.
#include "LogPanel.h"

#include <QDateTime>
#include <QFontDatabase>
#include <QScrollBar>

namespace rgx::ui {

LogPanel::LogPanel(QWidget* parent) : QPlainTextEdit(parent)
{
    setObjectName(QStringLiteral("logView"));
    setReadOnly(true);
    setMaximumBlockCount(5000);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
}

void LogPanel::info(const QString& text) { append(QString(), text, {}); }
void LogPanel::warning(const QString& text) { append(QStringLiteral("#a05a00"), text, {}); }
void LogPanel::error(const QString& text, const QString& details) { append(QStringLiteral("#b00020"), text, details); }

void LogPanel::append(const QString& colour, const QString& text, const QString& details)
{
    lastLine_ = text;
    const QString time = QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss"));
    QString html = QStringLiteral("<span style=\"color:#777\">%1</span> ").arg(time);
    const QString escaped = text.toHtmlEscaped();
    html += colour.isEmpty() ? escaped : QStringLiteral("<span style=\"color:%1\">%2</span>").arg(colour, escaped);
    appendHtml(html);
    if (!details.trimmed().isEmpty())
        appendHtml(QStringLiteral("<pre>%1</pre>").arg(details.trimmed().toHtmlEscaped()));
    verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

} // namespace rgx::ui
