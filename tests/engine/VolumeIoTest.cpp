// Volume files in and out (docs/VOLUMES.md): NIfTI-1/2 (.nii, .nii.gz),
// multi-page TIFF, slice folders and DICOM series written here by the
// formats' own libraries (nifti_clib, libtiff, Qt, GDCM) are read back voxel
// for voxel with their spacing and signed shift; RGX's writers are read back
// by those libraries; every bad input gives one message naming the file; the
// bundled sample volumes read as their makers describe them.
#include "InputErrors.h"
#include "Errors.h"
#include "Image.h"
#include "io/Export.h"
#include "io/VolumeFile.h"
#include "io/VolumeValues.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>

#include <gdcmAttribute.h>
#include <gdcmImageWriter.h>
#include <gdcmReader.h>
#include <gdcmTrace.h>
#include <gdcmUIDGenerator.h>
#include <gdcmUIDs.h>
#include <gdcmWriter.h>
#include <nifti2_io.h>
#include <tiffio.h>
#include <zlib.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <string>

namespace {

using rgx::InputError;
using rgx::LumaImage;
using rgx::VolumeInfo;

constexpr unsigned rngSeed = 20261126;

using rgx::test::inputErrorOf;

// The message names the file (or folder) and says what is wrong.
::testing::AssertionResult namesFileAndReason(const std::string& message, const QString& path,
                                              const std::string& reason)
{
    if (message.find(path.toStdString()) == std::string::npos)
        return ::testing::AssertionFailure() << "message does not name " << path.toStdString() << ": " << message;
    if (message.find(reason) == std::string::npos)
        return ::testing::AssertionFailure() << "message does not say '" << reason << "': " << message;
    return ::testing::AssertionSuccess();
}

// First voxel where the luma differs from expected, as (x,y,z).
::testing::AssertionResult lumaEquals(const LumaImage& volume, const std::vector<int>& expected)
{
    if (volume.luma.size() != expected.size())
        return ::testing::AssertionFailure() << "luma holds " << volume.luma.size() << " values, expected "
                                             << expected.size();
    const size_t slice = size_t(volume.width) * size_t(volume.height);
    for (size_t i = 0; i < expected.size(); ++i) {
        if (int(volume.luma[i]) != expected[i])
            return ::testing::AssertionFailure()
                   << "RNG seed " << rngSeed << ": first differing voxel (" << i % size_t(volume.width) << ","
                   << (i % slice) / size_t(volume.width) << "," << i / slice << "): luma " << volume.luma[i]
                   << ", expected " << expected[i];
    }
    return ::testing::AssertionSuccess();
}

template <typename T>
std::vector<T> randomValues(size_t count, int64_t low, int64_t high, uint32_t salt)
{
    std::mt19937_64 rng(rngSeed + salt);
    std::uniform_int_distribution<int64_t> value(low, high);
    std::vector<T> values(count);
    for (T& v : values)
        v = T(value(rng));
    return values;
}

template <typename T>
std::vector<int> shifted(const std::vector<T>& values, int64_t shift)
{
    std::vector<int> result(values.size());
    for (size_t i = 0; i < values.size(); ++i)
        result[i] = int(int64_t(values[i]) + shift);
    return result;
}

const std::array<double, 16> orientedMatrix = {-0.5, 0, 0, 10, 0, 0.75, 0, -20, 0, 0, 2, 5, 0, 0, 0, 1};

// A NIfTI file written by nifti_clib itself, independent of RGX's writer.
struct NiftiSpec {
    int64_t nx = 7, ny = 5, nz = 3, nt = 1;
    int datatype = DT_UINT16;
    std::array<double, 3> spacing{0.5, 0.75, 2.0};
    double slope = 0, intercept = 0;
    bool sform = true, qform = false;
    int version = 1;
};

void writeNiftiWithLibrary(const QString& path, const NiftiSpec& spec, const void* data)
{
    nifti_set_debug_level(0);
    const int64_t dims[8] = {spec.nt > 1 ? 4 : 3, spec.nx, spec.ny, spec.nz, spec.nt, 1, 1, 1};
    nifti_image* image = nifti_make_new_nim(dims, spec.datatype, 1);
    ASSERT_NE(image, nullptr);
    std::memcpy(image->data, data, size_t(image->nvox) * size_t(image->nbyper));
    image->dx = image->pixdim[1] = spec.spacing[0];
    image->dy = image->pixdim[2] = spec.spacing[1];
    image->dz = image->pixdim[3] = spec.spacing[2];
    image->xyz_units = NIFTI_UNITS_MM;
    image->scl_slope = spec.slope;
    image->scl_inter = spec.intercept;
    nifti_dmat44 matrix{};
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c)
            matrix.m[r][c] = orientedMatrix[size_t(r * 4 + c)];
    if (spec.sform) {
        image->sform_code = NIFTI_XFORM_SCANNER_ANAT;
        image->sto_xyz = matrix;
    }
    if (spec.qform) {
        double dx, dy, dz;
        nifti_dmat44_to_quatern(matrix, &image->quatern_b, &image->quatern_c, &image->quatern_d, &image->qoffset_x,
                                &image->qoffset_y, &image->qoffset_z, &dx, &dy, &dz, &image->qfac);
        image->qform_code = NIFTI_XFORM_SCANNER_ANAT;
    }
    const QByteArray name = QFile::encodeName(path);
    if (spec.version == 1) {
        ASSERT_EQ(nifti_set_filenames(image, name.constData(), 0, 1), 0);
        image->nifti_type = NIFTI_FTYPE_NIFTI1_1;
        nifti_image_write(image);
    } else {
        // nifti_image_write of nifti_clib 3.0.1 (Debian 12) leaves out the
        // header of a single-file NIfTI-2: write the library's header and
        // the data through zlib here ("T": no compression for .nii).
        image->nifti_type = NIFTI_FTYPE_NIFTI2_1;
        image->iname_offset = 544;
        nifti_2_header header{};
        ASSERT_EQ(nifti_convert_nim2n2hdr(image, &header), 0);
        gzFile file = gzopen(name.constData(), path.endsWith(".gz") ? "wb" : "wbT");
        ASSERT_NE(file, nullptr);
        const char noExtensions[4] = {0, 0, 0, 0};
        gzwrite(file, &header, sizeof header);
        gzwrite(file, noExtensions, 4);
        gzwrite(file, image->data, unsigned(image->nvox * image->nbyper));
        gzclose(file);
    }
    nifti_image_free(image);
    ASSERT_TRUE(QFile::exists(path)) << "nifti_clib wrote no " << path.toStdString();
}

// The header size at the start of a (gzip or plain) NIfTI file: 348 or 540.
int niftiHeaderSize(const QString& path)
{
    gzFile file = gzopen(QFile::encodeName(path).constData(), "rb");
    int32_t size = 0;
    if (file) {
        gzread(file, &size, sizeof size);
        gzclose(file);
    }
    return size;
}

void expectMatrixNear(const std::array<double, 16>& actual, const std::array<double, 16>& expected, double tolerance)
{
    for (size_t i = 0; i < 16; ++i)
        EXPECT_NEAR(actual[i], expected[i], tolerance) << "toWorld element " << i;
}

