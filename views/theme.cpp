#include "views/theme.h"

namespace rankscope::views::theme {

namespace {
QString fromWords(std::string_view words)
{
    return QString::fromUtf8(words.data(), static_cast<qsizetype>(words.size()));
}
} // namespace

bool isDark(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightnessF() < 0.5;
}

SemanticColors colors(const QPalette& palette)
{
    // Two hand-picked sets (Material 700 shades on light, 300 shades on dark) rather than
    // computed hues: they keep enough contrast against both window backgrounds.
    if (isDark(palette)) {
        return {
            QColor(0xff, 0x6b, 0x6b), // initiating
            QColor(0x90, 0xa4, 0xae), // collateral
            QColor(0xff, 0xb7, 0x4d), // stuck
            QColor(0xf0, 0x62, 0x92), // error
            QColor(0xff, 0xd5, 0x4f), // warning
            QColor(0x81, 0xc7, 0x84), // ok
            QColor(0x9e, 0x9e, 0x9e), // neutral
        };
    }
    return {
        QColor(0xd3, 0x2f, 0x2f),
        QColor(0x60, 0x7d, 0x8b),
        QColor(0xe6, 0x51, 0x00),
        QColor(0xad, 0x14, 0x57),
        QColor(0xf9, 0xa8, 0x25),
        QColor(0x2e, 0x7d, 0x32),
        QColor(0x75, 0x75, 0x75),
    };
}

QColor tint(const QColor& accent, const QPalette& palette)
{
    // Blend towards the base colour: 25% accent on light, 35% on dark backgrounds, so the
    // tint is visible and the text colour still has contrast.
    const QColor base = palette.color(QPalette::Base);
    const double a = isDark(palette) ? 0.35 : 0.25;
    return QColor::fromRgbF(static_cast<float>(base.redF() * (1 - a) + accent.redF() * a),
        static_cast<float>(base.greenF() * (1 - a) + accent.greenF() * a),
        static_cast<float>(base.blueF() * (1 - a) + accent.blueF() * a));
}

QColor rankStateColor(model::RankState state, const QPalette& palette)
{
    const SemanticColors c = colors(palette);
    using model::RankState;
    switch (state) {
    case RankState::NeverEntered:
    case RankState::Straggling:
    case RankState::Frozen:
        return c.initiating;
    case RankState::StuckInCollective:
        return c.stuck;
    case RankState::Crashed:
        return c.error;
    case RankState::CollateralTimeout:
    case RankState::TornDown:
        return c.collateral;
    case RankState::Completed:
    case RankState::Healthy:
        return c.ok;
    case RankState::Unknown:
        break;
    }
    return c.neutral;
}

QColor textOn(const QColor& fill)
{
    // Relative luminance threshold of WCAG: dark text on light fills, white otherwise.
    const double l = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return l > 0.55 ? QColor(0x21, 0x21, 0x21) : QColor(Qt::white);
}

QString statusLabel(model::DiagnosisStatus status)
{
    return fromWords(model::statusWords(status));
}

QColor statusColor(model::DiagnosisStatus status, const QPalette& palette)
{
    const SemanticColors c = colors(palette);
    switch (status) {
    case model::DiagnosisStatus::HangDiagnosed:
        return c.initiating;
    case model::DiagnosisStatus::NoHangFound:
        return c.ok;
    case model::DiagnosisStatus::Inconclusive:
        break;
    }
    return c.warning;
}

QString rootCauseLabel(model::RootCauseClass cls)
{
    return fromWords(model::rootCauseClassWords(cls));
}

QString rankStateLabel(model::RankState state)
{
    return fromWords(model::rankStateWords(state));
}

QString initiatorLabel(model::RootCauseClass cls, model::RankState state)
{
    return fromWords(model::initiatorWords(cls, state));
}

QString initiatorsLabel(model::RootCauseClass cls)
{
    return fromWords(model::initiatorsWords(cls));
}

QString initiatorRoleLabel(model::RootCauseClass cls)
{
    return fromWords(model::initiatorRoleWords(cls));
}

QString initiatorHostsLabel(model::RootCauseClass cls)
{
    return fromWords(model::initiatorHostsWords(cls));
}

} // namespace rankscope::views::theme
