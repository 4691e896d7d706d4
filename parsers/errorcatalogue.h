#pragma once
// The error catalogue (resources/catalogue/errors.json): the messages a hung or failed job
// prints — NCCL result codes and WARN families, InfiniBand and socket errors, PyTorch c10d,
// torchrun, NVIDIA Xids, CUDA errors — each with what it means, what it does not mean, the
// root-cause classes it points to and the settings and commands that tell them apart.
//
// Data, not code: every entry's match patterns are RE2 expressions, compiled once into one
// RE2::Set, so a line is matched against the whole catalogue in one linear pass. RE2 stays
// behind this header (no caller names it).

#include "model/error.h"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::parsers {

struct CatalogueEntry {
    std::string id;     // "nccl.unhandled_system_error": family.name, unique
    std::string family; // nccl_result, nccl_warn, ib, socket, c10d, xid, cuda, ras, launcher
    std::string title;
    std::vector<std::string> patterns; // RE2, matched anywhere in one line
    std::vector<std::string> examples; // lines the patterns must match (checked by the tests)
    std::string means;
    std::string notMeans;
    std::vector<std::string> classes; // root-cause class names (model::rootCauseClassName)
    std::vector<std::string> settings;
    std::vector<std::string> commands;
    std::vector<std::string> related; // ids of other entries
};

class ErrorCatalogue {
public:
    // Checks the document whole: schema, unique ids, known families and classes, related ids
    // that exist, patterns that compile. A catalogue that fails is refused with the first
    // problem named, never half-used.
    static model::Result<ErrorCatalogue> load(std::string_view json);

    ErrorCatalogue(ErrorCatalogue&&) noexcept;
    ErrorCatalogue& operator=(ErrorCatalogue&&) noexcept;
    ~ErrorCatalogue();

    const std::vector<CatalogueEntry>& entries() const { return m_entries; }
    const CatalogueEntry* find(std::string_view id) const;

    // The entries whose patterns match the line, most specific first (the longest matching
    // pattern: "unhandled system error … No space left on device" before "unhandled system
    // error"), catalogue order between equals.
    std::vector<const CatalogueEntry*> match(std::string_view line) const;

    // Entries whose id, title or explanation hold every word of the query (case-insensitive):
    // for a question typed in words rather than a pasted line.
    std::vector<const CatalogueEntry*> search(std::string_view words) const;

private:
    struct Compiled;
    ErrorCatalogue();

    std::vector<CatalogueEntry> m_entries;
    std::unique_ptr<Compiled> m_compiled;
};

} // namespace rankscope::parsers
