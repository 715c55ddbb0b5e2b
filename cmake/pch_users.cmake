# opentabs_skip_pch_where_unused(<target>): marks each source of <target> that does not
# include Asio or Boost.JSON, directly or through project headers, SKIP_PRECOMPILE_HEADERS.
# The precompiled header (server/precompiled.hpp) saves parsing those two; a unit that needs
# neither would only pay for loading it.  Project includes ("x/y.hpp") resolve against
# server/ and the source root, as the compiler's -I flags do.

# _opentabs_reaches_heavy(<out> <absolute path>): YES when the file pulls in Asio or
# Boost.JSON.  Answers are kept per file (global properties), so each header is read once.
function(_opentabs_reaches_heavy out path)
  get_property(known GLOBAL PROPERTY "OPENTABS_HEAVY:${path}" SET)
  if(known)
    get_property(answer GLOBAL PROPERTY "OPENTABS_HEAVY:${path}")
    set(${out} ${answer} PARENT_SCOPE)
    return()
  endif()
  set_property(GLOBAL PROPERTY "OPENTABS_HEAVY:${path}" NO)  # an include cycle ends here
  file(STRINGS ${path} includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
  set(answer NO)
  foreach(line IN LISTS includes)
    if(line MATCHES "[<\"](asio[./>]|boost/json|json/json\\.hpp|net/asio\\.hpp)")
      set(answer YES)
      break()
    endif()
    if(line MATCHES "\"([^\"]+)\"")
      set(name ${CMAKE_MATCH_1})
      foreach(base ${PROJECT_SOURCE_DIR}/server ${PROJECT_SOURCE_DIR})
        if(EXISTS ${base}/${name} AND NOT IS_DIRECTORY ${base}/${name})
          _opentabs_reaches_heavy(inner ${base}/${name})
          if(inner)
            set(answer YES)
          endif()
          break()
        endif()
      endforeach()
      if(answer)
        break()
      endif()
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY "OPENTABS_HEAVY:${path}" ${answer})
  set(${out} ${answer} PARENT_SCOPE)
endfunction()

# GCC 12 (fixed in 13), once libstdc++ comes through the precompiled header, no longer
# treats its inlined std::string code as system-header code and may report that code's
# known -O2 false positives for string concatenation (-Warray-bounds, -Wstringop-overflow,
# -Wstringop-overread, -Wrestrict) in the unit that inlined it.  `quiet` names the targets
# whose header users keep those four off; every other unit has them on.
function(opentabs_skip_pch_where_unused target quiet)
  get_target_property(sources ${target} SOURCES)
  foreach(source IN LISTS sources)
    _opentabs_reaches_heavy(heavy ${source})
    if(NOT heavy)
      set_source_files_properties(${source} TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    elseif(quiet AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
      set_source_files_properties(${source} TARGET_DIRECTORY ${target} PROPERTIES COMPILE_OPTIONS
        "-Wno-array-bounds;-Wno-stringop-overflow;-Wno-stringop-overread;-Wno-restrict")
    endif()
  endforeach()
endfunction()
