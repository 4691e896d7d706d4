# Timeline and rank-pair heatmap sources (appended to RANKSCOPE_VIEWS_SOURCES).
