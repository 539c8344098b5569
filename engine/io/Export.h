// Writing results: label masks (PNG 8/16-bit, .npy uint16), stamps (.npy
// uint32), of volumes too (.npy (D, H, W)), timing records (JSON, CSV). Every
// file goes through QSaveFile, so a failed write leaves no half-written file;
// failures throw InputError naming the file and the reason.
#pragma once

#include "Result.h"
#include <QByteArray>
#include <QString>
#include <cstdint>
#include <vector>

namespace rgx {

// Writes bytes to path through QSaveFile (all or nothing).
void saveFileAtomically(const QString& path, const QByteArray& bytes);

// PNG 8-bit grey when regionCount <= 255, else 16-bit grey; or .npy uint16
// (H, W), chosen by the file's suffix.
void writeLabels(const QString& path, const GrowResult& result);
void writeStampsNpy(const QString& path, const GrowResult& result);

// The .npy format (version 1.0, little-endian, C order, shape (H, W)).
QByteArray npyBytes(const std::vector<uint16_t>& values, int width, int height);
QByteArray npyBytes(const std::vector<uint32_t>& values, int width, int height);
// The same for a volume: shape (D, H, W), x fastest, then y, then z.
QByteArray npyBytes(const std::vector<uint16_t>& values, int width, int height, int depth);
QByteArray npyBytes(const std::vector<uint32_t>& values, int width, int height, int depth);
// Reads a 2-D .npy of uint16 or uint32 values (for tests and sessions);
// throws InputError (also for a 3-D array).
std::vector<uint32_t> readNpy(const QString& path, int* width, int* height);
// Reads a 2-D (depth 1) or 3-D (D, H, W) .npy of uint16 or uint32 values.
std::vector<uint32_t> readNpy(const QString& path, int* width, int* height, int* depth);

QByteArray timingsJson(const GrowResult& result);
QByteArray timingsCsv(const GrowResult& result);
// JSON or CSV chosen by the suffix.
void writeTimings(const QString& path, const GrowResult& result);

} // namespace rgx
