// Parameters of a run (SPEC.md): mode and its thresholds, rule, connectivity,
// prefilter, postfilter, iteration cap, timeout, and automatic re-runs.
#pragma once

#include "Pipeline.h"
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace rgx::ui {

class ParametersPanel : public QWidget {
    Q_OBJECT
public:
    explicit ParametersPanel(QWidget* parent = nullptr);

    PipelineParams params() const;
    void setParams(const PipelineParams& params);
    double timeoutSeconds() const;
    void setTimeoutSeconds(double seconds);
    bool autoRun() const;
    void setAutoRun(bool on);
    // The connectivities offered: 4 and 8 for an image, 6, 18 and 26 for a
    // volume (SPEC "Volumes (3D)"); the one chosen becomes its counterpart
    // (4 and 6, 8 and 26). The filters are 2D: a volume runs without them
    // (their fields keep their values for the next image). Not an edit: no
    // step of undo.
    void setVolume(bool volume);
    bool isVolume() const { return volume_; }

signals:
    void changed();
    // The user changed a pipeline parameter in the panel (setParams does not
    // emit it): the step for the undo stack.
    void edited(const rgx::PipelineParams& before, const rgx::PipelineParams& after);
    void autoRunChanged(bool on);
    void autoRunChosen(bool on); // the user clicked the check box

private:
    void updateEnabled();
    void fillPrefilterVariants();
    void fillConnectivities();
    // The connectivity offered nearest to `connectivity`.
    int offeredConnectivity(int connectivity) const;

    QComboBox* mode_;
    QDoubleSpinBox* tolerance_;
    QSpinBox* lower_;
    QSpinBox* upper_;
    QComboBox* rule_;
    QComboBox* connectivity_;
    QWidget* filters_;
    QComboBox* prefilter_;
    QSpinBox* prefilterSize_;
    QComboBox* prefilterVariant_;
    QCheckBox* postfilter_;
    QSpinBox* postfilterWindow_;
    QSpinBox* postfilterMinimum_;
    QComboBox* postfilterVariant_;
    QSpinBox* iterationCap_;
    QDoubleSpinBox* timeout_;
    QCheckBox* autoRun_;
    bool updating_ = false;
    bool volume_ = false;
    PipelineParams shown_; // what the panel showed after its last change
};

} // namespace rgx::ui
