// The race check's reports beside the image (issue 29, item 3): one entry
// per race (kernel, source line, kind, the two sides), under it one per
// pixel it touches, each a marker on the image; selecting an entry selects
// its marker (and the view centres on it).
#pragma once

#include "EngineTypes.h"
#include "PictureLayers.h"
#include <QWidget>
#include <vector>

class QAction;
class QCheckBox;
class QLabel;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace rgx::ui {

class RaceList : public QWidget {
    Q_OBJECT
public:
    explicit RaceList(QWidget* parent = nullptr);

    // Run > Check for Races, shown as a button above the list.
    void setCheckAction(QAction* action);
    QTreeWidget* tree() const { return tree_; }
    const std::vector<RaceReport>& races() const { return races_; }
    // Every pixel of every race, in the list's order (empty while the
    // markers are hidden), and which of them the list selects.
    std::vector<RaceMarker> markers() const;
    int selectedReport() const { return selectedReport_; }
    int selectedMarker() const { return selectedMarker_; }
    bool markersShown() const;
    // Oclgrind's --uniform-writes: write-write races of the same value too.
    bool uniformWrites() const;
    // The races marked at image pixel `pixel`, in one line for the status
    // bar (empty: none, or the markers hidden).
    QString racesAt(QPoint pixel) const;

public slots:
    void showOutcome(const rgx::ui::RaceCheckOutcome& outcome);
    void clear();
    // Selects marker `index` (of markers()) in the list; -1 clears.
    void selectMarker(int index);

signals:
    // The markers or the selection changed: the picture must be drawn again.
    void changed();
    // A marker was selected: its pixel, for the view to centre on.
    void markerSelected(QPoint pixel);
    // The same-value writes option was ticked or cleared.
    void uniformWritesChanged(bool on);

private:
    void selectionChanged();

    QToolButton* checkButton_;
    QCheckBox* showMarkers_;
    QCheckBox* uniformWrites_;
    QLabel* summary_;
    QTreeWidget* tree_;
    std::vector<RaceReport> races_;
    // Marker index of each place (report r, place p): firstMarker_[r] + p.
    std::vector<int> firstMarker_;
    int selectedReport_ = -1;
    int selectedMarker_ = -1;
};

} // namespace rgx::ui
