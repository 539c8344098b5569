// The race check's reports as a list beside the image and as markers on it.
#include "RaceList.h"

#include <QAction>
#include <QCheckBox>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QStringList>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace rgx::ui {
namespace {

QString text(const std::string& value) { return QString::fromStdString(value); }

constexpr int reportRole = Qt::UserRole;
constexpr int placeRole = Qt::UserRole + 1; // -1 on a report's own entry

QString sidesText(const RaceSide& first, const RaceSide& second)
{
    return QStringLiteral("%1 and %2").arg(text(first.text()), text(second.text()));
}

} // namespace

RaceList::RaceList(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("raceList"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    checkButton_ = new QToolButton(this);
    checkButton_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    checkButton_->setVisible(false); // until the window gives it its action
    layout->addWidget(checkButton_);
    uniformWrites_ = new QCheckBox(QStringLiteral("Same-value writes too (Oclgrind --uniform-writes)"), this);
    uniformWrites_->setObjectName(QStringLiteral("uniformWritesBox"));
    uniformWrites_->setToolTip(QStringLiteral(
        "Oclgrind leaves out write-write races where both sides write the same value. Some kernels rely on them "
        "(e.g. many work-items setting one flag); tick this to have the next check report them too. On the "
        "bundled variants it finds none beyond the default check (docs/STAGES.md)."));
    connect(uniformWrites_, &QCheckBox::toggled, this, &RaceList::uniformWritesChanged);
    layout->addWidget(uniformWrites_);
    showMarkers_ = new QCheckBox(QStringLiteral("Markers on the image"), this);
    showMarkers_->setObjectName(QStringLiteral("raceMarkersBox"));
    showMarkers_->setChecked(true);
    connect(showMarkers_, &QCheckBox::toggled, this, &RaceList::changed);
    layout->addWidget(showMarkers_);
    summary_ = new QLabel(QStringLiteral("No race check yet: Run > Check for Races runs the variant under Oclgrind "
                                         "on a 32 x 32 part of the image around the first seed."),
                          this);
    summary_->setObjectName(QStringLiteral("raceSummary"));
    summary_->setWordWrap(true);
    layout->addWidget(summary_);
    tree_ = new QTreeWidget(this);
    tree_->setObjectName(QStringLiteral("raceTree"));
    tree_->setColumnCount(3);
    tree_->setHeaderLabels({QStringLiteral("Race / pixel"), QStringLiteral("Kind / first side"),
                            QStringLiteral("Pixels / second side")});
    tree_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    tree_->setSelectionMode(QAbstractItemView::SingleSelection);
    connect(tree_, &QTreeWidget::itemSelectionChanged, this, &RaceList::selectionChanged);
    layout->addWidget(tree_, 1);
}

void RaceList::setCheckAction(QAction* action)
{
    checkButton_->setDefaultAction(action);
    checkButton_->setVisible(true);
}

bool RaceList::markersShown() const { return showMarkers_->isChecked(); }

bool RaceList::uniformWrites() const { return uniformWrites_->isChecked(); }

void RaceList::clear()
{
    races_.clear();
    firstMarker_.clear();
    selectedReport_ = selectedMarker_ = -1;
    {
        const QSignalBlocker blocker(tree_);
        tree_->clear();
    }
    summary_->setText(QStringLiteral("No race check of this image yet."));
    emit changed();
}

void RaceList::showOutcome(const RaceCheckOutcome& outcome)
{
    races_ = outcome.error.isEmpty() ? outcome.races : std::vector<RaceReport>();
    firstMarker_.clear();
    selectedReport_ = selectedMarker_ = -1;
    const QSignalBlocker blocker(tree_);
    tree_->clear();
    int marker = 0;
    for (size_t r = 0; r < races_.size(); ++r) {
        const RaceReport& race = races_[r];
        firstMarker_.push_back(marker);
        auto* item = new QTreeWidgetItem(tree_);
        item->setText(0, QStringLiteral("%1 %2").arg(text(race.kernel), text(race.location)));
        item->setText(1, text(race.kind));
        item->setText(2, race.places.empty() ? QStringLiteral("not a pixel")
                                             : QStringLiteral("%1 pixel(s)").arg(race.places.size()));
        item->setToolTip(0, QStringLiteral("%1 at %2: %3\nfirst reported between %4\n%5")
                                .arg(text(race.kernel), text(race.location), text(race.kind),
                                     sidesText(race.first, race.second),
                                     race.places.empty()
                                         ? QStringLiteral("Its memory is no pixel (counters, lists, scratch).")
                                         : QStringLiteral("Select a pixel below to see its marker.")));
        item->setData(0, reportRole, int(r));
        item->setData(0, placeRole, -1);
        for (size_t p = 0; p < race.places.size(); ++p) {
            const RacePlace& place = race.places[p];
            auto* child = new QTreeWidgetItem(item);
            child->setText(0, QStringLiteral("%1, %2").arg(place.x).arg(place.y));
            child->setText(1, text(place.first.text()));
            child->setText(2, text(place.second.text()));
            child->setToolTip(0, QStringLiteral("pixel %1, %2: %3 %4, %5\nbetween %6")
                                     .arg(place.x)
                                     .arg(place.y)
                                     .arg(text(race.kernel), text(race.location), text(race.kind),
                                          sidesText(place.first, place.second)));
            child->setData(0, reportRole, int(r));
            child->setData(0, placeRole, int(p));
        }
        marker += int(race.places.size());
    }
    const QString writes = outcome.uniformWrites ? QStringLiteral(" Same-value writes included.") : QString();
    if (!outcome.error.isEmpty())
        summary_->setText(QStringLiteral("The last check could not run: %1").arg(outcome.error));
    else if (races_.empty())
        summary_->setText(QStringLiteral("%1: no race on the %2 x %3 part at (%4, %5).")
                              .arg(outcome.variantText)
                              .arg(outcome.width)
                              .arg(outcome.height)
                              .arg(outcome.left)
                              .arg(outcome.top) +
                          writes);
    else
        summary_->setText(QStringLiteral("%1: %2 race(s), %3 pixel(s) marked, on the %4 x %5 part at (%6, %7).")
                              .arg(outcome.variantText)
                              .arg(races_.size())
                              .arg(marker)
                              .arg(outcome.width)
                              .arg(outcome.height)
                              .arg(outcome.left)
                              .arg(outcome.top) +
                          writes);
    emit changed();
}

QString RaceList::racesAt(QPoint pixel) const
{
    QStringList found;
    if (!markersShown())
        return QString();
    for (const RaceReport& race : races_)
        for (const RacePlace& place : race.places)
            if (place.x == pixel.x() && place.y == pixel.y())
                found << QStringLiteral("race: %1 %2 %3 between %4")
                             .arg(text(race.kernel), text(race.location), text(race.kind),
                                  sidesText(place.first, place.second));
    return found.join(QStringLiteral("; "));
}

std::vector<RaceMarker> RaceList::markers() const
{
    std::vector<RaceMarker> markers;
    if (!markersShown())
        return markers;
    for (size_t r = 0; r < races_.size(); ++r)
        for (const RacePlace& place : races_[r].places)
            markers.push_back({place.x, place.y, int(r)});
    return markers;
}

void RaceList::selectMarker(int index)
{
    for (size_t r = 0; r < races_.size(); ++r) {
        const int place = index - firstMarker_[r];
        if (place >= 0 && place < int(races_[r].places.size())) {
            QTreeWidgetItem* item = tree_->topLevelItem(int(r))->child(place);
            tree_->setCurrentItem(item);
            tree_->scrollToItem(item);
            return;
        }
    }
    tree_->clearSelection();
}

void RaceList::selectionChanged()
{
    const QList<QTreeWidgetItem*> selected = tree_->selectedItems();
    selectedReport_ = selectedMarker_ = -1;
    if (!selected.isEmpty()) {
        const int report = selected.front()->data(0, reportRole).toInt();
        const int place = selected.front()->data(0, placeRole).toInt();
        selectedReport_ = report;
        // A race's own entry highlights all its markers, centred on its first.
        if (place >= 0)
            selectedMarker_ = firstMarker_[size_t(report)] + place;
        const std::vector<RacePlace>& places = races_[size_t(report)].places;
        if (!places.empty()) {
            const RacePlace& at = places[size_t(std::max(place, 0))];
            emit markerSelected(QPoint(at.x, at.y));
        }
    }
    emit changed();
}

} // namespace rgx::ui
