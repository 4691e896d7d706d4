#include "model/secretmasker.h"

#include <catch2/catch.hpp>

#include <random>
#include <string>

using namespace rankscope::model;

namespace {

// The masked line, or "" when the masker left the line alone.
std::string masked(std::string_view line)
{
    SecretMasker masker;
    std::string out;
    return masker.mask(line, out) ? out : std::string();
}

const std::string kHf = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567";
const std::string kGhp = "ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";
const std::string kWandb = "0123456789abcdef0123456789abcdef01234567";
const std::string kAwsSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

} // namespace

TEST_CASE("token formats are masked by their own kind wherever they appear", "[masking]")
{
    CHECK(masked("export HF_TOKEN=" + kHf) == "export HF_TOKEN=‹masked:hf-token›");
    CHECK(masked("[rank0]:+ huggingface-cli login --token " + kHf + " --add-to-git-credential")
        == "[rank0]:+ huggingface-cli login --token ‹masked:hf-token› --add-to-git-credential");
    CHECK(masked("GITHUB_TOKEN=" + kGhp) == "GITHUB_TOKEN=‹masked:github-token›");
    CHECK(masked("git clone https://" + kGhp + "@github.com/org/repo.git")
        == "git clone https://‹masked:github-token›@github.com/org/repo.git");
    CHECK(
        masked("token github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH")
        == "token ‹masked:github-token›");
    CHECK(masked("aws_access_key_id = AKIAIOSFODNN7EXAMPLE")
        == "aws_access_key_id = ‹masked:aws-access-key›");
    CHECK(masked("credentials ASIAY34FZKBOKMUTVV7A expire at 12:00")
        == "credentials ‹masked:aws-access-key› expire at 12:00");
    CHECK(
        masked("SLACK_WEBHOOK_BOT xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx posted")
        == "SLACK_WEBHOOK_BOT ‹masked:slack-token› posted");
    CHECK(masked("OPENAI_API_KEY=sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789")
        == "OPENAI_API_KEY=‹masked:openai-key›");
}

TEST_CASE("W&B keys are masked as assignments and after wandb login", "[masking]")
{
    CHECK(masked("WANDB_API_KEY=" + kWandb) == "WANDB_API_KEY=‹masked:wandb-key›");
    CHECK(masked("+ wandb login " + kWandb) == "+ wandb login ‹masked:wandb-key›");
    CHECK(masked("wandb.login(key='" + kWandb + "')") == "wandb.login(key='‹masked:wandb-key›')");
    // A git commit in a wandb line that is neither a login nor a key stays.
    CHECK(masked("wandb: Syncing run at commit " + kWandb).empty());
    // The key's 40 hex digits inside a longer word are no key, even on a line with one (what
    // fuzz_secretmasker first reported: its property now allows for copies in the text).
    CHECK(masked("ip-10 WANDB_API_KEY=" + kWandb + " net plugin version " + kWandb + "0J")
        == "ip-10 WANDB_API_KEY=‹masked:wandb-key› net plugin version " + kWandb + "0J");
}

TEST_CASE("AWS secret keys are masked in env and credentials-file form", "[masking]")
{
    CHECK(masked("AWS_SECRET_ACCESS_KEY=" + kAwsSecret)
        == "AWS_SECRET_ACCESS_KEY=‹masked:aws-secret›");
    CHECK(masked("aws_secret_access_key = " + kAwsSecret)
        == "aws_secret_access_key = ‹masked:aws-secret›");
}

TEST_CASE("bearer and authorization credentials are masked, prose is not", "[masking]")
{
    CHECK(masked("> Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.abc-def_ghi")
        == "> Authorization: Bearer ‹masked:bearer-token›");
    CHECK(masked("Authorization: Bearer x") == "Authorization: Bearer ‹masked:bearer-token›");
    CHECK(masked("curl -H \"Authorization: Basic dXNlcjpwYXNz\" https://example.com")
        == "curl -H \"Authorization: Basic ‹masked:bearer-token›\" https://example.com");
    CHECK(masked("headers={'Authorization': 'Bearer 0a1b2c3d4e5f'}")
        == "headers={'Authorization': 'Bearer ‹masked:bearer-token›'}");
    CHECK(masked("request failed: Bearer token is required").empty());
    // Schemes other than Bearer/Basic (GitHub's "token"), in any case, and none at all.
    CHECK(masked("curl -H 'Authorization: token 0123456789abcdef0123' https://api.github.com")
        == "curl -H 'Authorization: token ‹masked:bearer-token›' https://api.github.com");
    CHECK(masked("AUTHORIZATION: Token abcdefghij123456")
        == "AUTHORIZATION: Token ‹masked:bearer-token›");
    CHECK(masked("authorization: abcdefghij1234567890") == "authorization: ‹masked:bearer-token›");
}

