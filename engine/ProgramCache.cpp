// Program building with the variant's options, the build log kept, and a
// two-level cache: in memory per ComputeDevice, on disk across runs.
#include "ProgramCache.h"
#include "Errors.h"
#include "EmbeddedKernels.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QStandardPaths>
#include <chrono>
#include <regex>
#include <sstream>

namespace rgx {
namespace {

// The kernel file with its #include "..." lines replaced by the embedded
// headers, with #line markers so that logs and race reports name the
// original file and line.
std::string expandedSource(const std::string& fileName)
{
    std::istringstream in(embeddedKernel(fileName));
    std::ostringstream out;
    out << "#line 1 \"" << fileName << "\"\n";
    static const std::regex includeLine(R"(^\s*#\s*include\s+"([^"]+)\"\s*$)");
    int lineNumber = 0;
    for (std::string line; std::getline(in, line);) {
        ++lineNumber;
        std::smatch match;
        if (std::regex_match(line, match, includeLine)) {
            out << expandedSource(match[1].str());
            out << "#line " << lineNumber + 1 << " \"" << fileName << "\"\n";
        } else {
            out << line << "\n";
        }
    }
    return out.str();
}

std::vector<KernelReport> reportKernels(cl::Program program, const cl::Device& device,
                                        const std::string& fileName, const std::string& options)
{
    std::vector<cl::Kernel> kernels;
    program.createKernels(&kernels);
    std::vector<KernelReport> reports;
    for (cl::Kernel& kernel : kernels) {
        KernelReport report;
        report.program = fileName;
        report.kernel = kernel.getInfo<CL_KERNEL_FUNCTION_NAME>();
        while (!report.kernel.empty() && report.kernel.back() == '\0')
            report.kernel.pop_back();
        report.options = options;
        report.workGroupSizeLimit = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device);
        report.preferredWorkGroupMultiple =
            kernel.getWorkGroupInfo<CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE>(device);
        report.localMemoryBytes = kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(device);
        report.privateMemoryBytes = kernel.getWorkGroupInfo<CL_KERNEL_PRIVATE_MEM_SIZE>(device);
        reports.push_back(report);
    }
    return reports;
}

std::string buildLogOf(const cl::Program& program, const cl::Device& device)
{
    try {
        std::string log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
        while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
            log.pop_back();
        return log;
    } catch (const cl::Error&) {
        return {};
    }
}

} // namespace

void ProgramCache::attach(const cl::Context& context, const cl::Device& device,
                          std::string deviceKey, bool nvidia)
{
    context_ = context;
    device_ = device;
    deviceKey_ = std::move(deviceKey);
    nvidia_ = nvidia;
}

std::string ProgramCache::diskCacheDirectory()
{
    const QByteArray chosen = qgetenv("RGX_CACHE_DIR");
    if (!chosen.isNull())
        return chosen.toStdString();
    const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
    return base.isEmpty() ? std::string() : (base + "/rgx/kernels").toStdString();
}

void ProgramCache::setBuildListener(BuildListener listener)
{
    std::lock_guard<std::mutex> lock(mutex_);
    buildListener_ = std::move(listener);
}

const BuiltProgram& ProgramCache::get(const std::string& fileName, const std::string& options)
{
    std::lock_guard<std::mutex> lock(mutex_);
    const std::string key = fileName + "\n" + options;
    auto found = programs_.find(key);
    if (found == programs_.end())
        found = programs_.emplace(key, build(fileName, options)).first;
    return found->second;
}

const BuiltProgram* ProgramCache::tryGet(const std::string& fileName, const std::string& options)
{
    std::lock_guard<std::mutex> lock(mutex_);
    const std::string key = fileName + "\n" + options;
    if (auto found = programs_.find(key); found != programs_.end())
        return &found->second;
    if (failed_.count(key) != 0)
        return nullptr;
    try {
        return &programs_.emplace(key, build(fileName, options)).first->second;
    } catch (const OpenClError& error) {
        failed_.emplace(key, error.what());
        return nullptr;
    }
}

BuiltProgram ProgramCache::build(const std::string& fileName, const std::string& options)
{
    BuiltProgram built;
    built.fileName = fileName;
    built.options = options;
    const std::string source = expandedSource(fileName);
    const std::string fullOptions = options + (nvidia_ ? " -cl-nv-verbose" : "");

    // Oclgrind checks the program it compiles itself: never feed it binaries.
    const bool useDisk = !diskCacheDirectory().empty() &&
                         deviceKey_.find("Oclgrind") == std::string::npos;
    QString binaryPath;
    if (useDisk) {
        QCryptographicHash hash(QCryptographicHash::Sha256);
        hash.addData(QByteArray::fromStdString(deviceKey_ + "\n" + fullOptions + "\n" + source));
        QDir().mkpath(QString::fromStdString(diskCacheDirectory()));
        binaryPath = QString::fromStdString(diskCacheDirectory()) + "/" +
                     QString::fromLatin1(hash.result().toHex().left(32)) + ".bin";
        QFile binaryFile(binaryPath);
        QFile logFile(binaryPath + ".log");
        if (binaryFile.open(QIODevice::ReadOnly)) {
            const QByteArray bytes = binaryFile.readAll();
            try {
                cl::Program::Binaries binaries{std::vector<unsigned char>(bytes.begin(), bytes.end())};
                built.program = cl::Program(context_, {device_}, binaries);
                built.program.build({device_}, fullOptions.c_str());
                built.fromDiskCache = true;
                if (logFile.open(QIODevice::ReadOnly))
                    built.buildLog = logFile.readAll().toStdString();
            } catch (const cl::Error&) {
                built.fromDiskCache = false; // stale or foreign binary: build from source
            }
        }
    }

    if (!built.fromDiskCache) {
        if (buildListener_.started)
            buildListener_.started(fileName);
        const auto start = std::chrono::steady_clock::now();
        try {
            built.program = cl::Program(context_, source);
            built.program.build({device_}, fullOptions.c_str());
            built.buildLog = buildLogOf(built.program, device_);
        } catch (const cl::Error& error) {
            const std::string log = buildLogOf(built.program, device_);
            throw OpenClError("building " + fileName + " failed (" + openClErrorName(error.err()) +
                                  ") with options:" + options,
                              error.err(), log);
        }
        if (buildListener_.finished)
            buildListener_.finished(fileName,
                                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        if (useDisk) {
            try {
                auto binaries = built.program.getInfo<CL_PROGRAM_BINARIES>();
                if (!binaries.empty() && !binaries.front().empty()) {
                    QSaveFile binaryFile(binaryPath);
                    if (binaryFile.open(QIODevice::WriteOnly)) {
                        binaryFile.write(reinterpret_cast<const char*>(binaries.front().data()),
                                         qint64(binaries.front().size()));
                        binaryFile.commit();
                    }
                    QSaveFile logFile(binaryPath + ".log");
                    if (logFile.open(QIODevice::WriteOnly)) {
                        logFile.write(QByteArray::fromStdString(built.buildLog));
                        logFile.commit();
                    }
                }
            } catch (const cl::Error&) {
                // A device that cannot hand out binaries just rebuilds next time.
            }
        }
    }

    try {
        built.kernels = reportKernels(built.program, device_, fileName, options);
    } catch (const cl::Error& error) {
        throw OpenClError("inspecting the kernels of " + fileName + " failed: " +
                              openClErrorName(error.err()),
                          error.err(), built.buildLog);
    }
    if (nvidia_)
        parseNvidiaVerboseLog(built.buildLog, built.kernels);
    return built;
}

void parseNvidiaVerboseLog(const std::string& log, std::vector<KernelReport>& kernels)
{
    static const std::regex function(R"((?:Compiling entry function|Function properties for) '?([A-Za-z_][A-Za-z0-9_]*)'?)");
    static const std::regex registers(R"(Used (\d+) registers)");
    static const std::regex spills(R"((\d+) bytes spill stores, (\d+) bytes spill loads)");
    std::istringstream in(log);
    KernelReport* current = nullptr;
    for (std::string line; std::getline(in, line);) {
        std::smatch match;
        if (std::regex_search(line, match, function)) {
            current = nullptr;
            for (KernelReport& kernel : kernels)
                if (kernel.kernel == match[1].str())
                    current = &kernel;
        } else if (current && std::regex_search(line, match, registers)) {
            current->registers = std::stoi(match[1].str());
        } else if (current && std::regex_search(line, match, spills)) {
            current->spillStores = std::stoi(match[1].str());
            current->spillLoads = std::stoi(match[2].str());
        }
    }
}

} // namespace rgx
