# cusim_add_executable(TARGET SOURCES files... [LIBRARIES libs...])
#
# Builds a program for the CPU simulator: each .cu goes through cusim-rewrite (launches become
# ::cusim::launch calls, __shared__ becomes per-block storage) and is compiled as C++17 with
# cusim_prelude.h force-included and the simulator's headers first on the include path; .c and
# .cpp files compile normally with those headers on the path; the program links libcusim.
set(CUSIM_INCLUDE_DIR "${CMAKE_CURRENT_LIST_DIR}/include" CACHE INTERNAL "the simulator's headers")
set(CUSIM_BIN_DIR "${CMAKE_CURRENT_LIST_DIR}/bin" CACHE INTERNAL "the simulator's scripts")

# The memory checker (runtime/instrument.cpp): a program's .cu files are compiled with the
# compiler's ThreadSanitizer instrumentation, whose per-access callbacks the simulator defines
# (no TSan runtime is linked). Off under a sanitizer preset (ASan cannot be combined with it; under
# TSan the real one runs) and with -DCUSIM_MEMCHECK=OFF. -g1: the reports name the source line.
option(CUSIM_MEMCHECK "Simulator: check every kernel access for races and bounds" ON)
set(CUSIM_CHECKER_FLAGS "" CACHE INTERNAL "compile options of instrumented .cu files")
if(CUSIM_MEMCHECK AND (NOT DEFINED WB_SANITIZE OR WB_SANITIZE STREQUAL ""))
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # -fno-ipa-icf: identical code folding merges the thread loops of two launches of one kernel
    # and keeps the lines of neither (the reports would name no source line for the second).
    # -fno-tree-sra: scalar replacement splits `float4 v = p[i]` into four 4-byte loads before
    # the instrumentation sees it; without it the load reaches the checker and the profiler as
    # one 16-byte access, as a GPU's one LDG.128 (float2, int4, double2, ... the same).
    # -fsanitize=float-cast-overflow: an out-of-range float-to-integer conversion the rewriter does
    # not see (int i = f;) calls runtime/float_cast.cpp, which stops the launch with its line.
    set(CUSIM_CHECKER_FLAGS -fsanitize=thread --param=tsan-instrument-func-entry-exit=0
        --param=tsan-distinguish-volatile=1 -Wno-tsan -g1 -fno-ipa-icf -fno-tree-sra
        -fsanitize=float-cast-overflow
        CACHE INTERNAL "compile options of instrumented .cu files")
  elseif(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    # -tsan-instrument-read-before-write: clang's pass drops the read of `*count += 1` when a
    # write to the same address follows in the block (for TSan a write conflicts with every
    # access); the checker, which lets two plain writes meet, needs the read to see that race.
    set(CUSIM_CHECKER_FLAGS -fsanitize=thread -mllvm -tsan-instrument-func-entry-exit=0
        -mllvm -tsan-distinguish-volatile=1 -mllvm -tsan-instrument-read-before-write=1
        -gline-tables-only -fsanitize=float-cast-overflow
        CACHE INTERNAL "compile options of instrumented .cu files")
  endif()
endif()

# The forced prelude, precompiled (GCC). Every rewritten .cu starts with the same text: the
# prelude and the standard headers it brings (about 41,000 lines, 0.15-0.2 CPU-s of parsing in
# each compile). cusim_prelude_pch() makes, once per set of flags, that text as a header
# (cusim-rewrite --prelude-only on an empty .cu preprocessed as the .cu files are) and its .gch
# (compiled with the flags of the .cu files' compile step); cusim-rewrite --prelude-header then
# writes `#include "HEADER"` in place of the text where it is the same, byte for byte. GCC loads
# HEADER.gch where it is valid for the compile and reads HEADER's text otherwise: the program is
# the same either way, only the time differs (-Winvalid-pch says why one was not used).
option(CUSIM_PRELUDE_PCH "Simulator: the forced prelude as a precompiled header (GCC)" ON)

# Every .cu is compiled with -fstack-clash-protection (GCC 8, Clang 11 and later): a frame larger
# than a page touches each page on its way down, so a thread that overflows its fiber stack faults
# in the guard below it (2-9 pages, runtime/scheduler.cpp) and is told so, even when one frame
# (a big local array) is larger than the guard; without it such a frame stepped over the guard
# into the next mapping (another thread's stack, or nothing: a "segmentation fault" naming the
# wrong cause). Probes cost a store per page of frames over a page, and nothing otherwise.
include(CheckCXXCompilerFlag)
check_cxx_compiler_flag(-fstack-clash-protection CUSIM_HAVE_STACK_CLASH_PROTECTION)
set(CUSIM_STACK_FLAGS "" CACHE INTERNAL "compile options of every simulator .cu file")
if(CUSIM_HAVE_STACK_CLASH_PROTECTION)
  set(CUSIM_STACK_FLAGS -fstack-clash-protection CACHE INTERNAL
      "compile options of every simulator .cu file")
endif()

# Paths in what a .cu compiles to (issue 26). __FILE__ and __builtin_FILE() name the checkout's
# files relative to its root (-fmacro-prefix-map): a rewritten .cu is then the same text in every
# copy of the tree (the workbook tests' copies, a fresh clone), and ccache finds its compile from
# another copy. The runtime opens such a file under the root this build was made from
# (runtime/nvrtc_build.cpp, CUSIM_SOURCE_ROOT; messages.cpp, source_path). The line markers, and so
# compile errors, debug information and sanitizer reports, keep the real paths; an object ccache
# brings from another copy names that copy's files there, and the runtime finds the same file
# under its own root where that copy is gone (source_path).
# Not in a learner's sanitizer build (the workbook's --asan and --race): AddressSanitizer's and
# ThreadSanitizer's reports print the debug information's paths, and the workbook shows them
# relative to the learner's tree, so there every object must name its own tree. Those compiles
# carry a key of the tree's root instead (read by nothing): ccache then never serves one tree's
# object to another, not even for a file without __FILE__. (The sim-asan and sim-race presets
# share their objects: a report in their logs may name another copy's folder.)
check_cxx_compiler_flag(-fmacro-prefix-map=/a=b CUSIM_HAVE_MACRO_PREFIX_MAP)
set(CUSIM_PATH_FLAGS "" CACHE INTERNAL "the path options of every simulator .cu file's two steps")
set(CUSIM_TREE_FLAGS "" CACHE INTERNAL "the tree's key in every simulator .cu file's compile")
if(DEFINED WB_SANITIZE AND NOT WB_SANITIZE STREQUAL "" AND NOT WB_TESTS STREQUAL "maintainer")
  string(SHA1 cusim_tree_key "${CMAKE_SOURCE_DIR}")
  set(CUSIM_TREE_FLAGS "-DCUSIM_TREE_KEY=${cusim_tree_key}" CACHE INTERNAL
      "the tree's key in every simulator .cu file's compile")
elseif(CUSIM_HAVE_MACRO_PREFIX_MAP)
  set(CUSIM_PATH_FLAGS "-fmacro-prefix-map=${CMAKE_SOURCE_DIR}/=" CACHE INTERNAL
      "the path options of every simulator .cu file's two steps")
endif()

# cusim_prelude_pch(OUT_HEADER OUT_TARGET PREPROCESS FLAGS... COMPILE FLAGS...): the header (and
# the target that makes it and its .gch) for those flags; made once per set of flags.
function(cusim_prelude_pch out_header out_target)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "PREPROCESS;COMPILE")
  string(SHA1 key "${CMAKE_CXX_COMPILER}|${arg_PREPROCESS}|${arg_COMPILE}")
  string(SUBSTRING "${key}" 0 12 key)
  set(dir "${CMAKE_BINARY_DIR}/cusim-prelude/${key}")
  set(header "${dir}/cusim_prelude_text.h")
  set(pch_target "cusim_prelude_pch_${key}")
  set(${out_header} "${header}" PARENT_SCOPE)
  set(${out_target} "${pch_target}" PARENT_SCOPE)
  if(TARGET ${pch_target})
    return()
  endif()
  file(MAKE_DIRECTORY "${dir}")
  # An empty translation unit: its preprocessed text is the prelude's and the main file's marker.
  # (file(CONFIGURE) writes only when the text changes: a new configure rebuilds nothing.)
  file(CONFIGURE OUTPUT "${dir}/empty.cu"
       CONTENT "/* the forced prelude alone (shared/sim/cusim.cmake) */\n")
  add_custom_command(
    OUTPUT "${header}"
    COMMAND "${CMAKE_CXX_COMPILER}" ${arg_PREPROCESS} ${CUSIM_PATH_FLAGS} -x c++ -E -fno-working-directory -DCUSIM_PREPROCESS
            -I "${CUSIM_INCLUDE_DIR}" -I "${CUSIM_INCLUDE_DIR}/unsupported"
            -isystem "${CUSIM_INCLUDE_DIR}" "-include${CUSIM_INCLUDE_DIR}/cusim_prelude.h"
            -MD -MF "${header}.d" -MT "${header}" "${dir}/empty.cu" -o "${dir}/empty.ii"
    COMMAND cusim-rewrite --prelude-only "${dir}/empty.ii" "${header}"
    DEPENDS cusim-rewrite "${dir}/empty.cu"
    DEPFILE "${header}.d"
    COMMENT "cusim: the prelude's text (${key})"
    VERBATIM)
  add_custom_command(
    OUTPUT "${header}.gch"
    COMMAND "${CMAKE_CXX_COMPILER}" ${arg_COMPILE} ${CUSIM_PATH_FLAGS} ${CUSIM_TREE_FLAGS} -x c++-header -c "${header}" -o "${header}.gch"
    DEPENDS "${header}"
    COMMENT "cusim: the prelude, precompiled (${key})"
    VERBATIM)
  add_custom_target(${pch_target} DEPENDS "${header}" "${header}.gch")
