#pragma once
// Lays the rendered streams out as a real job leaves them (per-rank files, torchrun
// --log-dir trees, one srun file with "%0*d: " labels, per-node tee'd consoles) and hands
// each file to a sink: the file system, memory, or an archive.

#include "jobmodel.h"
#include "scenarioplan.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::simulator {

class Sink {
public:
    virtual ~Sink() = default;
    virtual void begin(const std::string& path) = 0;
    virtual void append(std::string_view data) = 0;
    virtual void end() = 0;

    void write(const std::string& path, std::string_view data)
    {
        begin(path);
        append(data);
        end();
    }
    bool ok() const { return m_error.empty(); }
    const std::string& error() const { return m_error; }
    const std::vector<std::string>& files() const { return m_files; }
    std::uint64_t bytes() const { return m_bytes; }

protected:
    std::string m_error;
    std::vector<std::string> m_files;
    std::uint64_t m_bytes = 0;
};

// Files under a directory, written through a large buffer.
std::unique_ptr<Sink> makeFileSink(const std::filesystem::path& root);
// path → content.
std::unique_ptr<Sink> makeMemorySink(std::map<std::string, std::string>& files);

// Renders and writes every file of the bundle (not expected.json).
void writeBundle(const Job& job, const ScenarioPlan& plan, Sink& sink);

// Packs `files` into a .tgz or .zip at `archive` under the top folder `top`; "" on success.
std::string writeArchive(const std::map<std::string, std::string>& files,
    const std::filesystem::path& archive, bool zip, const std::string& top, std::int64_t mtime);

} // namespace rankscope::simulator
