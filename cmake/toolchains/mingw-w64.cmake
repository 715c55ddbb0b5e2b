# Cross toolchain: Windows x86-64 from Debian with mingw-w64 (g++-mingw-w64-x86-64-posix,
# the thread model std::thread needs).  Usage:
#   cmake -S . -B build-mingw -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/mingw-w64.cmake \
#     -DOPENTABS_RE2_DIR=$(scripts/deps/re2.sh mingw)
# Libraries: zlib from libz-mingw-w64-dev (installed under /usr/x86_64-w64-mingw32), RE2
# cross-built from Debian's source (scripts/deps/re2.sh mingw), Boost.JSON compiled from its
# headers; Asio, websocketpp, RapidJSON, doctest and Boost are header-only and are reached
# through a folder of links to just those folders of /usr/include, so the host's C library
# headers are never on the include path.  Executables are linked -static (no DLLs to ship)
# and run under Wine (ctest runs the unit tests through CMAKE_CROSSCOMPILING_EMULATOR).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(OPENTABS_MINGW_TRIPLE x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${OPENTABS_MINGW_TRIPLE}-gcc-posix)
set(CMAKE_CXX_COMPILER ${OPENTABS_MINGW_TRIPLE}-g++-posix)
set(CMAKE_RC_COMPILER ${OPENTABS_MINGW_TRIPLE}-windres)

# The header-only libraries, as links in a folder of their own next to this build's deps.
include(${CMAKE_CURRENT_LIST_DIR}/header_links.cmake)
get_filename_component(OPENTABS_MINGW_HEADERS ${CMAKE_CURRENT_LIST_DIR}/../../build-deps/mingw/include ABSOLUTE)
opentabs_header_links(${OPENTABS_MINGW_HEADERS})

set(CMAKE_FIND_ROOT_PATH /usr/${OPENTABS_MINGW_TRIPLE} ${OPENTABS_MINGW_HEADERS})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(ZLIB_USE_STATIC_LIBS ON)
# pkg-config must not offer the host's libraries.
set(ENV{PKG_CONFIG_LIBDIR} /usr/${OPENTABS_MINGW_TRIPLE}/lib/pkgconfig)

set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
# Wine keeps its state in a prefix of this build's own; WINEDEBUG=-all keeps its log quiet.
if(EXISTS /usr/lib/wine/wine64)
  set(CMAKE_CROSSCOMPILING_EMULATOR env WINEPREFIX=${CMAKE_BINARY_DIR}/wineprefix WINEDEBUG=-all /usr/lib/wine/wine64)
endif()
