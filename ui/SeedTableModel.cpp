// Seeds table model.
#include "SeedTableModel.h"

#include "io/Overlay.h"
#include <QBrush>
#include <QLocale>
#include <QPixmap>
#include <utility>

namespace rgx::ui {

SeedTableModel::SeedTableModel(SeedSet* seeds, QObject* parent)
    : QAbstractTableModel(parent), seeds_(seeds)
{
    connect(seeds_, &SeedSet::changed, this, &SeedTableModel::reset);
}

// A colour as decoration would have the delegate paint a new pixmap at each
// paint and keep it in QPixmapCache, which the monkey test saw fill to its
// 10 MiB limit with copies of the same few swatches: one icon per region.
QIcon SeedTableModel::swatch(int region) const
{
    auto found = swatches_.find(region);
    if (found == swatches_.end()) {
        QPixmap pixmap(16, 16);
        pixmap.fill(regionColour(region));
        found = swatches_.insert(region, QIcon(pixmap));
    }
    return *found;
}

void SeedTableModel::reset()
{
    beginResetModel();
    endResetModel();
}

void SeedTableModel::setImage(std::shared_ptr<const LumaImage> image)
{
    image_ = std::move(image);
    reset();
}

void SeedTableModel::setResult(GrowResultPtr result, const std::vector<Seed>& seedsOfRun,
                               std::vector<uint64_t> labelCounts)
{
    result_ = std::move(result);
    seedsOfRun_ = seedsOfRun;
    labelCounts_ = std::move(labelCounts);
    if (result_ && labelCounts_.empty()) {
        // A correct run's regions count exactly the pixels of each label.
        labelCounts_.assign(result_->regions.size() + 1, 0);
        for (size_t k = 0; k < result_->regions.size(); ++k)
            labelCounts_[k + 1] = result_->regions[k].count;
    }
    reset();
}

void SeedTableModel::setDragged(int index, QPoint pixel)
{
    if (index < 0 || index >= seeds_->size())
        return;
    setDraggedVoxel(index, Seed{pixel.x(), pixel.y(), seeds_->at(index).z});
}

void SeedTableModel::setDraggedVoxel(int index, rgx::Seed voxel)
{
    if (index < 0 || index >= seeds_->size())
        return;
    draggedRow_ = index;
    draggedTo_ = voxel;
    emit dataChanged(this->index(index, X), this->index(index, RegionVolume));
}

void SeedTableModel::clearDragged()
{
    const int row = std::exchange(draggedRow_, -1);
    if (row >= 0 && row < seeds_->size())
        emit dataChanged(index(row, X), index(row, RegionVolume));
}

Seed SeedTableModel::shownSeed(int row) const
{
    return row == draggedRow_ ? draggedTo_ : seeds_->at(row);
}

int SeedTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : seeds_->size();
}

int SeedTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

bool SeedTableModel::hasSize(int row) const
{
    return result_ && size_t(row) < seedsOfRun_.size() && seedsOfRun_[size_t(row)] == shownSeed(row)
        && size_t(row) < result_->regions.size() && size_t(row) + 1 < labelCounts_.size();
}

QVariant SeedTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= seeds_->size())
        return {};
    const int row = index.row();
    const Seed seed = shownSeed(row);
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (index.column()) {
        case Number: return row + 1;
        case X: return seed.x;
        case Y: return seed.y;
        case Z: return seed.z;
        case Luma:
            if (image_ && seed.x >= 0 && seed.y >= 0 && seed.z >= 0 && seed.x < image_->width && seed.y < image_->height
                && seed.z < image_->depth) {
                const int luma = image_->at(seed.x, seed.y, seed.z);
                // A shifted volume's own value beside it (for CT, Hounsfield units).
                if (role == Qt::DisplayRole && image_->volume.valueShift != 0)
                    return QStringLiteral("%1 (%2)").arg(luma).arg(luma - image_->volume.valueShift);
                return luma;
            }
            return QStringLiteral("-");
        case RegionSize:
            if (hasSize(row))
                return QLocale().toString(qulonglong(labelCounts_[size_t(row) + 1]));
            return QStringLiteral("-");
        case RegionVolume:
            if (hasSize(row) && image_) {
                const auto& spacing = image_->volume.spacing;
                const double voxel = spacing[0] * spacing[1] * spacing[2];
                const double cubic = double(labelCounts_[size_t(row) + 1]) * voxel;
                return QLocale().toString(cubic, 'f', cubic < 10 ? 2 : cubic < 1000 ? 1 : 0);
            }
            return QStringLiteral("-");
        default: break;
        }
    }
    if (role == Qt::DecorationRole && index.column() == Number)
        return swatch(row + 1);
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == Luma && image_ && image_->volume.valueShift != 0)
        return QStringLiteral("Luma under the seed, and in brackets the file's own value (luma minus the value shift %1)")
            .arg(image_->volume.valueShift);
    if (role == Qt::ToolTipRole && index.column() == RegionVolume && image_) {
        const auto& spacing = image_->volume.spacing;
        return QStringLiteral("Voxels labelled %1 times the volume of a voxel (%2 x %3 x %4 mm)")
            .arg(row + 1).arg(spacing[0]).arg(spacing[1]).arg(spacing[2]);
    }
    if (role == Qt::ToolTipRole && index.column() == RegionSize) {
        QString tip = QStringLiteral("%1 labelled %2 after the last run (\"-\": not run since this seed changed)")
                          .arg(isVolume() ? QStringLiteral("Voxels") : QStringLiteral("Pixels"))
                          .arg(row + 1);
        if (hasSize(row) && result_->regions[size_t(row)].count != labelCounts_[size_t(row) + 1])
            tip += QStringLiteral("\nThe device's own count for this region says %1: its region sums are corrupt.")
                       .arg(QLocale().toString(qulonglong(result_->regions[size_t(row)].count)));
        return tip;
    }
    return {};
}

QVariant SeedTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Number: return QStringLiteral("#");
    case X: return QStringLiteral("x");
    case Y: return QStringLiteral("y");
    case Z: return QStringLiteral("z");
    case Luma: return QStringLiteral("luma");
    case RegionSize: return isVolume() ? QStringLiteral("voxels") : QStringLiteral("region size");
    case RegionVolume: return QStringLiteral("mm\u00B3");
    default: return {};
    }
}

Qt::ItemFlags SeedTableModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags flags = QAbstractTableModel::flags(index);
    if (index.column() == X || index.column() == Y || (index.column() == Z && isVolume()))
        flags |= Qt::ItemIsEditable;
    return flags;
}

bool SeedTableModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || !index.isValid() || index.row() >= seeds_->size())
        return false;
    bool ok = false;
    const int coordinate = value.toInt(&ok);
    if (!ok)
        return false;
    Seed to = seeds_->at(index.row());
    if (index.column() == X)
        to.x = coordinate;
    else if (index.column() == Y)
        to.y = coordinate;
    else if (index.column() == Z && isVolume())
        to.z = coordinate;
    else
        return false;
    // The main window checks the position and pushes the undo command.
    emit moveRequested(index.row(), to);
    return true;
}

} // namespace rgx::ui