TEST_CASE("passwords in URLs keep the user and hide the password", "[masking]")
{
    CHECK(masked("MASTER_DB=postgres://alice:s3cret@db.internal:5432/runs")
        == "MASTER_DB=postgres://alice:‹masked:url-password›@db.internal:5432/runs");
    CHECK(masked("pip install --index-url https://ci:p%40ss@pypi.corp/simple torch")
        == "pip install --index-url https://ci:‹masked:url-password›@pypi.corp/simple torch");
    CHECK(masked("ssh://git@github.com:22/org/repo").empty());
    CHECK(masked("mail alice@example.com about it").empty());
}

TEST_CASE("secret-named variables are masked, harmless values and names are not", "[masking]")
{
    CHECK(masked("DB_PASSWORD=hunter2") == "DB_PASSWORD=‹masked:env-secret›");
    CHECK(masked("MY_SERVICE_TOKEN=abc123 NCCL_DEBUG=INFO")
        == "MY_SERVICE_TOKEN=‹masked:env-secret› NCCL_DEBUG=INFO");
    CHECK(masked("TOKEN=abc") == "TOKEN=‹masked:env-secret›");
    CHECK(masked("SECRET='two words'") == "SECRET='‹masked:env-secret›'");
    CHECK(masked("{\"api_key\": \"abcd1234\", \"lr\": 0.1}")
        == "{\"api_key\": \"‹masked:env-secret›\", \"lr\": 0.1}");
    CHECK(masked("python train.py --api-key=abcd1234 --lr 0.1")
        == "python train.py --api-key=‹masked:env-secret› --lr 0.1");
    CHECK(masked("hf_token: 'abcdef'") == "hf_token: '‹masked:env-secret›'");
    CHECK(masked("https://host/cb?access_token=abcdef&x=1")
        == "https://host/cb?access_token=‹masked:env-secret›&x=1");

    CHECK(masked("NCCL_IB_TIMEOUT=22").empty());
    CHECK(masked("KEY_PATH=/home/alice/.ssh/id_rsa").empty());
    CHECK(masked("SSH_KEY=/home/alice/.ssh/id_rsa").empty());
    CHECK(masked("MAX_TOKEN=2048").empty());
    CHECK(masked("TOKEN=").empty());
    CHECK(masked("CACHE_KEY=0x1f").empty());
    CHECK(masked("pad_token=<pad> eos_token=</s>").empty());
    CHECK(masked("special_tokens={'bos_token': '<s>', 'pad_token': '[PAD]'}").empty());
    CHECK(masked("tokenizer.pad_token = None").empty());
    CHECK(masked("GIT_ASKPASS_TOKEN=$GH_TOKEN").empty());
    CHECK(masked("DB_PASSWORD=***").empty());
    CHECK(masked("ERROR: invalid token: the token has expired").empty());
    CHECK(masked("KEY=value").empty()); // "KEY" alone names nothing secret
}

TEST_CASE("generic password prompts and assignments are masked", "[masking]")
{
    CHECK(masked("mysql password: hunter2") == "mysql password: ‹masked:password›");
    CHECK(masked("password: x") == "password: ‹masked:password›");
    CHECK(masked("SECRET=xxx").empty()); // a placeholder
    CHECK(
        masked("DB_PASSWORD=12345678") == "DB_PASSWORD=‹masked:env-secret›"); // a PIN is a password
    CHECK(masked("passwd=hunter2 user=bob") == "passwd=‹masked:password› user=bob");
    CHECK(masked("Password: ********").empty());
    CHECK(masked("cat: /etc/passwd: No such file or directory").empty());
    CHECK(masked("Enter password:").empty());
}

