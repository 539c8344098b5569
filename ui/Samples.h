// The bundled samples, images and volumes, and their seed files: found next
// to the program or in the source tree (so their paths work for rgx-cli
// too), else (images only) embedded.
#pragma once

#include <QString>
#include <vector>

namespace rgx::ui {

struct Sample {
    QString name;       // file base name, e.g. "coins" or "dicom-ct-series"
    QString title;      // menu text, e.g. "Coins" or "CT series, 16 x 16 x 5 (DICOM)"
    QString imagePath;  // an image, a volume file, or a volume's folder
    QString seedsPath;  // empty when the sample has no seed file
    bool volume = false;
};

// The images first, then the volumes, each by name.
std::vector<Sample> bundledSamples();
// The sample with this name (case-insensitive), else the only one whose name
// starts with it ("mni"), else one with an empty name.
Sample findSample(const QString& name);

} // namespace rgx::ui
