// The bundled sample images and their seed files: found next to the program
// or in the source tree (so their paths work for rgx-cli too), else embedded.
#pragma once

#include <QString>
#include <vector>

namespace rgx::ui {

struct Sample {
    QString name;       // file base name, e.g. "coins"
    QString title;      // menu text, e.g. "Coins"
    QString imagePath;
    QString seedsPath;  // empty when the sample has no seed file
};

std::vector<Sample> bundledSamples();
// The sample with this name (case-insensitive), or one with an empty name.
Sample findSample(const QString& name);

} // namespace rgx::ui
