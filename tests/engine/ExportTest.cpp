// Result files: .npy exactly as numpy writes it, label PNGs of the right
// depth, timing records as JSON and CSV, and all-or-nothing writes.
#include "InputErrors.h"
#include "Errors.h"
#include "Export.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <random>
#include <string>

namespace {

using rgx::GrowResult;
using rgx::InputError;
using rgx::TimingRecord;

using rgx::test::inputErrorOf;

QByteArray readAll(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        ADD_FAILURE() << "cannot open " << path.toStdString();
        return {};
    }
    return file.readAll();
}

// A result of width x height whose labels cycle through 0..regionCount and
// whose stamps are random, from a fixed RNG seed.
GrowResult makeResult(int width, int height, int regionCount, unsigned rngSeed)
{
    std::mt19937 rng(rngSeed);
    GrowResult result;
    result.width = width;
    result.height = height;
    result.regions.resize(size_t(regionCount));
    std::uniform_int_distribution<int> label(0, regionCount);
    std::uniform_int_distribution<uint32_t> stamp(0, 0xFFFFFFFFu);
    for (int i = 0; i < width * height; ++i) {
        result.labels.push_back(uint16_t(label(rng)));
        result.stamps.push_back(stamp(rng));
    }
    return result;
}

TEST(Npy, HeaderIsByteForByteWhatNumpyWrites)
{
    // numpy 1.24: np.save(f, np.zeros((303, 384), dtype='<u2')), first 128 bytes.
    const std::string dict = "{'descr': '<u2', 'fortran_order': False, 'shape': (303, 384), }";
    const QByteArray expected = QByteArray("\x93NUMPY\x01\x00\x76\x00", 10)
                                + QByteArray::fromStdString(dict + std::string(54, ' ') + "\n");
    const QByteArray bytes = rgx::npyBytes(std::vector<uint16_t>(303 * 384), 384, 303);
    ASSERT_EQ(bytes.size(), 128 + 303 * 384 * 2);
    EXPECT_EQ(bytes.left(128), expected);
}

TEST(Npy, WholeFileIsByteForByteWhatNumpyWrites)
{
    // numpy 1.24: np.save(f, np.array([[1, 2, 3], [65536, 0xFFFFFFFF, 7]], dtype='<u4')).
    const QByteArray expected = QByteArray::fromHex(
        "934e554d5059010076007b276465736372273a20273c7534272c2027666f727472616e5f6f72646572273a2046616c"
        "73652c20277368617065273a2028322c2033292c207d20202020202020202020202020202020202020202020202020"
        "2020202020202020202020202020202020202020202020202020202020202020200a010000000200000003000000000"
        "00100ffffffff07000000");
    EXPECT_EQ(rgx::npyBytes(std::vector<uint32_t>{1, 2, 3, 65536, 0xFFFFFFFFu, 7}, 3, 2), expected);
}

TEST(Npy, DataStartsAtAMultipleOf64Bytes)
{
    for (int width : {1, 7, 64, 999}) {
        for (int height : {1, 12, 1234, 99999}) {
            const QByteArray bytes = rgx::npyBytes(std::vector<uint16_t>(size_t(width) * size_t(height)), width, height);
            const int headerLength = uint8_t(bytes[8]) | (uint8_t(bytes[9]) << 8);
            const int dataStart = 10 + headerLength;
            EXPECT_EQ(dataStart % 64, 0) << "shape (" << height << ", " << width << ")";
            EXPECT_EQ(bytes[dataStart - 1], '\n') << "shape (" << height << ", " << width << ")";
            EXPECT_EQ(bytes.size() - dataStart, qsizetype(width) * height * 2);
        }
    }
}

TEST(Npy, ValuesAreLittleEndianInRowMajorOrder)
{
    const QByteArray bytes = rgx::npyBytes(std::vector<uint16_t>{0x0102, 0x0304}, 2, 1);
    EXPECT_EQ(bytes.right(4), QByteArray("\x02\x01\x04\x03", 4));
}

