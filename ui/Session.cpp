// Session JSON: written with every field, read strictly (unknown values are
// errors with the field's name, so a session reopens exactly or not at all).
#include "Session.h"

#include "Errors.h"
#include "ParameterCodec.h"
#include "Variant.h"
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace rgx::ui {

namespace {

constexpr const char* formatName = "rgx-session";
constexpr int formatVersion = 1;

[[noreturn]] void fail(const QString& origin, const QString& what)
{
    throw InputError(QStringLiteral("session %1: %2").arg(origin, what).toStdString());
}

QJsonValue require(const QJsonObject& object, const char* key, const QString& origin)
{
    const QJsonValue value = object.value(QLatin1String(key));
    if (value.isUndefined())
        fail(origin, QStringLiteral("missing \"%1\"").arg(QLatin1String(key)));
    return value;
}

std::string string(const QJsonObject& object, const char* key, const QString& origin)
{
    const QJsonValue value = require(object, key, origin);
    if (!value.isString())
        fail(origin, QStringLiteral("\"%1\" must be a string").arg(QLatin1String(key)));
    return value.toString().toStdString();
}

// Engine parsers throw InputError without the session's name: add it.
template <typename Parse>
auto parseField(const QString& origin, const char* key, Parse parse)
{
    try {
        return parse();
    } catch (const InputError& error) {
        fail(origin, QStringLiteral("\"%1\": %2").arg(QLatin1String(key), QString::fromUtf8(error.what())));
    }
}

// A parameter as the session holds it: numbers as JSON numbers, names and
// filter specs as strings (ParameterCodec.h gives the text of both).
QJsonValue parameterJson(const PipelineParams& params, const ParameterField& field)
{
    if (field.isNumber())
        return field.kind == ParameterField::Kind::Decimal ? params.grow.tolerance
                                                           : std::stod(parameterText(params, field));
    return QString::fromStdString(parameterText(params, field));
}

void readParameter(PipelineParams& params, const QJsonObject& object, const ParameterField& field,
                   const QString& origin)
{
    const QJsonValue value = require(object, std::string(field.key).c_str(), origin);
    if (field.isNumber() ? !value.isDouble() : !value.isString()) {
        fail(origin, QStringLiteral("\"%1\" must be a %2")
                         .arg(QLatin1String(field.key.data(), qsizetype(field.key.size())),
                              field.isNumber() ? QStringLiteral("number") : QStringLiteral("string")));
    }
    const std::string text = value.isDouble() ? numberText(value.toDouble()) : value.toString().toStdString();
    try {
        setParameter(params, field, text);
    } catch (const InputError& error) {
        fail(origin, QString::fromUtf8(error.what()));
    }
}

} // namespace

QByteArray sessionToJson(const Session& session, const QString& sessionDirectory)
{
    QJsonObject root;
    root.insert(QStringLiteral("format"), QLatin1String(formatName));
    root.insert(QStringLiteral("version"), formatVersion);
    root.insert(QStringLiteral("image"), session.imagePath);
    if (!session.imagePath.startsWith(QLatin1Char(':')) && !sessionDirectory.isEmpty())
        root.insert(QStringLiteral("imageRelative"), QDir(sessionDirectory).relativeFilePath(session.imagePath));
    // A volume's seeds are voxels: [x, y, z].
    QJsonArray seeds;
    for (const Seed& seed : session.seeds)
        seeds.append(session.volumeView ? QJsonArray{seed.x, seed.y, seed.z} : QJsonArray{seed.x, seed.y});
    root.insert(QStringLiteral("seeds"), seeds);
    if (const auto& view = session.volumeView) {
        QJsonObject volume;
        volume.insert(QStringLiteral("crosshair"), QJsonArray{view->crosshair.x, view->crosshair.y, view->crosshair.z});
        volume.insert(QStringLiteral("windowCentre"), view->windowCentre);
        volume.insert(QStringLiteral("windowWidth"), view->windowWidth);
        root.insert(QStringLiteral("volumeView"), volume);
    }

    const PipelineParams& p = session.params;
    QJsonObject params;
    for (const ParameterField& field : parameterFields())
        params.insert(QLatin1String(field.key.data(), qsizetype(field.key.size())), parameterJson(p, field));
    params.insert(QStringLiteral("timeoutSeconds"), session.timeoutSeconds);
    params.insert(QStringLiteral("autoRun"), session.autoRun);
    root.insert(QStringLiteral("params"), params);

    root.insert(QStringLiteral("device"), QString::fromStdString(session.deviceId));
    root.insert(QStringLiteral("deviceName"), QString::fromStdString(session.deviceName));
    root.insert(QStringLiteral("variant"), QString::fromStdString(session.variant));
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

Session sessionFromJson(const QByteArray& json, const QString& sessionDirectory, const QString& origin)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        fail(origin, QStringLiteral("not valid JSON (%1 at byte %2)").arg(parseError.errorString()).arg(parseError.offset));
    if (!document.isObject())
        fail(origin, QStringLiteral("not a session (the top level is not an object)"));
    const QJsonObject root = document.object();
    if (root.value(QStringLiteral("format")).toString() != QLatin1String(formatName))
        fail(origin, QStringLiteral("not an RGX session (\"format\" is not \"%1\")").arg(QLatin1String(formatName)));
    if (root.value(QStringLiteral("version")).toInt() != formatVersion)
        fail(origin, QStringLiteral("unsupported version %1 (this program reads version %2)")
                         .arg(root.value(QStringLiteral("version")).toInt())
                         .arg(formatVersion));

    Session session;
    session.imagePath = QString::fromStdString(string(root, "image", origin));
    // The absolute path first; if it is gone, the path relative to the session.
    if (!session.imagePath.startsWith(QLatin1Char(':')) && !QFileInfo::exists(session.imagePath)) {
        const QString relative = root.value(QStringLiteral("imageRelative")).toString();
        if (!relative.isEmpty() && QFileInfo::exists(QDir(sessionDirectory).filePath(relative)))
            session.imagePath = QDir::cleanPath(QDir(sessionDirectory).filePath(relative));
    }

    const QJsonValue seedsValue = require(root, "seeds", origin);
    if (!seedsValue.isArray())
        fail(origin, QStringLiteral("\"seeds\" must be an array of [x, y] pairs (or [x, y, z] for a volume)"));
    const QJsonArray seeds = seedsValue.toArray();
    const auto integers = [](const QJsonArray& numbers) {
        for (const QJsonValue& number : numbers)
            if (!number.isDouble() || number.toDouble() != double(number.toInt()))
                return false;
        return true;
    };
    for (int i = 0; i < seeds.size(); ++i) {
        const QJsonArray seed = seeds[i].toArray();
        if ((seed.size() != 2 && seed.size() != 3) || !integers(seed))
            fail(origin, QStringLiteral("seed %1 is not an [x, y] pair (or [x, y, z] triple) of whole numbers").arg(i + 1));
        session.seeds.push_back({seed[0].toInt(), seed[1].toInt(), seed.size() == 3 ? seed[2].toInt() : 0});
    }
    const QJsonValue volumeValue = root.value(QStringLiteral("volumeView"));
    if (!volumeValue.isUndefined()) {
        const QJsonObject volume = volumeValue.toObject();
        const QJsonArray crosshair = volume.value(QStringLiteral("crosshair")).toArray();
        const QJsonValue centre = volume.value(QStringLiteral("windowCentre"));
        const QJsonValue width = volume.value(QStringLiteral("windowWidth"));
        if (!volumeValue.isObject() || crosshair.size() != 3 || !integers(crosshair) || !centre.isDouble()
            || !width.isDouble() || width.toDouble() <= 0)
            fail(origin, QStringLiteral("\"volumeView\" must hold \"crosshair\" [x, y, z], \"windowCentre\" and a "
                                        "positive \"windowWidth\""));
        session.volumeView = VolumeViewSettings{Seed{crosshair[0].toInt(), crosshair[1].toInt(), crosshair[2].toInt()},
                                                centre.toDouble(), width.toDouble()};
    }

    const QJsonValue paramsValue = require(root, "params", origin);
    if (!paramsValue.isObject())
        fail(origin, QStringLiteral("\"params\" must be an object"));
    const QJsonObject params = paramsValue.toObject();
    PipelineParams& p = session.params;
    for (const ParameterField& field : parameterFields())
        readParameter(p, params, field, origin);
    // Sessions before the parameter table kept the filters' variants apart.
    for (auto [key, variant] : {std::pair{"prefilterVariant", &p.prefilter.variant},
                                std::pair{"postfilterVariant", &p.postfilter.variant}}) {
        const QString named = params.value(QLatin1String(key)).toString();
        if (!named.isEmpty() && variant->empty())
            *variant = named.toStdString();
    }
    parseField(origin, "params", [&] { return checkFilters(p), 0; });
    session.timeoutSeconds = params.value(QStringLiteral("timeoutSeconds")).toDouble(120.0);
    session.autoRun = params.value(QStringLiteral("autoRun")).toBool(false);

    session.deviceId = root.value(QStringLiteral("device")).toString().toStdString();
    session.deviceName = root.value(QStringLiteral("deviceName")).toString().toStdString();
    session.variant = string(root, "variant", origin);
    parseField(origin, "variant", [&] { return parseVariant(session.variant); });
    return session;
}

bool isSessionFile(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("rgx") || suffix == QLatin1String("json");
}

Session readSessionFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        fail(path, QStringLiteral("cannot be read: %1").arg(file.errorString()));
    const QFileInfo info(path);
    return sessionFromJson(file.readAll(), info.absolutePath(), path);
}

} // namespace rgx::ui
