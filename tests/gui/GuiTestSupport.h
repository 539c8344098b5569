// Small inputs for the tests of the window's parts: a generated image, its
// luma, and the CPU reference's result on it (a result without a device).
#pragma once

#include "EngineTypes.h"
#include "Image.h"
#include "reference/RegionGrowingReference.h"
#include <QFile>
#include <QImage>
#include <QString>
#include <memory>
#include <random>

namespace rgx::ui::testing {

// A grey image of two halves, dark left and bright right, with seeded noise
// (so that luma differs from pixel to pixel): seeds at (2, 2) and (w-3, 2)
// grow one region per half in range mode.
inline QImage twoHalves(int width, int height, unsigned seed = 1)
{
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> noise(0, 4);
    QImage image(width, height, QImage::Format_Grayscale8);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            image.scanLine(y)[x] = uchar((x < width / 2 ? 40 : 200) + noise(random));
    return image;
}

inline std::vector<Seed> halvesSeeds(int width) { return {Seed{2, 2}, Seed{width - 3, 2}}; }

inline GrowParams rangeParams()
{
    GrowParams params;
    params.mode = Mode::Range;
    params.lower = 10;
    params.upper = 10;
    return params;
}

// The CPU reference's result, as a run outcome (request id `id`).
inline RunOutcome referenceOutcome(const std::shared_ptr<const LumaImage>& luma, const std::vector<Seed>& seeds,
                                   quint64 id = 1)
{
    RunOutcome outcome;
    outcome.request.id = id;
    outcome.request.image = luma;
    outcome.request.seeds = seeds;
    outcome.request.params.grow = rangeParams();
    outcome.result = std::make_shared<GrowResult>(
        growRegionsReference(luma->luma, luma->width, luma->height, seeds, outcome.request.params.grow));
    return outcome;
}

inline QString writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(bytes);
    return path;
}

} // namespace rgx::ui::testing
