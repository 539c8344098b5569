// The seeds table: number, x, y (and z for a volume), luma under the seed
// and the size of its region after the last run (for a volume also its
// volume in mm^3); x, y and z editable, through the undo stack. The view
// hides the volume's columns for an image (volumeColumns()).
#pragma once

#include "Image.h"
#include "Result.h"
#include "SeedSet.h"
#include <QAbstractTableModel>
#include <QHash>
#include <QIcon>
#include <QPoint>
#include <memory>

namespace rgx::ui {

class SeedTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Number, X, Y, Z, Luma, RegionSize, RegionVolume, ColumnCount };
    // The columns an image leaves out.
    static constexpr Column volumeColumns[] = {Z, RegionVolume};

    explicit SeedTableModel(SeedSet* seeds, QObject* parent = nullptr);

    void setImage(std::shared_ptr<const LumaImage> image);
    // The result and the seeds it was computed from: sizes are shown only for
    // seeds that have not moved since.
    // labelCounts[k]: pixels labelled k, where they may differ from the
    // regions' own counts (a wrong-on-purpose run); empty: the regions' counts.
    void setResult(GrowResultPtr result, const std::vector<Seed>& seedsOfRun,
                   std::vector<uint64_t> labelCounts = {});

    // A seed being dragged: its row shows where it is now, until the drag ends.
    void setDragged(int index, QPoint pixel);
    void setDraggedVoxel(int index, rgx::Seed voxel);
    void clearDragged();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;

signals:
    // The user typed a new position for seed `index`.
    void moveRequested(int index, rgx::Seed to);

private:
    void reset();
    bool hasSize(int row) const;
    bool isVolume() const { return image_ && image_->isVolume(); }
    // The seed of a row as the view shows it (a dragged one where it is now).
    Seed shownSeed(int row) const;
    // The colour square of region k in the first column.
    QIcon swatch(int region) const;

    SeedSet* seeds_;
    std::shared_ptr<const LumaImage> image_;
    GrowResultPtr result_;
    std::vector<Seed> seedsOfRun_;
    // Pixels per label in the label map: what the picture shows, even when a
    // wrong-on-purpose variant left the device's own region counts corrupt.
    std::vector<uint64_t> labelCounts_;
    int draggedRow_ = -1;
    Seed draggedTo_;
    mutable QHash<int, QIcon> swatches_;
};

} // namespace rgx::ui
