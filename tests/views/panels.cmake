# Panels / app tests (appended to RANKSCOPE_VIEW_TEST_SOURCES).
list(APPEND RANKSCOPE_VIEW_TEST_SOURCES
    test_charts.cpp
    test_logreading.cpp
    test_logsearch.cpp
    test_logviewer.cpp
    test_mainwindow.cpp
    test_navigation.cpp
    test_paste.cpp
    test_preferences.cpp
    test_errorhub.cpp
    test_questions.cpp
    test_appearance.cpp
    test_ranktable.cpp
    test_rootcause.cpp
    test_screentooltip.cpp
    test_titles.cpp
)

# End-to-end: the real `rankscope` binary under xvfb-run (skipped when xvfb-run is missing).
if(TARGET rankscope)
    add_test(NAME "app: e2e rankscope binary opens a bundle and shows the verdict"
        COMMAND sh ${RANKSCOPE_SOURCE_DIR}/tests/app/e2e_screenshot.sh
            $<TARGET_FILE:rankscope>
            ${RANKSCOPE_TEST_DATA}/views/straggler-8ranks
            ${RANKSCOPE_SOURCE_DIR}/resources/samples
            ${CMAKE_CURRENT_BINARY_DIR}/shots/e2e-mainwindow.png)
    set_tests_properties("app: e2e rankscope binary opens a bundle and shows the verdict"
        PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "e2e")
endif()
