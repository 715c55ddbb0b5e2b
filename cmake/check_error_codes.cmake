# Checks that errors are made from a category or a reason, never from code text (ctest entry
# `error_codes`; run by hand: cmake -DROOT=. -P <this file>).  make_error has no overload
# taking code text, so such a call does not compile; this check names the file and line of
# one anyway, and of a report_error(ctx, "code", ...) in the CLI, whose code text would
# otherwise reach --json output with no category.  Each failure names the file and the line.
cmake_minimum_required(VERSION 3.25)

if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<source dir> -P check_error_codes.cmake")
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)

set(problems "")
file(GLOB_RECURSE sources RELATIVE ${ROOT} ${ROOT}/server/*.cpp ${ROOT}/server/*.hpp ${ROOT}/bridge/*.cpp
  ${ROOT}/bridge/*.hpp ${ROOT}/cli/*.cpp ${ROOT}/cli/*.hpp)
foreach(rel IN LISTS sources)
  file(STRINGS ${ROOT}/${rel} hits REGEX "(make_error|report_error\\([a-z_]+,)[ \t]*\\(?[ \t]*\"")
  foreach(line IN LISTS hits)
    string(STRIP "${line}" line)
    string(APPEND problems "  ${rel}: ${line}\n")
  endforeach()
endforeach()

if(problems)
  message(FATAL_ERROR "errors made from code text (use make_error(errc::..., ...) or a reason enum):\n${problems}")
endif()
message(STATUS "error codes: every error is made from a category or a reason")
