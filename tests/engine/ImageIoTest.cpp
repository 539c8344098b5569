// Image files in, integer luma out: the luma table of SPEC.md on generated
// PNG and TIFF files, and one clear error line for every file RGX cannot use.
#include "InputErrors.h"
#include "Errors.h"
#include "Image.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QImageReader>
#include <QImageWriter>
#include <QRgba64>
#include <QTemporaryDir>

#include <random>
#include <string>

namespace {

using rgx::InputError;
using rgx::LumaImage;

constexpr unsigned rngSeed = 20261122;

// SPEC.md's formula, written out once more so the test does not trust the code.
int specLuma(int red, int green, int blue) { return (77 * red + 150 * green + 29 * blue + 128) >> 8; }

using rgx::test::inputErrorOf;

// First pixel where a luma map differs from the expected values, for a
// readable failure message.
::testing::AssertionResult lumaEquals(const LumaImage& luma, const std::vector<int>& expected)
{
    if (luma.luma.size() != expected.size())
        return ::testing::AssertionFailure() << "luma holds " << luma.luma.size() << " values, expected "
                                             << expected.size();
    for (size_t i = 0; i < expected.size(); ++i) {
        if (int(luma.luma[i]) != expected[i]) {
            return ::testing::AssertionFailure()
                   << "RNG seed " << rngSeed << ": first differing pixel (" << i % size_t(luma.width) << ","
                   << i / size_t(luma.width) << "): luma " << luma.luma[i] << ", expected " << expected[i];
        }
    }
    return ::testing::AssertionSuccess();
}

class ImageFile : public ::testing::TestWithParam<const char*> {
protected:
    static constexpr int width = 37; // odd sizes catch row-padding mistakes
    static constexpr int height = 23;

    QString pathFor(const QString& name) const { return directory.filePath(name + "." + GetParam()); }

    QString save(const QImage& image, const QString& name) const
    {
        const QString path = pathFor(name);
        QImageWriter writer(path, GetParam());
        EXPECT_TRUE(writer.write(image)) << "writing " << path.toStdString() << ": "
                                         << writer.errorString().toStdString();
        return path;
    }

    QTemporaryDir directory;
    std::mt19937 rng{rngSeed};
};

TEST_P(ImageFile, FormatIsSupported)
{
    EXPECT_TRUE(QImageReader::supportedImageFormats().contains(GetParam()))
        << "no Qt image plugin for " << GetParam() << " (Debian: qt6-image-formats-plugins)";
}

TEST_P(ImageFile, EightBitGreyLumaIsTheGreyValue)
{
    QImage image(width, height, QImage::Format_Grayscale8);
    std::vector<int> expected;
    std::uniform_int_distribution<int> value(0, 255);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const int grey = value(rng);
            image.scanLine(y)[x] = uchar(grey);
            expected.push_back(grey);
        }
    }
    const LumaImage luma = rgx::loadLumaImage(save(image, "grey8"));
    EXPECT_EQ(luma.width, width);
    EXPECT_EQ(luma.height, height);
    EXPECT_EQ(luma.bitDepth, 8);
    EXPECT_FALSE(luma.colour);
    EXPECT_TRUE(lumaEquals(luma, expected));
}

TEST_P(ImageFile, SixteenBitGreyLumaIsTheGreyValue)
{
    QImage image(width, height, QImage::Format_Grayscale16);
    std::vector<int> expected;
    std::uniform_int_distribution<int> value(0, 65535);
    for (int y = 0; y < height; ++y) {
        auto* row = reinterpret_cast<quint16*>(image.scanLine(y));
        for (int x = 0; x < width; ++x) {
            const int grey = value(rng);
            row[x] = quint16(grey);
            expected.push_back(grey);
        }
    }
    const LumaImage luma = rgx::loadLumaImage(save(image, "grey16"));
    EXPECT_EQ(luma.bitDepth, 16);
    EXPECT_FALSE(luma.colour);
    EXPECT_TRUE(lumaEquals(luma, expected));
}

TEST_P(ImageFile, EightBitColourLumaFollowsTheFormula)
{
    QImage image(width, height, QImage::Format_RGB32);
    std::vector<int> expected;
    std::uniform_int_distribution<int> channel(0, 255);
    for (int y = 0; y < height; ++y) {
        auto* row = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int x = 0; x < width; ++x) {
            const int red = channel(rng), green = channel(rng), blue = channel(rng);
            row[x] = qRgb(red, green, blue);
            expected.push_back(specLuma(red, green, blue));
        }
    }
    const LumaImage luma = rgx::loadLumaImage(save(image, "colour8"));
    EXPECT_EQ(luma.bitDepth, 8);
    EXPECT_TRUE(luma.colour);
    EXPECT_TRUE(lumaEquals(luma, expected));
}