// A multi-page TIFF written by libtiff itself, one page a slice.
struct TiffPage {
    uint32_t width, height;
    uint16_t bits, sampleFormat = SAMPLEFORMAT_UINT, samples = 1;
    const void* data;
};

void writeTiffWithLibrary(const QString& path, const std::vector<TiffPage>& pages, const char* description = nullptr)
{
    TIFF* tiff = TIFFOpen(QFile::encodeName(path).constData(), "w");
    ASSERT_NE(tiff, nullptr);
    for (size_t p = 0; p < pages.size(); ++p) {
        const TiffPage& page = pages[p];
        TIFFSetField(tiff, TIFFTAG_SUBFILETYPE, FILETYPE_PAGE);
        TIFFSetField(tiff, TIFFTAG_IMAGEWIDTH, page.width);
        TIFFSetField(tiff, TIFFTAG_IMAGELENGTH, page.height);
        TIFFSetField(tiff, TIFFTAG_BITSPERSAMPLE, page.bits);
        TIFFSetField(tiff, TIFFTAG_SAMPLESPERPIXEL, page.samples);
        TIFFSetField(tiff, TIFFTAG_SAMPLEFORMAT, page.sampleFormat);
        TIFFSetField(tiff, TIFFTAG_PHOTOMETRIC, page.samples == 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK);
        TIFFSetField(tiff, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
        TIFFSetField(tiff, TIFFTAG_COMPRESSION, p % 2 ? COMPRESSION_LZW : COMPRESSION_NONE);
        TIFFSetField(tiff, TIFFTAG_ROWSPERSTRIP, 2u);
        if (p == 0 && description)
            TIFFSetField(tiff, TIFFTAG_IMAGEDESCRIPTION, description);
        const size_t rowBytes = size_t(page.width) * page.samples * page.bits / 8;
        std::vector<uint8_t> row(rowBytes);
        for (uint32_t y = 0; y < page.height; ++y) {
            std::memcpy(row.data(), static_cast<const uint8_t*>(page.data) + y * rowBytes, rowBytes);
            ASSERT_GE(TIFFWriteScanline(tiff, row.data(), y, 0), 0);
        }
        ASSERT_TRUE(TIFFWriteDirectory(tiff));
    }
    TIFFClose(tiff);
}

// One CT slice written by GDCM's writer: signed 16-bit with rescale
// intercept -1024, at `z` mm along the normal (0, 0, 1).
struct DicomSlice {
    unsigned width = 6, height = 4;
    std::vector<int16_t> stored;
    double z = 0;
    int instance = 1;
    std::string seriesUid;
    double intercept = -1024, slope = 1;
    bool position = true;
};

void writeDicomWithLibrary(const QString& path, const DicomSlice& slice)
{
    gdcm::Trace::SetWarning(false);
    gdcm::ImageWriter writer;
    gdcm::Image& image = writer.GetImage();
    image.SetNumberOfDimensions(2);
    image.SetDimension(0, slice.width);
    image.SetDimension(1, slice.height);
    image.SetPixelFormat(gdcm::PixelFormat(gdcm::PixelFormat::INT16));
    image.SetPhotometricInterpretation(gdcm::PhotometricInterpretation::MONOCHROME2);
    image.SetSpacing(0, 0.8);
    image.SetSpacing(1, 0.6);
    if (slice.position) {
        image.SetOrigin(0, -100.0);
        image.SetOrigin(1, -50.0);
        image.SetOrigin(2, slice.z);
        const double direction[6] = {1, 0, 0, 0, 1, 0};
        image.SetDirectionCosines(direction);
    }
    image.SetIntercept(slice.intercept);
    image.SetSlope(slice.slope);
    gdcm::DataElement pixels(gdcm::Tag(0x7fe0, 0x0010));
    pixels.SetByteValue(reinterpret_cast<const char*>(slice.stored.data()), uint32_t(slice.stored.size() * 2));
    image.SetDataElement(pixels);

    gdcm::DataSet& dataSet = writer.GetFile().GetDataSet();
    gdcm::Attribute<0x0008, 0x0016> sopClass;
    sopClass.SetValue(gdcm::UIDs::GetUIDString(gdcm::UIDs::CTImageStorage));
    dataSet.Replace(sopClass.GetAsDataElement());
    gdcm::Attribute<0x0008, 0x0060> modality;
    modality.SetValue("CT");
    dataSet.Replace(modality.GetAsDataElement());
    gdcm::Attribute<0x0020, 0x000e> series;
    series.SetValue(slice.seriesUid);
    dataSet.Replace(series.GetAsDataElement());
    gdcm::Attribute<0x0020, 0x0013> instance;
    instance.SetValue(slice.instance);
    dataSet.Replace(instance.GetAsDataElement());
    gdcm::Attribute<0x0018, 0x0050> thickness;
    thickness.SetValue(2.5);
    dataSet.Replace(thickness.GetAsDataElement());

    writer.SetFileName(QFile::encodeName(path).constData());
    ASSERT_TRUE(writer.Write()) << "GDCM could not write " << path.toStdString();
    if (!slice.position) {
        // Strip the position GDCM wrote by default, as some secondary captures lack it.
        gdcm::Reader reader;
        reader.SetFileName(QFile::encodeName(path).constData());
        ASSERT_TRUE(reader.Read());
        reader.GetFile().GetDataSet().Remove(gdcm::Tag(0x0020, 0x0032));
        reader.GetFile().GetDataSet().Remove(gdcm::Tag(0x0020, 0x0037));
        gdcm::Writer plain;
        plain.SetFile(reader.GetFile());
        plain.SetFileName(QFile::encodeName(path).constData());
        ASSERT_TRUE(plain.Write());
    }
}

std::string newSeriesUid()
{
    gdcm::UIDGenerator generator;
    return generator.Generate();
}

class VolumeIo : public ::testing::Test {
protected:
    QString path(const QString& name) const { return directory.filePath(name); }
    QString folder(const QString& name) const
    {
        QDir(directory.path()).mkpath(name);
        return directory.filePath(name);
    }
    void writeBytes(const QString& file, const QByteArray& bytes) const
    {
        QFile out(file);
        ASSERT_TRUE(out.open(QIODevice::WriteOnly));
        out.write(bytes);
    }

    QTemporaryDir directory;
};

// ---------------------------------------------------------------- NIfTI

TEST_F(VolumeIo, NiftiOneUnsigned16ReadsVoxelForVoxelWithSpacingAndSform)
{
    NiftiSpec spec;
    const auto values = randomValues<uint16_t>(size_t(spec.nx * spec.ny * spec.nz), 0, 65535, 1);
    writeNiftiWithLibrary(path("u16.nii"), spec, values.data());

    const LumaImage volume = rgx::loadLumaVolume(path("u16.nii"));
    EXPECT_EQ(volume.width, 7);
    EXPECT_EQ(volume.height, 5);
    EXPECT_EQ(volume.depth, 3);
    EXPECT_EQ(volume.bitDepth, 16);
    EXPECT_FALSE(volume.colour);
    EXPECT_EQ(volume.volume.valueShift, 0);
    EXPECT_EQ(volume.volume.format, "NIfTI-1");
    EXPECT_EQ(volume.volume.spacing, (std::array<double, 3>{0.5, 0.75, 2.0}));
    EXPECT_TRUE(volume.volume.hasOrientation);
    expectMatrixNear(volume.volume.toWorld, orientedMatrix, 1e-6);
    EXPECT_TRUE(lumaEquals(volume, shifted(values, 0)));
}

TEST_F(VolumeIo, NiftiOneGzipUnsigned8Reads)
{
    NiftiSpec spec;
    spec.datatype = DT_UINT8;
    const auto values = randomValues<uint8_t>(size_t(spec.nx * spec.ny * spec.nz), 0, 255, 2);
    writeNiftiWithLibrary(path("u8.nii.gz"), spec, values.data());
    ASSERT_EQ(QFile(path("u8.nii.gz")).open(QIODevice::ReadOnly), true);

    const LumaImage volume = rgx::loadLumaVolume(path("u8.nii.gz"));
    EXPECT_EQ(volume.bitDepth, 8);
    EXPECT_EQ(volume.volume.valueShift, 0);
    EXPECT_TRUE(lumaEquals(volume, shifted(values, 0)));
}

TEST_F(VolumeIo, NiftiTwoSigned16IsShiftedBy32768)
{
    NiftiSpec spec;
    spec.datatype = DT_INT16;
    spec.version = 2;
    const auto values = randomValues<int16_t>(size_t(spec.nx * spec.ny * spec.nz), -32768, 32767, 3);
    writeNiftiWithLibrary(path("ct.nii.gz"), spec, values.data());

    const LumaImage volume = rgx::loadLumaVolume(path("ct.nii.gz"));
    EXPECT_EQ(volume.volume.format, "NIfTI-2");
    EXPECT_EQ(volume.bitDepth, 16);
    EXPECT_EQ(volume.volume.valueShift, 32768);
    EXPECT_TRUE(lumaEquals(volume, shifted(values, 32768)));
}

TEST_F(VolumeIo, NiftiSigned16IsShiftedEvenWhenNoValueIsNegative)
{
    NiftiSpec spec;
    spec.datatype = DT_INT16;
    const auto values = randomValues<int16_t>(size_t(spec.nx * spec.ny * spec.nz), 0, 100, 4);
    writeNiftiWithLibrary(path("positive.nii"), spec, values.data());
    const LumaImage volume = rgx::loadLumaVolume(path("positive.nii"));
    EXPECT_EQ(volume.volume.valueShift, 32768) << "the type decides the shift, so that one range fits every scan";
    EXPECT_TRUE(lumaEquals(volume, shifted(values, 32768)));
}

TEST_F(VolumeIo, NiftiQformIsUsedWhenThereIsNoSform)
{
    NiftiSpec spec;
    spec.sform = false;
    spec.qform = true;
    const auto values = randomValues<uint16_t>(size_t(spec.nx * spec.ny * spec.nz), 0, 65535, 5);
    writeNiftiWithLibrary(path("qform.nii"), spec, values.data());
    const LumaImage volume = rgx::loadLumaVolume(path("qform.nii"));
    EXPECT_TRUE(volume.volume.hasOrientation);
    expectMatrixNear(volume.volume.toWorld, orientedMatrix, 1e-5);
}

TEST_F(VolumeIo, NiftiWithoutOrientationGetsTheSpacingAsMatrix)
{
    NiftiSpec spec;
    spec.sform = false;
    const auto values = randomValues<uint16_t>(size_t(spec.nx * spec.ny * spec.nz), 0, 65535, 6);
    writeNiftiWithLibrary(path("plain.nii"), spec, values.data());
    const LumaImage volume = rgx::loadLumaVolume(path("plain.nii"));
    EXPECT_FALSE(volume.volume.hasOrientation);
    expectMatrixNear(volume.volume.toWorld, {0.5, 0, 0, 0, 0, 0.75, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1}, 1e-12);
}

TEST_F(VolumeIo, NiftiIntegerRescaleIsAppliedThenShifted)
{
    NiftiSpec spec;
    spec.slope = 1;
    spec.intercept = -1024; // CT stored unsigned: HU = stored - 1024
    const auto values = randomValues<uint16_t>(size_t(spec.nx * spec.ny * spec.nz), 0, 4095, 7);
    writeNiftiWithLibrary(path("rescaled.nii"), spec, values.data());
    const LumaImage volume = rgx::loadLumaVolume(path("rescaled.nii"));
    EXPECT_EQ(volume.volume.valueShift, 32768);
    EXPECT_TRUE(lumaEquals(volume, shifted(values, 32768 - 1024)));
}

TEST_F(VolumeIo, NiftiFractionalRescaleIsRefused)
{
    NiftiSpec spec;
    spec.slope = 0.5;
    const auto values = randomValues<uint16_t>(size_t(spec.nx * spec.ny * spec.nz), 0, 4095, 8);
    writeNiftiWithLibrary(path("half.nii"), spec, values.data());
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(path("half.nii")); }), path("half.nii"),
                                   "turns integers into fractions"));
}

