// The work-group map's state: grids of the shown result, the choice, the
// cell under the cursor.
#include "WorkGroupMap.h"

#include "PictureLayers.h"
#include <QAction>
#include <QStringList>

namespace rgx::ui {
namespace {

QString text(const std::string& value) { return QString::fromStdString(value); }

QString span(int first, int last)
{
    return first == last ? QString::number(first) : QStringLiteral("%1..%2").arg(first).arg(last);
}

// A cell's or halo's voxels: "x 16..31, y 16..19, z 0 + x 16..31, y 0..11, z 1".
QString boxesText(const std::vector<VoxelBox>& boxes)
{
    QStringList parts;
    for (const VoxelBox& box : boxes)
        parts << QStringLiteral("x %1, y %2, z %3").arg(span(box.x0, box.x1), span(box.y0, box.y1), span(box.z0, box.z1));
    return parts.join(QStringLiteral(" + "));
}

} // namespace

WorkGroupMap::WorkGroupMap(QObject* parent) : QObject(parent)
{
    action_ = new QAction(QStringLiteral("&Work-group Map"), this);
    action_->setObjectName(QStringLiteral("workGroupMapAction"));
    action_->setCheckable(true);
    action_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
    action_->setToolTip(QStringLiteral("Draw which work-group (tile, row segment) handled each pixel, and the halo its "
                                       "work-group read for the cell under the cursor (Ctrl+G). The corruption view "
                                       "shows it by itself for wrong-on-purpose variants."));
    connect(action_, &QAction::toggled, this, [this] { emit changed(); });
}

bool WorkGroupMap::isOn() const { return action_->isChecked(); }

void WorkGroupMap::setOn(bool on) { action_->setChecked(on); }

void WorkGroupMap::showOutcome(const RunOutcome& outcome)
{
    grids_.clear();
    chosen_ = -1;
    imageSize_ = QSize();
    depth_ = 1;
    if (outcome.result) {
        const GrowResult& result = *outcome.result;
        imageSize_ = QSize(result.width, result.height);
        depth_ = result.depth;
        grids_ = workGroupGrids(result, outcome.request.params);
        const bool prefilterRan = !grids_.empty() && grids_.front().stage == "prefilter";
        if (prefilterRan) {
            prefilterGrid_ = grids_.front();
            prefilterOutput_ = result.filteredLuma.get();
        } else if (result.filteredLuma && result.filteredLuma.get() == prefilterOutput_ && prefilterGrid_) {
            grids_.insert(grids_.begin(), *prefilterGrid_);
        }
        // The one that ran wrong on purpose, else region growing's, else the first.
        for (size_t i = 0; i < grids_.size() && chosen_ < 0; ++i)
            if (grids_[i].wrongOnPurpose)
                chosen_ = int(i);
        for (size_t i = 0; i < grids_.size() && chosen_ < 0; ++i)
            if (grids_[i].stage == "grow")
                chosen_ = int(i);
        if (chosen_ < 0 && !grids_.empty())
            chosen_ = 0;
    }
    emit gridsChanged();
    emit changed();
}

void WorkGroupMap::choose(int index)
{
    if (index == chosen_ || index < 0 || index >= int(grids_.size()))
        return;
    chosen_ = index;
    emit gridsChanged();
    emit changed();
}

std::optional<WorkGroupGrid> WorkGroupMap::shownGrid(bool corruptionView) const
{
    if (chosen_ < 0)
        return std::nullopt;
    const WorkGroupGrid& grid = grids_[size_t(chosen_)];
    if (!grid.byPlace)
        return std::nullopt;
    if (isOn() || (corruptionView && grid.wrongOnPurpose))
        return grid;
    return std::nullopt;
}

void WorkGroupMap::setHoverVoxel(Seed voxel, bool inside)
{
    const Seed hover = inside ? voxel : Seed{-1, -1, -1};
    if (hover == hoverVoxel_)
        return;
    const bool drawn = chosen_ >= 0 && grids_[size_t(chosen_)].byPlace;
    const WorkGroupGrid* grid = drawn ? &grids_[size_t(chosen_)] : nullptr;
    const bool sameCell = grid && hoverVoxel_.x >= 0 && hover.x >= 0 &&
                          grid->cellOf(hover.x, hover.y, hover.z) ==
                              grid->cellOf(hoverVoxel_.x, hoverVoxel_.y, hoverVoxel_.z);
    hoverVoxel_ = hover;
    if (drawn && !sameCell)
        emit changed();
}

void WorkGroupMap::setHover(QPoint pixel, bool inside)
{
    const QPoint hover = inside ? pixel : QPoint(-1, -1);
    if (hover == hover_)
        return;
    // Only a new cell needs a new picture.
    const bool drawn = chosen_ >= 0 && grids_[size_t(chosen_)].byPlace;
    const bool sameCell = drawn && hover_.x() >= 0 && hover.x() >= 0 &&
                          grids_[size_t(chosen_)].column(hover.x()) == grids_[size_t(chosen_)].column(hover_.x()) &&
                          grids_[size_t(chosen_)].row(hover.y()) == grids_[size_t(chosen_)].row(hover_.y());
    hover_ = hover;
    if (drawn && !sameCell)
        emit changed();
}

QString WorkGroupMap::hoverText(bool corruptionView) const
{
    const std::optional<WorkGroupGrid> grid = shownGrid(corruptionView);
    if (grid && depth_ > 1) {
        const std::optional<VoxelCell> cell =
            voxelCell(*grid, hoverVoxel_, imageSize_.width(), imageSize_.height(), depth_);
        if (!cell)
            return QString();
        const QString index = grid->cellDepth > 0
            ? QStringLiteral("(%1,%2,%3)").arg(cell->index[0]).arg(cell->index[1]).arg(cell->index[2])
            : QStringLiteral("(%1,%2)").arg(cell->index[0]).arg(cell->index[1]);
        return QStringLiteral("%1 %2 of %3 holds %4; reads %5")
            .arg(text(grid->cell), index, text(grid->kernel), boxesText(cell->cell), boxesText(cell->halo));
    }
    if (!grid || !gridArea(*grid, imageSize_).contains(hover_))
        return QString();
    const QRect cell = cellRect(*grid, hover_, imageSize_);
    const QRect halo = haloRect(*grid, hover_, imageSize_);
    return QStringLiteral("%1 %2 of %3 (%4,%5) reads x %6..%7, y %8..%9")
        .arg(text(grid->cell))
        .arg(grid->cellHeight == 1 ? QStringLiteral("%1").arg(grid->column(hover_.x()))
                                   : QStringLiteral("(%1,%2)").arg(grid->column(hover_.x())).arg(grid->row(hover_.y())))
        .arg(text(grid->kernel))
        .arg(cell.left())
        .arg(cell.top())
        .arg(halo.left())
        .arg(halo.right())
        .arg(halo.top())
        .arg(halo.bottom());
}

} // namespace rgx::ui
