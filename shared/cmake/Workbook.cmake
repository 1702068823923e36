# Workbook.cmake: project-wide settings and workbook_lesson(), the one call in a lesson's
# CMakeLists.txt. Included once from the top-level CMakeLists.txt.

include_guard(GLOBAL)
include(CheckLanguage)

set(WB_SHARED_DIR "${CMAKE_CURRENT_LIST_DIR}/.." CACHE INTERNAL "")
cmake_path(NORMAL_PATH WB_SHARED_DIR)
set(WB_TEST_TIMEOUT 60 CACHE STRING "Seconds one run of a lesson program may take in a test")
# The mutants (tests/mutants) in a maintainer build. The sanitizer presets turn them off: their
# tests are those labelled race (sim-race) or solution and unit (sim-asan), and no mutant test is,
# nor does any of those run a mutant program, so building them there (over 1,000 build steps under
# AddressSanitizer, 170 programs under ThreadSanitizer) only cost CI minutes (issue 26). The ci
# preset builds and runs them all (unit.output.width runs each one too).
option(WB_MUTANTS "Build and register the mutant tests in a maintainer build" ON)

# ---- ccache (issue 26): repeated compiles across trees and presets ------------------------------
# Where ccache is installed and WB_CCACHE is ON (the ci presets; .ci/run installs ccache), every
# compile goes through it (CMAKE_<LANG>_COMPILER_LAUNCHER). Off by default: a learner's check after
# an edit always misses the cache, so it would only add ccache's own work; nothing needs it.
option(WB_CCACHE "Compile through ccache where it is installed" OFF)
if(WB_CCACHE)
  find_program(WB_CCACHE_PROGRAM ccache)
  if(WB_CCACHE_PROGRAM)
    foreach(lang C CXX CUDA)
      if(NOT CMAKE_${lang}_COMPILER_LAUNCHER)
        set(CMAKE_${lang}_COMPILER_LAUNCHER "${WB_CCACHE_PROGRAM}")
      endif()
    endforeach()
  else()
    message(STATUS "workbook: WB_CCACHE is ON but ccache is not installed; compiling without it")
  endif()
endif()

# ---- Sanitizers (sim-asan, sim-race presets): the whole host build, no CUDA -------------------
# -O1 (last on the line, so it wins over the build type's): what AddressSanitizer's and
# ThreadSanitizer's documentation suggest, and a quarter to a third less compile time than -O2
# for the simulator's runtime (issue 26: CI and a learner's first --asan/--race build).
if(WB_SANITIZE STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -g1 -fno-sanitize-recover=undefined -O1)
  add_link_options(-fsanitize=address,undefined)
  set(WB_CUDA OFF CACHE BOOL "" FORCE)
