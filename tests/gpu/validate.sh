#!/usr/bin/env bash
# tests/gpu/validate.sh [--build-only [--lessons-from BUILD]] [--launcher CMD] [--results FILE]
#                        [--dir DIR]
#
# GPU ground truth. Builds everything for sm_90 with the real nvcc: every lesson's exercise and
# solution, the must-not-compile corpus (tests/nocompile/*.cu: nvcc must REJECT each one), the
# simulator's program corpus (tests/sim/programs/*.cu, and tests/sim/leak_cases.cu), its
# semantics cases (tests/gpu/semantics.list) and the benchmark suite (tests/suite, as its Makefile
# lines say). CI runs this half (--build-only), so it cannot rot. Where a GPU is present
# (nvidia-smi works and a CUDA program runs), it then runs every `cuda` test of a maintainer build
# without the simulator (solutions, shipped exercises that must fail, seeded inputs), every
# lesson's solution at its default size (timed, with its figures), then again under grade's run
# limits, the program corpus, the semantics cases and the suite (each program must give its
# verified answer, those with a bug of their own too), every mutant built by nvcc and run (which
# the GPU catches is recorded), and writes a results block (device,
# driver, CUDA, date, each result) to FILE, ready to paste into docs/results.md. Any failure fails
# the script (exit 1); what it skipped, and why, is said in one line each. Logs go to DIR (default
# build-validate/). With --build-only, --lessons-from BUILD takes the lessons' sm_90 builds from a
# maintainer build that already made them with warnings as errors (CI's build-ci, whose
# architectures include 90) instead of building them again: it checks that BUILD was configured
# so, and that every lesson's exercise and solution there holds sm_90 code; the must-not-compile
# corpus is then left to BUILD's unit.nocompile.NAME.nvcc tests (each snippet must have one).
# --launcher CMD (CI: ccache) compiles each program of steps 3 and 3b through CMD, one `nvcc -c`
# a source and then nvcc's link, so that a machine that keeps its cache does not compile them
# again; without it each program is one plain `nvcc -o` of its sources, as a course builds it.
set -u -o pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 3
root=$PWD

build_only=0 dir=$root/build-validate results='' lessons_from='' launcher=''
while [ $# -gt 0 ]; do
  case $1 in
    --build-only) build_only=1 ;;
    --results) results=${2:?--results needs a file}; shift ;;
    --dir) dir=${2:?--dir needs a folder}; shift ;;
    --lessons-from) lessons_from=${2:?--lessons-from needs a build folder}; shift ;;
    --launcher) launcher=${2:?--launcher needs a command}; shift ;;
    -h | --help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "validate: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
case $dir in /*) ;; *) dir=$root/$dir ;; esac
case $lessons_from in /* | "") ;; *) lessons_from=$root/$lessons_from ;; esac
if [ -n "$lessons_from" ] && [ $build_only -eq 0 ]; then
  echo "validate: --lessons-from needs --build-only (a GPU run tests its own build)" >&2
  exit 2
fi
results=${results:-$dir/gpu-results.md}
command -v nvcc >/dev/null || { echo "validate: nvcc not found: this script needs the CUDA toolkit" >&2; exit 3; }
mkdir -p "$dir/logs" "$dir/bin"
logs=$dir/logs
failures=()
fail() { failures+=("$1"); echo "FAIL: $1"; }
skip() { echo "skipped: $1"; }
elapsed() { echo $(($(date +%s) - $1)); }
nvcc_flags=(-std=c++17 -arch=sm_90)
jobs_max=$(nproc 2>/dev/null || echo 2)
if [ -n "$launcher" ] && ! command -v "$launcher" >/dev/null; then
  echo "validate: --launcher '$launcher' is not a command" >&2
  exit 2
fi
# nvcc_program OUTPUT FLAGS... -- SOURCES...: one program built by nvcc for sm_90: one plain
# `nvcc -o`, or with --launcher each source compiled through it (`nvcc -c`) and then nvcc's link
# (the link takes the -l/-L flags, the compiles the rest).
nvcc_program() {
  local out=$1 flags=() compile=() link=() objects=() f
  shift
  while [ "$1" != -- ]; do flags+=("$1") && shift; done
  shift
  if [ -z "$launcher" ]; then
    nvcc "${nvcc_flags[@]}" "${flags[@]}" -o "$out" "$@"
    return
  fi
  for f in "${flags[@]}"; do case $f in -l* | -L*) link+=("$f") ;; *) compile+=("$f") ;; esac; done
  mkdir -p "$dir/obj" || return
  for f in "$@"; do
    objects+=("$dir/obj/${out##*/}.${#objects[@]}.o")
    "$launcher" nvcc "${nvcc_flags[@]}" "${compile[@]}" -c "$f" -o "${objects[-1]}" || return
  done
  nvcc "${nvcc_flags[@]}" "${compile[@]}" "${link[@]}" -o "$out" "${objects[@]}" || return
  rm -f "${objects[@]}"
}
trap 'kill $(jobs -rp) 2>/dev/null' EXIT # Ctrl-C stops the builds in flight too

