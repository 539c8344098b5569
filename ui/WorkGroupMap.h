// The work-group map's state: the grids of the shown result's kernels
// (engine/WorkGroupGrid.h), which one is drawn, whether it is drawn, and the
// pixel (a volume's voxel) under the cursor whose cell and halo are
// outlined. It is drawn when
// turned on, and by itself in the corruption view of a wrong-on-purpose run
// whose cells are places (the grid of the kernel that ran wrong).
#pragma once

#include "EngineTypes.h"
#include "WorkGroupGrid.h"
#include <QObject>
#include <QPoint>
#include <QSize>
#include <optional>
#include <vector>

class QAction;

namespace rgx::ui {

class WorkGroupMap : public QObject {
    Q_OBJECT
public:
    explicit WorkGroupMap(QObject* parent = nullptr);

    // View > Work-group Map (checkable).
    QAction* action() const { return action_; }
    bool isOn() const;
    // The grids of the shown result, in pipeline order; the one chosen.
    const std::vector<WorkGroupGrid>& grids() const { return grids_; }
    int chosen() const { return chosen_; }
    // The grid drawn now (none: off, or no grid by place); `corruptionView`
    // turns it on by itself for a wrong-on-purpose kernel's grid.
    std::optional<WorkGroupGrid> shownGrid(bool corruptionView) const;
    QPoint hover() const { return hover_; }
    // A volume's voxel under the cursor, on any of its three views ((-1, -1, -1): none).
    Seed hoverVoxel() const { return hoverVoxel_; }
    // Whether the grids are a volume's (the shown result's depth is above 1).
    bool isVolume() const { return depth_ > 1; }
    // One line for the status bar: the cell under the cursor and the pixels
    // (a volume's: voxels) its work-group reads; empty where no grid is drawn.
    QString hoverText(bool corruptionView) const;

public slots:
    void setOn(bool on);
    void showOutcome(const rgx::ui::RunOutcome& outcome);
    void choose(int index);
    void setHover(QPoint pixel, bool inside);
    void setHoverVoxel(rgx::Seed voxel, bool inside);

signals:
    // Something drawn changed: the picture must be drawn again.
    void changed();
    // The grids (or the choice among them) changed.
    void gridsChanged();

private:
    QAction* action_;
    std::vector<WorkGroupGrid> grids_;
    int chosen_ = -1;
    QPoint hover_{-1, -1};
    QSize imageSize_;
    int depth_ = 1; // a volume's slices (imageSize_: one slice)
    Seed hoverVoxel_{-1, -1, -1};
    // The prefilter's grid outlives the run that made it: later runs reuse
    // its output (the same filteredLuma) without launching it again.
    std::optional<WorkGroupGrid> prefilterGrid_;
    const void* prefilterOutput_ = nullptr;
};

} // namespace rgx::ui
