// DICOM volumes through GDCM: a folder holding one series of single-frame
// files, stacked by ImagePositionPatient along the slice normal (else by
// InstanceNumber), or one multi-frame file. Headers are read first, so that
// the order, the geometry and the size are checked before any pixel is
// decoded; each file's pixels are then decoded straight into the volume.
#include "io/VolumeFormats.h"
#include "io/VolumeValues.h"

#include "Errors.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <gdcmAttribute.h>
#include <gdcmImageChangePhotometricInterpretation.h>
#include <gdcmImageHelper.h>
#include <gdcmImageReader.h>
#include <gdcmMediaStorage.h>
#include <gdcmReader.h>
#include <gdcmTrace.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <numeric>
#include <set>

namespace rgx::volume {

namespace {

const gdcm::Tag pixelDataTag(0x7fe0, 0x0010);
const gdcm::Tag imagePositionTag(0x0020, 0x0032);
const gdcm::Tag imageOrientationTag(0x0020, 0x0037);
const gdcm::Tag sharedFunctionalGroupsTag(0x5200, 0x9229);
const gdcm::Tag rowsTag(0x0028, 0x0010);
const gdcm::Tag numberOfFramesTag(0x0028, 0x0008);

// Slices closer than this along the normal are at the same place (mm).
constexpr double samePositionMm = 1e-3;
// Neighbouring slices may be this far from the mean gap and still count as
// evenly spaced: 1 % of the gap, at least 0.01 mm (scanners round positions).
constexpr double spacingRelativeTolerance = 0.01;
constexpr double spacingAbsoluteToleranceMm = 0.01;

// GDCM reports on std::cerr by default; RGX says what went wrong in one
// message of its own instead.
void quietGdcm()
{
    static std::once_flag once;
    std::call_once(once, [] {
        gdcm::Trace::SetDebug(false);
        gdcm::Trace::SetWarning(false);
        gdcm::Trace::SetError(false);
    });
}

std::string trimmed(std::string text)
{
    while (!text.empty() && (text.back() == ' ' || text.back() == '\0'))
        text.pop_back();
    return text;
}

// A DICOM string element's text, "" where the file has none.
std::string stringOf(const gdcm::DataSet& dataSet, const gdcm::Tag& tag)
{
    if (!dataSet.FindDataElement(tag))
        return {};
    const gdcm::DataElement& element = dataSet.GetDataElement(tag);
    const gdcm::ByteValue* value = element.GetByteValue();
    if (!value || value->GetLength() == 0)
        return {};
    return trimmed(std::string(value->GetPointer(), value->GetLength()));
}

// The first number of a decimal or integer string element (DS, IS), if any.
std::optional<double> numberOf(const gdcm::DataSet& dataSet, const gdcm::Tag& tag)
{
    const std::string text = stringOf(dataSet, tag);
    if (text.empty())
        return std::nullopt;
    try {
        size_t used = 0;
        const double value = std::stod(text.substr(0, text.find('\\')), &used);
        return used > 0 ? std::optional<double>(value) : std::nullopt;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// One file's header: what is needed to order, check and place its pixels.
struct DicomHeader {
    QString file;
    unsigned columns = 0;
    unsigned rows = 0;
    unsigned frames = 1;
    gdcm::PixelFormat pixelFormat;
    gdcm::PhotometricInterpretation photometric;
    unsigned planarConfiguration = 0;
    double slope = 1.0;
    double intercept = 0.0;
    std::vector<double> spacing;   // x, y, z (GDCM: column spacing first)
    std::vector<double> origin;    // ImagePositionPatient (LPS, mm)
    std::vector<double> direction; // ImageOrientationPatient: row then column cosines
    bool hasPosition = false;      // IPP and IOP present in the file
    bool hasSharedGroups = false;  // an enhanced multi-frame file's geometry
    std::optional<double> instanceNumber;
    std::optional<double> sliceGap; // SpacingBetweenSlices, else SliceThickness
    std::string seriesUid;
};

// The header of a file that holds an image, nothing for a DICOM file
// without pixels (a report, a DICOMDIR), an InputError for a file GDCM
// cannot read.
std::optional<DicomHeader> readHeader(const QString& file, const std::string& subject, const std::string& name)
{
    gdcm::Reader reader;
    reader.SetFileName(QFile::encodeName(file).constData());
    if (!reader.ReadUpToTag(pixelDataTag))
        throw InputError("cannot read " + subject + ": " + name + " is not a DICOM file or is corrupt");
    const gdcm::File& dicom = reader.GetFile();
    const gdcm::DataSet& dataSet = dicom.GetDataSet();
    if (!dataSet.FindDataElement(rowsTag))
        return std::nullopt;
    // Debian's GDCM keeps its assert()s: an RT Dose without NumberOfFrames
    // would abort the program inside ImageHelper, so it is refused here.
    gdcm::MediaStorage storage;
    storage.SetFromFile(dicom);
    if (storage == gdcm::MediaStorage::RTDoseStorage && !dataSet.FindDataElement(numberOfFramesTag))
        throw InputError("cannot read " + subject + ": " + name
                         + " is an RT Dose without NumberOfFrames, which GDCM cannot read");

    DicomHeader header;
    header.file = file;
    const std::vector<unsigned> dimensions = gdcm::ImageHelper::GetDimensionsValue(dicom);
    header.columns = dimensions.size() > 0 ? dimensions[0] : 0;
    header.rows = dimensions.size() > 1 ? dimensions[1] : 0;
    header.frames = dimensions.size() > 2 ? std::max(1u, dimensions[2]) : 1u;
    header.pixelFormat = gdcm::ImageHelper::GetPixelFormatValue(dicom);
    header.photometric = gdcm::ImageHelper::GetPhotometricInterpretationValue(dicom);
    header.planarConfiguration = gdcm::ImageHelper::GetPlanarConfigurationValue(dicom);
    const std::vector<double> rescale = gdcm::ImageHelper::GetRescaleInterceptSlopeValue(dicom);
    if (rescale.size() == 2) {
        header.intercept = rescale[0];
        header.slope = rescale[1];
    }
    header.spacing = gdcm::ImageHelper::GetSpacingValue(dicom);
    header.origin = gdcm::ImageHelper::GetOriginValue(dicom);
    header.direction = gdcm::ImageHelper::GetDirectionCosinesValue(dicom);
    header.spacing.resize(3, 1.0);
    header.origin.resize(3, 0.0);
    if (header.direction.size() != 6)
        header.direction = {1, 0, 0, 0, 1, 0};
    header.hasPosition = dataSet.FindDataElement(imagePositionTag) && dataSet.FindDataElement(imageOrientationTag);
    header.hasSharedGroups = dataSet.FindDataElement(sharedFunctionalGroupsTag);
    header.instanceNumber = numberOf(dataSet, gdcm::Tag(0x0020, 0x0013));
    header.sliceGap = numberOf(dataSet, gdcm::Tag(0x0018, 0x0088));
    if (!header.sliceGap || *header.sliceGap <= 0)
        header.sliceGap = numberOf(dataSet, gdcm::Tag(0x0018, 0x0050));
    header.seriesUid = stringOf(dataSet, gdcm::Tag(0x0020, 0x000e));
    return header;
}

// What messages call the volume and its files: "DICOM folder 'a'" and
// "'a/IM1.dcm'", or "DICOM file 'a.dcm'" and "it".
struct DicomSource {
    std::string subject;
    bool isFolder = true;
    std::string nameOf(const QString& file) const { return isFolder ? quoted(file) : "it"; }
};

SampleType sampleTypeOf(const DicomHeader& header, const DicomSource& source)
{
    using Scalar = gdcm::PixelFormat;
    switch (header.pixelFormat.GetScalarType()) {
    case Scalar::UINT8: return SampleType::UInt8;
    case Scalar::INT8: return SampleType::Int8;
    case Scalar::UINT16: return SampleType::UInt16;
    case Scalar::INT16: return SampleType::Int16;
    case Scalar::UINT32: return SampleType::UInt32;
    case Scalar::INT32: return SampleType::Int32;
    case Scalar::UINT64: return SampleType::UInt64;
    case Scalar::INT64: return SampleType::Int64;
    case Scalar::FLOAT16:
    case Scalar::FLOAT32:
    case Scalar::FLOAT64:
        throw InputError("cannot read " + source.subject + ": " + source.nameOf(header.file)
                         + " holds floating-point pixels; RGX reads integer voxels only");
    case Scalar::SINGLEBIT:
        throw InputError("cannot read " + source.subject + ": " + source.nameOf(header.file)
                         + " holds 1-bit pixels (a segmentation); RGX reads 8- to 64-bit grey or colour images");
    default:
        throw InputError("cannot read " + source.subject + ": " + source.nameOf(header.file) + " holds pixels of "
                         + std::to_string(header.pixelFormat.GetBitsAllocated())
                         + " bits allocated, which RGX does not read (8, 16, 32 or 64)");
    }
}

enum class Colour { Grey, Rgb, FullRangeYbr };

Colour colourOf(const DicomHeader& header, const DicomSource& source)
{
    using PI = gdcm::PhotometricInterpretation;
    switch (header.photometric) {
    case PI::MONOCHROME1: // stored values as they are; only their display is inverted
    case PI::MONOCHROME2:
        if (header.pixelFormat.GetSamplesPerPixel() == 1)
            return Colour::Grey;
        break;
    case PI::RGB:
    case PI::YBR_RCT: // the JPEG 2000 decoder has already turned these into RGB
    case PI::YBR_ICT:
        if (header.pixelFormat.GetSamplesPerPixel() == 3)
            return Colour::Rgb;
        break;
    case PI::YBR_FULL:
    case PI::YBR_FULL_422: // GDCM returns full-resolution YCbCr
        if (header.pixelFormat.GetSamplesPerPixel() == 3)
            return Colour::FullRangeYbr;
        break;
    default:
        break;
    }
    const char* name = gdcm::PhotometricInterpretation::GetPIString(header.photometric);
    throw InputError("cannot read " + source.subject + ": " + source.nameOf(header.file) + " has the photometric interpretation "
                     + (name ? trimmed(name) : std::string("(none)")) + " with "
                     + std::to_string(header.pixelFormat.GetSamplesPerPixel())
                     + " samples a pixel; RGX reads MONOCHROME1/2, RGB and YBR_FULL(_422)");
}

bool sameGrid(const DicomHeader& a, const DicomHeader& b)
{
    return a.columns == b.columns && a.rows == b.rows;
}

double dot(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

std::array<double, 3> crossOf(const std::vector<double>& direction)
{
    const double* row = direction.data();
    const double* column = direction.data() + 3;
    return {row[1] * column[2] - row[2] * column[1], row[2] * column[0] - row[0] * column[2],
            row[0] * column[1] - row[1] * column[0]};
}

std::string millimetres(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.4g mm", value);
    return text;
}

// Voxel (i, j, k) to RAS world, the NIfTI convention of VolumeInfo::toWorld:
// DICOM's patient coordinates are LPS, so x and y change sign.
std::array<double, 16> worldOf(const std::vector<double>& direction, const std::vector<double>& spacing,
                               const std::array<double, 3>& sliceStep, const std::vector<double>& origin)
{
    std::array<double, 16> matrix{};
    for (int axis = 0; axis < 3; ++axis) {
        const double sign = axis < 2 ? -1.0 : 1.0;
        matrix[size_t(axis * 4 + 0)] = sign * direction[size_t(axis)] * spacing[0];
        matrix[size_t(axis * 4 + 1)] = sign * direction[size_t(3 + axis)] * spacing[1];
        matrix[size_t(axis * 4 + 2)] = sign * sliceStep[size_t(axis)];
        matrix[size_t(axis * 4 + 3)] = sign * origin[size_t(axis)];
    }
    matrix[15] = 1.0;
    return matrix;
}

struct Geometry {
    std::array<double, 3> spacing{1.0, 1.0, 1.0};
    std::array<double, 16> toWorld = scaledIdentity({1.0, 1.0, 1.0});
    bool hasOrientation = false;
};

// Orders a series' files along the slice normal (or by InstanceNumber) and
// says where its voxels lie; refuses mixed orientations, two slices at one
// place and uneven spacing (a missing slice).
Geometry orderSeries(std::vector<DicomHeader>& headers, const DicomSource& source)
{
    Geometry geometry;
    const DicomHeader first = headers.front(); // a copy: the sort below moves the headers
    geometry.spacing = {first.spacing[0], first.spacing[1], first.sliceGap.value_or(1.0)};
    const bool positioned = std::all_of(headers.begin(), headers.end(), [](const DicomHeader& h) { return h.hasPosition; });
    if (positioned) {
        for (const DicomHeader& header : headers) {
            for (size_t i = 0; i < 6; ++i) {
                if (std::fabs(header.direction[i] - first.direction[i]) > 1e-4)
                    throw InputError("cannot read " + source.subject + ": " + source.nameOf(header.file) + " and "
                                     + source.nameOf(first.file)
                                     + " have different slice orientations (ImageOrientationPatient): not one stack");
            }
        }
        const std::array<double, 3> normal = crossOf(first.direction);
        std::stable_sort(headers.begin(), headers.end(), [&](const DicomHeader& a, const DicomHeader& b) {
            return dot(a.origin.data(), normal.data()) < dot(b.origin.data(), normal.data());
        });
        std::vector<double> gaps;
        for (size_t k = 1; k < headers.size(); ++k) {
            const double gap =
                dot(headers[k].origin.data(), normal.data()) - dot(headers[k - 1].origin.data(), normal.data());
            if (gap < samePositionMm)
                throw InputError("cannot read " + source.subject + ": " + source.nameOf(headers[k - 1].file) + " and "
                                 + source.nameOf(headers[k].file) + " lie at the same position along the slice normal"
                                 + " (two series, echoes or time points in one folder?)");
            gaps.push_back(gap);
        }
        std::array<double, 3> sliceStep{normal[0] * geometry.spacing[2], normal[1] * geometry.spacing[2],
                                        normal[2] * geometry.spacing[2]};
        if (!gaps.empty()) {
            const double mean = std::accumulate(gaps.begin(), gaps.end(), 0.0) / double(gaps.size());
            const double tolerance = std::max(spacingAbsoluteToleranceMm, spacingRelativeTolerance * mean);
            for (size_t k = 0; k < gaps.size(); ++k) {
                if (std::fabs(gaps[k] - mean) > tolerance)
                    throw InputError("cannot read " + source.subject + ": its slices are unevenly spaced ("
                                     + millimetres(gaps[k]) + " between " + source.nameOf(headers[k].file) + " and "
                                     + source.nameOf(headers[k + 1].file) + ", " + millimetres(mean)
                                     + " on average): a slice missing?");
            }
            geometry.spacing[2] = mean;
            const double steps = double(headers.size() - 1);
            for (size_t axis = 0; axis < 3; ++axis)
                sliceStep[axis] = (headers.back().origin[axis] - headers.front().origin[axis]) / steps;
        }
        geometry.toWorld = worldOf(first.direction, headers.front().spacing, sliceStep, headers.front().origin);
        geometry.hasOrientation = true;
        return geometry;
    }

    const bool numbered = std::all_of(headers.begin(), headers.end(),
                                      [](const DicomHeader& h) { return h.instanceNumber.has_value(); });
    if (numbered) {
        std::stable_sort(headers.begin(), headers.end(), [](const DicomHeader& a, const DicomHeader& b) {
            return *a.instanceNumber < *b.instanceNumber;
        });
        for (size_t k = 1; k < headers.size(); ++k) {
            if (*headers[k].instanceNumber == *headers[k - 1].instanceNumber)
                throw InputError("cannot read " + source.subject + ": " + source.nameOf(headers[k - 1].file) + " and "
                                 + source.nameOf(headers[k].file)
                                 + " have the same InstanceNumber and no ImagePositionPatient to order them");
        }
    }
    // Else the files' natural order, as listed.
    geometry.toWorld = scaledIdentity(geometry.spacing);
    return geometry;
}

// Decodes one file's pixels into `out` (frames x rows x columns x samples,
// interleaved, host order), RGB where the file holds YCbCr.
void decodeInto(const DicomHeader& header, Colour colour, size_t bytes, uint8_t* out, const DicomSource& source)
{
    gdcm::ImageReader reader;
    reader.SetFileName(QFile::encodeName(header.file).constData());
    if (!reader.Read())
        throw InputError("cannot read " + source.subject + ": " + source.nameOf(header.file)
                         + " is not a readable DICOM image or is corrupt");
    const gdcm::Image& image = reader.GetImage();
    if (image.GetBufferLength() != bytes)
        throw InputError("cannot read " + source.subject + ": " + source.nameOf(header.file) + " decodes to "
                         + std::to_string(image.GetBufferLength()) + " bytes, its header says "
                         + std::to_string(bytes));
    std::vector<char> planar;
    const bool isPlanar = colour != Colour::Grey && image.GetPlanarConfiguration() == 1;
    char* target = reinterpret_cast<char*>(out);
    if (isPlanar) {
        planar.resize(bytes);
        target = planar.data();
    }
    if (!image.GetBuffer(target))
        throw InputError("cannot read " + source.subject + ": " + source.nameOf(header.file)
                         + " has truncated or corrupt pixel data (or compressed in a way GDCM cannot decode)");
    const size_t sampleSize = header.pixelFormat.GetBitsAllocated() / 8;
    if (isPlanar) {
        // RRR..GGG..BBB per frame to RGBRGB..
        const size_t frameSamples = size_t(header.columns) * header.rows;
        const size_t frameBytes = frameSamples * 3 * sampleSize;
        for (size_t frame = 0; frame < bytes / frameBytes; ++frame) {
            const char* in = planar.data() + frame * frameBytes;
            uint8_t* frameOut = out + frame * frameBytes;
            for (size_t i = 0; i < frameSamples; ++i)
                for (size_t channel = 0; channel < 3; ++channel)
                    std::memcpy(frameOut + (i * 3 + channel) * sampleSize,
                                in + (channel * frameSamples + i) * sampleSize, sampleSize);
        }
    }
    if (colour == Colour::FullRangeYbr) {
        if (sampleSize != 1)
            throw InputError("cannot read " + source.subject + ": " + source.nameOf(header.file)
                             + " holds YCbCr of more than 8 bits, which RGX does not read");
        for (size_t i = 0; i + 2 < bytes; i += 3) {
            uint8_t rgb[3];
            gdcm::ImageChangePhotometricInterpretation::YBR2RGB<uint8_t>(rgb, out + i, 8);
            std::memcpy(out + i, rgb, 3);
        }
    }
}

QStringList dicomFilesIn(const QString& folder)
{
    QStringList files;
    const QDir directory(folder);
    const QStringList names = directory.entryList(QDir::Files | QDir::NoDotAndDotDot, QDir::Name);
    for (const QString& name : names) {
        if (name.compare("DICOMDIR", Qt::CaseInsensitive) == 0)
            continue;
        const QString file = directory.filePath(name);
        if (isDicomFile(file))
            files << file;
    }
    std::sort(files.begin(), files.end(), naturalLess);
    return files;
}

} // namespace

bool isDicomFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray start = file.read(1024);
    // A DICOMDIR under another name (its SOP class, Media Storage Directory
    // Storage, in the file meta group) is an index, not an image; GDCM may
    // even abort on a malformed one.
    if (start.contains(QByteArray("1.2.840.10008.1.3.10")))
        return false;
    if (start.size() >= 132 && start.mid(128, 4) == "DICM")
        return true;
    // Files without the preamble (older writers) are known by their suffix.
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == "dcm" || suffix == "dicom" || suffix == "ima";
}

bool folderHasDicom(const QString& folder)
{
    const QDir directory(folder);
    const QStringList names = directory.entryList(QDir::Files | QDir::NoDotAndDotDot, QDir::Name);
    return std::any_of(names.begin(), names.end(), [&](const QString& name) {
        return name.compare("DICOMDIR", Qt::CaseInsensitive) != 0 && isDicomFile(directory.filePath(name));
    });
}

LumaImage readDicom(const QString& path)
{
    quietGdcm();
    const bool isFolder = QFileInfo(path).isDir();
    const std::string subject = (isFolder ? "DICOM folder " : "DICOM file ") + quoted(path);
    const DicomSource source{subject, isFolder};
    if (!isFolder)
        requireReadableFile(path, subject);
    const QStringList files = isFolder ? dicomFilesIn(path) : QStringList{path};
    if (files.isEmpty())
        throw InputError("cannot read " + subject + ": it holds no DICOM files");

    std::vector<DicomHeader> headers;
    for (const QString& file : files) {
        std::optional<DicomHeader> header = readHeader(file, subject, source.nameOf(file));
        if (header)
            headers.push_back(std::move(*header));
        else if (!isFolder)
            throw InputError("cannot read " + subject + ": it holds no image (no pixel data)");
    }
    if (headers.empty())
        throw InputError("cannot read " + subject + ": none of its " + std::to_string(files.size())
                         + " DICOM files holds an image");

    std::map<std::string, int> series;
    for (const DicomHeader& header : headers)
        ++series[header.seriesUid];
    if (series.size() > 1) {
        std::string list;
        for (const auto& [uid, count] : series)
            list += (list.empty() ? "" : ", ") + (uid.empty() ? std::string("(no UID)") : uid) + ": "
                    + std::to_string(count) + " files";
        throw InputError("cannot read " + subject + ": it holds " + std::to_string(series.size())
                         + " series (" + list + "); give a folder of one series");
    }

    const DicomHeader first = headers.front(); // a copy: ordering moves the headers
    const SampleType type = sampleTypeOf(first, source);
    const Colour colour = colourOf(first, source);
    for (const DicomHeader& header : headers) {
        if (!sameGrid(header, first))
            throw InputError("cannot read " + subject + ": " + source.nameOf(header.file) + " is "
                             + std::to_string(header.columns) + " x " + std::to_string(header.rows) + " pixels, "
                             + source.nameOf(first.file) + " " + std::to_string(first.columns) + " x "
                             + std::to_string(first.rows) + " (all slices of a volume must be the same size)");
        if (!(header.pixelFormat == first.pixelFormat) || header.photometric != first.photometric)
            throw InputError("cannot read " + subject + ": " + source.nameOf(header.file)
                             + " stores its pixels differently from " + source.nameOf(first.file)
                             + " (bits, sign, samples or photometric interpretation)");
        if (headers.size() > 1 && header.frames > 1)
            throw InputError("cannot read " + subject + ": " + source.nameOf(header.file) + " holds "
                             + std::to_string(header.frames)
                             + " frames among other files; give a multi-frame file on its own");
    }

    Geometry geometry;
    int depth = 0;
    if (headers.size() == 1) {
        // One file: its frames are the slices (GDCM gives their spacing and
        // the first frame's position, for enhanced files from the functional groups).
        depth = int(first.frames);
        geometry.spacing = {first.spacing[0], first.spacing[1], first.spacing[2]};
        const std::array<double, 3> normal = crossOf(first.direction);
        geometry.toWorld = worldOf(first.direction, first.spacing,
                                   {normal[0] * first.spacing[2], normal[1] * first.spacing[2],
                                    normal[2] * first.spacing[2]},
                                   first.origin);
        geometry.hasOrientation = first.hasPosition || first.hasSharedGroups;
        if (!geometry.hasOrientation)
            geometry.toWorld = scaledIdentity(geometry.spacing);
    } else {
        depth = int(headers.size());
        geometry = orderSeries(headers, source);
    }
    requireVolumeSize(first.columns, first.rows, depth, subject);

    const int channels = colour == Colour::Grey ? 1 : 3;
    const size_t sliceBytes = size_t(first.columns) * first.rows * size_t(channels) * sampleBytes(type);
    std::vector<uint8_t> voxels(sliceBytes * size_t(depth));
    std::vector<Rescale> rescales;
    size_t offset = 0;
    for (const DicomHeader& header : headers) {
        const std::optional<Rescale> rescale = integerRescale(header.slope, header.intercept);
        if (!rescale)
            throw InputError("cannot read " + subject + ": " + source.nameOf(header.file) + " has the rescale slope "
                             + decimal(header.slope) + " and intercept " + decimal(header.intercept)
                             + ", which turn integers into fractions; RGX reads integer values only");
        const size_t bytes = sliceBytes * header.frames;
        decodeInto(header, colour, bytes, voxels.data() + offset, source);
        offset += bytes;
        rescales.insert(rescales.end(), header.frames, *rescale);
    }

    StoredVolume stored;
    stored.width = int(first.columns);
    stored.height = int(first.rows);
    stored.depth = depth;
    stored.channels = channels;
    stored.type = type;
    stored.data = voxels.data();
    stored.sliceRescale = std::move(rescales);
    LumaImage result = lumaOfStoredVolume(stored, subject);
    result.volume.spacing = geometry.spacing;
    result.volume.toWorld = geometry.toWorld;
    result.volume.hasOrientation = geometry.hasOrientation;
    result.volume.format = headers.size() > 1 ? "DICOM series" : depth > 1 ? "DICOM multi-frame" : "DICOM";
    return result;
}

} // namespace rgx::volume