# ---- 1. Every lesson, exercise and solution, for sm_90 (CMake, the project's own build) --------
start=$(date +%s)
lesson_sources() { ls "$root"/lessons/*/exercise.cu "$root"/solutions/*/solution.cu 2>/dev/null | wc -l; }
if [ -n "$lessons_from" ]; then
  # The maintainer build made them already: check it did so for sm_90, with warnings as errors.
  cache=$lessons_from/CMakeCache.txt
  if [ ! -f "$cache" ]; then
    fail "lessons: --lessons-from $lessons_from: no CMakeCache.txt there (build it first)"
  elif ! grep -q '^WB_CUDA:BOOL=ON$' "$cache" || ! grep -q '^WB_WERROR:BOOL=ON$' "$cache" ||
    ! grep -Eq '^CMAKE_CUDA_ARCHITECTURES:STRING=(.*;)?90(;.*)?$' "$cache"; then
    fail "lessons: $lessons_from is not a CUDA build for sm_90 with WB_WERROR=ON"
  else
    count=0 expected=$(lesson_sources)
    for program in "$lessons_from"/bin/*.exercise.cuda "$lessons_from"/bin/*.solution.cuda; do
      [ -f "$program" ] || continue
      if grep -aq 'sm_90' "$program"; then count=$((count + 1)); else fail "lessons: ${program##*/} holds no sm_90 code"; fi
    done
    echo "lessons: $count CUDA programs built for sm_90 by $lessons_from (not built again)"
    [ "$count" -eq "$expected" ] || fail "lessons: $count CUDA programs in $lessons_from/bin, $expected expected"
  fi
elif cmake -S "$root" -B "$dir/lessons" -G Ninja -DWB_SIM=OFF -DWB_CUDA=ON -DWB_TESTS=maintainer \
  -DBUILD_TESTING=ON -DWB_MUTANTS=OFF -DWB_WERROR=ON -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >"$logs/lessons.configure.log" 2>&1 &&
  cmake --build "$dir/lessons" -j "$jobs_max" >"$logs/lessons.build.log" 2>&1; then
  count=$(find "$dir/lessons/bin" -maxdepth 1 -type f -name '*.cuda' | wc -l)
  echo "lessons: $count CUDA programs built for sm_90 in $(elapsed "$start") s"
  [ "$count" -gt 0 ] || fail "lessons: no CUDA program was built (is the toolkit found by CMake?)"
else
  fail "lessons: the sm_90 build failed (log: $logs/lessons.build.log)"
  grep -E 'error' "$logs/lessons.configure.log" "$logs/lessons.build.log" | head -n 5
fi

# ---- 2. The must-not-compile corpus: nvcc must reject every snippet ----------------------------
# With --lessons-from, the build's own tests do it (unit.nocompile.NAME.nvcc: nvcc's front end,
# which must reject each snippet before any later step; CI runs them in the same run): each
# snippet must have its test there, and nvcc is not run a third time on it here.
nocompile_tests=''
[ -z "$lessons_from" ] || nocompile_tests=$lessons_from/tests/nocompile/CTestTestfile.cmake
if [ -d "$root/tests/nocompile" ] && [ -n "$nocompile_tests" ]; then
  total=0 missing=0
  for snippet in "$root"/tests/nocompile/*.cu; do
    [ -e "$snippet" ] || continue
    total=$((total + 1))
    name=${snippet##*/}
    if ! grep -qF "unit.nocompile.${name%.cu}.nvcc" "$nocompile_tests" 2>/dev/null; then
      missing=$((missing + 1))
      fail "nocompile: $lessons_from has no test unit.nocompile.${name%.cu}.nvcc (configured with nvcc?)"
    fi
  done
  echo "nocompile: $((total - missing)) of $total snippets left to $lessons_from's unit.nocompile.NAME.nvcc tests"
