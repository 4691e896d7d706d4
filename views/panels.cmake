# Root-cause panel, log viewer, ranks table, charts (appended to RANKSCOPE_VIEWS_SOURCES).
list(APPEND RANKSCOPE_VIEWS_SOURCES
    chartlegend.cpp
    chartsupport.cpp
    durationchart.cpp
    importissuesmodel.cpp
    importissuesview.cpp
    lineindex.cpp
    logdisplaylines.cpp
    logfind.cpp
    logmatchcounter.cpp
    logsearch.cpp
    logsearchmodel.cpp
    logsearchpanel.cpp
    logtextselection.cpp
    logtextview.cpp
    logtextviewinput.cpp
    logviewer.cpp
    placeholderwidth.cpp
    progresschart.cpp
    rankfilterproxy.cpp
    ranktablemodel.cpp
    rootcausepanel.cpp
    screentooltip.cpp
    textsearch.cpp
    theme.cpp
)