TEST_F(VolumeIo, NiftiFloatIsRefusedWithOneClearMessage)
{
    NiftiSpec spec;
    spec.datatype = DT_FLOAT32;
    const std::vector<float> values(size_t(spec.nx * spec.ny * spec.nz), 1.5f);
    writeNiftiWithLibrary(path("float.nii"), spec, values.data());
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(path("float.nii")); }), path("float.nii"),
                                   "floating-point voxels"));
}

TEST_F(VolumeIo, NiftiRgbReadsAsSpecLuma)
{
    NiftiSpec spec;
    spec.datatype = DT_RGB24;
    const size_t voxels = size_t(spec.nx * spec.ny * spec.nz);
    const auto rgb = randomValues<uint8_t>(3 * voxels, 0, 255, 9);
    writeNiftiWithLibrary(path("rgb.nii"), spec, rgb.data());
    const LumaImage volume = rgx::loadLumaVolume(path("rgb.nii"));
    std::vector<int> expected(voxels);
    for (size_t i = 0; i < voxels; ++i)
        expected[i] = (77 * rgb[3 * i] + 150 * rgb[3 * i + 1] + 29 * rgb[3 * i + 2] + 128) >> 8;
    EXPECT_TRUE(volume.colour);
    EXPECT_EQ(volume.bitDepth, 8);
    EXPECT_TRUE(lumaEquals(volume, expected));
}

TEST_F(VolumeIo, NiftiWideIntegersAreReadWhenTheyFitSixteenBits)
{
    NiftiSpec spec;
    spec.datatype = DT_INT32;
    const size_t voxels = size_t(spec.nx * spec.ny * spec.nz);
    const auto labels = randomValues<int32_t>(voxels, 0, 40000, 10);
    writeNiftiWithLibrary(path("labels.nii"), spec, labels.data());
    const LumaImage volume = rgx::loadLumaVolume(path("labels.nii"));
    EXPECT_EQ(volume.volume.valueShift, 0);
    EXPECT_EQ(volume.bitDepth, 16);
    EXPECT_TRUE(lumaEquals(volume, shifted(labels, 0)));

    auto wide = randomValues<int32_t>(voxels, -10, 10, 11);
    wide[3] = -70000;
    wide[4] = 70000;
    writeNiftiWithLibrary(path("wide.nii"), spec, wide.data());
    const std::string message = inputErrorOf([&] { rgx::loadLumaVolume(path("wide.nii")); });
    EXPECT_TRUE(namesFileAndReason(message, path("wide.nii"), "values run from -70000 to 70000"));
}