elif [ -d "$root/tests/nocompile" ]; then
  start=$(date +%s) rejected=0 total=0 snippets=()
  rm -f "$logs"/nocompile.*.status
  reject_snippet() { # SNIPPET: one nvcc compile in the background; its status goes to a file
    local name=${1##*/}
    nvcc "${nvcc_flags[@]}" -I"$root/shared/harness" -c "$1" -o "$dir/nocompile.$name.o" \
      >"$logs/nocompile.$name.log" 2>&1
    echo $? >"$logs/nocompile.$name.status"
    rm -f "$dir/nocompile.$name.o"
  }
  for snippet in "$root"/tests/nocompile/*.cu; do
    [ -e "$snippet" ] || continue
    total=$((total + 1))
    snippets+=("$snippet")
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
    reject_snippet "$snippet" &
  done
  wait
  for snippet in "${snippets[@]}"; do
    if [ "$(cat "$logs/nocompile.${snippet##*/}.status" 2>/dev/null)" = 0 ]; then
      fail "nocompile: nvcc ACCEPTS ${snippet#"$root"/}: it does not belong in the corpus"
    else
      rejected=$((rejected + 1))
    fi
  done
  echo "nocompile: nvcc rejected $rejected of $total snippets in $(elapsed "$start") s"
else
  skip "nocompile: tests/nocompile/ does not exist"
fi

# ---- 3. The simulator's program corpus, built by nvcc as a course would build it --------------
# A program may name extra nvcc flags on a line "// nvcc-flags: ..." (e.g. -lcurand).
start=$(date +%s) built=0 total=0 programs=() names=()
rm -f "$logs"/program.*.status
build_program() { # NAME SOURCE: one nvcc build; its status goes to a file (it runs in the background)
  local extra=()
  read -r -a extra <<<"$(sed -n 's|^// nvcc-flags: *||p' "$2" | head -n 1)"
  nvcc_program "$dir/bin/$1" "${extra[@]}" -- "$2" >"$logs/program.$1.log" 2>&1
  echo $? >"$logs/program.$1.status"
}
# tests/sim/leak_cases.cu too: the simulator's leak tests (unit.sim.leak.*) make every kind of
# resource with these calls, so nvcc must accept them; on a GPU it makes one of each and PASSes.
for program in "$root"/tests/sim/programs/*.cu "$root"/tests/sim/leak_cases.cu; do
  [ -e "$program" ] || continue
  total=$((total + 1))
  name=${program##*/}
  name=${name%.cu}
  names+=("$name")
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
  build_program "$name" "$program" &
done
wait
for name in "${names[@]}"; do
  if [ "$(cat "$logs/program.$name.status" 2>/dev/null)" = 0 ]; then
    built=$((built + 1))
    programs+=("$name")
  else
    fail "programs: $name does not build with nvcc (log: $logs/program.$name.log)"
  fi
done
echo "programs: $built of $total built with nvcc in $(elapsed "$start") s"

