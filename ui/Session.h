// Session files (JSON): image path, seeds, parameters, device and variant,
// everything needed to reopen a piece of work exactly.
#pragma once

#include "Pipeline.h"
#include "Seeds.h"
#include <QByteArray>
#include <QString>
#include <optional>
#include <string>
#include <vector>

namespace rgx::ui {

// How a volume was shown: the point its three slices go through, and the
// window (luma units: the file's values plus its value shift).
struct VolumeViewSettings {
    Seed crosshair;
    double windowCentre = 0;
    double windowWidth = 1;
};

struct Session {
    QString imagePath;          // absolute, or a Qt resource path (":/samples/...")
    std::vector<Seed> seeds;    // [x, y] pairs for an image, [x, y, z] for a volume
    PipelineParams params;
    double timeoutSeconds = 120.0;
    bool autoRun = false;
    std::string deviceId;       // "P:I"
    std::string deviceName;     // to find the device again if the ids moved
    std::string variant;        // GrowVariant::text()
    std::optional<VolumeViewSettings> volumeView; // a volume's only
};

// sessionDirectory: where the file lives; the image path is also stored
// relative to it, so a folder of session and image can be moved together.
QByteArray sessionToJson(const Session& session, const QString& sessionDirectory);
// Throws rgx::InputError naming origin and what is wrong.
Session sessionFromJson(const QByteArray& json, const QString& sessionDirectory, const QString& origin);
Session readSessionFile(const QString& path);

// Whether a file is a session by its name: .rgx (their own MIME type,
// application/x-rgx-session, so that a double-click opens them in RGX) or
// .json, as RGX saved them before it had one.
bool isSessionFile(const QString& path);

} // namespace rgx::ui
