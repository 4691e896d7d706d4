// Masking at ingress through the real scanner: what the parsers see, what the model keeps
// and what the import issue says.

#include "model/parsedsource.h"
#include "parsers/logscanner.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

using namespace rankscope;

namespace {

model::ParsedSource scanned(std::string_view text)
{
    model::Source src;
    src.id = 0;
    src.path = "rank0.log";
    model::ParsedSource out(std::move(src));
    parsers::scanText(text, out);
    return out;
}

bool poolContains(const model::ParsedSource& p, std::string_view needle)
{
    for (std::size_t i = 1; i < p.strings.size(); ++i)
        if (p.text(static_cast<model::StrId>(i)).find(needle) != std::string_view::npos)
            return true;
    return false;
}

const model::Event* firstOf(const model::ParsedSource& p, model::EventKind kind)
{
    for (const auto& e : p.events)
        if (e.kind == kind)
            return &e;
    return nullptr;
}

} // namespace

TEST_CASE("secrets are masked before any parser sees the line and the model never holds them",
    "[masking]")
{
    const std::string log
        = "ip-10-0-20-78:55:55 [7] NCCL INFO Bootstrap : Using eth0:10.0.20.78<0>\n"
          "+ export HF_TOKEN=hf_SeedHfTokenAbCdEfGhIjKlMnOpQrStUv01\n"
          "ip-10-0-20-78:55:154 [7] NCCL WARN Error while fetching "
          "https://ci:SeedUrlPw1@mirror.internal/x\n"
          "[rank7]:-----BEGIN PRIVATE KEY-----\n"
          "[rank7]:MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7seedKeyLine\n"
          "[rank7]:-----END PRIVATE KEY-----\n"
          "[rank7]:[E1218 20:27:21.423 ProcessGroupNCCL.cpp:616] [Rank 7] Watchdog caught "
          "collective "
          "operation timeout: WorkNCCL(SeqNum=44, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
          "Timeout(ms)=600000) ran for 600042 milliseconds before timing out.\n";
    const model::ParsedSource p = scanned(log);

    for (const char* secret : { "SeedHfToken", "SeedUrlPw1", "MIIEvQIBADAN", "seedKeyLine" }) {
        INFO(secret);
        CHECK_FALSE(poolContains(p, secret));
    }
    // The NCCL warning is still an event, with the password masked and the user kept.
    const model::Event* warn = firstOf(p, model::EventKind::NcclWarn);
    REQUIRE(warn);
    CHECK(p.text(warn->text).find("https://ci:‹masked:url-password›@mirror.internal/x")
        != std::string_view::npos);
    // Lines after the masked ones parse as before.
    const model::Event* timeout = firstOf(p, model::EventKind::TorchWatchdogTimeout);
    REQUIRE(timeout);
    CHECK(timeout->seq == 44);
    CHECK(timeout->evidence.line == 7);

    CHECK(p.issues.count("secret_masked") == 5);
    const auto issues = p.issues.list();
    const auto it = std::find_if(
        issues.begin(), issues.end(), [](const auto& i) { return i.kind == "secret_masked"; });
    REQUIRE(it != issues.end());
    REQUIRE_FALSE(it->samples.empty());
    CHECK(it->samples.front() == "rank0.log:2: + export HF_TOKEN=‹masked:hf-token›");
    for (const auto& s : it->samples)
        CHECK(s.find("Seed") == std::string::npos);
}

TEST_CASE("a secret split across chunks is masked as one line", "[masking]")
{
    model::Source src;
    src.id = 0;
    src.path = "rank0.log";
    model::ParsedSource out(std::move(src));
    parsers::LogScanner scanner(out);
    scanner.feed("ok\nexport WANDB_API_KEY=5eed0123456789abcdef01");
    scanner.feed("23456789abcdef5eed\nnext line\n");
    scanner.finish();
    CHECK(out.issues.count("secret_masked") == 1);
    CHECK_FALSE(poolContains(out, "5eed0123"));
}

TEST_CASE("clean NCCL and PyTorch logs report no masked secrets", "[masking]")
{
    const model::ParsedSource p
        = scanned("ip-10-0-20-78:55:154 [7] NCCL INFO NCCL_IB_TIMEOUT set by environment to 22.\n"
                  "ip-10-0-20-78:55:154 [7] NCCL INFO ncclCommInitRank comm 0x3ddc3680 rank 7 "
                  "nranks 16 cudaDev 7 nvmlDev 7 "
                  "busId db000 commId 0x9b63f1ac43bdb30e - Init START\n"
                  "Collecting hf_transfer>=0.1.4\n");
    CHECK(p.issues.count("secret_masked") == 0);
}
