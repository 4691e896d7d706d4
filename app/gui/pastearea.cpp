#include "app/gui/pastearea.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSpinBox>
#include <QVBoxLayout>

namespace rankscope::app {

PasteArea::PasteArea(QWidget* parent)
    : QWidget(parent)
    , m_editor(new QPlainTextEdit(this))
    , m_rank(new QSpinBox(this))
    , m_diagnose(new QPushButton(tr("Diagnose pasted log"), this))
{
    setObjectName(QStringLiteral("pasteArea"));
    const int em = fontMetrics().height();
    m_editor->setObjectName(QStringLiteral("pasteEditor"));
    m_editor->setPlaceholderText(tr("…or paste a terminal's output here (Ctrl+V) and press Diagnose. "
                                    "Nothing leaves this machine."));
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setMinimumHeight(em * 5);
    m_editor->setTabChangesFocus(true);
    QFont mono = m_editor->font();
    mono.setFamily(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    m_editor->setFont(mono);

    // -1 shows "not known": the rank is read from the log's own prefixes then.
    m_rank->setObjectName(QStringLiteral("pasteRank"));
    m_rank->setRange(-1, 1 << 20);
    m_rank->setValue(-1);
    m_rank->setSpecialValueText(tr("from the log"));
    m_rank->setAccelerated(true);
    auto* rankLabel = new QLabel(tr("&Rank:"), this);
    rankLabel->setBuddy(m_rank);

    m_diagnose->setObjectName(QStringLiteral("pasteDiagnose"));
    m_diagnose->setEnabled(false);
    m_diagnose->setToolTip(tr("Diagnose the pasted text (Ctrl+Enter)"));

    auto* row = new QHBoxLayout;
    row->addWidget(rankLabel);
    row->addWidget(m_rank);
    row->addStretch(1);
    row->addWidget(m_diagnose);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_editor, 1);
    layout->addLayout(row);

    connect(m_editor, &QPlainTextEdit::textChanged, this,
        [this] { m_diagnose->setEnabled(!m_editor->toPlainText().trimmed().isEmpty()); });
    connect(m_diagnose, &QPushButton::clicked, this, &PasteArea::submit);
    for (const QKeySequence& keys : { QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter) }) {
        auto* shortcut = new QShortcut(keys, m_editor);
        shortcut->setContext(Qt::WidgetShortcut);
        connect(shortcut, &QShortcut::activated, this, &PasteArea::submit);
    }
}

void PasteArea::submit()
{
    const QString text = m_editor->toPlainText();
    if (text.trimmed().isEmpty())
        return;
    const std::optional<int> rank = m_rank->value() >= 0 ? std::optional<int>(m_rank->value()) : std::nullopt;
    m_editor->clear();
    m_rank->setValue(-1);
    Q_EMIT diagnoseRequested(text, rank);
}

} // namespace rankscope::app
