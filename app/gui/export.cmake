# The diagnosis report from the desktop app (issue 5): export dialog, figures drawn by the
# real views offscreen, PDF through QTextDocument/QPdfWriter, headless `rankscope --export`
# (appended to RANKSCOPE_GUI_SOURCES).
list(APPEND RANKSCOPE_GUI_SOURCES
    anonymizeddocument.cpp
    exportdialog.cpp
    exportformat.cpp
    headlessexport.cpp
    reportexport.cpp
    reportfigures.cpp
    reportpdf.cpp
    reporttextdocument.cpp
)
