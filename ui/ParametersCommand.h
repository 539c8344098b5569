// A change of the run's parameters as one step of undo: the user's edit in
// the parameters panel, or the parameters a seeds file suggests.
#pragma once

#include "Pipeline.h"
#include <QUndoCommand>

namespace rgx::ui {

class ParametersPanel;

class ParametersCommand : public QUndoCommand {
public:
    // `after` is already shown when the panel made the edit; otherwise
    // redo shows it.
    enum class Shown { Before, After };
    ParametersCommand(ParametersPanel* panel, const PipelineParams& before, const PipelineParams& after, Shown shown,
                      QUndoCommand* parent = nullptr);
    void redo() override;
    void undo() override;
    int id() const override { return 0x7061; }
    // Steps of one spin box (one field, one after the other) merge into one.
    bool mergeWith(const QUndoCommand* other) override;

private:
    void describe();

    ParametersPanel* panel_;
    PipelineParams before_;
    PipelineParams after_;
    bool skipRedo_;
};

} // namespace rgx::ui