TEST_F(VolumeIo, NiftiFourDimensionalIsRefused)
{
    NiftiSpec spec;
    spec.nt = 2;
    const auto values = randomValues<uint16_t>(size_t(spec.nx * spec.ny * spec.nz * 2), 0, 100, 12);
    writeNiftiWithLibrary(path("time.nii"), spec, values.data());
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(path("time.nii")); }), path("time.nii"),
                                   "RGX reads one 3-D volume"));
}

TEST_F(VolumeIo, NiftiBadFilesGiveOneMessageNamingTheFile)
{
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(path("missing.nii")); }),
                                   path("missing.nii"), "does not exist"));
    writeBytes(path("empty.nii"), {});
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(path("empty.nii")); }), path("empty.nii"),
                                   "empty"));
    writeBytes(path("text.nii"), QByteArray(400, 'x'));
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(path("text.nii")); }), path("text.nii"),
                                   "not a NIfTI file"));
    writeBytes(path("short.nii"), QByteArray(100, '\0'));
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(path("short.nii")); }), path("short.nii"),
                                   "too short"));
    // A gzip header followed by garbage.
    writeBytes(path("broken.nii.gz"), QByteArray("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10) + QByteArray(600, '\x7f'));
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(path("broken.nii.gz")); }),
                                   path("broken.nii.gz"), "corrupt"));

    NiftiSpec spec;
    const auto values = randomValues<uint16_t>(size_t(spec.nx * spec.ny * spec.nz), 0, 65535, 13);
    writeNiftiWithLibrary(path("whole.nii"), spec, values.data());
    QFile whole(path("whole.nii"));
    ASSERT_TRUE(whole.open(QIODevice::ReadOnly));
    writeBytes(path("truncated.nii"), whole.readAll().chopped(40));
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(path("truncated.nii")); }),
                                   path("truncated.nii"), "truncated or corrupt"));
}

TEST_F(VolumeIo, AVolumeOfMoreThanTwoToTheThirtyTwoVoxelsIsRefusedWithItsSize)
{
    // A header alone: the size is refused before any voxel is read.
    nifti_set_debug_level(0);
    const int64_t dims[8] = {3, 32767, 32767, 8, 1, 1, 1, 1};
    nifti_image* image = nifti_make_new_nim(dims, DT_UINT8, 0);
    ASSERT_NE(image, nullptr);
    image->nifti_type = NIFTI_FTYPE_NIFTI1_1;
    image->iname_offset = 352;
    nifti_1_header header{};
    ASSERT_EQ(nifti_convert_nim2n1hdr(image, &header), 0);
    nifti_image_free(image);
    writeBytes(path("huge.nii"), QByteArray(reinterpret_cast<const char*>(&header), sizeof header) + QByteArray(4, '\0'));
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(path("huge.nii")); }), path("huge.nii"),
                                   "32767 x 32767 x 8 = 8589410312 voxels, more than RGX's limit of 4294967295"));
}

// ---------------------------------------------------------------- TIFF

TEST_F(VolumeIo, TiffStacksOf8And16BitReadVoxelForVoxelWithImageJSpacing)
{
    const uint32_t width = 9, height = 7;
    const size_t slice = size_t(width) * height;
    const auto eight = randomValues<uint8_t>(3 * slice, 0, 255, 20);
    const auto sixteen = randomValues<uint16_t>(3 * slice, 0, 65535, 21);
    std::vector<TiffPage> eightPages, sixteenPages;
    for (size_t z = 0; z < 3; ++z) {
        eightPages.push_back({width, height, 8, SAMPLEFORMAT_UINT, 1, eight.data() + z * slice});
        sixteenPages.push_back({width, height, 16, SAMPLEFORMAT_UINT, 1, sixteen.data() + z * slice});
    }
    writeTiffWithLibrary(path("eight.tif"), eightPages);
    writeTiffWithLibrary(path("sixteen.tiff"), sixteenPages,
                         "ImageJ=1.53t\nimages=3\nslices=3\nunit=micron\nspacing=2.5\nloop=false\n");

    const LumaImage eightVolume = rgx::loadLumaVolume(path("eight.tif"));
    EXPECT_EQ(eightVolume.depth, 3);
    EXPECT_EQ(eightVolume.bitDepth, 8);
    EXPECT_EQ(eightVolume.volume.format, "TIFF stack");
    EXPECT_TRUE(lumaEquals(eightVolume, shifted(eight, 0)));

    const LumaImage sixteenVolume = rgx::loadLumaVolume(path("sixteen.tiff"));
    EXPECT_EQ(sixteenVolume.bitDepth, 16);
    EXPECT_EQ(sixteenVolume.volume.valueShift, 0);
    EXPECT_DOUBLE_EQ(sixteenVolume.volume.spacing[2], 0.0025) << "ImageJ's z spacing in microns, in mm";
    EXPECT_TRUE(lumaEquals(sixteenVolume, shifted(sixteen, 0)));
}

TEST_F(VolumeIo, TiffSigned16IsShiftedBy32768)
{
    const uint32_t width = 5, height = 4;
    const auto values = randomValues<int16_t>(2 * width * height, -32768, 32767, 22);
    writeTiffWithLibrary(path("signed.tif"), {{width, height, 16, SAMPLEFORMAT_INT, 1, values.data()},
                                              {width, height, 16, SAMPLEFORMAT_INT, 1, values.data() + width * height}});
    const LumaImage volume = rgx::loadLumaVolume(path("signed.tif"));
    EXPECT_EQ(volume.volume.valueShift, 32768);
    EXPECT_TRUE(lumaEquals(volume, shifted(values, 32768)));
}

TEST_F(VolumeIo, TiffRgbPagesReadAsSpecLuma)
{
    const uint32_t width = 4, height = 3;
    const size_t voxels = 2 * size_t(width) * height;
    const auto rgb = randomValues<uint8_t>(3 * voxels, 0, 255, 23);
    writeTiffWithLibrary(path("rgb.tif"), {{width, height, 8, SAMPLEFORMAT_UINT, 3, rgb.data()},
                                           {width, height, 8, SAMPLEFORMAT_UINT, 3, rgb.data() + 3 * width * height}});
    std::vector<int> expected(voxels);
    for (size_t i = 0; i < voxels; ++i)
        expected[i] = (77 * rgb[3 * i] + 150 * rgb[3 * i + 1] + 29 * rgb[3 * i + 2] + 128) >> 8;
    const LumaImage volume = rgx::loadLumaVolume(path("rgb.tif"));
    EXPECT_TRUE(volume.colour);
    EXPECT_TRUE(lumaEquals(volume, expected));
}

