// rankscope-docgen: the documents made from app/about at build time, so they say what the
// binaries say.
//   rankscope-docgen man rankscope|rankscope-cli OUT          manual page, section 1
//   rankscope-docgen completion rankscope|rankscope-cli OUT   bash completion script
//   rankscope-docgen changelog MAINTAINER OUT                 Debian changelog of the release
// Exit 0 when written, 2 on usage errors or when OUT cannot be written.

#include "app/about/bashcompletion.h"
#include "app/about/manpage.h"
#include "app/about/version.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

using namespace rankscope;

namespace {

int usage()
{
    std::fputs("usage: rankscope-docgen man|completion rankscope|rankscope-cli OUT\n"
               "       rankscope-docgen changelog MAINTAINER OUT\n",
        stderr);
    return 2;
}

// "2026-12-04" → "Fri, 04 Dec 2026 00:00:00 +0000", the date form of a Debian changelog.
std::string rfc2822Date(std::string_view isoDate)
{
    static constexpr const char* kDays[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
    static constexpr const char* kMonths[]
        = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
    const std::string text(isoDate);
    int year = 0;
    unsigned month = 0;
    unsigned day = 0;
    if (std::sscanf(text.c_str(), "%d-%u-%u", &year, &month, &day) != 3)
        return {};
    const std::chrono::year_month_day date { std::chrono::year(year), std::chrono::month(month),
        std::chrono::day(day) };
    if (!date.ok())
        return {};
    const std::chrono::weekday weekday { std::chrono::sys_days(date) };
    char out[64];
    std::snprintf(out, sizeof out, "%s, %02u %s %04d 00:00:00 +0000", kDays[weekday.c_encoding()],
        day, kMonths[month - 1], year);
    return out;
}

const about::ProgramSpec* program(std::string_view name)
{
    if (name == about::cliProgram().name)
        return &about::cliProgram();
    if (name == about::appProgram().name)
        return &about::appProgram();
    return nullptr;
}

int write(const std::string& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
        std::fprintf(stderr, "rankscope-docgen: cannot write %s\n", path.c_str());
        return 2;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 4)
        return usage();
    const std::string what = argv[1];
    if (what == "changelog") {
        const std::string date = rfc2822Date(about::releaseDate());
        if (date.empty()) {
            std::fprintf(stderr, "rankscope-docgen: release date '%s' is not YYYY-MM-DD\n",
                std::string(about::releaseDate()).c_str());
            return 2;
        }
        const std::string version(about::version());
        return write(argv[3],
            "rankscope (" + version + ") unstable; urgency=medium\n\n  * Release " + version
                + ".\n\n -- " + argv[2] + "  " + date + "\n");
    }
    const about::ProgramSpec* spec = program(argv[2]);
    if (!spec)
        return usage();
    if (what == "man")
        return write(argv[3], about::manPage(*spec, about::releaseDate(), about::version()));
    if (what == "completion")
        return write(argv[3], about::bashCompletion(*spec));
    return usage();
}
