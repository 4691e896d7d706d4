#include "bundlewriter.h"

#include "flightrecorderformat.h"
#include "flightrecordertrace.h"
#include "rankrenderer.h"
#include "siderenderer.h"
#include "textout.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <queue>

namespace rankscope::simulator {

namespace {

class FileSink final : public Sink {
public:
    explicit FileSink(std::filesystem::path root)
        : m_root(std::move(root))
        , m_buffer(1 << 20)
    {
    }

    void begin(const std::string& path) override
    {
        if (!ok())
            return;
        const std::filesystem::path full = m_root / path;
        std::error_code ec;
        std::filesystem::create_directories(full.parent_path(), ec);
        if (ec) {
            m_error = "cannot create " + full.parent_path().string() + ": " + ec.message();
            return;
        }
        m_out = std::ofstream();
        m_out.rdbuf()->pubsetbuf(m_buffer.data(), static_cast<std::streamsize>(m_buffer.size()));
        m_out.open(full, std::ios::binary | std::ios::trunc);
        if (!m_out) {
            m_error = "cannot write " + full.string();
            return;
        }
        m_files.push_back(path);
    }
    void append(std::string_view data) override
    {
        if (!ok())
            return;
        m_out.write(data.data(), static_cast<std::streamsize>(data.size()));
        m_bytes += data.size();
    }
    void end() override
    {
        if (!ok())
            return;
        m_out.close();
        if (!m_out)
            m_error = "write failed under " + m_root.string();
    }

private:
    std::filesystem::path m_root;
    std::vector<char> m_buffer;
    std::ofstream m_out;
};

class MemorySink final : public Sink {
public:
    explicit MemorySink(std::map<std::string, std::string>& files)
        : m_map(files)
    {
    }
    void begin(const std::string& path) override
    {
        m_current = &m_map[path];
        m_current->clear();
        m_files.push_back(path);
    }
    void append(std::string_view data) override
    {
        m_current->append(data);
        m_bytes += data.size();
    }
    void end() override { m_current = nullptr; }

private:
    std::map<std::string, std::string>& m_map;
    std::string* m_current = nullptr;
};

// One input of a merged console: a process's chunks, regrouped into physical lines per
// stream (a tqdm "\r" update waits for the newline of the line it belongs to).
class RecordCursor {
public:
    // srun --label ends an unterminated chunk with its own newline before the next label
    // (SchedMD/slurm src/common/write_labelled_message.c: _write_newline), so a dying
    // process's half-written tqdm bar never glues another task's line to it.
    RecordCursor(const RankStream& rs, std::string prefix, bool terminatePartial = false)
        : m_rs(rs)
        , m_prefix(std::move(prefix))
        , m_terminatePartial(terminatePartial)
    {
        advance();
    }

    bool valid() const { return m_valid; }
    Micros time() const { return m_time; }
    const std::vector<std::uint32_t>& record() const { return m_record; }
    const RankStream& stream() const { return m_rs; }
    const std::string& prefix() const { return m_prefix; }
    bool terminatePartial() const { return m_terminatePartial; }

