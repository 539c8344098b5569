// Session files (JSON): a session either opens or is refused with
// InputError; one that opens is written again and must open again the same.
#include "Errors.h"
#include "FuzzSupport.h"
#include "Session.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    rgx::fuzz::startQt();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray json(reinterpret_cast<const char*>(data), qsizetype(size));
    const QString directory = QStringLiteral("/tmp/rgx-fuzz-sessions");
    try {
        const rgx::ui::Session session = rgx::ui::sessionFromJson(json, directory, QStringLiteral("fuzz"));
        const QByteArray written = rgx::ui::sessionToJson(session, directory);
        const rgx::ui::Session again = rgx::ui::sessionFromJson(written, directory, QStringLiteral("again"));
        rgx::fuzz::require(rgx::ui::sessionToJson(again, directory) == written,
                           "a session written and read again is not the same");
    } catch (const rgx::InputError&) {
    }
    return 0;
}