TEST_CASE(
    "a multi-line private key is masked from BEGIN to END and the block ends there", "[masking]")
{
    SecretMasker masker;
    std::string out;
    REQUIRE(masker.mask("[rank0]:-----BEGIN RSA PRIVATE KEY-----", out));
    CHECK(out == "[rank0]:‹masked:private-key›");
    CHECK(masker.inPrivateKey());
    REQUIRE(masker.mask(
        "[rank0]:MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun", out));
    CHECK(out == "[rank0]:‹masked:private-key›");
    REQUIRE(masker.mask("VFP4nB9e3yGpvDbm1cgdMx1w", out)); // a short last body line, no prefix
    CHECK(out == "‹masked:private-key›");
    REQUIRE(masker.mask("[rank0]:-----END RSA PRIVATE KEY-----", out));
    CHECK(out == "[rank0]:‹masked:private-key›");
    CHECK_FALSE(masker.inPrivateKey());
    CHECK_FALSE(masker.mask("[rank0]:Epoch 1 done", out));
    CHECK(masker.counts()[static_cast<std::size_t>(SecretKind::PrivateKey)] == 4);
}

TEST_CASE("a one-line private key (JSON-escaped) does not open a block", "[masking]")
{
    SecretMasker masker;
    std::string out;
    const std::string line = R"({"private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQ\n)"
                             R"(-----END PRIVATE KEY-----\n", "x": 1})";
    REQUIRE(masker.mask(line, out));
    CHECK(out == "{\"private_key\": \"‹masked:private-key›");
    CHECK_FALSE(masker.inPrivateKey());
}

TEST_CASE("a truncated private key stops masking after three ordinary lines", "[masking]")
{
    SecretMasker masker;
    std::string out;
    REQUIRE(masker.mask("-----BEGIN OPENSSH PRIVATE KEY-----", out));
    REQUIRE(
        masker.mask("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", out));
    CHECK_FALSE(masker.mask("Traceback (most recent call last):", out));
    CHECK_FALSE(masker.mask("  File \"train.py\", line 3, in <module>", out));
    CHECK_FALSE(masker.mask("RuntimeError: boom", out));
    CHECK_FALSE(masker.inPrivateKey());
    CHECK_FALSE(masker.mask("Epoch", out)); // would be key material inside a block
}

TEST_CASE("a key block never outlives its line budget", "[masking]")
{
    SecretMasker masker;
    std::string out;
    REQUIRE(masker.mask("-----BEGIN PRIVATE KEY-----", out));
    for (std::size_t i = 0; i < SecretMasker::kMaxPrivateKeyLines + 2; ++i)
        masker.mask("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=", out);
    CHECK_FALSE(masker.inPrivateKey());
}

TEST_CASE("NCCL, PyTorch and our own inputs are not mistaken for secrets", "[masking]")
{
    const char* lines[] = {
        "ip-10-0-20-78:55:154 [7] NCCL INFO NCCL_IB_TIMEOUT set by environment to 22.",
        "ip-10-0-20-78:55:154 [7] NCCL INFO ncclCommInitRank comm 0x3ddc3680 rank 7 nranks 16 "
        "cudaDev 7 "
        "nvmlDev 7 busId db000 commId 0x9b63f1ac43bdb30e - Init START",
        "gpu-node-017:48213:48213 [3] NCCL INFO AllReduce: opCount 1f sendbuff 0x7f5dd32b2100 "
        "recvbuff "
        "0x7f5dd32b2100 count 9984512 datatype 7 op 0 root 0 comm 0x55bef0201370 [nranks=4096] "
        "stream 0x55bef0208bd0",
        "node1:1234:1290 [0] NCCL INFO comm 0x55bef0201370 rank 0 nRanks 8 nNodes 1 localRanks 8 "
        "localRank 0 "
        "MNNVL 0 commId 0x898b6d578585998c",
        "ip-10-0-20-78:55:154 [7] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB "
        "eth0:10.0.20.78<0>",
        "[rank7]:[E1218 20:27:21.423 ProcessGroupNCCL.cpp:616] [Rank 7] Watchdog caught collective "
        "operation "
        "timeout: WorkNCCL(SeqNum=44, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) "
        "ran for "
        "600042 milliseconds before timing out.",
        "rank0.log  4.2 KiB  sha256 "
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "[  123.456] NVRM: Xid (PCI:0000:7e:00): 79, pid=1234, GPU has fallen off the bus.",
        "Collecting hf_transfer>=0.1.4",
        "HF_HUB_ENABLE_HF_TRANSFER=1",
        "Epoch 3:  41%|████      | 410/1000 [03:12<04:36,  2.13it/s, loss=1.234]",
        "srun: error: ip-10-0-20-78: task 7: Aborted (core dumped)",
        "torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 179 closing "
        "signal SIGTERM",
        "task-12345678901234567890123456789012345 finished",
    };
    for (const char* line : lines) {
        INFO(line);
        CHECK(masked(line).empty());
    }
}

