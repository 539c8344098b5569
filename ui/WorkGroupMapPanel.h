// The work-group map's controls beside the race list: on/off (the View
// menu's action), which kernel's grid, and what its cells and halo are.
#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;

namespace rgx::ui {

class WorkGroupMap;

class WorkGroupMapPanel : public QWidget {
    Q_OBJECT
public:
    WorkGroupMapPanel(WorkGroupMap* map, QWidget* parent = nullptr);
    QComboBox* gridChoice() const { return choice_; }
    QString description() const;

private:
    void update();

    WorkGroupMap* map_;
    QCheckBox* shown_;
    QComboBox* choice_;
    QLabel* description_;
};

} // namespace rgx::ui
