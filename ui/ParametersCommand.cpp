// Undo steps of the parameters, named by the options they change.
#include "ParametersCommand.h"

#include "ParameterCodec.h"
#include "ParametersPanel.h"

namespace rgx::ui {

ParametersCommand::ParametersCommand(ParametersPanel* panel, const PipelineParams& before,
                                     const PipelineParams& after, Shown shown, QUndoCommand* parent)
    : QUndoCommand(parent), panel_(panel), before_(before), after_(after), skipRedo_(shown == Shown::After)
{
    describe();
}

void ParametersCommand::describe()
{
    QStringList words;
    for (std::string_view option : changedParameters(before_, after_)) {
        const ParameterField& field = parameterField(option);
        words << QStringLiteral("%1 %2").arg(QString::fromUtf8(option.data(), qsizetype(option.size())),
                                             QString::fromStdString(parameterText(after_, field)));
    }
    setText(QStringLiteral("set %1").arg(words.join(QStringLiteral(", "))));
}

void ParametersCommand::redo()
{
    if (std::exchange(skipRedo_, false))
        return;
    panel_->setParams(after_);
}

void ParametersCommand::undo() { panel_->setParams(before_); }

bool ParametersCommand::mergeWith(const QUndoCommand* other)
{
    const auto* next = static_cast<const ParametersCommand*>(other);
    const auto mine = changedParameters(before_, after_);
    if (mine.size() != 1 || changedParameters(next->before_, next->after_) != mine ||
        !sameParameters(next->before_, after_))
        return false;
    after_ = next->after_;
    if (sameParameters(before_, after_))
        setObsolete(true); // stepped back to where it began
    describe();
    return true;
}

} // namespace rgx::ui
