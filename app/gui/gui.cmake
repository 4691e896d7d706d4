# Main window, background loading, docks, export wiring (appended to RANKSCOPE_GUI_SOURCES).
