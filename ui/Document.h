// The open image and its seeds: what the file actions load and save, what
// runs grow from and what the view draws on. Seeds change only by undoable
// edits (SeedSet's commands), except when a file replaces them.
#pragma once

#include "Image.h"
#include "SeedSet.h"
#include <QImage>
#include <QObject>
#include <QPoint>
#include <QString>
#include <QUndoStack>
#include <memory>

namespace rgx::ui {

class Notices;

class Document : public QObject {
    Q_OBJECT
public:
    explicit Document(Notices* notices, QObject* parent = nullptr);

    bool hasImage() const { return luma_ != nullptr; }
    // Absolute, or a resource path (":/...").
    QString imagePath() const { return imagePath_; }
    std::shared_ptr<const LumaImage> luma() const { return luma_; }
    // The image as shown: 8-bit grey, or 32-bit RGB.
    const QImage& image() const { return image_; }
    bool contains(QPoint pixel) const;
    // The image is a volume (its seeds are voxels, (x, y, z)).
    bool isVolume() const { return luma_ && luma_->isVolume(); }
    bool contains(const Seed& voxel) const;

    SeedSet* seedSet() { return &seeds_; }
    const std::vector<Seed>& seeds() const { return seeds_.seeds(); }
    QUndoStack* undoStack() { return &undo_; }
    // Seeds edited since they were opened, imported or saved.
    bool hasUnsavedSeeds() const { return hasImage() && !seeds().empty() && !undo_.isClean(); }
    void markSeedsSaved() { undo_.setClean(); }

    void setImage(const QString& path, const QImage& image, std::shared_ptr<const LumaImage> luma);
    // No image, no seeds, nothing to undo.
    void clear();

    // The edits of the views and the seed table, each one step of undo; a
    // pixel is the voxel (x, y, 0). addSeed returns the new seed's index, or
    // -1 when nothing was added.
    int addSeed(QPoint pixel) { return addSeed(Seed{pixel.x(), pixel.y(), 0}); }
    int addSeed(const Seed& voxel);
    // False, with moveRefused, when `to` is outside or on another seed.
    bool moveSeed(int index, QPoint from, QPoint to)
    {
        return moveSeed(index, Seed{from.x(), from.y(), 0}, Seed{to.x(), to.y(), 0});
    }
    bool moveSeed(int index, const Seed& from, const Seed& to);
    void removeSeed(int index);
    void clearSeeds();

signals:
    void moveRefused(const QString& reason);

private:
    Notices* notices_;
    QString imagePath_;
    std::shared_ptr<const LumaImage> luma_;
    QImage image_;
    SeedSet seeds_;
    QUndoStack undo_;
};

} // namespace rgx::ui