    void advance()
    {
        m_valid = false;
        while (m_next < m_rs.chunks.size()) {
            const std::uint32_t idx = static_cast<std::uint32_t>(m_next++);
            const Chunk& c = m_rs.chunks[idx];
            auto& pend = m_pending[static_cast<int>(c.stream)];
            pend.push_back(idx);
            const std::string_view t = m_rs.text(c);
            if (!t.empty() && t.back() == '\n') {
                m_record.swap(pend);
                pend.clear();
                m_time = c.t;
                m_valid = true;
                return;
            }
        }
        for (auto& pend : m_pending) {
            if (!pend.empty()) {
                m_record.swap(pend);
                pend.clear();
                m_time = m_rs.chunks[m_record.back()].t;
                m_valid = true;
                return;
            }
        }
    }

private:
    const RankStream& m_rs;
    std::string m_prefix;
    bool m_terminatePartial = false;
    std::size_t m_next = 0;
    std::vector<std::uint32_t> m_pending[2];
    std::vector<std::uint32_t> m_record;
    Micros m_time = 0;
    bool m_valid = false;
};

class BufferedFile {
public:
    BufferedFile(Sink& sink, const std::string& path)
        : m_sink(sink)
    {
        m_sink.begin(path);
        m_buf.reserve(kFlush + 65536);
    }
    ~BufferedFile()
    {
        flush();
        m_sink.end();
    }
    std::string& buf() { return m_buf; }
    void maybeFlush()
    {
        if (m_buf.size() >= kFlush)
            flush();
    }
    void flush()
    {
        if (!m_buf.empty())
            m_sink.append(m_buf);
        m_buf.clear();
    }

private:
    static constexpr std::size_t kFlush = 4u << 20;
    Sink& m_sink;
    std::string m_buf;
};

// Writes one record, putting the prefix before every physical line of it.
void emitRecord(std::string& out, const RecordCursor& cur)
{
    const std::string& prefix = cur.prefix();
    const auto& rec = cur.record();
    out += prefix;
    for (std::size_t k = 0; k < rec.size(); ++k) {
        std::string_view t = cur.stream().text(cur.stream().chunks[rec[k]]);
        const bool lastChunk = k + 1 == rec.size();
        while (!t.empty()) {
            const void* nl = prefix.empty() ? nullptr : std::memchr(t.data(), '\n', t.size());
            if (!nl) {
                out.append(t);
                break;
            }
            const std::size_t pos
                = static_cast<std::size_t>(static_cast<const char*>(nl) - t.data());
            out.append(t.substr(0, pos + 1));
            t.remove_prefix(pos + 1);
            if (!(t.empty() && lastChunk))
                out += prefix;
        }
    }
    if (cur.terminatePartial() && !out.empty() && out.back() != '\n')
        out += '\n';
}

// k-way merge of consoles by line completion time.
void mergeInto(Sink& sink, const std::string& path, std::vector<RecordCursor>& cursors)
{
    BufferedFile file(sink, path);
    using Entry = std::pair<Micros, std::size_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
    for (std::size_t i = 0; i < cursors.size(); ++i)
        if (cursors[i].valid())
            heap.push({ cursors[i].time(), i });
    while (!heap.empty()) {
        const auto [t, i] = heap.top();
        heap.pop();
        emitRecord(file.buf(), cursors[i]);
        file.maybeFlush();
        cursors[i].advance();
        if (cursors[i].valid())
            heap.push({ cursors[i].time(), i });
    }
}

void writeStream(Sink& sink, const std::string& path, const RankStream& rs, int onlyStream = -1)
{
    BufferedFile file(sink, path);
    for (const Chunk& c : rs.chunks) {
        if (onlyStream >= 0 && static_cast<int>(c.stream) != onlyStream)
            continue;
        file.buf().append(rs.text(c));
        file.maybeFlush();
    }
}

std::string rankFileName(const Job& job, int rank)
{
    std::string width4;
    int digits = 1;
    for (int v = job.world - 1; v >= 10; v /= 10)
        ++digits;
    Text(width4) << Pad { rank, std::max(4, digits), '0' };
    std::string name = job.perRankNameStyle;
    auto replace = [&name](std::string_view key, const std::string& value) {
        const auto pos = name.find(key);
        if (pos != std::string::npos)
            name.replace(pos, key.size(), value);
    };
    replace("{R4}", width4);
    replace("{R}", std::to_string(rank));
    return name;
}

std::string dmesgName(const Job& job, int node)
{
    std::string name = job.dmesgNameStyle;
    const auto pos = name.find("{node}");
    name.replace(pos, 6, job.hosts[static_cast<std::size_t>(node)].name);
    return name;
}

void writeExcerpt(const Job& job, const ScenarioPlan& plan, const RankRenderer& ranks, Sink& sink)
{
    std::vector<RankStream> streams;
    std::vector<RecordCursor> cursors;
    streams.reserve(plan.excerptRanks.size());
    for (int r : plan.excerptRanks) {
        RankStream full = ranks.render(r);
        RankStream cut;
        const Micros from = plan.ranks[static_cast<std::size_t>(r)].timeoutAt - 2 * kSecond;
        for (const Chunk& c : full.chunks) {
            if (c.t < from || c.stream != Stream::Err)
                continue;
            std::string& o = cut.open(c.t, Stream::Err);
            o.append(full.text(c));
            cut.close();
        }
        cut.finalize(plan.collectAt);
        streams.push_back(std::move(cut));
    }
    for (const RankStream& s : streams)
        cursors.emplace_back(s, "");
    Rng rng = Rng::derived(job.seed, "excerpt");
    static const char* kNames[] = { "pasted_log.txt", "error_log.txt", "hang.txt" };
    const std::string name = rng.pick(kNames);
    if (!rng.chance(0.4)) {
        mergeInto(sink, name, cursors);
        return;
    }
    // Pasted from a log viewer that numbers lines: "[80746] [rank0]:[E…".
    std::map<std::string, std::string> tmp;
    auto mem = makeMemorySink(tmp);
    mergeInto(*mem, name, cursors);
    const std::string& text = tmp[name];
    std::string out;
    std::int64_t n = rng.uniform(1000, 90000);
    std::size_t i = 0;
    while (i < text.size()) {
        std::size_t nl = text.find('\n', i);
        if (nl == std::string::npos)
            nl = text.size() - 1;
        Text(out) << '[' << n++ << "] ";
        out.append(text, i, nl - i + 1);
        i = nl + 1;
    }
    sink.write(name, out);
}

} // namespace

std::unique_ptr<Sink> makeFileSink(const std::filesystem::path& root)
{
    return std::make_unique<FileSink>(root);
}

std::unique_ptr<Sink> makeMemorySink(std::map<std::string, std::string>& files)
{
    return std::make_unique<MemorySink>(files);
}

namespace {

// Each host's /tmp/nccl_trace_rank_<R>, gathered into one folder as a collection script
// (or the user) leaves them; the JSON variant is the control plane's answer saved to a file.
void writeFlightRecorderDumps(const Job& job, const ScenarioPlan& plan, Sink& sink)
{
    const FlightRecorderTrace trace(job, plan);
    const ScenarioOptions& o = job.options;
    for (int r = 0; r < job.world && sink.ok(); ++r) {
        const std::optional<FrTraceDump> dump = trace.dump(r);
        if (!dump)
            continue;
        const std::string name = "flight_recorder/nccl_trace_rank_" + std::to_string(r);
        if (o.frFormat == FrFormat::Json)
            sink.write(name + ".json", flightRecorderJson(*dump, o.frVersion));
        else
            sink.write(name, flightRecorderPickle(*dump, o.frVersion));
    }
}

// Every text file of the bundle: rank logs in the job's layout, launcher logs, dmesg, py-spy.
void writeLogs(const Job& job, const ScenarioPlan& plan, Sink& sink)
{
    RankRenderer ranks(job, plan);
    SideRenderer side(job, plan, ranks);
    if (plan.excerpt) {
        writeExcerpt(job, plan, ranks, sink);
        return;
    }
    const std::string slurmFile = "slurm-" + std::to_string(job.slurmJobId) + ".out";
    auto teePrefix = [](int local) { return "[default" + std::to_string(local) + "]:"; };
    switch (job.options.layout) {
    case Layout::PerRank: {
        for (int r = 0; r < job.world && sink.ok(); ++r) {
            if (plan.outputLost(r))
                continue; // not even an empty file: the collector never saw one
            const RankStream rs = ranks.render(r);
            writeStream(sink, rankFileName(job, r), rs);
        }
        if (job.launcher == Launcher::Torchrun) {
            for (int n = 0; n < job.nodes; ++n) {
                const RankStream agent = side.agentLog(n);
                std::vector<RankStream> local;
                std::vector<RecordCursor> cursors;
                if (job.options.tee) {
                    for (int r = job.firstRankOf(n); r < job.firstRankOf(n) + job.ranksOn(n); ++r)
                        local.push_back(ranks.render(r));
                }
                cursors.emplace_back(agent, "");
                for (std::size_t i = 0; i < local.size(); ++i)
                    cursors.emplace_back(local[i], teePrefix(static_cast<int>(i)));
                mergeInto(sink, "torchrun-" + job.hosts[static_cast<std::size_t>(n)].name + ".log",
                    cursors);
            }
        } else {
            const RankStream srun = side.srunLog();
            if (!srun.chunks.empty())
                writeStream(sink, slurmFile, srun);
        }
        break;
    }
    case Layout::TorchrunLogdir: {
        for (int n = 0; n < job.nodes && sink.ok(); ++n) {
            const std::string& host = job.hosts[static_cast<std::size_t>(n)].name;
            const std::string runDir = host + "/" + job.runDirName(n) + "/attempt_0/";
            std::vector<RankStream> local;
            for (int r = job.firstRankOf(n); r < job.firstRankOf(n) + job.ranksOn(n); ++r) {
                local.push_back(ranks.render(r));
                if (plan.outputLost(r))
                    continue;
                const std::string dir = runDir + std::to_string(job.rankInfo(r).local) + "/";
                writeStream(sink, dir + "stdout.log", local.back(), static_cast<int>(Stream::Out));
                writeStream(sink, dir + "stderr.log", local.back(), static_cast<int>(Stream::Err));
                const std::string ej = ranks.errorJson(r);
                if (!ej.empty())
                    sink.write(dir + "error.json", ej);
                if (!job.options.tee)
                    local.back() = RankStream();
            }
            const RankStream agent = side.agentLog(n);
            std::vector<RecordCursor> cursors;
            cursors.emplace_back(agent, "");
            if (job.options.tee)
                for (std::size_t i = 0; i < local.size(); ++i)
                    cursors.emplace_back(local[i], teePrefix(static_cast<int>(i)));
            mergeInto(sink, host + "/agent.log", cursors);
        }
        break;
    }
    case Layout::SrunCombined: {
        std::vector<RankStream> all;
        all.reserve(static_cast<std::size_t>(job.world));
        for (int r = 0; r < job.world; ++r)
            all.push_back(ranks.render(r));
        const RankStream srun = side.srunLog();
        int width = 1;
        for (int v = job.world - 1; v >= 10; v /= 10)
            ++width;
        std::vector<RecordCursor> cursors;
        cursors.reserve(all.size() + 1);
        for (int r = 0; r < job.world; ++r) {
            std::string label;
            Text(label) << Pad { r, width, '0' } << ": ";
            cursors.emplace_back(all[static_cast<std::size_t>(r)], label, true);
        }
        cursors.emplace_back(srun, "");
        mergeInto(sink, slurmFile, cursors);
        break;
    }
    case Layout::PerNode: {
        for (int n = 0; n < job.nodes && sink.ok(); ++n) {
            std::vector<RankStream> local;
            for (int r = job.firstRankOf(n); r < job.firstRankOf(n) + job.ranksOn(n); ++r)
                local.push_back(ranks.render(r));
            const RankStream agent = side.agentLog(n);
            std::vector<RecordCursor> cursors;
            cursors.emplace_back(agent, "");
            for (std::size_t i = 0; i < local.size(); ++i)
                cursors.emplace_back(local[i], teePrefix(static_cast<int>(i)));
            mergeInto(sink, job.hosts[static_cast<std::size_t>(n)].name + ".log", cursors);
        }
        break;
    }
    }
    if (job.options.dmesg)
        for (int n = 0; n < job.nodes && sink.ok(); ++n)
            sink.write(dmesgName(job, n), side.dmesg(n));
    for (int r : side.pyspyRanks())
        sink.write("pyspy-rank" + std::to_string(r) + ".txt", side.pyspy(r));
}

} // namespace

void writeBundle(const Job& job, const ScenarioPlan& plan, Sink& sink)
{
    if (job.options.logs)
        writeLogs(job, plan, sink);
    if (job.options.flightRecorder && !plan.excerpt)
        writeFlightRecorderDumps(job, plan, sink);
}

std::string writeArchive(const std::map<std::string, std::string>& files,
    const std::filesystem::path& archivePath, bool zip, const std::string& top, std::int64_t mtime)
{
    struct archive* a = archive_write_new();
    if (zip) {
        archive_write_set_format_zip(a);
    } else {
        archive_write_set_format_pax_restricted(a);
        archive_write_add_filter_gzip(a);
        // No wall-clock timestamp in the gzip header: same options, same bytes.
        archive_write_set_filter_option(a, "gzip", "timestamp", nullptr);
    }
    if (archive_write_open_filename(a, archivePath.string().c_str()) != ARCHIVE_OK) {
        std::string err = archive_error_string(a) ? archive_error_string(a) : "cannot open archive";
        archive_write_free(a);
        return err;
    }
    std::string err;
    for (const auto& [path, content] : files) {
        struct archive_entry* e = archive_entry_new();
        const std::string name = top.empty() ? path : top + "/" + path;
        archive_entry_set_pathname(e, name.c_str());
        archive_entry_set_size(e, static_cast<la_int64_t>(content.size()));
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        archive_entry_set_mtime(e, mtime, 0);
        if (archive_write_header(a, e) != ARCHIVE_OK
            || archive_write_data(a, content.data(), content.size()) < 0) {
            err = archive_error_string(a) ? archive_error_string(a) : "archive write failed";
            archive_entry_free(e);
            break;
        }
        archive_entry_free(e);
    }
    if (archive_write_close(a) != ARCHIVE_OK && err.empty())
        err = archive_error_string(a) ? archive_error_string(a) : "archive close failed";
    archive_write_free(a);
    return err;
}

} // namespace rankscope::simulator
