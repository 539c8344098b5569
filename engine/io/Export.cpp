// Result files: label masks, stamp maps and timing records, written all or
// nothing through QSaveFile.
#include "Export.h"

#include "Errors.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>
#include <QtEndian>

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace rgx {

namespace {

std::string quoted(const QString& path) { return "'" + path.toStdString() + "'"; }

QString suffixOf(const QString& path) { return QFileInfo(path).suffix().toLower(); }

void requireImageSize(size_t valueCount, int width, int height, const char* what)
{
    if (width < 0 || height < 0 || valueCount != size_t(width) * size_t(height)) {
        throw std::invalid_argument(std::string(what) + ": " + std::to_string(valueCount)
                                    + " values do not fill a " + std::to_string(width) + "x"
                                    + std::to_string(height) + " image");
    }
}

void requireVolumeSize(size_t valueCount, int width, int height, int depth, const char* what)
{
    if (width < 0 || height < 0 || depth < 0 || valueCount != size_t(width) * size_t(height) * size_t(depth)) {
        throw std::invalid_argument(std::string(what) + ": " + std::to_string(valueCount)
                                    + " values do not fill a " + std::to_string(width) + "x"
                                    + std::to_string(height) + "x" + std::to_string(depth) + " volume");
    }
}

// numpy's .npy format 1.0: magic, version, little-endian header length, a
// Python dict literal padded with spaces and ended by '\n' so that the data
// starts at a multiple of 64 bytes. The padding copies numpy's own writer
// (spare room for the first axis to grow, and 1..64 alignment spaces), so the
// files are byte for byte what numpy.save writes. `shape` is slowest axis first.
QByteArray npyFile(const char* descr, const void* littleEndianData, qsizetype dataBytes,
                   const std::vector<int>& shape)
{
    constexpr int preambleBytes = 10; // magic (6), version (2), header length (2)
    constexpr int alignment = 64;
    constexpr int growthAxisMaxDigits = 21; // numpy.lib.format.GROWTH_AXIS_MAX_DIGITS
    QByteArray axes;
    for (size_t i = 0; i < shape.size(); ++i)
        axes += (i == 0 ? "" : ", ") + QByteArray::number(shape[i]);
    QByteArray header = QByteArray("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (" + axes
                        + "), }";
    header.append(QByteArray(growthAxisMaxDigits - QByteArray::number(shape.front()).size(), ' '));
    const qsizetype unpadded = preambleBytes + header.size() + 1; // +1 for '\n'
    header.append(QByteArray(alignment - unpadded % alignment, ' '));
    header.append('\n');

    QByteArray bytes;
    bytes.reserve(preambleBytes + header.size() + dataBytes);
    bytes.append("\x93NUMPY", 6);
    bytes.append(char(1));
    bytes.append(char(0));
    bytes.append(char(header.size() & 0xff));
    bytes.append(char((header.size() >> 8) & 0xff));
    bytes.append(header);
    bytes.append(static_cast<const char*>(littleEndianData), dataBytes);
    return bytes;
}

// Reads a .npy of shape (H, W) or (D, H, W) (depth 1 for the first), uint16
// or uint32; threeAxes says which it was.
std::vector<uint32_t> readNpyArray(const QString& path, int* width, int* height, int* depth, bool* threeAxes);

template <typename Value>
QByteArray npyOf(const std::vector<Value>& values, const std::vector<int>& shape, const char* descr)
{
    std::vector<Value> littleEndian(values.size());
    qToLittleEndian<Value>(values.data(), qsizetype(values.size()), littleEndian.data());
    return npyFile(descr, littleEndian.data(), qsizetype(values.size() * sizeof(Value)), shape);
}

QByteArray pngBytes(const QImage& image, const QString& path)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, "png");
    if (!writer.write(image))
        throw InputError("cannot write " + quoted(path) + ": " + writer.errorString().toStdString());
    return bytes;
}

QImage labelImage(const GrowResult& result)
{
    requireImageSize(result.labels.size(), result.width, result.height, "writeLabels");
    const uint16_t largestLabel =
        result.labels.empty() ? 0 : *std::max_element(result.labels.begin(), result.labels.end());
    const bool fitsEightBits = result.regions.size() <= 255 && largestLabel <= 255;
    QImage image(result.width, result.height,
                 fitsEightBits ? QImage::Format_Grayscale8 : QImage::Format_Grayscale16);
    const size_t width = size_t(result.width);
    for (int y = 0; y < result.height; ++y) {
        const uint16_t* labels = result.labels.data() + size_t(y) * width;
        if (fitsEightBits) {
            uchar* row = image.scanLine(y);
            std::transform(labels, labels + width, row, [](uint16_t label) { return uchar(label); });
        } else {
            auto* row = reinterpret_cast<quint16*>(image.scanLine(y));
            std::copy(labels, labels + width, row);
        }
    }
    return image;
}

// JSON numbers are doubles to most readers, but QJsonValue keeps a qint64
// exact and writes it as an integer; profiling times are far below 2^63.
QJsonValue nanoseconds(uint64_t value)
{
    if (value > uint64_t(std::numeric_limits<qint64>::max()))
        return QJsonValue(double(value));
    return QJsonValue(qint64(value));
}

// RFC 4180: quote a field holding a comma, a quote or a line break.
std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string quotedText = "\"";
    for (char c : text) {
        if (c == '"')
            quotedText += '"';
        quotedText += c;
    }
    return quotedText + "\"";
}

} // namespace