endfunction()

function(cusim_add_executable target)
  # NO_CHECKER: build the .cu files without the memory checker's instrumentation (the benchmark
  # of the scheduler, tests/sim/bench). KEEP_ASSERTS: -UNDEBUG, assert() in every build type (the
  # lessons' programs); given here, the precompiled prelude is made with it.
  cmake_parse_arguments(PARSE_ARGV 1 arg "NO_CHECKER;KEEP_ASSERTS" "" "SOURCES;LIBRARIES")
  set(checker_flags "${CUSIM_CHECKER_FLAGS}")
  if(arg_NO_CHECKER)
    set(checker_flags "")
  endif()
  # CUSIM_CHECKED (where the .cu is preprocessed): the headers keep the scheduler's own accesses
  # (the thread loop, __syncthreads(), the built-ins) out of the instrumentation (cusim_device.h).
  set(checked_define)
  if(checker_flags)
    set(checked_define -DCUSIM_CHECKED=1)
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "cusim_add_executable(${target}): no SOURCES")
  endif()
  set(sources)
  set(rewritten)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type)
  separate_arguments(cusim_cxx_flags UNIX_COMMAND
                     "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${build_type}}")
  set(cusim_std -std=gnu++17) # what the compile step gets (CXX_STANDARD 17, extensions on)
  if(DEFINED CMAKE_CXX_EXTENSIONS AND NOT CMAKE_CXX_EXTENSIONS)
    set(cusim_std -std=c++17)
  endif()
  set(asserts_flags)
  if(arg_KEEP_ASSERTS)
    set(asserts_flags -UNDEBUG)
  endif()
  set(prelude_header)
  set(prelude_target)
  if(CUSIM_PRELUDE_PCH AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # The flags the .cu files' two steps get from outside the target (the build type, the
    # directory's options: a sanitizer's), in the order they have there.
    get_property(directory_options DIRECTORY PROPERTY COMPILE_OPTIONS)
    cusim_prelude_pch(prelude_header prelude_target
      PREPROCESS ${cusim_cxx_flags} ${cusim_std} ${checked_define} ${directory_options}
                 ${asserts_flags}
      COMPILE -D__global__= -D__device__= -D__host__= ${cusim_cxx_flags} ${directory_options}
              ${asserts_flags} ${cusim_std} ${checker_flags} -fno-optimize-sibling-calls
              ${CUSIM_STACK_FLAGS})
  endif()
  # GCC takes a .gch made at another -O level (or with other -f options) without a word, and then
  # compiles the prelude's functions with the .gch's options, not the file's. So the header is
  # used only where the target's own options (less -W, -U, -D: warnings, and macros, which the
  # text comparison sees) are still the directory's when the build is generated.
  set(use_prelude_header 0)
  if(prelude_header)
    set(expected ${directory_options})
    list(FILTER expected EXCLUDE REGEX "^-[WUD]")
    list(JOIN expected "|" expected)
    string(REPLACE "," "$<COMMA>" expected "${expected}")
    set(actual "$<FILTER:$<TARGET_PROPERTY:${target},COMPILE_OPTIONS>,EXCLUDE,^-[WUD]>")
    set(use_prelude_header "$<STREQUAL:$<JOIN:${actual},|>,${expected}>")
  endif()
  set(cusim_rewrite_cache)
  if(CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache")
    set(cusim_rewrite_cache --cache "${CMAKE_CXX_COMPILER_LAUNCHER}" "${CMAKE_SOURCE_DIR}"
                            "${CMAKE_BINARY_DIR}")
  endif()
  set(defines "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  foreach(src IN LISTS arg_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE)
    if(abs MATCHES "\\.cu$")
      file(RELATIVE_PATH rel "${CMAKE_CURRENT_SOURCE_DIR}" "${abs}")
      string(REGEX REPLACE "[/\\.][/\\.]*" "_" flat "${rel}")
      set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}.cusim/${flat}.cpp")
      set(preprocessed "${CMAKE_CURRENT_BINARY_DIR}/${target}.cusim/${flat}.ii")
      get_filename_component(dir "${abs}" DIRECTORY)
      # Preprocess first (the prelude forced, the simulator's headers as system headers so
      # their linemarkers say so, the target's own -I/-D/options), then rewrite: launches in
      # macros and in included headers are plain text by then. The depfile keeps Ninja's
      # header dependencies right.
      # nvcc's device pass (__CUDA_ARCH__ defined) too, where the program's own files mention
      # __CUDA_ARCH__ (bin/cusim-device-pass; otherwise its file is empty): the rewriter takes
      # kernels and __device__-only code from it (rewriter/arch_passes.c).
      set(device "${CMAKE_CURRENT_BINARY_DIR}/${target}.cusim/${flat}.device.ii")
      # -fno-working-directory: with -g (the sanitizer builds' -g1) the preprocessor writes the
      # folder it ran in as the third line, which differs between targets and would keep the
      # prelude's text from matching the precompiled header's; every path after it is absolute.
      set(preprocess "${CMAKE_CXX_COMPILER}" ${cusim_cxx_flags} ${cusim_std} ${CUSIM_PATH_FLAGS} -x c++ -E -fno-working-directory
          -DCUSIM_PREPROCESS ${checked_define} "$<TARGET_PROPERTY:${target},COMPILE_OPTIONS>"
          "$<$<BOOL:${defines}>:-D$<JOIN:${defines},$<SEMICOLON>-D>>"
          -iquote "${dir}" -iquote "${CMAKE_CURRENT_SOURCE_DIR}"
          "$<$<BOOL:${includes}>:-I$<JOIN:${includes},$<SEMICOLON>-I>>"
          -isystem "${CUSIM_INCLUDE_DIR}" "-include${CUSIM_INCLUDE_DIR}/cusim_prelude.h")
      # The three steps are bin/cusim-rewrite-step's (which makes OUT's folder too); where the build
      # compiles through ccache, it keeps their result in a cache beside ccache's (--cache), so that
      # a copy of the tree (CI's presets, the workbook tests' copies) does not preprocess and
      # rewrite the same file again.
      add_custom_command(
        OUTPUT "${out}"
        COMMAND "${CUSIM_BIN_DIR}/cusim-rewrite-step" ${cusim_rewrite_cache}
                "${out}" "${preprocessed}" "${device}" "${abs}" "$<TARGET_FILE:cusim-rewrite>"
                "$<${use_prelude_header}:--prelude-header=${prelude_header}>"
                -- ${preprocess}
        DEPENDS cusim-rewrite "${abs}" "${CUSIM_BIN_DIR}/cusim-device-pass"
                "${CUSIM_BIN_DIR}/cusim-rewrite-step" ${prelude_header}
        DEPFILE "${out}.d"
        COMMENT "cusim-rewrite ${rel}"
        COMMAND_EXPAND_LISTS
        VERBATIM)
      # -fno-optimize-sibling-calls: a call in tail position (`return cudaStreamCreate(s);`) stays a
      # call, so the runtime's return address, the site its leak checks name, is the .cu's line,
      # not the line of whoever called that function (the lesson's driver).
      set_source_files_properties("${out}" PROPERTIES
        LANGUAGE CXX
        # preprocessed already: only the three qualifiers the rewriter kept are left to remove
        COMPILE_DEFINITIONS "__global__=;__device__=;__host__="
        COMPILE_OPTIONS "${checker_flags};-fno-optimize-sibling-calls;${CUSIM_STACK_FLAGS};${CUSIM_PATH_FLAGS};${CUSIM_TREE_FLAGS}")
      if(prelude_header)
        set_property(SOURCE "${out}" APPEND PROPERTY OBJECT_DEPENDS "${prelude_header}.gch")
        # CI (-Werror): a .gch that GCC finds and rejects (flags that differ from those it was
        # made with, above) fails the build instead of costing its time unseen.
        if(WB_WERROR)
          set_property(SOURCE "${out}" APPEND PROPERTY COMPILE_OPTIONS -Werror=invalid-pch)
        endif()
      endif()
      list(APPEND sources "${out}")
      list(APPEND rewritten "${out}")
    else()
      list(APPEND sources "${abs}")
    endif()
  endforeach()
  add_executable(${target} ${sources})
  # BEFORE: the simulator's cuda_runtime.h must win over a CUDA toolkit's on the path.
  target_include_directories(${target} BEFORE PRIVATE "${CUSIM_INCLUDE_DIR}")
  # Last: stubs that stop a build which includes a toolkit header the simulator lacks, so the real
  # toolkit's copy (which clashes with the simulator's types) is never picked up instead.
  target_include_directories(${target} PRIVATE "${CUSIM_INCLUDE_DIR}/unsupported")
  set_target_properties(${target} PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON)
  target_link_libraries(${target} PRIVATE cusim ${arg_LIBRARIES})
  if(arg_KEEP_ASSERTS)
    target_compile_options(${target} PRIVATE -UNDEBUG)
  endif()
  if(prelude_target)
    add_dependencies(${target} ${prelude_target})
  endif()
endfunction()