TEST(Npy, Uint16RoundTrip)
{
    QTemporaryDir directory;
    const GrowResult result = makeResult(37, 23, 300, 11);
    const QString path = directory.filePath("labels.npy");
    rgx::writeLabels(path, result);
    int width = 0;
    int height = 0;
    const std::vector<uint32_t> values = rgx::readNpy(path, &width, &height);
    EXPECT_EQ(width, 37);
    EXPECT_EQ(height, 23);
    EXPECT_EQ(values, std::vector<uint32_t>(result.labels.begin(), result.labels.end())) << "RNG seed 11";
}

TEST(Npy, StampsAreUint32RoundTrip)
{
    QTemporaryDir directory;
    const GrowResult result = makeResult(41, 19, 3, 12);
    const QString path = directory.filePath("stamps.npy");
    rgx::writeStampsNpy(path, result);
    EXPECT_NE(readAll(path).indexOf("'descr': '<u4'"), -1);
    int width = 0;
    int height = 0;
    EXPECT_EQ(rgx::readNpy(path, &width, &height), result.stamps) << "RNG seed 12";
    EXPECT_EQ(width, 41);
    EXPECT_EQ(height, 19);
}

TEST(Npy, ReadRejectsOtherElementTypes)
{
    QTemporaryDir directory;
    const QString path = directory.filePath("float.npy");
    QByteArray bytes = rgx::npyBytes(std::vector<uint32_t>{1, 2}, 2, 1);
    bytes.replace("'<u4'", "'<f4'");
    rgx::saveFileAtomically(path, bytes);
    const std::string message = inputErrorOf([&] { rgx::readNpy(path, nullptr, nullptr); });
    EXPECT_NE(message.find("'<f4'"), std::string::npos) << message;
    EXPECT_NE(message.find(path.toStdString()), std::string::npos) << message;
}

TEST(Npy, ReadRejectsFortranOrder)
{
    QTemporaryDir directory;
    const QString path = directory.filePath("fortran.npy");
    QByteArray bytes = rgx::npyBytes(std::vector<uint16_t>{1, 2}, 2, 1);
    bytes.replace("False", "True ");
    rgx::saveFileAtomically(path, bytes);
    EXPECT_THROW(rgx::readNpy(path, nullptr, nullptr), InputError);
}

TEST(Npy, ReadRejectsTruncatedData)
{
    QTemporaryDir directory;
    const QString path = directory.filePath("truncated.npy");
    rgx::saveFileAtomically(path, rgx::npyBytes(std::vector<uint16_t>(12), 4, 3).chopped(1));
    EXPECT_THROW(rgx::readNpy(path, nullptr, nullptr), InputError);
}

TEST(Npy, ReadRejectsOtherFiles)
{
    QTemporaryDir directory;
    const QString path = directory.filePath("text.npy");
    rgx::saveFileAtomically(path, "not numpy at all");
    EXPECT_THROW(rgx::readNpy(path, nullptr, nullptr), InputError);
    EXPECT_THROW(rgx::readNpy(directory.filePath("missing.npy"), nullptr, nullptr), InputError);
}

TEST(Labels, PngIsEightBitGreyForUpTo255Regions)
{
    QTemporaryDir directory;
    const GrowResult result = makeResult(37, 23, 255, 21);
    const QString path = directory.filePath("labels.png");
    rgx::writeLabels(path, result);
    const QImage image(path);
    ASSERT_EQ(image.format(), QImage::Format_Grayscale8);
    ASSERT_EQ(image.size(), QSize(37, 23));
    for (int y = 0; y < 23; ++y) {
        for (int x = 0; x < 37; ++x)
            ASSERT_EQ(image.constScanLine(y)[x], result.labels[size_t(y * 37 + x)])
                << "RNG seed 21, pixel (" << x << "," << y << ")";
    }
}

TEST(Labels, PngIsSixteenBitGreyForMoreThan255Regions)
{
    QTemporaryDir directory;
    const GrowResult result = makeResult(37, 23, 256, 22);
    const QString path = directory.filePath("labels.png");
    rgx::writeLabels(path, result);
    const QImage image(path);
    ASSERT_EQ(image.format(), QImage::Format_Grayscale16);
    for (int y = 0; y < 23; ++y) {
        const auto* row = reinterpret_cast<const quint16*>(image.constScanLine(y));
        for (int x = 0; x < 37; ++x)
            ASSERT_EQ(row[x], result.labels[size_t(y * 37 + x)]) << "RNG seed 22, pixel (" << x << "," << y << ")";
    }
}