void saveFileAtomically(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        throw InputError("cannot write " + quoted(path) + ": " + file.errorString().toStdString());
    if (file.write(bytes) != bytes.size()) {
        const std::string reason = file.errorString().toStdString();
        file.cancelWriting();
        throw InputError("cannot write " + quoted(path) + ": " + reason);
    }
    if (!file.commit())
        throw InputError("cannot write " + quoted(path) + ": " + file.errorString().toStdString());
}

void writeLabels(const QString& path, const GrowResult& result)
{
    const QString suffix = suffixOf(path);
    if (suffix == "png") {
        saveFileAtomically(path, pngBytes(labelImage(result), path));
    } else if (suffix == "npy") {
        saveFileAtomically(path, npyBytes(result.labels, result.width, result.height));
    } else {
        throw InputError("cannot write labels to " + quoted(path) + ": unknown suffix (use .png or .npy)");
    }
}

void writeStampsNpy(const QString& path, const GrowResult& result)
{
    if (suffixOf(path) != "npy")
        throw InputError("cannot write stamps to " + quoted(path) + ": unknown suffix (use .npy)");
    saveFileAtomically(path, npyBytes(result.stamps, result.width, result.height));
}

QByteArray npyBytes(const std::vector<uint16_t>& values, int width, int height)
{
    requireImageSize(values.size(), width, height, "npyBytes");
    return npyOf(values, {height, width}, "<u2");
}

QByteArray npyBytes(const std::vector<uint32_t>& values, int width, int height)
{
    requireImageSize(values.size(), width, height, "npyBytes");
    return npyOf(values, {height, width}, "<u4");
}

QByteArray npyBytes(const std::vector<uint16_t>& values, int width, int height, int depth)
{
    requireVolumeSize(values.size(), width, height, depth, "npyBytes");
    return npyOf(values, {depth, height, width}, "<u2");
}

QByteArray npyBytes(const std::vector<uint32_t>& values, int width, int height, int depth)
{
    requireVolumeSize(values.size(), width, height, depth, "npyBytes");
    return npyOf(values, {depth, height, width}, "<u4");
}

