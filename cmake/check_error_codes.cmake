# Checks that errors are made from a category or a reason, never from code text (ctest entry
# `error_codes`; run by hand: cmake -DROOT=. -P <this file>).  An error made as
# make_error("some_code", ...) has no category unless the text happens to name one, and
# reaches a wire as an internal error; make_error(errc::..., ...) or make_error(<reason enum>,
# ...) cannot.  Each failure names the file and the line.
cmake_minimum_required(VERSION 3.25)

if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<source dir> -P check_error_codes.cmake")
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)

# Files still converting from code text, each to be removed from this list with its last
# make_error("...") call; a file listed here that no longer has one fails the check.
set(pending
  bridge/relay_state.cpp
  bridge/server_launcher.cpp
  bridge/server_proof.cpp
  bridge/stdio_bridge.cpp
  cli/cmd_start.cpp
  server/app/browser_tools.cpp
  server/app/extension_install.cpp
  server/config/config_lock.cpp
  server/plugins/bounded_load.cpp
  server/plugins/loader.cpp
  server/schema/translate.cpp
  server/schema/validator.cpp
  server/util/background_sync.cpp)

set(problems "")
file(GLOB_RECURSE sources RELATIVE ${ROOT} ${ROOT}/server/*.cpp ${ROOT}/server/*.hpp ${ROOT}/bridge/*.cpp
  ${ROOT}/bridge/*.hpp ${ROOT}/cli/*.cpp ${ROOT}/cli/*.hpp)
foreach(rel IN LISTS sources)
  file(STRINGS ${ROOT}/${rel} hits REGEX "make_error\\([ \t]*\"")
  list(FIND pending ${rel} at)
  if(hits AND at EQUAL -1)
    foreach(line IN LISTS hits)
      string(STRIP "${line}" line)
      string(APPEND problems "  ${rel}: ${line}\n")
    endforeach()
  elseif(NOT hits AND NOT at EQUAL -1)
    string(APPEND problems "  ${rel}: no make_error(\"...\") left; remove it from the pending list in cmake/check_error_codes.cmake\n")
  endif()
endforeach()

if(problems)
  message(FATAL_ERROR "errors made from code text (use make_error(errc::..., ...) or a reason enum):\n${problems}")
endif()
message(STATUS "error codes: every error is made from a category or a reason")