TEST_F(VolumeIo, TiffBadStacksGiveOneMessageNamingTheFile)
{
    const std::vector<uint8_t> pixels(64, 7);
    writeTiffWithLibrary(path("sizes.tif"), {{8, 8, 8, SAMPLEFORMAT_UINT, 1, pixels.data()},
                                             {4, 8, 8, SAMPLEFORMAT_UINT, 1, pixels.data()}});
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(path("sizes.tif")); }), path("sizes.tif"),
                                   "page 2 is 4 x 8 pixels, page 1 8 x 8"));

    const std::vector<uint16_t> wide(64, 7);
    writeTiffWithLibrary(path("depths.tif"), {{8, 8, 8, SAMPLEFORMAT_UINT, 1, pixels.data()},
                                              {8, 8, 16, SAMPLEFORMAT_UINT, 1, wide.data()}});
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(path("depths.tif")); }),
                                   path("depths.tif"), "page 2 holds"));

    const std::vector<float> floats(64, 0.5f);
    writeTiffWithLibrary(path("float.tif"), {{8, 8, 32, SAMPLEFORMAT_IEEEFP, 1, floats.data()},
                                             {8, 8, 32, SAMPLEFORMAT_IEEEFP, 1, floats.data()}});
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(path("float.tif")); }), path("float.tif"),
                                   "floating-point"));

    writeBytes(path("text.tif"), QByteArray(300, 'x'));
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(path("text.tif")); }), path("text.tif"),
                                   "not a readable TIFF"));

    // Page 2 is LZW-compressed (writeTiffWithLibrary): garble its strips.
    writeTiffWithLibrary(path("garbled.tif"), {{8, 8, 8, SAMPLEFORMAT_UINT, 1, pixels.data()},
                                               {8, 8, 8, SAMPLEFORMAT_UINT, 1, pixels.data()}});
    std::vector<uint64_t> offsets;
    {
        TIFF* tiff = TIFFOpen(QFile::encodeName(path("garbled.tif")).constData(), "r");
        ASSERT_NE(tiff, nullptr);
        ASSERT_TRUE(TIFFSetDirectory(tiff, 1));
        const uint64_t* stripOffsets = nullptr;
        ASSERT_TRUE(TIFFGetField(tiff, TIFFTAG_STRIPOFFSETS, &stripOffsets));
        offsets.assign(stripOffsets, stripOffsets + TIFFNumberOfStrips(tiff));
        TIFFClose(tiff);
    }
    QFile garbled(path("garbled.tif"));
    ASSERT_TRUE(garbled.open(QIODevice::ReadWrite));
    for (uint64_t offset : offsets) {
        garbled.seek(qint64(offset));
        garbled.write(QByteArray(4, '\xff'));
    }
    garbled.close();
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(path("garbled.tif")); }),
                                   path("garbled.tif"), "page 2 is truncated or corrupt"));
}

// ---------------------------------------------------------------- slice folders

TEST_F(VolumeIo, ASliceFolderStacksItsImagesInNaturalOrder)
{
    const QString slices = folder("slices");
    const int width = 6, height = 5;
    std::vector<int> expected;
    // Written out of order, named so that a plain sort would put 10 before 2.
    const int numbers[] = {10, 1, 2};
    std::map<int, std::vector<uint8_t>> byNumber;
    for (int number : numbers) {
        const auto values = randomValues<uint8_t>(size_t(width * height), 0, 255, uint32_t(30 + number));
        byNumber[number] = values;
        QImage image(width, height, QImage::Format_Grayscale8);
        for (int y = 0; y < height; ++y)
            std::memcpy(image.scanLine(y), values.data() + y * width, size_t(width));
        ASSERT_TRUE(image.save(QDir(slices).filePath(QString("slice%1.png").arg(number))));
    }
    for (const auto& [number, values] : byNumber)
        for (uint8_t v : values)
            expected.push_back(v);
    QFile notes(QDir(slices).filePath("notes.txt"));
    ASSERT_TRUE(notes.open(QIODevice::WriteOnly));
    notes.write("not a slice");
    notes.close();

    EXPECT_TRUE(rgx::isVolumePath(slices));
    const LumaImage volume = rgx::loadLumaVolume(slices);
    EXPECT_EQ(volume.width, width);
    EXPECT_EQ(volume.height, height);
    EXPECT_EQ(volume.depth, 3);
    EXPECT_EQ(volume.bitDepth, 8);
    EXPECT_EQ(volume.volume.format, "slice folder");
    EXPECT_TRUE(lumaEquals(volume, expected)) << "slices in the order 1, 2, 10";
}

TEST_F(VolumeIo, SixteenBitSlicesKeepTheirValues)
{
    const QString slices = folder("deep");
    const int width = 4, height = 3;
    std::vector<int> expected;
    for (int z = 0; z < 2; ++z) {
        const auto values = randomValues<uint16_t>(size_t(width * height), 0, 65535, uint32_t(40 + z));
        QImage image(width, height, QImage::Format_Grayscale16);
        for (int y = 0; y < height; ++y)
            std::memcpy(image.scanLine(y), values.data() + y * width, size_t(width) * 2);
        ASSERT_TRUE(image.save(QDir(slices).filePath(QString("%1.png").arg(z))));
        expected.insert(expected.end(), values.begin(), values.end());
    }
    const LumaImage volume = rgx::loadLumaVolume(slices);
    EXPECT_EQ(volume.bitDepth, 16);
    EXPECT_TRUE(lumaEquals(volume, expected));
}

TEST_F(VolumeIo, BadSliceFoldersGiveOneMessageNamingTheFile)
{
    const QString empty = folder("empty");
    EXPECT_FALSE(rgx::isVolumePath(empty));
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(empty); }), empty,
                                   "holds no DICOM files and no image slices"));

    const QString sizes = folder("sizes");
    ASSERT_TRUE(QImage(4, 4, QImage::Format_Grayscale8).save(QDir(sizes).filePath("1.png")));
    ASSERT_TRUE(QImage(5, 4, QImage::Format_Grayscale8).save(QDir(sizes).filePath("2.png")));
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(sizes); }), QDir(sizes).filePath("2.png"),
                                   "is 5 x 4 pixels"));

    const QString depths = folder("depths");
    ASSERT_TRUE(QImage(4, 4, QImage::Format_Grayscale8).save(QDir(depths).filePath("1.png")));
    ASSERT_TRUE(QImage(4, 4, QImage::Format_Grayscale16).save(QDir(depths).filePath("2.png")));
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(depths); }), QDir(depths).filePath("2.png"),
                                   "16-bit"));

    const QString corrupt = folder("corrupt");
    ASSERT_TRUE(QImage(4, 4, QImage::Format_Grayscale8).save(QDir(corrupt).filePath("1.png")));
    writeBytes(QDir(corrupt).filePath("2.png"), QByteArray("\x89PNG\r\n\x1a\n garbage", 17));
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(corrupt); }),
                                   QDir(corrupt).filePath("2.png"), "slice 2 of slice folder"));
}

TEST(VolumeNames, NaturalOrderCountsDigitsAsNumbers)
{
    using rgx::volume::naturalLess;
    EXPECT_TRUE(naturalLess("slice2.png", "slice10.png"));
    EXPECT_FALSE(naturalLess("slice10.png", "slice2.png"));
    EXPECT_TRUE(naturalLess("IM9", "IM0010"));
    EXPECT_TRUE(naturalLess("a1b2", "a1b10"));
    EXPECT_TRUE(naturalLess("A.png", "b.png"));
    EXPECT_FALSE(naturalLess("x", "x"));
}

// ---------------------------------------------------------------- DICOM