std::vector<uint32_t> readNpy(const QString& path, int* width, int* height)
{
    int depth = 1;
    int columns = 0;
    int rows = 0;
    bool threeAxes = false;
    std::vector<uint32_t> values = readNpyArray(path, &columns, &rows, &depth, &threeAxes);
    if (threeAxes) {
        throw InputError("cannot read " + quoted(path) + " as .npy: it has 3 axes (" + std::to_string(depth) + ", "
                         + std::to_string(rows) + ", " + std::to_string(columns) + "), expected 2 (H, W)");
    }
    if (width)
        *width = columns;
    if (height)
        *height = rows;
    return values;
}

std::vector<uint32_t> readNpy(const QString& path, int* width, int* height, int* depth)
{
    return readNpyArray(path, width, height, depth, nullptr);
}

namespace {

std::vector<uint32_t> readNpyArray(const QString& path, int* width, int* height, int* depth, bool* threeAxes)
{
    const std::string name = quoted(path);
    QFile file(path);
    if (!file.exists())
        throw InputError("cannot read " + name + ": the file does not exist");
    if (!file.open(QIODevice::ReadOnly))
        throw InputError("cannot read " + name + ": " + file.errorString().toStdString());
    const QByteArray bytes = file.readAll();

    const auto notNpy = [&](const std::string& why) {
        return InputError("cannot read " + name + " as .npy: " + why);
    };
    if (bytes.size() < 10 || !bytes.startsWith(QByteArray("\x93NUMPY", 6)))
        throw notNpy("no .npy magic string at the start");
    const auto byteAt = [&](qsizetype i) { return uint32_t(uint8_t(bytes[i])); };
    const uint32_t major = byteAt(6);
    qsizetype headerStart = 0;
    qsizetype headerLength = 0;
    if (major == 1) {
        headerStart = 10;
        headerLength = qsizetype(byteAt(8) | (byteAt(9) << 8));
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12)
            throw notNpy("the file is truncated");
        headerStart = 12;
        headerLength = qsizetype(byteAt(8) | (byteAt(9) << 8) | (byteAt(10) << 16) | (byteAt(11) << 24));
    } else {
        throw notNpy("unsupported format version " + std::to_string(major));
    }
    if (headerStart + headerLength > bytes.size())
        throw notNpy("the header is truncated");
    const QString header = QString::fromLatin1(bytes.mid(headerStart, headerLength));

    const QRegularExpression descrPattern(R"('descr'\s*:\s*'([^']*)')");
    const QRegularExpression orderPattern(R"('fortran_order'\s*:\s*(True|False))");
    const QRegularExpression shapePattern(R"('shape'\s*:\s*\(\s*(\d+)\s*,\s*(\d+)\s*(?:,\s*(\d+)\s*)?,?\s*\))");
    const QRegularExpressionMatch descr = descrPattern.match(header);
    const QRegularExpressionMatch order = orderPattern.match(header);
    const QRegularExpressionMatch shape = shapePattern.match(header);
    if (!descr.hasMatch() || !order.hasMatch() || !shape.hasMatch())
        throw notNpy("the header is not a numpy array header");
    const QString type = descr.captured(1);
    if (type != "<u2" && type != "<u4")
        throw notNpy("element type '" + type.toStdString() + "' (expected '<u2' or '<u4')");
    if (order.captured(1) != "False")
        throw notNpy("Fortran order is not supported (expected C order)");
    // (H, W) or (D, H, W): the last axis is x.
    const bool hasDepth = !shape.captured(3).isEmpty();
    bool slicesOk = true;
    bool rowsOk = false;
    bool columnsOk = false;
    const int slices = hasDepth ? shape.captured(1).toInt(&slicesOk) : 1;
    const int rows = shape.captured(hasDepth ? 2 : 1).toInt(&rowsOk);
    const int columns = shape.captured(hasDepth ? 3 : 2).toInt(&columnsOk);
    if (!slicesOk || !rowsOk || !columnsOk)
        throw notNpy("the shape is too large");
    const std::string shapeText = "(" + (hasDepth ? std::to_string(slices) + ", " : std::string())
                                  + std::to_string(rows) + ", " + std::to_string(columns) + ")";

