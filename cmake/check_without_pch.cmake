# Checks that every project translation unit compiles without the precompiled header, so the
# tree still builds with -DOPENTABS_PRECOMPILED_HEADERS=OFF (ctest entry `build_without_pch`;
# run by hand: cmake -DCOMMANDS=build/compile_commands.json -DROOT=. -P <this file>).
# The header is only for speed and every file must include what it uses; a file that leans
# on something the header happened to bring in fails here, named with the compiler's message.
# Each unit of server/, bridge/ and cli/ gets its compile command from compile_commands.json,
# without the header and with -fsyntax-only: the parse, no code generation, two at a time.
cmake_minimum_required(VERSION 3.25)

if(NOT COMMANDS OR NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DCOMMANDS=<build>/compile_commands.json -DROOT=<source dir> -P check_without_pch.cmake")
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)
file(READ ${COMMANDS} db)
string(JSON count LENGTH "${db}")
math(EXPR last "${count} - 1")

set(script "")
foreach(i RANGE ${last})
  string(JSON file GET "${db}" ${i} file)
  string(JSON dir GET "${db}" ${i} directory)
  string(JSON command GET "${db}" ${i} command)
  file(RELATIVE_PATH rel ${ROOT} ${file})
  if(NOT rel MATCHES "^(server|bridge|cli)/.*\\.cpp$" OR rel STREQUAL "server/precompiled.cpp")
    continue()
  endif()
  string(REGEX REPLACE " -include [^ ]*cmake_pch[^ ]*" "" command "${command}")
  string(REGEX REPLACE " -Winvalid-pch" "" command "${command}")
  string(REGEX REPLACE " -o [^ ]+" "" command "${command}")
  string(REGEX REPLACE " -c " " -fsyntax-only " command "${command}")
  string(APPEND script "cd '${dir}' && ${command} || echo 'FAILED: ${rel}'\n")
endforeach()

get_filename_component(build_dir ${COMMANDS} DIRECTORY)
set(list_file ${build_dir}/without_pch_commands.txt)
file(WRITE ${list_file} "${script}")
execute_process(COMMAND xargs -P 2 -d "\n" -I {} sh -c "{}" INPUT_FILE ${list_file}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR out MATCHES "FAILED: " OR err MATCHES "error:")
  message(FATAL_ERROR "the tree does not compile without the precompiled header:\n${out}${err}")
endif()
string(REGEX MATCHALL "\n" lines "${script}")
list(LENGTH lines units)
message(STATUS "without the precompiled header: ${units} translation units compile")