class DicomSeriesTest : public VolumeIo {
protected:
    // Four slices along z = 10, 12.5, 15, 17.5, written in shuffled file
    // names, so that only ImagePositionPatient gives their order.
    QString writeSeries(const QString& name, std::vector<std::vector<int16_t>>* storedBySlice)
    {
        const QString series = folder(name);
        const std::string uid = newSeriesUid();
        const double zs[] = {15.0, 10.0, 17.5, 12.5};
        storedBySlice->assign(4, {});
        for (int file = 0; file < 4; ++file) {
            DicomSlice slice;
            slice.stored = randomValues<int16_t>(slice.width * slice.height, -1000, 3000, uint32_t(50 + file));
            slice.z = zs[file];
            slice.instance = file + 1;
            slice.seriesUid = uid;
            writeDicomWithLibrary(QDir(series).filePath(QString("IM%1.dcm").arg(file)), slice);
            (*storedBySlice)[size_t((zs[file] - 10.0) / 2.5)] = slice.stored;
        }
        return series;
    }
};

TEST_F(DicomSeriesTest, ASeriesIsStackedAlongTheNormalAndRescaledThenShifted)
{
    std::vector<std::vector<int16_t>> stored;
    const QString series = writeSeries("series", &stored);
    EXPECT_TRUE(rgx::isVolumePath(series));

    const LumaImage volume = rgx::loadLumaVolume(series);
    EXPECT_EQ(volume.width, 6);
    EXPECT_EQ(volume.height, 4);
    EXPECT_EQ(volume.depth, 4);
    EXPECT_EQ(volume.volume.format, "DICOM series");
    EXPECT_EQ(volume.volume.valueShift, 32768);
    EXPECT_NEAR(volume.volume.spacing[0], 0.8, 1e-9);
    EXPECT_NEAR(volume.volume.spacing[1], 0.6, 1e-9);
    EXPECT_NEAR(volume.volume.spacing[2], 2.5, 1e-9);
    EXPECT_TRUE(volume.volume.hasOrientation);
    // LPS to RAS: x and y change sign; the first slice is the lowest z.
    expectMatrixNear(volume.volume.toWorld, {-0.8, 0, 0, 100, 0, -0.6, 0, 50, 0, 0, 2.5, 10, 0, 0, 0, 1}, 1e-9);
    std::vector<int> expected;
    for (const auto& slice : stored)
        for (int16_t v : slice)
            expected.push_back(int(v) - 1024 + 32768);
    EXPECT_TRUE(lumaEquals(volume, expected));
}

TEST_F(DicomSeriesTest, WithoutPositionsTheInstanceNumberOrders)
{
    const QString series = folder("numbered");
    const std::string uid = newSeriesUid();
    std::vector<int> expected;
    std::vector<std::vector<int16_t>> byInstance(3);
    const int instances[] = {3, 1, 2};
    for (int file = 0; file < 3; ++file) {
        DicomSlice slice;
        slice.stored = randomValues<int16_t>(slice.width * slice.height, 0, 2000, uint32_t(60 + file));
        slice.instance = instances[file];
        slice.seriesUid = uid;
        slice.position = false;
        writeDicomWithLibrary(QDir(series).filePath(QString("f%1.dcm").arg(file)), slice);
        byInstance[size_t(instances[file] - 1)] = slice.stored;
    }
    for (const auto& slice : byInstance)
        for (int16_t v : slice)
            expected.push_back(int(v) - 1024 + 32768);
    const LumaImage volume = rgx::loadLumaVolume(series);
    EXPECT_FALSE(volume.volume.hasOrientation);
    EXPECT_NEAR(volume.volume.spacing[2], 2.5, 1e-9) << "SliceThickness, without positions";
    EXPECT_TRUE(lumaEquals(volume, expected));
}

TEST_F(DicomSeriesTest, BadSeriesGiveOneMessageNamingTheFile)
{
    std::vector<std::vector<int16_t>> stored;
    const QString twoSeries = writeSeries("two", &stored);
    DicomSlice other;
    other.stored.assign(other.width * other.height, 0);
    other.seriesUid = newSeriesUid();
    other.z = 20;
    writeDicomWithLibrary(QDir(twoSeries).filePath("other.dcm"), other);
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(twoSeries); }), twoSeries, "2 series"));

    const QString sizes = writeSeries("sizes", &stored);
    DicomSlice wide;
    wide.width = 8;
    wide.stored.assign(wide.width * wide.height, 0);
    wide.z = 20;
    QFile::remove(QDir(sizes).filePath("IM0.dcm"));
    wide.seriesUid = "";
    {
        // Same series as the others: read its UID back from a neighbour.
        gdcm::Reader reader;
        reader.SetFileName(QFile::encodeName(QDir(sizes).filePath("IM1.dcm")).constData());
        ASSERT_TRUE(reader.Read());
        gdcm::Attribute<0x0020, 0x000e> uid;
        uid.SetFromDataSet(reader.GetFile().GetDataSet());
        wide.seriesUid = uid.GetValue();
    }
    writeDicomWithLibrary(QDir(sizes).filePath("IM0.dcm"), wide);
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(sizes); }), QDir(sizes).filePath("IM0.dcm"),
                                   "all slices of a volume must be the same size"));

    const QString duplicates = writeSeries("duplicates", &stored);
    QFile::copy(QDir(duplicates).filePath("IM1.dcm"), QDir(duplicates).filePath("IM1-copy.dcm"));
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(duplicates); }), duplicates,
                                   "lie at the same position"));

    const QString gap = writeSeries("gap", &stored);
    QFile::remove(QDir(gap).filePath("IM3.dcm")); // z = 12.5: 10, 15, 17.5 remain
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(gap); }), gap, "unevenly spaced"));

    const QString corrupt = writeSeries("corrupt", &stored);
    writeBytes(QDir(corrupt).filePath("IM9.dcm"), QByteArray(128, '\0') + "DICM" + QByteArray(40, '\xff'));
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(corrupt); }),
                                   QDir(corrupt).filePath("IM9.dcm"), "not a DICOM file or is corrupt"));

    writeBytes(path("lone.dcm"), QByteArray(10, 'x'));
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(path("lone.dcm")); }), path("lone.dcm"),
                                   "not a DICOM file or is corrupt"));
}

TEST_F(VolumeIo, AMultiFrameDicomFileIsAVolume)
{
    gdcm::Trace::SetWarning(false);
    const unsigned width = 5, height = 4, frames = 3;
    const auto values = randomValues<uint16_t>(width * height * frames, 0, 4095, 70);
    gdcm::ImageWriter writer;
    gdcm::Image& image = writer.GetImage();
    image.SetNumberOfDimensions(3);
    image.SetDimension(0, width);
    image.SetDimension(1, height);
    image.SetDimension(2, frames);
    gdcm::PixelFormat format(gdcm::PixelFormat::UINT16);
    format.SetBitsStored(12);
    format.SetHighBit(11);
    image.SetPixelFormat(format);
    image.SetPhotometricInterpretation(gdcm::PhotometricInterpretation::MONOCHROME2);
    gdcm::DataElement pixels(gdcm::Tag(0x7fe0, 0x0010));
    pixels.SetByteValue(reinterpret_cast<const char*>(values.data()), uint32_t(values.size() * 2));
    image.SetDataElement(pixels);
    gdcm::Attribute<0x0008, 0x0016> sopClass;
    sopClass.SetValue(gdcm::UIDs::GetUIDString(gdcm::UIDs::MultiframeGrayscaleWordSecondaryCaptureImageStorage));
    writer.GetFile().GetDataSet().Replace(sopClass.GetAsDataElement());
    writer.SetFileName(QFile::encodeName(path("frames.dcm")).constData());
    ASSERT_TRUE(writer.Write());

    EXPECT_TRUE(rgx::isVolumePath(path("frames.dcm")));
    const LumaImage volume = rgx::loadLumaVolume(path("frames.dcm"));
    EXPECT_EQ(volume.width, int(width));
    EXPECT_EQ(volume.height, int(height));
    EXPECT_EQ(volume.depth, int(frames));
    EXPECT_EQ(volume.volume.format, "DICOM multi-frame");
    EXPECT_EQ(volume.volume.valueShift, 0);
    EXPECT_TRUE(lumaEquals(volume, shifted(values, 0)));
}

