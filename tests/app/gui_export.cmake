# The desktop app's report export (issue 5): the real `rankscope --export` binary in every
# format on the sample and the seeded-secrets bundle (no display), the figures, the PDF's
# pages, the export dialog and its screenshot. Outputs stay under
# <build>/tests/app/gui-export/ for a person to open. Included only with RANKSCOPE_GUI.
add_executable(rankscope_gui_export_tests
    guiexporttestmain.cpp
    test_gui_export_cli.cpp
    test_gui_export_dialog.cpp
    test_gui_export_pdf.cpp
)
target_link_libraries(rankscope_gui_export_tests PRIVATE rankscope_gui Catch2::Catch2 Qt6::Test)
target_compile_definitions(rankscope_gui_export_tests PRIVATE
    RANKSCOPE_TEST_DATA="${RANKSCOPE_TEST_DATA}"
    RANKSCOPE_TEST_OUTPUT="${CMAKE_CURRENT_BINARY_DIR}"
    RANKSCOPE_SAMPLES_DIR="${RANKSCOPE_SOURCE_DIR}/resources/samples"
    RANKSCOPE_APP="$<TARGET_FILE:rankscope>")
# The export tests run the binary itself.
add_dependencies(rankscope_gui_export_tests rankscope)
# ... and export a 4096-rank job the simulator writes.
if(TARGET rankscope-simulate)
    target_compile_definitions(rankscope_gui_export_tests PRIVATE
        RANKSCOPE_SIMULATOR="$<TARGET_FILE:rankscope-simulate>")
    add_dependencies(rankscope_gui_export_tests rankscope-simulate)
endif()
set_target_properties(rankscope_gui_export_tests PROPERTIES AUTOMOC ON)
rankscope_warnings(rankscope_gui_export_tests)
catch_discover_tests(rankscope_gui_export_tests TEST_PREFIX "gui export: "
    PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen" TIMEOUT 600)
