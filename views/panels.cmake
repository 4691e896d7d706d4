# Root-cause panel, log viewer, ranks table, charts (appended to RANKSCOPE_VIEWS_SOURCES).
