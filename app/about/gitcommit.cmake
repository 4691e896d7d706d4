# Run at build time (cmake -P) so the commit is the one being built, not the one configured:
# writes OUTPUT from TEMPLATE with RANKSCOPE_GIT_COMMIT set to the abbreviated commit of
# SOURCE_DIR, "-dirty" appended when tracked files differ from it, or empty when the sources
# are not a git checkout (a release tarball) or git cannot read them.
# configure_file leaves OUTPUT untouched when nothing changed, so nothing is rebuilt then.
set(RANKSCOPE_GIT_COMMIT "")
find_program(GIT_EXECUTABLE git)
if(GIT_EXECUTABLE AND EXISTS "${SOURCE_DIR}/.git")
    # Reading the commit of a checkout someone else owns (CI building as root) is harmless;
    # nothing here writes to the repository, not even the index.
    set(git ${GIT_EXECUTABLE} -c safe.directory=${SOURCE_DIR} -C ${SOURCE_DIR})
    execute_process(COMMAND ${git} rev-parse --short=12 HEAD
        OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE failed
        ERROR_QUIET)
    if(NOT failed AND commit)
        set(RANKSCOPE_GIT_COMMIT ${commit})
        # git diff compares contents where the stat cache is stale (a fresh checkout), so
        # only real changes to tracked files count.
        execute_process(COMMAND ${git} diff --no-ext-diff --quiet HEAD --
            RESULT_VARIABLE modified OUTPUT_QUIET ERROR_QUIET)
        if(modified)
            string(APPEND RANKSCOPE_GIT_COMMIT "-dirty")
        endif()
    endif()
endif()
configure_file(${TEMPLATE} ${OUTPUT} @ONLY)