TEST_P(ImageFile, SixteenBitColourLumaFollowsTheFormulaOnSixteenBitChannels)
{
    QImage image(width, height, QImage::Format_RGBA64);
    std::vector<int> expected;
    std::uniform_int_distribution<int> channel(0, 65535);
    for (int y = 0; y < height; ++y) {
        auto* row = reinterpret_cast<QRgba64*>(image.scanLine(y));
        for (int x = 0; x < width; ++x) {
            const int red = channel(rng), green = channel(rng), blue = channel(rng);
            row[x] = QRgba64::fromRgba64(quint16(red), quint16(green), quint16(blue), 65535);
            expected.push_back(specLuma(red, green, blue));
        }
    }
    const LumaImage luma = rgx::loadLumaImage(save(image, "colour16"));
    EXPECT_EQ(luma.bitDepth, 16);
    EXPECT_TRUE(luma.colour);
    EXPECT_TRUE(lumaEquals(luma, expected));
}

TEST_P(ImageFile, PaletteImageIsConvertedToRgbFirst)
{
    QImage image(width, height, QImage::Format_Indexed8);
    const QList<QRgb> palette{qRgb(255, 0, 0), qRgb(0, 255, 0), qRgb(0, 0, 255), qRgb(10, 200, 90)};
    image.setColorTable(palette);
    std::vector<int> expected;
    std::uniform_int_distribution<int> index(0, int(palette.size()) - 1);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const int entry = index(rng);
            image.scanLine(y)[x] = uchar(entry);
            const QRgb colour = palette[entry];
            expected.push_back(specLuma(qRed(colour), qGreen(colour), qBlue(colour)));
        }
    }
    const LumaImage luma = rgx::loadLumaImage(save(image, "palette"));
    EXPECT_EQ(luma.bitDepth, 8);
    EXPECT_TRUE(luma.colour);
    EXPECT_TRUE(lumaEquals(luma, expected));
}

