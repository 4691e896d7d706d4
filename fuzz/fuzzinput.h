#pragma once
// Shared by the fuzz targets: how one fuzz input is cut into the several inputs a target
// needs (file names and contents), so every target reads its input the same documented way.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::fuzz {

inline std::string_view bytesOf(const std::uint8_t* data, std::size_t size)
{
    return { reinterpret_cast<const char*>(data), size };
}

struct NamedInput {
    std::string name;
    std::string_view content;
};

// "name\ncontent" pieces separated by a line "\n====\n": a bundle of a few files whose names
// carry rank claims (rank3.log, nccl_trace_rank_7, node-1/attempt_0/2/stderr.log). At most
// `limit` pieces; a piece without a newline is a file named "input.log".
inline std::vector<NamedInput> splitFiles(std::string_view input, std::size_t limit)
{
    std::vector<NamedInput> files;
    constexpr std::string_view kSeparator = "\n====\n";
    while (!input.empty() && files.size() < limit) {
        const std::size_t end = input.find(kSeparator);
        std::string_view piece = input.substr(0, end);
        input = end == std::string_view::npos ? std::string_view() : input.substr(end + kSeparator.size());
        const std::size_t newline = piece.find('\n');
        NamedInput f;
        if (newline == std::string_view::npos || newline > 200) {
            f.name = "input.log";
            f.content = piece;
        } else {
            f.name = std::string(piece.substr(0, newline));
            f.content = piece.substr(newline + 1);
        }
        files.push_back(std::move(f));
    }
    return files;
}

} // namespace rankscope::fuzz
