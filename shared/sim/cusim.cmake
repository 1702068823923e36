# cusim_add_executable(TARGET SOURCES files... [LIBRARIES libs...])
#
# Builds a program for the CPU simulator: each .cu goes through cusim-rewrite (launches become
# ::cusim::launch calls, __shared__ becomes per-block storage) and is compiled as C++17 with
# cusim_prelude.h force-included and the simulator's headers first on the include path; .c and
# .cpp files compile normally with those headers on the path; the program links libcusim.
set(CUSIM_INCLUDE_DIR "${CMAKE_CURRENT_LIST_DIR}/include" CACHE INTERNAL "the simulator's headers")

function(cusim_add_executable target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;LIBRARIES")
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "cusim_add_executable(${target}): no SOURCES")
  endif()
  set(sources)
  set(rewritten)
  foreach(src IN LISTS arg_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE)
    if(abs MATCHES "\\.cu$")
      file(RELATIVE_PATH rel "${CMAKE_CURRENT_SOURCE_DIR}" "${abs}")
      string(REGEX REPLACE "[/\\.][/\\.]*" "_" flat "${rel}")
      set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}.cusim/${flat}.cpp")
      add_custom_command(
        OUTPUT "${out}"
        COMMAND "${CMAKE_COMMAND}" -E make_directory "${CMAKE_CURRENT_BINARY_DIR}/${target}.cusim"
        COMMAND cusim-rewrite "${abs}" "${out}"
        DEPENDS cusim-rewrite "${abs}"
        COMMENT "cusim-rewrite ${rel}"
        VERBATIM)
      set_source_files_properties("${out}" PROPERTIES
        LANGUAGE CXX
        # joined form: one argument, so CMake never splits or de-duplicates it (gcc and clang accept it)
        COMPILE_OPTIONS "-include${CUSIM_INCLUDE_DIR}/cusim_prelude.h"
        # the .cu file's own folder, as nvcc would search it for #include "..."
        INCLUDE_DIRECTORIES "${CUSIM_INCLUDE_DIR};${CMAKE_CURRENT_SOURCE_DIR}")
      get_filename_component(dir "${abs}" DIRECTORY)
      set_property(SOURCE "${out}" APPEND PROPERTY INCLUDE_DIRECTORIES "${dir}")
      list(APPEND sources "${out}")
      list(APPEND rewritten "${out}")
    else()
      list(APPEND sources "${abs}")
    endif()
  endforeach()
  add_executable(${target} ${sources})
  # BEFORE: the simulator's cuda_runtime.h must win over a CUDA toolkit's on the path.
  target_include_directories(${target} BEFORE PRIVATE "${CUSIM_INCLUDE_DIR}")
  set_target_properties(${target} PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON)
  target_link_libraries(${target} PRIVATE cusim ${arg_LIBRARIES})
endfunction()
