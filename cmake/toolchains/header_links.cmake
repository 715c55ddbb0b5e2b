# Included by the cross toolchain files: the header-only libraries (Asio, websocketpp,
# RapidJSON, doctest, Boost) as links in a folder of their own, so a cross build reaches them
# without putting the host's /usr/include (and its C library headers) on the include path.
#   opentabs_header_links(<folder>)  makes the links and points the build at them
function(opentabs_header_links folder)
  file(MAKE_DIRECTORY ${folder})
  foreach(entry asio asio.hpp websocketpp rapidjson doctest boost)
    if(NOT EXISTS ${folder}/${entry})
      file(CREATE_LINK /usr/include/${entry} ${folder}/${entry} SYMBOLIC)
    endif()
  endforeach()
  set(OPENTABS_THIRDPARTY_INCLUDE_DIR ${folder} CACHE PATH "" FORCE)
  set(Boost_NO_BOOST_CMAKE ON PARENT_SCOPE)
  set(Boost_INCLUDE_DIR ${folder} CACHE PATH "")
  set(OPENTABS_BOOST_JSON_HEADER_ONLY ON CACHE BOOL "" FORCE)
endfunction()
