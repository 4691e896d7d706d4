# Run at build time (cmake -P) so the commit is the one being built, not the one configured:
# writes OUTPUT from TEMPLATE with RANKSCOPE_GIT_COMMIT set to the abbreviated commit of
# SOURCE_DIR, "-dirty" appended when tracked files differ from it, or empty when the sources
# are not a git checkout (a release tarball) or git cannot read it (another user's checkout).
# configure_file leaves OUTPUT untouched when nothing changed, so nothing is rebuilt then.
set(RANKSCOPE_GIT_COMMIT "")
find_program(GIT_EXECUTABLE git)
if(GIT_EXECUTABLE AND EXISTS "${SOURCE_DIR}/.git")
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --short=12 HEAD
        OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE failed
        ERROR_QUIET)
    if(NOT failed AND commit)
        set(RANKSCOPE_GIT_COMMIT ${commit})
        # As git's own GIT-VERSION-GEN does: refresh the stat cache first, or a fresh
        # checkout whose file times moved would count as modified.
        execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} update-index -q --refresh
            OUTPUT_QUIET ERROR_QUIET)
        execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} diff-index --quiet HEAD --
            RESULT_VARIABLE modified OUTPUT_QUIET ERROR_QUIET)
        if(modified)
            string(APPEND RANKSCOPE_GIT_COMMIT "-dirty")
        endif()
    endif()
endif()
configure_file(${TEMPLATE} ${OUTPUT} @ONLY)
