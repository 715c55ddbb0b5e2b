# Cross toolchain: Linux arm64 (aarch64) from Debian with g++-aarch64-linux-gnu, for the
# static release binary (scripts/release.sh).  Usage:
#   cmake -S . -B build-dist/linux-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/linux-aarch64.cmake \
#     -DOPENTABS_RE2_DIR=$(scripts/deps/re2.sh aarch64) -DOPENTABS_STATIC=ON
# Libraries: zlib and RE2 cross-built from Debian's sources (scripts/deps/zlib.sh aarch64,
# scripts/deps/re2.sh aarch64), Boost.JSON compiled from its headers; the header-only
# libraries are reached through a folder of links to just their folders of /usr/include, so
# the host's C library headers stay off the include path.  Programs run under qemu-user
# (qemu-aarch64-static) with the cross C library as its root.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(OPENTABS_CROSS_TRIPLE aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${OPENTABS_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${OPENTABS_CROSS_TRIPLE}-g++)

get_filename_component(OPENTABS_CROSS_DEPS ${CMAKE_CURRENT_LIST_DIR}/../../build-deps/aarch64 ABSOLUTE)
set(OPENTABS_CROSS_HEADERS ${OPENTABS_CROSS_DEPS}/include)
include(${CMAKE_CURRENT_LIST_DIR}/header_links.cmake)
opentabs_header_links(${OPENTABS_CROSS_HEADERS})

set(CMAKE_FIND_ROOT_PATH /usr/${OPENTABS_CROSS_TRIPLE} ${OPENTABS_CROSS_DEPS}/zlib ${OPENTABS_CROSS_HEADERS})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(ZLIB_USE_STATIC_LIBS ON)
set(ENV{PKG_CONFIG_LIBDIR} ${OPENTABS_CROSS_DEPS}/pkgconfig)

if(EXISTS /usr/bin/qemu-aarch64-static)
  set(CMAKE_CROSSCOMPILING_EMULATOR /usr/bin/qemu-aarch64-static -L /usr/${OPENTABS_CROSS_TRIPLE})
endif()