    const size_t count = size_t(slices) * size_t(rows) * size_t(columns);
    const size_t elementBytes = type == "<u2" ? 2 : 4;
    const qsizetype dataStart = headerStart + headerLength;
    if (size_t(bytes.size() - dataStart) != count * elementBytes) {
        throw notNpy("holds " + std::to_string(bytes.size() - dataStart) + " data bytes, shape " + shapeText
                     + " needs " + std::to_string(count * elementBytes));
    }
    std::vector<uint32_t> values(count);
    const uchar* data = reinterpret_cast<const uchar*>(bytes.constData() + dataStart);
    for (size_t i = 0; i < count; ++i) {
        values[i] = elementBytes == 2 ? uint32_t(qFromLittleEndian<quint16>(data + 2 * i))
                                      : uint32_t(qFromLittleEndian<quint32>(data + 4 * i));
    }
    if (width)
        *width = columns;
    if (height)
        *height = rows;
    if (depth)
        *depth = slices;
    if (threeAxes)
        *threeAxes = hasDepth;
    return values;
}

} // namespace

QByteArray timingsJson(const GrowResult& result)
{
    QJsonArray records;
    for (const TimingRecord& record : result.timings) {
        QJsonObject object{
            {"stage", QString::fromStdString(record.stage)},
            {"kernel", QString::fromStdString(record.kernel)},
            {"iteration", record.iteration},
            {"queued", nanoseconds(record.queued)},
            {"submit", nanoseconds(record.submit)},
            {"start", nanoseconds(record.start)},
            {"end", nanoseconds(record.end)},
            {"durationNs", nanoseconds(record.duration())},
        };
        // Only commands the device could not time carry these, so that the
        // usual record stays as DESIGN.md lists it.
        if (!record.measured)
            object.insert("measured", false);
        if (!record.note.empty())
            object.insert("note", QString::fromStdString(record.note));
        records.append(object);
    }

    QJsonArray totals;
    for (const KernelTotal& total : kernelTotals(result.timings)) {
        totals.append(QJsonObject{
            {"stage", QString::fromStdString(total.stage)},
            {"kernel", QString::fromStdString(total.kernel)},
            {"launches", total.launches},
            {"totalNs", nanoseconds(total.totalNs)},
        });
    }

    const TimelineSummary timeline = summarizeTimeline(result.timings);
    const QJsonObject document{
        {"device", QString::fromStdString(result.device)},
        {"variant", QString::fromStdString(result.variant)},
        {"iterations", qint64(result.iterations)},
        {"stoppedAtCap", result.stoppedAtCap},
        {"hostMilliseconds", result.hostMilliseconds},
        {"records", records},
        {"totals", totals},
        {"timeline", QJsonObject{{"busyNs", nanoseconds(timeline.busyNs)},
                                 {"spanNs", nanoseconds(timeline.spanNs)},
                                 {"gapNs", nanoseconds(timeline.gapNs)}}},
    };
    return QJsonDocument(document).toJson(QJsonDocument::Indented);
}

QByteArray timingsCsv(const GrowResult& result)
{
    std::string text = "stage,kernel,iteration,queued_ns,submit_ns,start_ns,end_ns,duration_ns\n";
    for (const TimingRecord& record : result.timings) {
        text += csvField(record.stage) + "," + csvField(record.kernel) + "," + std::to_string(record.iteration)
                + "," + std::to_string(record.queued) + "," + std::to_string(record.submit) + ","
                + std::to_string(record.start) + "," + std::to_string(record.end) + ","
                + std::to_string(record.duration()) + "\n";
    }
    return QByteArray::fromStdString(text);
}

void writeTimings(const QString& path, const GrowResult& result)
{
    const QString suffix = suffixOf(path);
    if (suffix == "json")
        saveFileAtomically(path, timingsJson(result));
    else if (suffix == "csv")
        saveFileAtomically(path, timingsCsv(result));
    else
        throw InputError("cannot write timings to " + quoted(path) + ": unknown suffix (use .json or .csv)");
}

} // namespace rgx
