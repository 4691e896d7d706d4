#pragma once
// The welcome page's paste area: most users start with one terminal's output in the
// clipboard, not a bundle on disk. Text pasted or typed here is diagnosed like a file;
// the rank it came from is optional (the log's own prefixes usually say).

#include <QWidget>

#include <optional>

class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace rankscope::app {

class PasteArea : public QWidget {
    Q_OBJECT
public:
    explicit PasteArea(QWidget* parent = nullptr);

    QPlainTextEdit* editor() const { return m_editor; }
    QPushButton* diagnoseButton() const { return m_diagnose; }
    QSpinBox* rankBox() const { return m_rank; }

Q_SIGNALS:
    // The text, and the rank when the user gave one. The area is cleared after.
    void diagnoseRequested(const QString& text, std::optional<int> rank);

private:
    void submit();

    QPlainTextEdit* m_editor;
    QSpinBox* m_rank;
    QPushButton* m_diagnose;
};

} // namespace rankscope::app
