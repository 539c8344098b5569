// The ordered seed list the user edits (seed k starts region k), and the undo
// commands that are the only way the GUI changes it.
#pragma once

#include "Seeds.h"
#include <QObject>
#include <QUndoCommand>
#include <vector>

namespace rgx::ui {

class SeedSet : public QObject {
    Q_OBJECT
public:
    explicit SeedSet(QObject* parent = nullptr) : QObject(parent) {}

    const std::vector<Seed>& seeds() const { return seeds_; }
    int size() const { return int(seeds_.size()); }
    bool isEmpty() const { return seeds_.empty(); }
    Seed at(int index) const { return seeds_.at(size_t(index)); }
    // Index of the seed on pixel (x, y), or voxel (x, y, z), or -1.
    int indexOf(int x, int y, int z = 0) const;
    int indexOf(const Seed& seed) const { return indexOf(seed.x, seed.y, seed.z); }

    void insert(int index, Seed seed);
    void remove(int index);
    void move(int index, Seed to);
    void replaceAll(const std::vector<Seed>& seeds);

signals:
    void changed();

private:
    std::vector<Seed> seeds_;
};

// "(x, y)", or "(x, y, z)" for a voxel.
QString seedPositionText(const Seed& seed, bool voxel);

class AddSeedCommand : public QUndoCommand {
public:
    AddSeedCommand(SeedSet* set, Seed seed, bool voxel = false);
    void redo() override;
    void undo() override;

private:
    SeedSet* set_;
    Seed seed_;
    int index_;
};

class RemoveSeedCommand : public QUndoCommand {
public:
    RemoveSeedCommand(SeedSet* set, int index);
    void redo() override;
    void undo() override;

private:
    SeedSet* set_;
    int index_;
    Seed seed_;
};

class MoveSeedCommand : public QUndoCommand {
public:
    MoveSeedCommand(SeedSet* set, int index, Seed from, Seed to, bool voxel = false);
    void redo() override;
    void undo() override;

private:
    SeedSet* set_;
    int index_;
    Seed from_;
    Seed to_;
};

// Import, clear, or a session: the whole list at once, undoable in one step.
class ReplaceSeedsCommand : public QUndoCommand {
public:
    ReplaceSeedsCommand(SeedSet* set, std::vector<Seed> seeds, const QString& text);
    void redo() override;
    void undo() override;

private:
    SeedSet* set_;
    std::vector<Seed> before_;
    std::vector<Seed> after_;
};

} // namespace rgx::ui