elseif(WB_SANITIZE STREQUAL "thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer -g1 -O1)
  add_link_options(-fsanitize=thread)
  set(WB_CUDA OFF CACHE BOOL "" FORCE)
elseif(NOT WB_SANITIZE STREQUAL "")
  message(FATAL_ERROR "WB_SANITIZE must be empty, 'address' or 'thread', not '${WB_SANITIZE}'")
endif()
# Lesson programs under a sanitizer: run-lesson.sh learns its name from WB_SANITIZER, gives each
# run 10 times WB_TEST_TIMEOUT (or WORKBOOK_SANITIZER_TIMEOUT seconds) and, when a run runs out
# of time, says the sanitizer is slow rather than blame a loop; CTest's own limit is off there
# (TIMEOUT 0), so the per-run limit is the one that counts. The harness times nothing (wb.h).
set(WB_RUN_ENVIRONMENT)
set(WB_RUN_CTEST_TIMEOUT 900)
if(WB_SANITIZE STREQUAL "address")
  set(WB_RUN_ENVIRONMENT "WB_SANITIZER=AddressSanitizer")
  set(WB_RUN_CTEST_TIMEOUT 0)
elseif(WB_SANITIZE STREQUAL "thread")
  set(WB_RUN_ENVIRONMENT "WB_SANITIZER=ThreadSanitizer")
  set(WB_RUN_CTEST_TIMEOUT 0)
endif()
# Lesson programs that compile kernels at run time (NVRTC, lesson 16) keep each module they make
# in BUILD/nvrtc-cache (runtime/nvrtc.cpp, CUSIM_NVRTC_CACHE): every run of a test compiles the
# same strings, and a module depends only on its text, the commands and the compiler. The build's
# own folder: nothing another user or another build wrote is ever loaded.
option(WB_NVRTC_CACHE "Tests of simulator lessons keep NVRTC's modules in BUILD/nvrtc-cache" ON)
if(WB_NVRTC_CACHE)
  list(APPEND WB_RUN_ENVIRONMENT "CUSIM_NVRTC_CACHE=${CMAKE_BINARY_DIR}/nvrtc-cache")
endif()

# ---- The CUDA backend: whenever a toolkit is found, GPU or not ---------------------------------
set(WB_HAVE_CUDA OFF)
if(WB_CUDA)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # An explicit list, never "native" (which silently falls back where there is no GPU):
    # sm_75 is CUDA 13's oldest, sm_90 is the H100/H200. Override with -DCMAKE_CUDA_ARCHITECTURES.
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES "75;90" CACHE STRING "GPU architectures to build for")
    endif()
    enable_language(CUDA)
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(WB_HAVE_CUDA ON)
  else()
    message(STATUS "workbook: no CUDA toolkit found; lessons build for the CPU simulator only")
  endif()
endif()
if(NOT WB_SIM AND NOT WB_HAVE_CUDA)
  message(FATAL_ERROR "workbook: nothing to build: WB_SIM is OFF and no CUDA toolkit was found")
endif()

find_package(OpenMP COMPONENTS C)

# Warnings on for the project's own code; errors with WB_WERROR (CI).
function(workbook_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:C,CXX>:-Wall -Wextra>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
  if(WB_WERROR)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:C,CXX>:-Werror>
      $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Werror>)
  endif()
endfunction()

# workbook_test_needs(LABEL TARGET...): the programs a test labelled LABEL runs. The sim-race preset
# builds only those of label race (target sanitizer-tests in the top-level CMakeLists.txt), so a
# race-labelled test whose program is not named here fails there: its program is not built.
function(workbook_test_needs label)
  set_property(GLOBAL APPEND PROPERTY WB_TEST_NEEDS_${label} ${ARGN})
endfunction()

# Lesson programs keep assert() in every build type, host and kernel alike: a failing kernel
# assert is a lesson's way to say "this must never happen", and a GPU reports it (cudaErrorAssert)
# only when NDEBUG is not defined, which CMake's Release flags would do.
function(workbook_keep_asserts target)
  target_compile_options(${target} PRIVATE -UNDEBUG)
endfunction()

