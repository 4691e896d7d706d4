# Timeline / heatmap tests (appended to RANKSCOPE_VIEW_TEST_SOURCES).
list(APPEND RANKSCOPE_VIEW_TEST_SOURCES
    test_heatmap_view.cpp
    test_timeline_axisrule.cpp
    test_timeline_coords.cpp
    test_timeline_inferred.cpp
    test_timeline_view.cpp
    test_timeline_zoom.cpp
)