TEST_CASE("masking is idempotent: a masked line has nothing left to mask", "[masking]")
{
    const std::string lines[] = {
        "export HF_TOKEN=" + kHf,
        "MASTER_DB=postgres://alice:s3cret@db.internal:5432/runs",
        "> Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.abc",
        "DB_PASSWORD=hunter2 password: x",
        "{\"private_key\": \"-----BEGIN PRIVATE KEY-----\\nMII\"}",
    };
    for (const auto& line : lines) {
        INFO(line);
        const std::string once = masked(line);
        REQUIRE_FALSE(once.empty());
        CHECK(masked(once).empty());
    }
}

TEST_CASE("maskSecrets masks one line without state and keeps clean lines", "[masking]")
{
    CHECK(maskSecrets("HF_TOKEN=" + kHf + " and DB_PASSWORD=x")
        == "HF_TOKEN=‹masked:hf-token› and DB_PASSWORD=‹masked:env-secret›");
    CHECK(maskSecrets("nothing to see") == "nothing to see");
    CHECK(secretKindName(SecretKind::UrlPassword) == "url-password");
}

TEST_CASE(
    "the SIMD prefilter agrees with the portable one on every position and length", "[masking]")
{
    std::mt19937 rng(5);
    const std::string alphabet = "_@-kKnNyYtT=xXwoOaAsSwWBeEKS0123456789abcdefz .:/\x80\xE2";
    for (int round = 0; round < 20000; ++round) {
        std::string line(rng() % 80, 'z');
        // Mostly harmless bytes with a few interesting ones, so both outcomes occur.
        for (auto& c : line)
            if (rng() % 8 == 0)
                c = alphabet[rng() % alphabet.size()];
        INFO(line);
        REQUIRE(SecretMasker::fingerprints(line) == detail::fingerprintsScalar(line));
        REQUIRE(detail::fingerprintsSsse3(line) == detail::fingerprintsScalar(line));
    }
    // The last byte has no pair of its own but '_' and '@' still count there.
    CHECK(SecretMasker::mightContainSecret(std::string(40, 'z') + "_"));
    CHECK(SecretMasker::mightContainSecret(std::string(16, 'z') + "@"));
    CHECK(SecretMasker::fingerprints(std::string(70, 'z')) == 0);
    // An empty view may have a null data(): nothing is copied from it (UBSan: memcpy null).
    CHECK(SecretMasker::fingerprints(std::string_view()) == 0);
    CHECK(detail::fingerprintsSsse3(std::string_view()) == 0);
    CHECK_FALSE(SecretMasker::mightContainSecret(std::string_view()));
    CHECK_FALSE(SecretMasker::mightContainSecret(std::string(35, 'z') + " " + std::string(35, 'z')));
}

