# Timeline and rank-pair heatmap sources (appended to RANKSCOPE_VIEWS_SOURCES).
list(APPEND RANKSCOPE_VIEWS_SOURCES
    heatmapimage.cpp
    pairheatmapview.cpp
    ranktimelineview.cpp
    timelineaxisrule.cpp
    timelinecoords.cpp
    timelinepainter.cpp
)
