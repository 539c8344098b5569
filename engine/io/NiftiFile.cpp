// NIfTI-1 and NIfTI-2 volumes (.nii, .nii.gz) through nifti_clib's nifti2_io,
// which reads both versions and gzip through znzlib. Writing builds the
// header with the same library and the file (and its gzip stream, with zlib)
// in memory: nifti_image_write of nifti_clib 3.0.1 (Debian 12) writes a
// single-file NIfTI-2 without its header, and memory is what QSaveFile wants.
#include "io/VolumeFormats.h"
#include "io/VolumeValues.h"

#include "Errors.h"

#include <QFile>

#include <nifti2_io.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>

namespace rgx::volume {

namespace {

constexpr int niftiOneHeaderBytes = 348;
constexpr int niftiTwoHeaderBytes = 540;
constexpr int extensionFlagBytes = 4; // "no extensions" after the header

// nifti_clib prints its complaints on stderr while debug > 0; RGX says what
// went wrong in one message of its own instead.
void quietNiftiLibrary()
{
    static std::once_flag once;
    std::call_once(once, [] { nifti_set_debug_level(0); });
}

struct NiftiImageFree {
    void operator()(nifti_image* image) const { nifti_image_free(image); }
};
using NiftiImagePointer = std::unique_ptr<nifti_image, NiftiImageFree>;

// The first bytes of the file, through zlib so that .gz and plain files read
// alike; throws for a gzip stream that is corrupt.
QByteArray leadingBytes(const QString& path, int count, const std::string& subject)
{
    gzFile file = gzopen(QFile::encodeName(path).constData(), "rb");
    if (!file)
        throw InputError("cannot read " + subject + ": it cannot be opened");
    QByteArray bytes(count, '\0');
    const int read = gzread(file, bytes.data(), unsigned(count));
    int zlibError = Z_OK;
    const std::string reason = read < 0 ? gzerror(file, &zlibError) : "";
    gzclose(file);
    if (read < 0)
        throw InputError("cannot read " + subject + ": its gzip data is corrupt (" + reason + ")");
    bytes.truncate(read);
    return bytes;
}

// The header's first field, sizeof_hdr, in either byte order.
bool headerSizeIs(const QByteArray& bytes, int32_t size)
{
    if (bytes.size() < 4)
        return false;
    const auto at = [&](int i) { return uint32_t(uint8_t(bytes[i])); };
    const uint32_t little = at(0) | at(1) << 8 | at(2) << 16 | at(3) << 24;
    const uint32_t big = at(3) | at(2) << 8 | at(1) << 16 | at(0) << 24;
    return little == uint32_t(size) || big == uint32_t(size);
}

struct NiftiSamples {
    SampleType type;
    int channels;
};

NiftiSamples samplesOf(int datatype, const std::string& subject)
{
    switch (datatype) {
    case DT_UINT8: return {SampleType::UInt8, 1};
    case DT_INT8: return {SampleType::Int8, 1};
    case DT_UINT16: return {SampleType::UInt16, 1};
    case DT_INT16: return {SampleType::Int16, 1};
    case DT_UINT32: return {SampleType::UInt32, 1};
    case DT_INT32: return {SampleType::Int32, 1};
    case DT_UINT64: return {SampleType::UInt64, 1};
    case DT_INT64: return {SampleType::Int64, 1};
    case DT_RGB24: return {SampleType::UInt8, 3};
    case DT_RGBA32: return {SampleType::UInt8, 4};
    case DT_FLOAT32:
    case DT_FLOAT64:
    case DT_FLOAT128:
        throw InputError("cannot read " + subject + ": it holds floating-point voxels (NIfTI datatype "
                         + nifti_datatype_to_string(datatype)
                         + "); RGX reads integer voxels only: convert the file to an integer type first");
    default:
        throw InputError("cannot read " + subject + ": unsupported NIfTI datatype "
                         + nifti_datatype_to_string(datatype) + " (" + std::to_string(datatype)
                         + "); RGX reads 8- to 64-bit integers and RGB");
    }
}

// Millimetres per unit of the file's xyz_units (unknown: taken as mm).
double millimetresPer(int xyzUnits)
{
    switch (xyzUnits) {
    case NIFTI_UNITS_METER: return 1000.0;
    case NIFTI_UNITS_MICRON: return 0.001;
    default: return 1.0;
    }
}

std::array<double, 16> rowMajor(const nifti_dmat44& matrix, double scale)
{
    std::array<double, 16> result{};
    for (int row = 0; row < 4; ++row)
        for (int column = 0; column < 4; ++column)
            result[size_t(row * 4 + column)] = matrix.m[row][column] * (row < 3 ? scale : 1.0);
    return result;
}

nifti_dmat44 toNiftiMatrix(const std::array<double, 16>& matrix)
{
    nifti_dmat44 result{};
    for (int row = 0; row < 4; ++row)
        for (int column = 0; column < 4; ++column)
            result.m[row][column] = matrix[size_t(row * 4 + column)];
    return result;
}

// A whole gzip stream (header, deflate data, trailer) of bytes.
QByteArray gzipped(const QByteArray& bytes, const QString& path)
{
    z_stream stream{};
    constexpr int gzipWindowBits = 15 + 16; // 32 KiB window, gzip wrapper
    if (deflateInit2(&stream, 6, Z_DEFLATED, gzipWindowBits, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw InputError("cannot write " + quoted(path) + ": zlib could not start compressing");
    QByteArray out;
    constexpr qsizetype chunk = qsizetype(1) << 20;
    constexpr qsizetype maxInput = qsizetype(1) << 30; // avail_in is 32-bit
    qsizetype consumed = 0;
    int status = Z_OK;
    do {
        const qsizetype input = std::min(maxInput, bytes.size() - consumed);
        stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.constData() + consumed));
        stream.avail_in = uInt(input);
        const bool last = consumed + input == bytes.size();
        do {
            const qsizetype before = out.size();
            out.resize(before + chunk);
            stream.next_out = reinterpret_cast<Bytef*>(out.data() + before);
            stream.avail_out = uInt(chunk);
            status = deflate(&stream, last ? Z_FINISH : Z_NO_FLUSH);
            out.resize(before + chunk - qsizetype(stream.avail_out));
        } while (stream.avail_out == 0);
        consumed += input - qsizetype(stream.avail_in);
    } while (status != Z_STREAM_END && status != Z_STREAM_ERROR);
    deflateEnd(&stream);
    if (status != Z_STREAM_END)
        throw InputError("cannot write " + quoted(path) + ": zlib failed while compressing");
    return out;
}

} // namespace

LumaImage readNifti(const QString& path)
{
    const std::string subject = "NIfTI file " + quoted(path);
    requireReadableFile(path, subject);
    quietNiftiLibrary();

    const QByteArray start = leadingBytes(path, niftiTwoHeaderBytes, subject);
    if (start.size() < niftiOneHeaderBytes)
        throw InputError("cannot read " + subject + ": it is too short for a NIfTI header ("
                         + std::to_string(start.size()) + " bytes)");
    if (!headerSizeIs(start, niftiOneHeaderBytes) && !headerSizeIs(start, niftiTwoHeaderBytes))
        throw InputError("cannot read " + subject + ": not a NIfTI file (no NIfTI-1 or NIfTI-2 header at its start)");

    const QByteArray name = QFile::encodeName(path);
    NiftiImagePointer image(nifti_image_read(name.constData(), 0));
    if (!image)
        throw InputError("cannot read " + subject + ": its NIfTI header is corrupt");

    for (int axis = 4; axis <= 7; ++axis) {
        if (image->dim[0] >= axis && image->dim[axis] > 1)
            throw InputError("cannot read " + subject + ": it is " + std::to_string(image->dim[0])
                             + "-D (dimension " + std::to_string(axis) + " holds " + std::to_string(image->dim[axis])
                             + " volumes); RGX reads one 3-D volume");
    }
    const NiftiSamples samples = samplesOf(image->datatype, subject);
    requireVolumeSize(image->nx, image->ny, image->nz, subject);

    std::optional<Rescale> rescale = Rescale{};
    if (image->scl_slope != 0.0 && (image->scl_slope != 1.0 || image->scl_inter != 0.0)) {
        rescale = integerRescale(image->scl_slope, image->scl_inter);
        if (!rescale)
            throw InputError("cannot read " + subject + ": its scaling (scl_slope " + decimal(image->scl_slope)
                             + ", scl_inter " + decimal(image->scl_inter)
                             + ") turns integers into fractions; RGX reads integer values only");
    }

    if (nifti_image_load(image.get()) != 0 || !image->data) {
        throw InputError("cannot read " + subject + ": its voxel data is truncated or corrupt (expected "
                         + std::to_string(int64_t(image->nvox) * image->nbyper) + " bytes after the header)");
    }

    StoredVolume stored;
    stored.width = int(image->nx);
    stored.height = int(image->ny);
    stored.depth = int(image->nz);
    stored.channels = samples.channels;
    stored.type = samples.type;
    stored.data = image->data;
    stored.sliceRescale = {*rescale};
    LumaImage result = lumaOfStoredVolume(stored, subject);

    const double unit = millimetresPer(image->xyz_units);
    const auto spacingOf = [&](double pixdim) { return pixdim > 0.0 && std::isfinite(pixdim) ? pixdim * unit : 1.0; };
    result.volume.spacing = {spacingOf(std::fabs(image->dx)), spacingOf(std::fabs(image->dy)),
                             spacingOf(std::fabs(image->dz))};
    if (image->sform_code > 0) {
        result.volume.toWorld = rowMajor(image->sto_xyz, unit);
        result.volume.hasOrientation = true;
    } else if (image->qform_code > 0) {
        result.volume.toWorld = rowMajor(image->qto_xyz, unit);
        result.volume.hasOrientation = true;
    } else {
        result.volume.toWorld = scaledIdentity(result.volume.spacing);
        result.volume.hasOrientation = false;
    }
    // The version from the header's size: nifti_clib 3.0.1 (Debian 12)
    // reports a NIfTI-2 file as nifti_type NIFTI1_1.
    if (headerSizeIs(start, niftiTwoHeaderBytes))
        result.volume.format = "NIfTI-2";
    else if (image->nifti_type == NIFTI_FTYPE_ANALYZE)
        result.volume.format = "ANALYZE 7.5";
    else
        result.volume.format = "NIfTI-1";
    return result;
}

QByteArray niftiBytes(const VoxelsToWrite& voxels, const VolumeInfo& info, NiftiVersion version, bool gzip,
                      const QString& path)
{
    quietNiftiLibrary();
    constexpr int niftiOneLargestSide = 32767;
    const bool fitsOne = std::max({voxels.width, voxels.height, voxels.depth}) <= niftiOneLargestSide;
    if (version == NiftiVersion::Automatic)
        version = fitsOne ? NiftiVersion::One : NiftiVersion::Two;
    if (version == NiftiVersion::One && !fitsOne)
        throw InputError("cannot write " + quoted(path) + ": NIfTI-1 holds at most 32767 voxels a side, the volume is "
                         + std::to_string(voxels.width) + " x " + std::to_string(voxels.height) + " x "
                         + std::to_string(voxels.depth));

    const int64_t dims[8] = {3, voxels.width, voxels.height, voxels.depth, 1, 1, 1, 1};
    const int datatype = voxels.bytesPerValue == 2 ? DT_UINT16 : DT_UINT32;
    NiftiImagePointer image(nifti_make_new_nim(dims, datatype, 0));
    if (!image)
        throw InputError("cannot write " + quoted(path) + ": nifti_clib could not make a header");
    const bool one = version == NiftiVersion::One;
    image->nifti_type = one ? NIFTI_FTYPE_NIFTI1_1 : NIFTI_FTYPE_NIFTI2_1;
    const int headerBytes = one ? niftiOneHeaderBytes : niftiTwoHeaderBytes;
    image->iname_offset = headerBytes + extensionFlagBytes;

    image->dx = image->pixdim[1] = info.spacing[0];
    image->dy = image->pixdim[2] = info.spacing[1];
    image->dz = image->pixdim[3] = info.spacing[2];
    image->xyz_units = NIFTI_UNITS_MM;
    image->time_units = NIFTI_UNITS_UNKNOWN;
    if (info.hasOrientation) {
        // The same matrix as sform (exact) and as qform (the rotation part,
        // for readers that look at the qform only).
        image->sform_code = NIFTI_XFORM_SCANNER_ANAT;
        image->sto_xyz = toNiftiMatrix(info.toWorld);
        double dx = 0, dy = 0, dz = 0;
        nifti_dmat44_to_quatern(image->sto_xyz, &image->quatern_b, &image->quatern_c, &image->quatern_d,
                                &image->qoffset_x, &image->qoffset_y, &image->qoffset_z, &dx, &dy, &dz, &image->qfac);
        image->qform_code = NIFTI_XFORM_SCANNER_ANAT;
    } else {
        image->sform_code = NIFTI_XFORM_UNKNOWN;
        image->qform_code = NIFTI_XFORM_UNKNOWN;
    }
    std::strncpy(image->descrip, "RGX", sizeof image->descrip - 1);

    // The display window of viewers: 0 to the largest value.
    uint64_t largest = 0;
    const auto* values = static_cast<const uint8_t*>(voxels.data);
    for (uint64_t i = 0; i < voxels.count(); ++i) {
        uint32_t value = 0;
        if (voxels.bytesPerValue == 2) {
            uint16_t v;
            std::memcpy(&v, values + 2 * i, 2);
            value = v;
        } else {
            std::memcpy(&value, values + 4 * i, 4);
        }
        largest = std::max<uint64_t>(largest, value);
    }
    image->cal_min = 0;
    image->cal_max = double(largest);

    QByteArray bytes;
    const qsizetype dataBytes = qsizetype(voxels.count() * uint64_t(voxels.bytesPerValue));
    bytes.reserve(headerBytes + extensionFlagBytes + dataBytes);
    // Host byte order throughout: a reader tells the order from the header's
    // size field, so the file is valid NIfTI on either kind of machine.
    if (one) {
        nifti_1_header header{};
        if (nifti_convert_nim2n1hdr(image.get(), &header) != 0)
            throw InputError("cannot write " + quoted(path) + ": the volume does not fit a NIfTI-1 header");
        bytes.append(reinterpret_cast<const char*>(&header), sizeof header);
    } else {
        nifti_2_header header{};
        if (nifti_convert_nim2n2hdr(image.get(), &header) != 0)
            throw InputError("cannot write " + quoted(path) + ": the volume does not fit a NIfTI-2 header");
        bytes.append(reinterpret_cast<const char*>(&header), sizeof header);
    }
    bytes.append(QByteArray(extensionFlagBytes, '\0'));
    bytes.append(static_cast<const char*>(voxels.data), dataBytes);
    return gzip ? gzipped(bytes, path) : bytes;
}

} // namespace rgx::volume
