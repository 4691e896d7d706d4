# Timeline / heatmap tests (appended to RANKSCOPE_VIEW_TEST_SOURCES).