TEST_CASE("random mixes of secret fragments never crash and mask to a fixed point", "[masking]")
{
    const std::string fragments[]
        = { "hf_", "AbCdEfGhIjKlMnOpQrStUvWxYz012345", "ghp_", "github_pat_", "AKIA",
              "ABCDEFGHIJ012345", "xoxb-", "sk-", "Bearer ", "Authorization: ", "Basic ",
              "-----BEGIN RSA PRIVATE KEY-----", "-----END", "://", "alice:pw@", "@", ":", "=", " ",
              "'", "\"", "TOKEN", "_KEY", "PASSWORD", "password", "wandb", "login", kWandb,
              "\xE2\x80\xB9", "\xff", std::string(1, '\0'), "/home/bob/", "\\" };
    std::mt19937 rng(11);
    for (int round = 0; round < 20000; ++round) {
        std::string line;
        for (unsigned k = rng() % 12; k > 0; --k)
            line += fragments[rng() % std::size(fragments)];
        SecretMasker masker;
        std::string once;
        if (!masker.mask(line, once))
            continue;
        INFO(line);
        CHECK(masked(once).empty());
    }
}

// --- The catalogue (issue 21): one row per form, each proving what the prefilter needs ---

TEST_CASE("every catalogue row compiles and masks its own example", "[masking][catalogue]")
{
    const auto rows = detail::secretCatalogue();
    REQUIRE(rows.size() > 10);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        INFO("row " << i << " (" << secretKindName(rows[i].kind) << "): " << rows[i].example);
        const auto spans = detail::matchRow(i, rows[i].example);
        REQUIRE_FALSE(spans.empty());
        CHECK(spans.front() != std::make_pair(std::size_t(0), std::size_t(0)));
        CHECK(masked(rows[i].example).find("\xE2\x80\xB9masked:") != std::string::npos);
        // Keywords are found by a case-folding search that folds its first two bytes with
        // | 0x20: they must be lowercase letters or bytes that fold to themselves ('-', ':').
        std::string_view keywords = rows[i].keywords;
        while (!keywords.empty()) {
            const std::string_view keyword = keywords.substr(0, keywords.find('|'));
            REQUIRE(keyword.size() >= 2);
            CHECK((keyword[0] | 0x20) == keyword[0]);
            CHECK((keyword[1] | 0x20) == keyword[1]);
            keywords.remove_prefix(std::min(keywords.size(), keyword.size() + 1));
        }
    }
}

TEST_CASE("every line a catalogue row masks passes the prefilter with the row's own bucket",
    "[masking][catalogue]")
{
    // The prefilter hides a line from every row; a row is run only when its bucket (or the
    // long run) was seen. So each row must hold a pair of its bucket in every match: checked
    // here on its example in several cases and contexts.
    const auto rows = detail::secretCatalogue();
    auto variants = [](const std::string& example) {
        std::string upper = example;
        std::string lower = example;
        for (auto& c : upper)
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        for (auto& c : lower)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return std::vector<std::string> { example, upper, lower, "x " + example + " y",
            "\"" + example + "\"", "[rank3]:" + example };
    };
    for (std::size_t i = 0; i < rows.size(); ++i) {
        for (const auto& line : variants(std::string(rows[i].example))) {
            if (detail::matchRow(i, line).empty())
                continue;
            INFO("row " << i << " (" << secretKindName(rows[i].kind) << "): " << line);
            CHECK(SecretMasker::mightContainSecret(line));
            if (rows[i].bucket == detail::kRunBucket)
                CHECK(SecretMasker::hasLongTokenRun(line));
            else if (rows[i].bucket >= 0)
                CHECK((SecretMasker::fingerprints(line) & (1u << rows[i].bucket)) != 0);
        }
    }
}

