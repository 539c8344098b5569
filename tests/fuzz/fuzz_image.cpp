// Image loading, every format RGX accepts: the first byte picks the file
// suffix (the readers choose by content and by suffix), the rest is the file.
// A file either loads into a luma image of its declared size or is refused
// with InputError; nothing else may happen.
#include "Errors.h"
#include "FuzzSupport.h"
#include "Image.h"

#include <QDir>
#include <QFile>
#include <cstdint>
#include <cstddef>
#include <unistd.h>

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    rgx::fuzz::startQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const char* suffixes[] = {"png", "jpg", "bmp", "tif", "pgm", "ppm", "gif", "webp"};
    if (size < 1)
        return 0;
    const QString path = QDir::tempPath() + QStringLiteral("/rgx-fuzz-%1.%2")
                                                .arg(getpid())
                                                .arg(QLatin1String(suffixes[data[0] % 8]));
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return 0;
        file.write(reinterpret_cast<const char*>(data + 1), qint64(size - 1));
    }
    try {
        const rgx::LumaImage image = rgx::loadLumaImage(path);
        rgx::fuzz::require(image.width > 0 && image.height > 0, "an image loaded with no pixels");
        rgx::fuzz::require(image.luma.size() == image.pixelCount(),
                           "luma pixel count differs from width x height");
    } catch (const rgx::InputError&) {
    }
    QFile::remove(path);
    return 0;
}
