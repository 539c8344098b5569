// The work-group map's controls: a check box for the action, a choice of
// grid per kernel, the chosen grid's description.
#include "WorkGroupMapPanel.h"

#include "WorkGroupMap.h"
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace rgx::ui {

WorkGroupMapPanel::WorkGroupMapPanel(WorkGroupMap* map, QWidget* parent) : QWidget(parent), map_(map)
{
    setObjectName(QStringLiteral("workGroupMapPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    shown_ = new QCheckBox(QStringLiteral("Work-group map (Ctrl+G)"), this);
    shown_->setObjectName(QStringLiteral("workGroupMapBox"));
    shown_->setToolTip(map->action()->toolTip());
    connect(shown_, &QCheckBox::toggled, map->action(), &QAction::setChecked);
    connect(map->action(), &QAction::toggled, shown_, &QCheckBox::setChecked);
    layout->addWidget(shown_);
    choice_ = new QComboBox(this);
    choice_->setObjectName(QStringLiteral("workGroupGridChoice"));
    choice_->setToolTip(QStringLiteral("Whose work-groups: each kernel of the run that cut the image by place"));
    connect(choice_, &QComboBox::currentIndexChanged, map, &WorkGroupMap::choose);
    layout->addWidget(choice_);
    description_ = new QLabel(this);
    description_->setObjectName(QStringLiteral("workGroupGridDescription"));
    description_->setWordWrap(true);
    layout->addWidget(description_);
    connect(map, &WorkGroupMap::gridsChanged, this, &WorkGroupMapPanel::update);
    update();
}

QString WorkGroupMapPanel::description() const { return description_->text(); }

void WorkGroupMapPanel::update()
{
    const QSignalBlocker blocker(choice_);
    choice_->clear();
    for (const WorkGroupGrid& grid : map_->grids())
        choice_->addItem(QStringLiteral("%1 (%2)").arg(QString::fromStdString(grid.kernel),
                                                      QString::fromStdString(grid.stage)));
    choice_->setCurrentIndex(map_->chosen());
    choice_->setEnabled(map_->grids().size() > 1);
    if (map_->chosen() < 0) {
        description_->setText(QStringLiteral("Run the pipeline on a device to see its work-groups."));
        return;
    }
    const WorkGroupGrid& grid = map_->grids()[size_t(map_->chosen())];
    QString line = QString::fromStdString(grid.description);
    if (grid.byPlace)
        line += QStringLiteral(". Cells alternate in tint with cyan borders; the cell under the cursor is outlined "
                               "in yellow, the %5 its work-group reads (halo %1 left, %2 up, %3 right, %4 down) "
                               "dashed in orange%6.")
                    .arg(grid.haloLeft)
                    .arg(grid.haloTop)
                    .arg(grid.haloRight)
                    .arg(grid.haloBottom)
                    .arg(map_->isVolume() ? QStringLiteral("voxels") : QStringLiteral("pixels"),
                         map_->isVolume() ? QStringLiteral(", on every slice view they cut") : QString());
    if (grid.wrongOnPurpose && grid.byPlace)
        line += QStringLiteral(" Wrong on purpose: the corruption view shows this map by itself.");
    description_->setText(line);
}

} // namespace rgx::ui