TEST_CASE("the prefilter keeps the promises callers that skip the masker rely on",
    "[masking][catalogue]")
{
    // NcclParser::recordRepeatedColl takes an unmasked line only when mightContainSecret()
    // is false for it, told from its pieces by the promises of secretmasker.h.
    auto fp = [](const std::string& s) { return SecretMasker::fingerprints(s); };
    auto clean = [](const std::string& s) { return !SecretMasker::mightContainSecret(s); };
    // Promise 1: a space is the first byte of no pair...
    for (int c = 1; c < 256; ++c)
        REQUIRE(fp(std::string(" ") + char(c)) == fp(std::string(1, char(c))));
    // ...nor the second byte of a pair whose first byte is a letter or digit...
    for (int c = 1; c < 256; ++c)
        if (std::isalnum(c))
            REQUIRE(fp(std::string(1, char(c)) + " ") == 0);
    // ...and no run crosses it.
    const std::string run39(SecretMasker::kLongTokenRun - 1, 'Q');
    CHECK(clean(run39 + " " + run39));
    CHECK_FALSE(clean(run39 + "Q"));
    // Promise 2: the layout's own words, lowercase hex and decimal runs shorter than a long
    // run, plain pointers; "0xa…" pairs x with a, and an uppercase opCount may hold "BE".
    for (const char* word : { " sendbuff ", " recvbuff ", " count ", ": opCount " })
        CHECK(clean(word));
    std::mt19937 rng(5);
    const std::string hex = "0123456789abcdef";
    for (int round = 0; round < 5000; ++round) {
        std::string digits;
        for (unsigned n = 1 + rng() % (SecretMasker::kLongTokenRun - 3); n > 0; --n)
            digits += hex[rng() % (round % 2 ? 10 : hex.size())];
        REQUIRE(clean(digits));
        if (digits[0] != 'a')
            REQUIRE(clean("0x" + digits));
    }
    CHECK(clean("(nil)"));
    CHECK(fp("0xa1") != 0);
    CHECK(fp("1BE") != 0);
    // The lane's first piece is a writer's whole line start, launcher label and NCCL header
    // together, tested by the prefilter as one string: ordinary labels leave it clean, a
    // token in a label does not, and it ends in the space promise 1 is about.
    for (const char* start : { "[default3]:dgx38:2483679:2483679 [3] NCCL INFO ",
             "0123: dgx38:2483679:2483679 [3] NCCL INFO ", "node12: node12:5:5 [0] NCCL INFO ",
             "[1,3]<stdout>:h1:7:7 [0] NCCL INFO " })
        CHECK(clean(start));
    CHECK_FALSE(clean("hf_abcdefghijklmnopqrstuvwxyz0123: h1:7:7 [0] NCCL INFO "));
    CHECK_FALSE(clean("[default1]:TOKEN=hunter2hunter2 h1:8:8 [1] NCCL INFO "));
}

TEST_CASE("the SIMD long-run test agrees with the portable one", "[masking][catalogue]")
{
    std::mt19937 rng(17);
    const std::string alphabet = "aZ09+/ -_.=\x80";
    for (int round = 0; round < 20000; ++round) {
        std::string line(rng() % 120, 'k');
        for (auto& c : line)
            if (rng() % 24 == 0)
                c = alphabet[rng() % alphabet.size()];
        INFO(line);
        REQUIRE(SecretMasker::hasLongTokenRun(line) == detail::hasLongTokenRunScalar(line));
    }
}

TEST_CASE("the forms issue 21 found unmasked are masked by their own kind", "[masking][catalogue]")
{
    const std::string jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6"
                            "IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_"
                            "adQssw5c";
    CHECK(masked("token " + jwt + " expired") == "token ‹masked:jwt› expired");
    CHECK(masked("> Cookie: session=" + jwt) == "> Cookie: session=‹masked:jwt›");
    CHECK(masked("python train.py --password Sup3rS3cretPw --lr 0.1")
        == "python train.py --password ‹masked:password› --lr 0.1");
    CHECK(masked("login with password Hunter2x now") == "login with password ‹masked:password› now");
    CHECK(masked("password \"correct horse\"") == "password \"‹masked:password›\"");
    CHECK(masked("+ mysql -h db -u root -pHunter2Pass42 runs")
        == "+ mysql -h db -u root -p‹masked:password› runs");
    CHECK(masked("secret is wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY ok")
        == "secret is ‹masked:aws-secret› ok");
    CHECK(masked("key=AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe")
        == "key=‹masked:google-api-key›");
    CHECK(masked("GITLAB glpat-x8Fz3kQ2mN7pR1sT5vWy") == "GITLAB ‹masked:gitlab-token›");
    CHECK(masked("//registry.npmjs.org/:_authToken=npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8")
        == "//registry.npmjs.org/:_authToken=‹masked:npm-token›");
    CHECK(masked("STRIPE sk_live_51HqLyjWDarjtT1zdp7dcXN4fQ2r8aB3c")
        == "STRIPE ‹masked:stripe-key›");
    CHECK(masked("AccountName=a;AccountKey=Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9v==;EndpointSuffix=x")
        == "AccountName=a;AccountKey=‹masked:azure-key›;EndpointSuffix=x");
    CHECK(masked("GET /c/f?sv=2021-06-08&ss=b&sig=AbCdEfGhIjKlMnOpQrStUv%2BWx%3D HTTP/1.1")
        == "GET /c/f?sv=2021-06-08&ss=b&sig=‹masked:azure-sas› HTTP/1.1");
    CHECK(masked("wandb: WANDB_API_KEY " + kWandb) == "wandb: WANDB_API_KEY ‹masked:wandb-key›");
    CHECK(masked("machine api.wandb.ai login user password " + kWandb)
        == "machine api.wandb.ai login user password ‹masked:wandb-key›");
}

