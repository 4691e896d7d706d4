# Main window, background loading, docks, export wiring (appended to RANKSCOPE_GUI_SOURCES).
list(APPEND RANKSCOPE_GUI_SOURCES
    appearance.cpp
    chartspanel.cpp
    documentloader.cpp
    errorhub.cpp
    eventloopprobe.cpp
    logsearchdialog.cpp
    logsearchrunner.cpp
    mainwindow.cpp
    panelfocusframe.cpp
    panelnavigator.cpp
    pastearea.cpp
    pastedlogs.cpp
    questionspanel.cpp
    rankspanel.cpp
    recentbundles.cpp
    viewpreferences.cpp
    welcomepage.cpp
)
include(${CMAKE_CURRENT_SOURCE_DIR}/export.cmake) # File → Export Report…, --export