INSTANTIATE_TEST_SUITE_P(ImageIo, ImageFile, ::testing::Values("png", "tiff"),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

TEST(ImageIo, AlphaIsIgnored)
{
    QImage image(3, 1, QImage::Format_ARGB32);
    auto* row = reinterpret_cast<QRgb*>(image.scanLine(0));
    row[0] = qRgba(200, 100, 50, 0);
    row[1] = qRgba(200, 100, 50, 77);
    row[2] = qRgba(200, 100, 50, 255);
    const LumaImage luma = rgx::lumaFromImage(image);
    const int expected = specLuma(200, 100, 50);
    EXPECT_EQ(luma.luma, (std::vector<uint16_t>{uint16_t(expected), uint16_t(expected), uint16_t(expected)}));
}

TEST(ImageIo, SixteenBitAlphaIsIgnored)
{
    QImage image(2, 1, QImage::Format_RGBA64);
    auto* row = reinterpret_cast<QRgba64*>(image.scanLine(0));
    row[0] = QRgba64::fromRgba64(60000, 30000, 1000, 0);
    row[1] = QRgba64::fromRgba64(60000, 30000, 1000, 65535);
    const LumaImage luma = rgx::lumaFromImage(image);
    const auto expected = uint16_t(specLuma(60000, 30000, 1000));
    EXPECT_EQ(luma.luma, (std::vector<uint16_t>{expected, expected}));
}

TEST(ImageIo, GreyPaletteImageIsEightBitGrey)
{
    QImage image(2, 1, QImage::Format_Indexed8);
    image.setColorTable({qRgb(0, 0, 0), qRgb(93, 93, 93), qRgb(255, 255, 255)});
    image.scanLine(0)[0] = 1;
    image.scanLine(0)[1] = 2;
    const LumaImage luma = rgx::lumaFromImage(image);
    EXPECT_EQ(luma.bitDepth, 8);
    EXPECT_FALSE(luma.colour);
    EXPECT_EQ(luma.luma, (std::vector<uint16_t>{93, 255}));
}

TEST(ImageIo, OneBitImageIsBlackAndWhite)
{
    QImage image(2, 1, QImage::Format_Mono);
    image.setColorTable({qRgb(0, 0, 0), qRgb(255, 255, 255)});
    image.setPixel(0, 0, 0);
    image.setPixel(1, 0, 1);
    const LumaImage luma = rgx::lumaFromImage(image);
    EXPECT_FALSE(luma.colour);
    EXPECT_EQ(luma.luma, (std::vector<uint16_t>{0, 255}));
}

TEST(ImageIo, RowMajorLayoutWithXToTheRight)
{
    QImage image(2, 2, QImage::Format_Grayscale8);
    image.scanLine(0)[0] = 1;
    image.scanLine(0)[1] = 2;
    image.scanLine(1)[0] = 3;
    image.scanLine(1)[1] = 4;
    const LumaImage luma = rgx::lumaFromImage(image);
    EXPECT_EQ(luma.at(1, 0), 2);
    EXPECT_EQ(luma.at(0, 1), 3);
    EXPECT_EQ(luma.pixelCount(), 4u);
}

TEST(ImageIo, SamplesAreEightBitGrey)
{
    const LumaImage coins = rgx::loadLumaImage(RGX_SAMPLES_DIR "/coins.png");
    EXPECT_EQ(coins.width, 384);
    EXPECT_EQ(coins.height, 303);
    EXPECT_EQ(coins.bitDepth, 8);
    EXPECT_FALSE(coins.colour);

    const LumaImage astronaut = rgx::loadLumaImage(RGX_SAMPLES_DIR "/astronaut.png");
    EXPECT_EQ(astronaut.width, 512);
    EXPECT_EQ(astronaut.height, 512);
    EXPECT_EQ(astronaut.bitDepth, 8);
    EXPECT_TRUE(astronaut.colour);
}

TEST(ImageIo, MissingFileIsNamed)
{
    QTemporaryDir directory;
    const QString path = directory.filePath("no-such-image.png");
    const std::string message = inputErrorOf([&] { rgx::readImageFile(path); });
    EXPECT_NE(message.find(path.toStdString()), std::string::npos) << message;
    EXPECT_NE(message.find("does not exist"), std::string::npos) << message;
}

TEST(ImageIo, EmptyFileIsNamed)
{
    QTemporaryDir directory;
    const QString path = directory.filePath("empty.png");
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.close();
    const std::string message = inputErrorOf([&] { rgx::readImageFile(path); });
    EXPECT_NE(message.find(path.toStdString()), std::string::npos) << message;
    EXPECT_NE(message.find("empty"), std::string::npos) << message;
}

TEST(ImageIo, CorruptFileIsNamed)
{
    QTemporaryDir directory;
    const QString path = directory.filePath("corrupt.png");
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("\x89PNG\r\n\x1a\n but then no image at all");
    file.close();
    const std::string message = inputErrorOf([&] { rgx::readImageFile(path); });
    EXPECT_NE(message.find(path.toStdString()), std::string::npos) << message;
    EXPECT_NE(message.find("corrupt"), std::string::npos) << message;
}

TEST(ImageIo, TextFileIsNotAnImage)
{
    QTemporaryDir directory;
    const QString path = directory.filePath("seeds.txt");
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("10 20\n30 40\n");
    file.close();
    const std::string message = inputErrorOf([&] { rgx::readImageFile(path); });
    EXPECT_NE(message.find(path.toStdString()), std::string::npos) << message;
    EXPECT_NE(message.find("not a readable image"), std::string::npos) << message;
}

TEST(ImageIo, DirectoryIsNotAnImage)
{
    QTemporaryDir directory;
    const std::string message = inputErrorOf([&] { rgx::readImageFile(directory.path()); });
    EXPECT_NE(message.find("directory"), std::string::npos) << message;
}

TEST(ImageIo, ErrorIsOneLine)
{
    QTemporaryDir directory;
    const QString path = directory.filePath("corrupt.tiff");
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("II*\0garbage", 11);
    file.close();
    const std::string message = inputErrorOf([&] { rgx::readImageFile(path); });
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(ImageIo, EmptyImageHasNoLuma)
{
    const std::string message = inputErrorOf([] { rgx::lumaFromImage(QImage()); });
    EXPECT_NE(message.find("empty"), std::string::npos) << message;
}

TEST(ImageIo, LumaPictureScalesSixteenBitDown)
{
    LumaImage luma;
    luma.width = 4;
    luma.height = 1;
    luma.bitDepth = 16;
    luma.luma = {0, 257, 32896, 65535};
    const QImage picture = rgx::lumaToQImage(luma);
    ASSERT_EQ(picture.format(), QImage::Format_Grayscale8);
    const uchar* row = picture.constScanLine(0);
    EXPECT_EQ(row[0], 0);
    EXPECT_EQ(row[1], 1);
    EXPECT_EQ(row[2], 128);
    EXPECT_EQ(row[3], 255);
}

TEST(ImageIo, LumaPictureKeepsEightBitValues)
{
    LumaImage luma;
    luma.width = 3;
    luma.height = 1;
    luma.luma = {0, 100, 255};
    const QImage picture = rgx::lumaToQImage(luma);
    const uchar* row = picture.constScanLine(0);
    EXPECT_EQ(row[0], 0);
    EXPECT_EQ(row[1], 100);
    EXPECT_EQ(row[2], 255);
}

} // namespace