# ---- 3b. The semantics cases (tests/gpu/semantics.list): the simulator's own test programs -----
# Each binary is named after its first source; several cases may run one binary.
trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; printf '%s' "${s%"${s##*[![:space:]]}"}"; }
start=$(date +%s) cases=() binaries=()
declare -A case_binary=() case_args=() case_expect=() binary_sources=() binary_flags=()
while IFS='|' read -r name sources args flags expect; do
  name=$(trim "$name")
  case $name in '' | '#'*) continue ;; esac
  sources=$(trim "$sources")
  binary=${sources%% *}
  binary=sem.${binary##*/} # programs/name.cu: sem.name
  binary=${binary%.*}
  cases+=("$name")
  case_binary[$name]=$binary case_args[$name]=$(trim "$args") case_expect[$name]=$(trim "$expect")
  if [ -z "${binary_sources[$binary]+set}" ]; then
    binaries+=("$binary")
    binary_sources[$binary]=$sources binary_flags[$binary]=$(trim "$flags")
  fi
done <"$root/tests/gpu/semantics.list"
build_case_binary() { # BINARY: one nvcc build in the background; its status goes to a file
  local sources=() flags=()
  read -r -a sources <<<"${binary_sources[$1]}"
  read -r -a flags <<<"${binary_flags[$1]}"
  # From the root, each source by its full path, as step 3 and the build's
  # unit.sim.*.builds_with_nvcc tests compile theirs: with --launcher ccache they share the objects.
  (cd "$root" && nvcc_program "$dir/bin/$1" "${flags[@]}" -- "${sources[@]/#/$root/tests/sim/}") \
    >"$logs/program.$1.log" 2>&1
  echo $? >"$logs/program.$1.status"
}
for binary in "${binaries[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
  build_case_binary "$binary" &
done
wait
built=0
for binary in "${binaries[@]}"; do
  if [ "$(cat "$logs/program.$binary.status" 2>/dev/null)" = 0 ]; then
    built=$((built + 1))
  else
    fail "semantics: ${binary_sources[$binary]} does not build with nvcc (log: $logs/program.$binary.log)"
  fi
done
echo "semantics: $built of ${#binaries[@]} programs (${#cases[@]} cases) built with nvcc in $(elapsed "$start") s"

# ---- 3c. The benchmark suite (tests/suite/suite.list), built by nvcc as its Makefile lines say --
# On a GPU (step 8) each program must give its verified answer, those with a bug of their own too.
start=$(date +%s)
if bash "$root/tests/suite/run-suite.sh" --nvcc --jobs "$jobs_max" --work "$dir/suite-nvcc" >"$logs/suite.build.log" 2>&1; then
  echo "suite: $(tail -n 1 "$logs/suite.build.log" | sed 's/^suite: //') in $(elapsed "$start") s"
else
  fail "suite: $(tail -n 1 "$logs/suite.build.log") (log: $logs/suite.build.log)"
  grep '^FAIL' "$logs/suite.build.log" | head -n 5
fi

finish() {
  if [ ${#failures[@]} -gt 0 ]; then
    echo "validate: ${#failures[@]} FAILED:"
    printf '  %s\n' "${failures[@]}"
    exit 1
  fi
  echo "validate: OK"
  exit 0
}

# ---- Is there a GPU? ---------------------------------------------------------------------------
if [ $build_only -eq 1 ]; then
  skip "GPU runs: --build-only"
  finish
fi
probe=$(find "$dir/lessons/bin" -maxdepth 1 -type f -name '*.solution.cuda' | sort | head -n 1)
if ! nvidia-smi -L >/dev/null 2>&1; then
  skip "GPU runs: nvidia-smi does not work here (no NVIDIA driver or GPU)"
  finish
elif [ -z "$probe" ] || { "$probe" --n 1 --repeat 1 >"$logs/probe.log" 2>&1; [ $? -eq 77 ]; }; then
  skip "GPU runs: no CUDA program could run ($(tail -n 1 "$logs/probe.log" 2>/dev/null))"
  finish
fi

device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -n 1)
cuda=$(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')
{
  echo "### GPU validation: $device, $(date -u '+%Y-%m-%d')"
  echo ""
  echo "Device: $device; driver $driver; CUDA $cuda (nvcc); $(date -u '+%Y-%m-%d %H:%M UTC');"
  echo "commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)."
  echo ""
  echo "| what | result | time (s) | figures |"
  echo "| --- | --- | --- | --- |"
} >"$results"
row() { printf '| %s | %s | %s | %s |\n' "$@" >>"$results"; }

# ---- 4. Every `cuda` test of the maintainer build (step 1's, without the simulator) -----------
# Solutions checked against the CPU, each shipped exercise failing its check, seeded inputs.
start=$(date +%s)
if ctest --test-dir "$dir/lessons" -L cuda -j 8 --timeout 300 --output-on-failure >"$logs/cuda-tests.log" 2>&1; then
  summary=$(grep -E 'tests passed' "$logs/cuda-tests.log" | tail -n 1)
  if grep -q -E 'Skipped|Not Run' "$logs/cuda-tests.log"; then
    fail "cuda tests: some were skipped on a GPU (log: $logs/cuda-tests.log)"
    summary="SKIPPED on a GPU: $summary"
  else
    summary="pass: $summary"
  fi
  row "maintainer build without the simulator, label cuda" "$summary" "$(elapsed "$start")" ""
  echo "cuda tests: $summary"
else
  failed=$(grep -E '^[[:space:]]*[0-9]+ - ' "$logs/cuda-tests.log" | awk '{print $3}' | paste -s -d ' ')
  row "maintainer build without the simulator, label cuda" "FAIL: $failed" "$(elapsed "$start")" "$(grep -E 'tests passed' "$logs/cuda-tests.log" | tail -n 1)"
  fail "cuda tests: $failed (log: $logs/cuda-tests.log)"
fi

# ---- 5. Every lesson's solution at its default (timing) size -----------------------------------
for program in "$dir"/lessons/bin/*.solution.cuda; do
  [ -e "$program" ] || continue
  name=${program##*/}
  start=$(date +%s%N)
  timeout 120 "$program" >"$logs/run.$name.log" 2>&1
  status=$?
  seconds=$(awk -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "%.2f", ns / 1e9 }')
  figures=$(grep -E 'GB/s|speedup|[0-9] ms|[0-9] us' "$logs/run.$name.log" | head -n 4 | tr -s ' ' | paste -s -d ';' | sed 's/|/\\|/g')
  if [ $status -eq 0 ] && tail -n 1 "$logs/run.$name.log" | grep -q '^PASS'; then
    row "$name" pass "$seconds" "$figures"
  else
    row "$name" "FAIL (exit $status)" "$seconds" "$(tail -n 1 "$logs/run.$name.log")"
    fail "$name at its default size (log: $logs/run.$name.log)"
  fi
done

# ---- 5b. grade's run limits with the CUDA driver (shared/workbook/limits.sh) -------------------
# `workbook grade` runs each lesson program under a memory cgroup (--run-memory, default 4096 MiB)
# and a process limit (--run-procs, default 256). Each solution must still pass under them; a
# 64 MiB cap shows what a GPU program's host side needs (recorded, not checked).
probe_limits=$("$root/shared/workbook/limits.sh" --probe 2>&1)
if [ "$probe_limits" != cgroup ]; then
  row "grade's run limits" "not measured" "" "limits.sh --probe: $probe_limits (no cgroup here)"
  skip "grade's run limits: limits.sh --probe says '$probe_limits', not cgroup"
else
  start=$(date +%s) passed=0 total=0
  for program in "$dir"/lessons/bin/*.solution.cuda; do
    [ -e "$program" ] || continue
    name=${program##*/}
    total=$((total + 1))
    "$root/shared/workbook/limits.sh" --memory 4096 --cgroup-only --procs 256 -- timeout 120 "$program" --repeat 1 \
      >"$logs/limits.$name.log" 2>&1
    status=$?
    if [ $status -eq 0 ] && tail -n 1 "$logs/limits.$name.log" | grep -q '^PASS'; then
      passed=$((passed + 1))
    else
      fail "$name under grade's run limits (4096 MiB, 256 processes): exit $status (log: $logs/limits.$name.log)"
    fi
  done
  first=$(find "$dir/lessons/bin" -maxdepth 1 -type f -name '*.solution.cuda' | sort | head -n 1)
  "$root/shared/workbook/limits.sh" --memory 64 --cgroup-only -- timeout 120 "$first" --repeat 1 >"$logs/limits.64MiB.log" 2>&1
  tight=$?
  row "grade's run limits (cgroup: 4096 MiB, 256 processes)" "$passed of $total solutions pass" "$(elapsed "$start")" \
    "${first##*/} in 64 MiB: exit $tight, $(tail -n 1 "$logs/limits.64MiB.log" | cut -c1-100 | sed 's/|/\\|/g')"
  echo "grade's run limits: $passed of $total solutions pass; in 64 MiB ${first##*/} exits $tight"
fi

# ---- 6. The program corpus on the GPU ----------------------------------------------------------
for name in "${programs[@]}"; do
  start=$(date +%s%N)
  timeout 120 "$dir/bin/$name" >"$logs/run.program.$name.log" 2>&1
  status=$?
  seconds=$(awk -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "%.2f", ns / 1e9 }')
  if [ $status -eq 0 ] && grep -q PASS "$logs/run.program.$name.log" && ! grep -q FAIL "$logs/run.program.$name.log"; then
    row "program $name" pass "$seconds" ""
  else
    row "program $name" "FAIL (exit $status)" "$seconds" "$(tail -n 1 "$logs/run.program.$name.log")"
    fail "program $name on the GPU (log: $logs/run.program.$name.log)"
  fi
done

# ---- 7. The semantics cases on the GPU: the simulator's answers must be a GPU's ----------------
for name in "${cases[@]}"; do
  binary=${case_binary[$name]}
  [ "$(cat "$logs/program.$binary.status" 2>/dev/null)" = 0 ] || continue
  args=()
  read -r -a args <<<"${case_args[$name]}"
  start=$(date +%s%N)
  output=$(cd "$dir/bin" && timeout 60 "./$binary" "${args[@]}" 2>&1)
  status=$?
  printf '%s\n' "$output" >"$logs/run.semantics.$name.log"
  seconds=$(awk -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "%.2f", ns / 1e9 }')
  expect=${case_expect[$name]}
  shown=$(printf '%s' "$output" | tr '\n' ';' | cut -c1-300 | sed 's/|/\\|/g')
  if [ "$expect" = record ]; then
    row "semantics $name" "recorded (exit $status)" "$seconds" "$shown"
  elif { [ -z "$expect" ] && [ $status -eq 0 ]; } || { [ -n "$expect" ] && [[ $output =~ ${expect//\\n/$'\n'} ]]; }; then
    row "semantics $name" pass "$seconds" ""
  else
    row "semantics $name" "FAIL (exit $status)" "$seconds" "$shown"
    fail "semantics $name: a GPU's answer is not the simulator's (log: $logs/run.semantics.$name.log)"
  fi
done

# ---- 8. The benchmark suite on the GPU: every program gives its verified answer -----------------
start=$(date +%s)
if bash "$root/tests/suite/run-suite.sh" --gpu --jobs "$jobs_max" --timeout 120 --work "$dir/suite-gpu" >"$logs/suite.gpu.log" 2>&1; then
  row "benchmark suite (tests/suite)" pass "$(elapsed "$start")" "$(tail -n 1 "$logs/suite.gpu.log")"
  tail -n 1 "$logs/suite.gpu.log"
else
  row "benchmark suite (tests/suite)" FAIL "$(elapsed "$start")" "$(grep '^FAIL' "$logs/suite.gpu.log" | head -n 3 | paste -s -d ';' | cut -c1-300 | sed 's/|/\\|/g')"
  fail "suite on the GPU: $(tail -n 1 "$logs/suite.gpu.log") (log: $logs/suite.gpu.log)"
fi

# ---- 9. Every mutant built by nvcc and run on the GPU (recorded) --------------------------------
# tests/mutants/ are wrong answers the simulator catches; a GPU build catches those its check sees
# in the results (or in CUDA's errors), not what only the simulator's checker reports (races,
# bounds, uninitialized __shared__ reads, leaks, the profiler's counts). Every mutant must build
# with nvcc (a failure here); which ones the GPU catches is recorded, with each log, to compare.
start=$(date +%s)
if cmake -S "$root" -B "$dir/mutants" -G Ninja -DWB_SIM=OFF -DWB_CUDA=ON -DWB_TESTS=maintainer \
  -DBUILD_TESTING=ON -DWB_MUTANTS=ON -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >"$logs/mutants.configure.log" 2>&1 &&
  cmake --build "$dir/mutants" -j "$jobs_max" -- -k 0 >"$logs/mutants.build.log" 2>&1; then
  ctest --test-dir "$dir/mutants" -L mutant -j 8 --timeout 120 --output-on-failure >"$logs/mutants.log" 2>&1
  caught=$(grep -c -E 'Test +#[0-9]+: .* Passed' "$logs/mutants.log")
  total=$(grep -c -E 'Test +#[0-9]+: ' "$logs/mutants.log")
  missed=$(grep -E 'Test +#[0-9]+: .*\*\*\*' "$logs/mutants.log" | sed -E 's/.*: ([^ ]+) .*/\1/; s/\.mutant\./:/' | paste -s -d ' ')
  row "mutants on the GPU (recorded)" "$caught of $total give the simulator's message" "$(elapsed "$start")" "not: $missed"
  echo "mutants: $caught of $total give the simulator's message on the GPU (log: $logs/mutants.log)"
else
  row "mutants on the GPU (recorded)" "FAIL: not every mutant builds with nvcc" "$(elapsed "$start")" "$(grep -E '^FAILED' "$logs/mutants.build.log" | head -n 3 | paste -s -d ';' | cut -c1-300)"
  fail "mutants: not every mutant builds with nvcc (log: $logs/mutants.build.log)"
fi

echo "results: $results"
finish