TEST_CASE("prose around the new forms is not mistaken for a secret", "[masking][catalogue]")
{
    const char* lines[] = {
        "psql: FATAL: password authentication failed for user \"bob\"",
        "Enter your password for the wandb account",
        "please set --password-file /etc/secret/db",
        "mysql -u root -p runs",
        "commit 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
        "sha256 9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B",
        "/usr/lib/python3/dist-packages/torch/nn/parallel/distributed.py",
        // A URL's tail and a path of exactly 40 base64 characters.
        "- Issue: https://github.com/ZhehengJiangLancaster/AMVUR/issues/2 - a thread",
        "cd /home/alice/Proj3ctsX/deepSpeed/run/x2yz && ls",
        "loss=1.234 sig=0.5 grad_norm=3.2",
        "Using the eyJ prefix rule for JWTs",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    };
    for (const char* line : lines) {
        INFO(line);
        CHECK(masked(line).empty());
    }
}

TEST_CASE("maskText masks each line of a multi-line string and keeps the line breaks",
    "[masking][catalogue]")
{
    std::string out;
    CHECK_FALSE(maskText("nothing\nhere\r\n", out));
    REQUIRE(maskText("RuntimeError: x\r\nHF_TOKEN=" + kHf + "\n-----BEGIN PRIVATE KEY-----\n"
                     "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----\nok",
        out));
    CHECK(out
        == "RuntimeError: x\r\nHF_TOKEN=‹masked:hf-token›\n‹masked:private-key›\n"
           "‹masked:private-key›\n‹masked:private-key›\nok");
}

TEST_CASE("random text with known secrets embedded never lets one through",
    "[masking][catalogue][property]")
{
    // Each secret alone, in random surroundings drawn from log-line bytes: the masked line
    // must not hold it, nor its distinctive middle.
    const std::string secrets[] = { kHf, kGhp, kAwsSecret, "AKIAIOSFODNN7EXAMPLE",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
        "glpat-x8Fz3kQ2mN7pR1sT5vWy", "npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
        "sk_live_51HqLyjWDarjtT1zdp7dcXN4fQ2r8aB3c", "AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe",
        "xoxb-123456789012-1234567890123-AbCdEfGh" };
    const std::string around[] = { " ", "  ", "\t", "=", ": ", "\"", "'", "(", ")", ",", ";", "[",
        "]", "{", "}", "<", ">", "|", "&", "?", "x=", "token ", "key: ", "NCCL INFO ", "[rank0]:",
        "\xE2\x80\xB9", "\xff" };
    std::mt19937 rng(21);
    for (int round = 0; round < 20000; ++round) {
        const std::string& secret = secrets[rng() % std::size(secrets)];
        std::string line;
        for (unsigned k = rng() % 4; k > 0; --k)
            line += around[rng() % std::size(around)];
        line += around[rng() % 12]; // a byte that ends a token before it
        line += secret;
        line += around[rng() % 12]; // and after it
        for (unsigned k = rng() % 4; k > 0; --k)
            line += around[rng() % std::size(around)];
        INFO(line);
        std::string out = maskSecrets(line);
        REQUIRE(out.find(secret) == std::string::npos);
        REQUIRE(out.find(secret.substr(6, 12)) == std::string::npos);
    }
}