// ---------------------------------------------------------------- routing

TEST_F(VolumeIo, VolumePathsAreTheFormatsOfVolumes)
{
    EXPECT_TRUE(rgx::isVolumePath(path("brain.nii")));
    EXPECT_TRUE(rgx::isVolumePath(path("brain.NII.GZ")));
    const std::vector<uint8_t> pixels(16, 1);
    writeTiffWithLibrary(path("one.tif"), {{4, 4, 8, SAMPLEFORMAT_UINT, 1, pixels.data()}});
    writeTiffWithLibrary(path("two.tif"), {{4, 4, 8, SAMPLEFORMAT_UINT, 1, pixels.data()},
                                           {4, 4, 8, SAMPLEFORMAT_UINT, 1, pixels.data()}});
    EXPECT_FALSE(rgx::isVolumePath(path("one.tif"))) << "a one-page TIFF is an image";
    EXPECT_TRUE(rgx::isVolumePath(path("two.tif")));
    ASSERT_TRUE(QImage(4, 4, QImage::Format_Grayscale8).save(path("flat.png")));
    EXPECT_FALSE(rgx::isVolumePath(path("flat.png")));
    EXPECT_FALSE(rgx::isVolumePath(path("nothing.tif")));

    const LumaImage single = rgx::loadLumaVolume(path("one.tif"));
    EXPECT_EQ(single.depth, 1) << "a one-page TIFF read as a volume has depth 1";
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(path("flat.png")); }), path("flat.png"),
                                   "not a volume format"));
    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::loadLumaVolume(path("nowhere")); }), path("nowhere"),
                                   "does not exist"));
}

// ---------------------------------------------------------------- writers

VolumeInfo orientedInfo()
{
    VolumeInfo info;
    info.spacing = {0.5, 0.75, 2.0};
    info.toWorld = orientedMatrix;
    info.hasOrientation = true;
    return info;
}

struct NiftiFree {
    void operator()(nifti_image* image) const { nifti_image_free(image); }
};

std::unique_ptr<nifti_image, NiftiFree> readWithNiftiLibrary(const QString& file)
{
    nifti_set_debug_level(0);
    return std::unique_ptr<nifti_image, NiftiFree>(nifti_image_read(QFile::encodeName(file).constData(), 1));
}

TEST_F(VolumeIo, NiftiLabelsAndStampsAreWrittenWithTheInputsGeometry)
{
    const int width = 7, height = 5, depth = 3;
    const size_t voxels = size_t(width * height * depth);
    const auto labels = randomValues<uint16_t>(voxels, 0, 65535, 80);
    const auto stamps = randomValues<uint32_t>(voxels, 0, 0xFFFFFFFFll, 81);
    const VolumeInfo info = orientedInfo();

    struct Case {
        QString name;
        rgx::NiftiVersion version;
        int headerSize;
    };
    for (const Case& c : {Case{"labels.nii", rgx::NiftiVersion::Automatic, 348},
                          Case{"labels.nii.gz", rgx::NiftiVersion::One, 348},
                          Case{"labels2.nii.gz", rgx::NiftiVersion::Two, 540},
                          Case{"labels2.nii", rgx::NiftiVersion::Two, 540}}) {
        SCOPED_TRACE(c.name.toStdString());
        rgx::writeVolumeNifti(path(c.name), width, height, depth, labels, info, c.version);
        EXPECT_EQ(niftiHeaderSize(path(c.name)), c.headerSize);
        const auto image = readWithNiftiLibrary(path(c.name));
        ASSERT_TRUE(image);
        EXPECT_EQ(image->datatype, DT_UINT16);
        EXPECT_EQ(image->nx, width);
        EXPECT_EQ(image->nz, depth);
        EXPECT_DOUBLE_EQ(image->dy, 0.75);
        EXPECT_EQ(image->sform_code, NIFTI_XFORM_SCANNER_ANAT);
        EXPECT_EQ(image->qform_code, NIFTI_XFORM_SCANNER_ANAT);
        for (int r = 0; r < 4; ++r)
            for (int col = 0; col < 4; ++col) {
                EXPECT_NEAR(image->sto_xyz.m[r][col], orientedMatrix[size_t(r * 4 + col)], 1e-6);
                EXPECT_NEAR(image->qto_xyz.m[r][col], orientedMatrix[size_t(r * 4 + col)], 1e-5);
            }
        EXPECT_EQ(std::memcmp(image->data, labels.data(), voxels * 2), 0);

        // And RGX reads its own labels back as they were.
        const LumaImage back = rgx::loadLumaVolume(path(c.name));
        EXPECT_TRUE(lumaEquals(back, shifted(labels, 0)));
        EXPECT_EQ(back.volume.spacing, info.spacing);
        expectMatrixNear(back.volume.toWorld, orientedMatrix, 1e-5);
    }

    rgx::writeVolumeNifti(path("stamps.nii.gz"), width, height, depth, stamps, info);
    const auto image = readWithNiftiLibrary(path("stamps.nii.gz"));
    ASSERT_TRUE(image);
    EXPECT_EQ(image->datatype, DT_UINT32);
    EXPECT_EQ(std::memcmp(image->data, stamps.data(), voxels * 4), 0);
}

TEST_F(VolumeIo, NiftiWithoutOrientationIsWrittenWithSpacingOnly)
{
    VolumeInfo info;
    info.spacing = {1.5, 1.5, 3.0};
    const std::vector<uint16_t> labels(24, 2);
    rgx::writeVolumeNifti(path("plain.nii"), 4, 3, 2, labels, info);
    const auto image = readWithNiftiLibrary(path("plain.nii"));
    ASSERT_TRUE(image);
    EXPECT_EQ(image->sform_code, 0);
    EXPECT_EQ(image->qform_code, 0);
    EXPECT_DOUBLE_EQ(image->dz, 3.0);
}