# workbook_lesson([TEST_ARGS "--n 1" "--n 2" ...] [RACE_MAX_N N] [LIBRARIES ...] [CUDA_LIBRARIES ...]
#                 [OPENMP] [DATA_FROM_N])
#
# Builds the lesson in the current folder (lessons/NN-slug) for every backend:
#   NN-slug.exercise.sim / .cuda   from exercise.cu  (or .cpu from exercise.c for CPU lessons)
#   NN-slug.solution.sim / .cuda   from solutions/NN-slug/solution.cu, when it exists
# with the lesson's driver and reference (every other .c file in the folder), and registers
# the tests: the learner's build checks the exercise; the maintainer's build checks the
# solution and runs the guards (exercise-is-open, skeleton).
# RACE_MAX_N: the largest --n its checks run under ThreadSanitizer, where the default (5000, in
# run-lesson.sh) is too slow for the lesson (a --n that is a matrix side: n x n CUDA threads).
# DATA_FROM_N: the lesson's input data is a function of n alone (i * i, arange, the numbers
# below n), so --seed changes its size and nothing else (NN-slug.seeded-inputs checks the data
# too unless it is given; the lesson's CMakeLists.txt says why).
# CUDA_LIBRARIES are linked into the nvcc-built programs only (the toolkit's libraries, such as
# CUDA::nvrtc and CUDA::cublas; the simulator builds its own counterparts into libcusim).
function(workbook_lesson)
  cmake_parse_arguments(PARSE_ARGV 0 L "OPENMP;DATA_FROM_N" "RACE_MAX_N"
                        "TEST_ARGS;LIBRARIES;CUDA_LIBRARIES")
  if(L_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "workbook_lesson: unknown arguments ${L_UNPARSED_ARGUMENTS}")
  endif()
  cmake_path(GET CMAKE_CURRENT_SOURCE_DIR FILENAME lesson)
  string(SUBSTRING "${lesson}" 0 2 number)
  set(solution_dir "${PROJECT_SOURCE_DIR}/solutions/${lesson}")
  if(NOT L_TEST_ARGS)
    set(L_TEST_ARGS "--n 1" "--n 2" "--n 3" "--n 1000" "--n 100003")
  endif()

  file(GLOB host_sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*.c")
  list(FILTER host_sources EXCLUDE REGEX "/exercise\\.c$")
  if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/exercise.c")
    set(extension c)
    set(backends cpu)
  else()
    set(extension cu)
    set(backends)
    if(WB_SIM)
      list(APPEND backends sim)
    endif()
    if(WB_HAVE_CUDA)
      list(APPEND backends cuda)
    endif()
  endif()

  set(variants exercise)
  set(exercise_file "${CMAKE_CURRENT_SOURCE_DIR}/exercise.${extension}")
  set(solution_file "${solution_dir}/solution.${extension}")
  if(EXISTS "${solution_file}")
    list(APPEND variants solution)
  endif()

  foreach(variant IN LISTS variants)
    foreach(backend IN LISTS backends)
      set(target "${lesson}.${variant}.${backend}")
      if(backend STREQUAL "sim")
        cusim_add_executable(${target} KEEP_ASSERTS SOURCES "${${variant}_file}" ${host_sources}
                             LIBRARIES wb_harness_sim ${L_LIBRARIES})
      elseif(backend STREQUAL "cuda")
        add_executable(${target} "${${variant}_file}" ${host_sources})
        target_link_libraries(${target} PRIVATE wb_harness_cuda CUDA::cudart ${L_LIBRARIES}
                              ${L_CUDA_LIBRARIES})
      else()
        # A CPU lesson still links a harness; the simulator's needs nothing NVIDIA.
        add_executable(${target} "${${variant}_file}" ${host_sources})
        if(WB_SIM)
          target_link_libraries(${target} PRIVATE wb_harness_sim ${L_LIBRARIES})
        else()
          target_link_libraries(${target} PRIVATE wb_harness_cuda ${L_LIBRARIES})
        endif()
      endif()
      target_include_directories(${target} PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
      if(L_OPENMP)
        if(NOT OpenMP_C_FOUND)
          message(FATAL_ERROR "${lesson} needs OpenMP for C (install libomp-dev or use gcc)")
        endif()
        target_link_libraries(${target} PRIVATE OpenMP::OpenMP_C)
      endif()
      # The learner's build: `cmake --build build` makes what the learner's ctest runs, not the
      # solutions (the workbook builds one by name for `run NN --solution`).
      if(WB_TESTS STREQUAL "learner" AND variant STREQUAL "solution")
        set_target_properties(${target} PROPERTIES EXCLUDE_FROM_ALL ON)
      endif()
      workbook_warnings(${target})
      workbook_keep_asserts(${target})
      set_target_properties(${target} PROPERTIES
        RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin"
        WB_LESSON "${lesson}"
        WB_VARIANT "${variant}")
      if(NOT BUILD_TESTING)
        continue()
      endif()
      set(register OFF)
      if(WB_TESTS STREQUAL "learner" AND variant STREQUAL "exercise")
        set(register ON)
      elseif(WB_TESTS STREQUAL "maintainer" AND variant STREQUAL "solution")
        set(register ON)
      endif()
      if(register)
        add_test(NAME ${target}
                 COMMAND bash "${WB_SHARED_DIR}/cmake/run-lesson.sh" check ${WB_TEST_TIMEOUT}
                         $<TARGET_FILE:${target}> ${L_TEST_ARGS})
        # Under ThreadSanitizer (the sim-race preset, whose tests are those labelled race) the
        # solutions run too: CI proves `workbook check NN --race` passes each reference solution
        # (sim-asan's label solution does the same for --asan).
        set(labels "${variant};${backend};lesson${number}")
        if(WB_SANITIZE STREQUAL "thread" AND NOT backend STREQUAL "cpu")
          list(APPEND labels race)
          workbook_test_needs(race ${target})
        endif()
        set_tests_properties(${target} PROPERTIES
          LABELS "${labels}"
          SKIP_RETURN_CODE 77
          TIMEOUT ${WB_RUN_CTEST_TIMEOUT})
        # What a learner reads fits 80 columns: the simulator wraps its own lines (messages.cpp) at
        # 76, as the workbook shows a program's lines behind "  | ". The maintainer's sanitizer
        # builds run with the same settings as `workbook check NN --asan/--race`.
        if(WB_TESTS STREQUAL "learner" OR WB_SANITIZE)
          set_tests_properties(${target} PROPERTIES ENVIRONMENT "CUSIM_COLUMNS=76")
        endif()
        if(WB_RUN_ENVIRONMENT)
          set_property(TEST ${target} APPEND PROPERTY ENVIRONMENT "${WB_RUN_ENVIRONMENT}")
        endif()
        if(L_RACE_MAX_N)
          set_property(TEST ${target} APPEND PROPERTY ENVIRONMENT
                       "WB_LESSON_RACE_MAX_N=${L_RACE_MAX_N}")
        endif()
      endif()
    endforeach()
  endforeach()

  # nvcc is the oracle for what compiles: the learner's check also asks it (front ends only, so
  # it stays cheap; shared/cmake/nvcc-check.sh), even when the check runs on the simulator.
  if(BUILD_TESTING AND WB_TESTS STREQUAL "learner" AND WB_HAVE_CUDA AND extension STREQUAL "cu")
    add_test(NAME ${lesson}.exercise.nvcc
             COMMAND bash "${WB_SHARED_DIR}/cmake/nvcc-check.sh" "${CMAKE_CUDA_COMPILER}" "${exercise_file}"
                     "-I${CMAKE_CURRENT_SOURCE_DIR}" "-I${WB_SHARED_DIR}/harness")
    # Its verdict is kept by content hash (nvcc-check.sh): `run NN` after `check NN` needs no nvcc.
    set_tests_properties(${lesson}.exercise.nvcc PROPERTIES
      LABELS "exercise;nvcc;lesson${number}" TIMEOUT 300
      ENVIRONMENT "WB_NVCC_CACHE=${CMAKE_BINARY_DIR}/nvcc-verdicts")
  endif()

  if(BUILD_TESTING AND WB_TESTS STREQUAL "maintainer")
    # The check must be able to fail: the shipped exercise fails it (exit 1, a wrong result,
    # not a crash). Run on the simulator (or the CPU) so it holds on every machine.
    list(GET backends 0 guard_backend)
    add_test(NAME ${lesson}.exercise-is-open
             COMMAND bash "${WB_SHARED_DIR}/cmake/run-lesson.sh" expect-fail ${WB_TEST_TIMEOUT}
                     $<TARGET_FILE:${lesson}.exercise.${guard_backend}> ${L_TEST_ARGS})
    set_tests_properties(${lesson}.exercise-is-open PROPERTIES
      LABELS "guard;${guard_backend};lesson${number}" SKIP_RETURN_CODE 77
      TIMEOUT ${WB_RUN_CTEST_TIMEOUT})
    if(WB_RUN_ENVIRONMENT)
      set_property(TEST ${lesson}.exercise-is-open APPEND PROPERTY ENVIRONMENT "${WB_RUN_ENVIRONMENT}")
    endif()
    if(EXISTS "${solution_file}")
      add_test(NAME ${lesson}.skeleton
               COMMAND bash "${WB_SHARED_DIR}/cmake/skeleton-guard.sh" "${exercise_file}" "${solution_file}")
      set_tests_properties(${lesson}.skeleton PROPERTIES LABELS "guard;lesson${number}")
      # A grade's seeded run ("--n 1000 --seed S") checks a size and data of its own, which no
      # table of the shipped answers knows: tests/harness/seeded-inputs.sh runs the solution with
      # two seeds at that size. Not under a sanitizer (the plain build proves it).
      if(NOT WB_SANITIZE)
        set(seeded_data seeded)
        if(L_DATA_FROM_N)
          set(seeded_data from-n)
        endif()
        add_test(NAME ${lesson}.seeded-inputs
                 COMMAND bash "${PROJECT_SOURCE_DIR}/tests/harness/seeded-inputs.sh"
                         ${WB_TEST_TIMEOUT} ${seeded_data}
                         $<TARGET_FILE:${lesson}.solution.${guard_backend}> ${L_TEST_ARGS})
        set_tests_properties(${lesson}.seeded-inputs PROPERTIES
          LABELS "guard;seed;${guard_backend};lesson${number}" SKIP_RETURN_CODE 77
          TIMEOUT ${WB_RUN_CTEST_TIMEOUT})
        if(WB_RUN_ENVIRONMENT)
          set_property(TEST ${lesson}.seeded-inputs APPEND PROPERTY ENVIRONMENT
                       "${WB_RUN_ENVIRONMENT}")
        endif()
      endif()
      if(WB_MUTANTS)
        set(mutant_libraries ${L_LIBRARIES})
        if(guard_backend STREQUAL "cuda")
          list(APPEND mutant_libraries ${L_CUDA_LIBRARIES})
        endif()
        workbook_mutants(${lesson} ${number} ${guard_backend} "${solution_file}" "${host_sources}"
                         "${mutant_libraries}" "${L_OPENMP}" "${L_TEST_ARGS}")
      endif()
    endif()
  endif()
endfunction()

# workbook_mutants(): the plausible wrong answers of a lesson, each a test that must FAIL with the
# message that names its task. tests/mutants/NN-slug/NAME.sed is a sed script applied to the
# solution; its comment lines give the expected message and, optionally, the sizes:
#   # expect: REGEX        (extended regular expression the failing run's output must contain)
#   # args: --n 1000       (argument sets, separated by ';'; default the lesson's TEST_ARGS)
#   # env: NAME=VALUE      (environment for the run, separated by ';')
#   # passes: shipped      (a cheat: it must PASS the lesson's TEST_ARGS too, test NAME.shipped)
# Test names: NN-slug.mutant.NAME, labels mutant and lessonNN.
function(workbook_mutants lesson number backend solution_file host_sources libraries openmp test_args)
  file(GLOB mutant_scripts "${PROJECT_SOURCE_DIR}/tests/mutants/${lesson}/*.sed")
  cmake_path(GET solution_file EXTENSION LAST_ONLY extension)
  foreach(script IN LISTS mutant_scripts)
    cmake_path(GET script STEM name)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${script}")
    file(STRINGS "${script}" expect REGEX "^# expect: ")
    file(STRINGS "${script}" args REGEX "^# args: ")
    file(STRINGS "${script}" environment REGEX "^# env: ")
    file(STRINGS "${script}" passes REGEX "^# passes: ")
    string(REGEX REPLACE "^# passes: " "" passes "${passes}")
    if(NOT expect)
      message(FATAL_ERROR "${script}: no '# expect: REGEX' line")
    endif()
    string(REGEX REPLACE "^# expect: " "" expect "${expect}")
    if(args)
      string(REGEX REPLACE "^# args: " "" args "${args}")
    else()
      set(args "${test_args}")
    endif()
    string(REGEX REPLACE "^# env: " "" environment "${environment}")
    # file(STRINGS) escapes the ';' inside a line; the lists here are meant to split on it
    string(REPLACE "\\;" ";" args "${args}")
    string(REPLACE "\\;" ";" environment "${environment}")
    set(source "${CMAKE_CURRENT_BINARY_DIR}/mutants/${name}${extension}")
    add_custom_command(
      OUTPUT "${source}"
      COMMAND bash "${WB_SHARED_DIR}/cmake/make-mutant.sh" "${script}" "${solution_file}" "${source}"
      DEPENDS "${script}" "${solution_file}" "${WB_SHARED_DIR}/cmake/make-mutant.sh"
      COMMENT "mutant ${lesson}/${name}"
      VERBATIM)
    set(target "${lesson}.mutant.${name}")
    if(backend STREQUAL "sim")
      cusim_add_executable(${target} KEEP_ASSERTS SOURCES "${source}" ${host_sources}
                           LIBRARIES wb_harness_sim ${libraries})
    elseif(backend STREQUAL "cuda")
      # (a maintainer build without the simulator: the mutants run on the GPU, as the guards do)
      add_executable(${target} "${source}" ${host_sources})
      target_link_libraries(${target} PRIVATE wb_harness_cuda CUDA::cudart ${libraries})
    else()
      add_executable(${target} "${source}" ${host_sources})
      if(WB_SIM)
        target_link_libraries(${target} PRIVATE wb_harness_sim ${libraries})
      else()
        target_link_libraries(${target} PRIVATE wb_harness_cuda ${libraries})
      endif()
    endif()
    target_include_directories(${target} PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
    if(openmp)
      target_link_libraries(${target} PRIVATE OpenMP::OpenMP_C)
    endif()
    workbook_keep_asserts(${target})
    set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/mutants")
    add_test(NAME ${target}
             COMMAND bash "${WB_SHARED_DIR}/cmake/run-lesson.sh" mutant ${WB_TEST_TIMEOUT}
                     $<TARGET_FILE:${target}> ${args})
    set_tests_properties(${target} PROPERTIES
      LABELS "mutant;${backend};lesson${number}"
      ENVIRONMENT "WB_EXPECT=${expect}"
      TIMEOUT ${WB_RUN_CTEST_TIMEOUT})
    if(WB_RUN_ENVIRONMENT)
      set_property(TEST ${target} APPEND PROPERTY ENVIRONMENT "${WB_RUN_ENVIRONMENT}")
    endif()
    if(environment)
      set_property(TEST ${target} APPEND PROPERTY ENVIRONMENT "${environment}")
    endif()
    # "# passes: shipped": a cheat that knows the shipped answers (a table of them) passes every
    # shipped size, so its `# args:` (a --seed run) is what catches it: NN-slug.mutant.NAME.shipped
    # proves the first half, the mutant test the second.
    if(passes STREQUAL "shipped")
      add_test(NAME ${target}.shipped
               COMMAND bash "${WB_SHARED_DIR}/cmake/run-lesson.sh" check ${WB_TEST_TIMEOUT}
                       $<TARGET_FILE:${target}> ${test_args})
      set_tests_properties(${target}.shipped PROPERTIES
        LABELS "mutant;${backend};lesson${number}" SKIP_RETURN_CODE 77
        TIMEOUT ${WB_RUN_CTEST_TIMEOUT})
      if(WB_RUN_ENVIRONMENT)
        set_property(TEST ${target}.shipped APPEND PROPERTY ENVIRONMENT "${WB_RUN_ENVIRONMENT}")
      endif()
    elseif(passes)
      message(FATAL_ERROR "${script}: '# passes:' takes 'shipped', not '${passes}'")
    endif()
  endforeach()
endfunction()