TEST(Labels, SuffixIsCaseInsensitive)
{
    QTemporaryDir directory;
    const QString path = directory.filePath("LABELS.PNG");
    rgx::writeLabels(path, makeResult(5, 5, 2, 23));
    EXPECT_FALSE(QImage(path).isNull());
}

TEST(Labels, UnknownSuffixNamesTheAcceptedOnes)
{
    QTemporaryDir directory;
    const QString path = directory.filePath("labels.jpg");
    const std::string message = inputErrorOf([&] { rgx::writeLabels(path, makeResult(5, 5, 2, 24)); });
    EXPECT_NE(message.find(path.toStdString()), std::string::npos) << message;
    EXPECT_NE(message.find(".png or .npy"), std::string::npos) << message;
    EXPECT_FALSE(QFileInfo::exists(path));
}

TEST(Stamps, OnlyNpyIsAccepted)
{
    QTemporaryDir directory;
    const std::string message =
        inputErrorOf([&] { rgx::writeStampsNpy(directory.filePath("stamps.png"), makeResult(5, 5, 2, 25)); });
    EXPECT_NE(message.find(".npy"), std::string::npos) << message;
}

TEST(SaveFile, MissingDirectoryThrowsAndLeavesNoFile)
{
    QTemporaryDir directory;
    const QString path = directory.filePath("no-such-directory/labels.npy");
    const std::string message = inputErrorOf([&] { rgx::writeLabels(path, makeResult(5, 5, 2, 31)); });
    EXPECT_EQ(message.rfind("cannot write '" + path.toStdString() + "': ", 0), 0u) << message;
    EXPECT_FALSE(QFileInfo::exists(path));
    EXPECT_EQ(QDir(directory.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList());
}

TEST(SaveFile, ParentThatIsAFileThrowsAndLeavesNoFile)
{
    // Tests may run as root, which ignores permissions: a path through a
    // regular file fails for everyone.
    QTemporaryDir directory;
    const QString notADirectory = directory.filePath("plain-file");
    rgx::saveFileAtomically(notADirectory, "x");
    const QString path = notADirectory + "/timings.json";
    EXPECT_THROW(rgx::writeTimings(path, makeResult(2, 2, 1, 32)), InputError);
    EXPECT_EQ(readAll(notADirectory), QByteArray("x"));
    EXPECT_EQ(QDir(directory.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries),
              QStringList{"plain-file"});
}

TEST(SaveFile, ReplacesAnExistingFileWhole)
{
    QTemporaryDir directory;
    const QString path = directory.filePath("file.bin");
    rgx::saveFileAtomically(path, QByteArray(1000, 'a'));
    rgx::saveFileAtomically(path, "short");
    EXPECT_EQ(readAll(path), QByteArray("short"));
}

GrowResult resultWithTimings()
{
    GrowResult result = makeResult(4, 4, 2, 41);
    result.device = "Test device";
    result.variant = "driver=host-sync,frontier=queue";
    result.iterations = 2;
    result.stoppedAtCap = true;
    result.hostMilliseconds = 1.5;
    // Absolute profiling times beyond 2^53: a double would round them.
    const uint64_t t0 = 1700000000123456789ull;
    const auto record = [](std::string stage, std::string kernel, int iteration, uint64_t queued, uint64_t start,
                           uint64_t end) {
        TimingRecord timing;
        timing.stage = std::move(stage);
        timing.kernel = std::move(kernel);
        timing.iteration = iteration;
        timing.queued = queued;
        timing.submit = queued + 1;
        timing.start = start;
        timing.end = end;
        return timing;
    };
    result.timings = {record("upload", "write:luma", -1, t0, t0 + 10, t0 + 110),
                      record("grow", "grow_step", 1, t0 + 200, t0 + 300, t0 + 1300),
                      record("grow", "grow_step", 2, t0 + 1400, t0 + 1500, t0 + 3500),
                      record("download", "read:labels, stamps", -1, t0 + 3600, t0 + 3700, t0 + 3750)};
    return result;
}

TEST(Timings, JsonHasTheRunAndOneRecordPerLaunch)
{
    const GrowResult result = resultWithTimings();
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(rgx::timingsJson(result), &parseError);
    ASSERT_EQ(parseError.error, QJsonParseError::NoError) << parseError.errorString().toStdString();
    const QJsonObject run = document.object();
    EXPECT_EQ(run["device"].toString(), "Test device");
    EXPECT_EQ(run["variant"].toString(), "driver=host-sync,frontier=queue");
    EXPECT_EQ(run["iterations"].toInteger(), 2);
    EXPECT_EQ(run["stoppedAtCap"].toBool(), true);
    EXPECT_EQ(run["hostMilliseconds"].toDouble(), 1.5);

    const QJsonArray records = run["records"].toArray();
    ASSERT_EQ(records.size(), 4);
    const QJsonObject second = records[1].toObject();
    EXPECT_EQ(second["stage"].toString(), "grow");
    EXPECT_EQ(second["kernel"].toString(), "grow_step");
    EXPECT_EQ(second["iteration"].toInteger(), 1);
    EXPECT_EQ(second["queued"].toInteger(), 1700000000123456989ll);
    EXPECT_EQ(second["submit"].toInteger(), 1700000000123456990ll);
    EXPECT_EQ(second["start"].toInteger(), 1700000000123457089ll);
    EXPECT_EQ(second["end"].toInteger(), 1700000000123458089ll);
    EXPECT_EQ(second["durationNs"].toInteger(), 1000);
    EXPECT_EQ(records[0].toObject()["iteration"].toInteger(), -1);
}

TEST(Timings, JsonWritesNanosecondsAsExactIntegers)
{
    const QByteArray json = rgx::timingsJson(resultWithTimings());
    EXPECT_NE(json.indexOf("1700000000123456789"), -1) << json.toStdString();
}

TEST(Timings, JsonTotalsPerKernelInOrderOfFirstLaunch)
{
    const QJsonArray totals = QJsonDocument::fromJson(rgx::timingsJson(resultWithTimings()))["totals"].toArray();
    ASSERT_EQ(totals.size(), 3);
    const QJsonObject grow = totals[1].toObject();
    EXPECT_EQ(grow["stage"].toString(), "grow");
    EXPECT_EQ(grow["kernel"].toString(), "grow_step");
    EXPECT_EQ(grow["launches"].toInteger(), 2);
    EXPECT_EQ(grow["totalNs"].toInteger(), 3000);
}

TEST(Timings, CsvHasAHeaderAndOneRowPerLaunch)
{
    const QByteArray csv = rgx::timingsCsv(resultWithTimings());
    const QList<QByteArray> lines = csv.split('\n');
    ASSERT_EQ(lines.size(), 6) << csv.toStdString(); // header, 4 rows, empty after the last '\n'
    EXPECT_EQ(lines[0], "stage,kernel,iteration,queued_ns,submit_ns,start_ns,end_ns,duration_ns");
    EXPECT_EQ(lines[2], "grow,grow_step,1,1700000000123456989,1700000000123456990,1700000000123457089,"
                        "1700000000123458089,1000");
    EXPECT_TRUE(lines[5].isEmpty());
}

TEST(Timings, CsvQuotesFieldsWithCommas)
{
    const QList<QByteArray> lines = rgx::timingsCsv(resultWithTimings()).split('\n');
    EXPECT_TRUE(lines[4].startsWith("download,\"read:labels, stamps\",-1,")) << lines[4].toStdString();
}

TEST(Timings, WriteChoosesTheFormatBySuffix)
{
    QTemporaryDir directory;
    const GrowResult result = resultWithTimings();
    rgx::writeTimings(directory.filePath("t.json"), result);
    rgx::writeTimings(directory.filePath("t.csv"), result);
    EXPECT_EQ(readAll(directory.filePath("t.json")), rgx::timingsJson(result));
    EXPECT_EQ(readAll(directory.filePath("t.csv")), rgx::timingsCsv(result));
    const std::string message = inputErrorOf([&] { rgx::writeTimings(directory.filePath("t.txt"), result); });
    EXPECT_NE(message.find(".json or .csv"), std::string::npos) << message;
}

} // namespace
