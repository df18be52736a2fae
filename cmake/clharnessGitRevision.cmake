# clharness_git_revision(OUT SOURCE_DIR): `git describe` of SOURCE_DIR, or "unknown" without git.
# A source tree that is not a checkout (a tarball) says "unknown", even inside another checkout.
function(clharness_git_revision out source_dir)
  set(revision "unknown")
  if(EXISTS "${source_dir}/.git")
    find_package(Git QUIET)
    if(GIT_FOUND)
      execute_process(COMMAND "${GIT_EXECUTABLE}" describe --tags --always --dirty
                      WORKING_DIRECTORY "${source_dir}" OUTPUT_VARIABLE described
                      RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      if(rc EQUAL 0 AND described)
        set(revision "${described}")
      endif()
    endif()
  endif()
  set(${out} "${revision}" PARENT_SCOPE)
endfunction()

# clharness_git_revision_inputs(OUT SOURCE_DIR): the files git changes on a commit or checkout
# (HEAD, the branch's ref), so that a build reconfigures and its revision follows the checkout.
function(clharness_git_revision_inputs out source_dir)
  set(files "")
  if(EXISTS "${source_dir}/.git")
    find_package(Git QUIET)
    if(GIT_FOUND)
      execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --symbolic-full-name HEAD
                      WORKING_DIRECTORY "${source_dir}" OUTPUT_VARIABLE ref
                      OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      foreach(name HEAD ${ref} packed-refs)
        execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --git-path "${name}"
                        WORKING_DIRECTORY "${source_dir}" OUTPUT_VARIABLE path
                        OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
        if(path AND NOT IS_ABSOLUTE "${path}")
          set(path "${source_dir}/${path}")
        endif()
        if(path AND EXISTS "${path}")
          list(APPEND files "${path}")
        endif()
      endforeach()
    endif()
  endif()
  set(${out} "${files}" PARENT_SCOPE)
endfunction()
