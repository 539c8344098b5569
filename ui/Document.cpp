// Document: the image, its seeds and their undoable edits.
#include "Document.h"

#include "Notices.h"

namespace rgx::ui {

Document::Document(Notices* notices, QObject* parent) : QObject(parent), notices_(notices) {}

bool Document::contains(QPoint pixel) const
{
    return luma_ && pixel.x() >= 0 && pixel.y() >= 0 && pixel.x() < luma_->width && pixel.y() < luma_->height;
}

bool Document::contains(const Seed& voxel) const
{
    return contains(QPoint(voxel.x, voxel.y)) && voxel.z >= 0 && voxel.z < luma_->depth;
}

void Document::setImage(const QString& path, const QImage& image, std::shared_ptr<const LumaImage> luma)
{
    imagePath_ = path;
    luma_ = std::move(luma);
    // Grey images stay one byte a pixel; the corruption view darkens as it draws.
    image_ = image.convertToFormat(image.isGrayscale() ? QImage::Format_Grayscale8 : QImage::Format_RGB32);
}

void Document::clear()
{
    // The image goes first: clearing the seeds then starts no live run.
    luma_.reset();
    undo_.clear();
    seeds_.replaceAll({});
}

int Document::addSeed(const Seed& voxel)
{
    if (!contains(voxel) || seeds_.indexOf(voxel) >= 0)
        return -1;
    if (seeds_.size() >= maxSeeds) {
        notices_->warn(QStringLiteral("Seeds"),
                       QStringLiteral("At most %1 seeds: one region per seed, labels are 16-bit.").arg(maxSeeds));
        return -1;
    }
    undo_.push(new AddSeedCommand(&seeds_, voxel, isVolume()));
    return seeds_.size() - 1;
}

bool Document::moveSeed(int index, const Seed& from, const Seed& to)
{
    if (!luma_ || index < 0 || index >= seeds_.size())
        return false;
    const bool inside = contains(to);
    const int other = seeds_.indexOf(to);
    if (!inside || (other >= 0 && other != index)) {
        emit moveRefused(inside ? QStringLiteral("Seed %1 is already on %2.").arg(other + 1).arg(seedPositionText(to, isVolume()))
                                : QStringLiteral("Seeds must stay inside the %1.")
                                      .arg(isVolume() ? QStringLiteral("volume") : QStringLiteral("image")));
        return false;
    }
    undo_.push(new MoveSeedCommand(&seeds_, index, from, to, isVolume()));
    return true;
}

void Document::removeSeed(int index)
{
    if (index < 0 || index >= seeds_.size())
        return;
    undo_.push(new RemoveSeedCommand(&seeds_, index));
}

void Document::clearSeeds()
{
    if (!seeds_.isEmpty())
        undo_.push(new ReplaceSeedsCommand(&seeds_, {}, QStringLiteral("clear seeds")));
}

} // namespace rgx::ui
