// Duration and count formatting.
#include "Format.h"

#include <QLocale>

namespace rgx::ui {

TimeUnit timeUnitFor(double largestNanoseconds)
{
    if (largestNanoseconds >= 2e9)
        return {1e9, QStringLiteral("s")};
    if (largestNanoseconds >= 2e6)
        return {1e6, QStringLiteral("ms")};
    if (largestNanoseconds >= 2e3)
        return {1e3, QStringLiteral("µs")};
    return {1.0, QStringLiteral("ns")};
}

QString formatDuration(double nanoseconds)
{
    const TimeUnit unit = nanoseconds >= 1e9 ? TimeUnit{1e9, QStringLiteral("s")}
                        : nanoseconds >= 1e6 ? TimeUnit{1e6, QStringLiteral("ms")}
                        : nanoseconds >= 1e3 ? TimeUnit{1e3, QStringLiteral("µs")}
                                             : TimeUnit{1.0, QStringLiteral("ns")};
    const double value = nanoseconds / unit.nanoseconds;
    const int decimals = value >= 100 ? 0 : value >= 10 ? 1 : 2;
    return QStringLiteral("%1 %2").arg(value, 0, 'f', unit.nanoseconds == 1.0 ? 0 : decimals).arg(unit.symbol);
}

QString formatCount(uint64_t value) { return QLocale().toString(qulonglong(value)); }

} // namespace rgx::ui