TEST_F(VolumeIo, TiffLabelsAndStampsAreMultiPageWithImageJSpacing)
{
    const int width = 6, height = 4, depth = 3;
    const size_t voxels = size_t(width * height * depth);
    const auto labels = randomValues<uint16_t>(voxels, 0, 65535, 90);
    const auto stamps = randomValues<uint32_t>(voxels, 0, 0xFFFFFFFFll, 91);
    const VolumeInfo info = orientedInfo();
    rgx::writeVolumeTiff(path("labels.tif"), width, height, depth, labels, info);
    rgx::writeVolumeTiff(path("stamps.tiff"), width, height, depth, stamps, info);

    const LumaImage back = rgx::loadLumaVolume(path("labels.tif"));
    EXPECT_EQ(back.depth, depth);
    EXPECT_TRUE(lumaEquals(back, shifted(labels, 0)));
    EXPECT_NEAR(back.volume.spacing[0], 0.5, 1e-6);
    EXPECT_NEAR(back.volume.spacing[1], 0.75, 1e-6);
    EXPECT_NEAR(back.volume.spacing[2], 2.0, 1e-12);

    // Stamps do not fit luma: read them with libtiff itself.
    TIFF* tiff = TIFFOpen(QFile::encodeName(path("stamps.tiff")).constData(), "r");
    ASSERT_NE(tiff, nullptr);
    EXPECT_EQ(TIFFNumberOfDirectories(tiff), depth);
    std::vector<uint32_t> read;
    do {
        uint16_t bits = 0;
        TIFFGetField(tiff, TIFFTAG_BITSPERSAMPLE, &bits);
        EXPECT_EQ(bits, 32);
        std::vector<uint32_t> row(static_cast<size_t>(width));
        for (int y = 0; y < height; ++y) {
            ASSERT_EQ(TIFFReadScanline(tiff, row.data(), uint32_t(y), 0), 1);
            read.insert(read.end(), row.begin(), row.end());
        }
    } while (TIFFReadDirectory(tiff));
    TIFFClose(tiff);
    EXPECT_EQ(read, stamps);
}

TEST_F(VolumeIo, NpyVolumesHaveShapeDepthHeightWidth)
{
    const int width = 5, height = 3, depth = 2;
    const auto labels = randomValues<uint16_t>(size_t(width * height * depth), 0, 65535, 100);
    const auto stamps = randomValues<uint32_t>(size_t(width * height * depth), 0, 0xFFFFFFFFll, 101);
    rgx::writeVolumeFile(path("labels.npy"), width, height, depth, labels, VolumeInfo{});
    rgx::writeVolumeNpy(path("stamps.npy"), width, height, depth, stamps);

    QFile file(path("labels.npy"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_TRUE(file.readAll().contains("'shape': (2, 3, 5), }"));
    int w = 0, h = 0, d = 0;
    const std::vector<uint32_t> readLabels = rgx::readNpy(path("labels.npy"), &w, &h, &d);
    EXPECT_EQ(std::tie(w, h, d), std::make_tuple(width, height, depth));
    EXPECT_EQ(readLabels, std::vector<uint32_t>(labels.begin(), labels.end()));
    EXPECT_EQ(rgx::readNpy(path("stamps.npy"), &w, &h, &d), stamps);

    EXPECT_TRUE(namesFileAndReason(inputErrorOf([&] { rgx::readNpy(path("labels.npy"), &w, &h); }),
                                   path("labels.npy"), "has 3 axes (2, 3, 5), expected 2"));
    // A 2-D file reads as depth 1.
    rgx::saveFileAtomically(path("flat.npy"), rgx::npyBytes(std::vector<uint16_t>{1, 2, 3, 4, 5, 6}, 3, 2));
    EXPECT_EQ(rgx::readNpy(path("flat.npy"), &w, &h, &d), (std::vector<uint32_t>{1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(std::tie(w, h, d), std::make_tuple(3, 2, 1));
}

TEST_F(VolumeIo, AFailedWriteLeavesNoFileAndNamesIt)
{
    const std::vector<uint16_t> labels(8, 1);
    const QString nowhere = directory.filePath("no/such/folder/labels.nii.gz");
    EXPECT_TRUE(namesFileAndReason(
        inputErrorOf([&] { rgx::writeVolumeFile(nowhere, 2, 2, 2, labels, VolumeInfo{}); }), nowhere, "cannot write"));
    EXPECT_FALSE(QFile::exists(nowhere));
    EXPECT_TRUE(namesFileAndReason(
        inputErrorOf([&] { rgx::writeVolumeFile(path("labels.png"), 2, 2, 2, labels, VolumeInfo{}); }),
        path("labels.png"), "unknown suffix"));
    EXPECT_TRUE(QDir(directory.path()).entryList(QDir::Files).isEmpty()) << "nothing written";
}

// ---------------------------------------------------------------- bundled samples

const QString samples = QStringLiteral(RGX_SAMPLES_DIR);

TEST(VolumeSamples, TheMniTemplateReadsAsNilearnShipsIt)
{
    const QString file = samples + "/mni_icbm152_t1_tal_nlin_sym_09a_converted.nii.gz";
    EXPECT_TRUE(rgx::isVolumePath(file));
    const LumaImage volume = rgx::loadLumaVolume(file);
    EXPECT_EQ(volume.width, 197);
    EXPECT_EQ(volume.height, 233);
    EXPECT_EQ(volume.depth, 189);
    EXPECT_EQ(volume.bitDepth, 8);
    EXPECT_EQ(volume.volume.valueShift, 0);
    EXPECT_EQ(volume.volume.format, "NIfTI-1");
    EXPECT_EQ(volume.volume.spacing, (std::array<double, 3>{1.0, 1.0, 1.0}));
    EXPECT_TRUE(volume.volume.hasOrientation);
    expectMatrixNear(volume.volume.toWorld, {1, 0, 0, -98, 0, 1, 0, -134, 0, 0, 1, -72, 0, 0, 0, 1}, 1e-9);
    // Values as nibabel reads them.
    EXPECT_EQ(volume.at(0, 0, 0), 0);
    EXPECT_EQ(volume.at(98, 134, 72), 71);
    EXPECT_EQ(volume.at(100, 120, 90), 217);
    EXPECT_EQ(volume.at(60, 150, 100), 162);
    uint64_t sum = 0;
    for (uint16_t v : volume.luma)
        sum += v;
    EXPECT_EQ(sum, 333468829u);
}

TEST(VolumeSamples, TheCtSeriesIsStackedByPosition)
{
    const QString folder = samples + "/dicom-ct-series";
    EXPECT_TRUE(rgx::isVolumePath(folder));
    const LumaImage volume = rgx::loadLumaVolume(folder);
    EXPECT_EQ(volume.width, 16);
    EXPECT_EQ(volume.height, 16);
    EXPECT_EQ(volume.depth, 5);
    EXPECT_EQ(volume.volume.format, "DICOM series");
    EXPECT_EQ(volume.volume.valueShift, 32768);
    EXPECT_NEAR(volume.volume.spacing[0], 0.488281, 1e-6);
    EXPECT_NEAR(volume.volume.spacing[1], 0.488281, 1e-6);
    EXPECT_NEAR(volume.volume.spacing[2], 2.5, 1e-6);
    // Stored values as pydicom reads them; HU = stored - 1024; luma = HU + 32768.
    // Slice 0 is file 3353 (z = -1.2375), slice 4 file 2062 (z = 8.7625).
    const auto luma = [](int stored) { return stored - 1024 + 32768; };
    EXPECT_EQ(volume.at(0, 0, 0), luma(991));
    EXPECT_EQ(volume.at(5, 8, 0), luma(902));
    EXPECT_EQ(volume.at(15, 15, 2), luma(358));
    EXPECT_EQ(volume.at(5, 8, 3), luma(1109));
    EXPECT_EQ(volume.at(15, 15, 4), luma(295));
    EXPECT_NEAR(volume.volume.toWorld[11], -1.2375, 1e-4) << "the first slice's z (RAS = LPS for z)";
}

} // namespace
