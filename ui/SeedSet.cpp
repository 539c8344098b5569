// Seed list edits and their undo commands.
#include "SeedSet.h"

namespace rgx::ui {

int SeedSet::indexOf(int x, int y, int z) const
{
    for (size_t i = 0; i < seeds_.size(); ++i)
        if (seeds_[i].x == x && seeds_[i].y == y && seeds_[i].z == z)
            return int(i);
    return -1;
}

QString seedPositionText(const Seed& seed, bool voxel)
{
    return voxel ? QStringLiteral("(%1, %2, %3)").arg(seed.x).arg(seed.y).arg(seed.z)
                 : QStringLiteral("(%1, %2)").arg(seed.x).arg(seed.y);
}

void SeedSet::insert(int index, Seed seed)
{
    seeds_.insert(seeds_.begin() + index, seed);
    emit changed();
}

void SeedSet::remove(int index)
{
    seeds_.erase(seeds_.begin() + index);
    emit changed();
}

void SeedSet::move(int index, Seed to)
{
    seeds_.at(size_t(index)) = to;
    emit changed();
}

void SeedSet::replaceAll(const std::vector<Seed>& seeds)
{
    seeds_ = seeds;
    emit changed();
}

AddSeedCommand::AddSeedCommand(SeedSet* set, Seed seed, bool voxel)
    : set_(set), seed_(seed), index_(set->size())
{
    setText(QStringLiteral("add seed %1 at %2").arg(index_ + 1).arg(seedPositionText(seed, voxel)));
}

void AddSeedCommand::redo() { set_->insert(index_, seed_); }
void AddSeedCommand::undo() { set_->remove(index_); }

RemoveSeedCommand::RemoveSeedCommand(SeedSet* set, int index)
    : set_(set), index_(index), seed_(set->at(index))
{
    setText(QStringLiteral("remove seed %1").arg(index + 1));
}

void RemoveSeedCommand::redo() { set_->remove(index_); }
void RemoveSeedCommand::undo() { set_->insert(index_, seed_); }

MoveSeedCommand::MoveSeedCommand(SeedSet* set, int index, Seed from, Seed to, bool voxel)
    : set_(set), index_(index), from_(from), to_(to)
{
    setText(QStringLiteral("move seed %1 to %2").arg(index + 1).arg(seedPositionText(to, voxel)));
}

void MoveSeedCommand::redo() { set_->move(index_, to_); }
void MoveSeedCommand::undo() { set_->move(index_, from_); }

ReplaceSeedsCommand::ReplaceSeedsCommand(SeedSet* set, std::vector<Seed> seeds, const QString& text)
    : set_(set), before_(set->seeds()), after_(std::move(seeds))
{
    setText(text);
}

void ReplaceSeedsCommand::redo() { set_->replaceAll(after_); }
void ReplaceSeedsCommand::undo() { set_->replaceAll(before_); }

} // namespace rgx::ui
