#!/usr/bin/env bash
# tests/gpu/validate.sh [--build-only] [--results FILE] [--dir DIR]
#
# GPU ground truth. Builds everything for sm_90 with the real nvcc: every lesson's exercise and
# solution, the must-not-compile corpus (tests/nocompile/*.cu: nvcc must REJECT each one) and the
# simulator's program corpus (tests/sim/programs/*.cu, and tests/sim/leak_cases.cu). CI runs this
# half (--build-only), so it cannot rot. Where a GPU is present (nvidia-smi works and a CUDA
# program runs), it then runs the `ci` preset's cuda tests, every lesson's solution at its default
# size (timed, with its figures) and the program corpus, and writes a results block (device,
# driver, CUDA, date, each result) to FILE, ready to paste into docs/results.md. Any failure fails
# the script (exit 1); what it skipped, and why, is said in one line each. Logs go to DIR (default
# build-validate/).
set -u -o pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 3
root=$PWD

build_only=0 dir=$root/build-validate results=''
while [ $# -gt 0 ]; do
  case $1 in
    --build-only) build_only=1 ;;
    --results) results=${2:?--results needs a file}; shift ;;
    --dir) dir=${2:?--dir needs a folder}; shift ;;
    -h | --help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "validate: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
case $dir in /*) ;; *) dir=$root/$dir ;; esac
results=${results:-$dir/gpu-results.md}
command -v nvcc >/dev/null || { echo "validate: nvcc not found: this script needs the CUDA toolkit" >&2; exit 3; }
mkdir -p "$dir/logs" "$dir/bin"
logs=$dir/logs
failures=()
fail() { failures+=("$1"); echo "FAIL: $1"; }
skip() { echo "skipped: $1"; }
elapsed() { echo $(($(date +%s) - $1)); }
nvcc_flags=(-std=c++17 -arch=sm_90)

# ---- 1. Every lesson, exercise and solution, for sm_90 (CMake, the project's own build) --------
start=$(date +%s)
if cmake -S "$root" -B "$dir/lessons" -G Ninja -DWB_SIM=OFF -DWB_CUDA=ON -DWB_TESTS=learner \
  -DBUILD_TESTING=OFF -DWB_WERROR=ON -DCMAKE_CUDA_ARCHITECTURES=90 >"$logs/lessons.configure.log" 2>&1 &&
  cmake --build "$dir/lessons" >"$logs/lessons.build.log" 2>&1; then
  count=$(find "$dir/lessons/bin" -maxdepth 1 -type f -name '*.cuda' | wc -l)
  echo "lessons: $count CUDA programs built for sm_90 in $(elapsed "$start") s"
  [ "$count" -gt 0 ] || fail "lessons: no CUDA program was built (is the toolkit found by CMake?)"
else
  fail "lessons: the sm_90 build failed (log: $logs/lessons.build.log)"
  grep -E 'error' "$logs/lessons.configure.log" "$logs/lessons.build.log" | head -n 5
fi

# ---- 2. The must-not-compile corpus: nvcc must reject every snippet ----------------------------
if [ -d "$root/tests/nocompile" ]; then
  start=$(date +%s) rejected=0 total=0
  for snippet in "$root"/tests/nocompile/*.cu; do
    [ -e "$snippet" ] || continue
    total=$((total + 1))
    if nvcc "${nvcc_flags[@]}" -I"$root/shared/harness" -c "$snippet" -o "$dir/nocompile.o" \
      >"$logs/nocompile.${snippet##*/}.log" 2>&1; then
      fail "nocompile: nvcc ACCEPTS ${snippet#"$root"/}: it does not belong in the corpus"
    else
      rejected=$((rejected + 1))
    fi
  done
  rm -f "$dir/nocompile.o"
  echo "nocompile: nvcc rejected $rejected of $total snippets in $(elapsed "$start") s"
else
  skip "nocompile: tests/nocompile/ does not exist"
fi

# ---- 3. The simulator's program corpus, built by nvcc as a course would build it --------------
# A program may name extra nvcc flags on a line "// nvcc-flags: ..." (e.g. -lcurand).
start=$(date +%s) built=0 total=0 programs=() names=()
jobs_max=$(nproc 2>/dev/null || echo 2)
rm -f "$logs"/program.*.status
trap 'kill $(jobs -rp) 2>/dev/null' EXIT # Ctrl-C stops the builds in flight too
build_program() { # NAME SOURCE: one nvcc build; its status goes to a file (it runs in the background)
  local extra=()
  read -r -a extra <<<"$(sed -n 's|^// nvcc-flags: *||p' "$2" | head -n 1)"
  nvcc "${nvcc_flags[@]}" "${extra[@]}" -o "$dir/bin/$1" "$2" >"$logs/program.$1.log" 2>&1
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

# ---- 4. The ci preset's cuda tests -------------------------------------------------------------
start=$(date +%s)
if cmake --preset ci -B "$dir/ci" >"$logs/ci.configure.log" 2>&1 &&
  cmake --build "$dir/ci" >"$logs/ci.build.log" 2>&1 &&
  ctest --test-dir "$dir/ci" -L cuda --output-on-failure >"$logs/ci.cuda.log" 2>&1; then
  summary=$(grep -E 'tests passed' "$logs/ci.cuda.log" | tail -n 1)
  grep -q -E 'Skipped|Not Run' "$logs/ci.cuda.log" && fail "ci cuda tests: some were skipped on a GPU (log: $logs/ci.cuda.log)"
  row "ci preset, label cuda" "pass: $summary" "$(elapsed "$start")" ""
  echo "ci cuda tests: $summary"
else
  row "ci preset, label cuda" "FAIL" "$(elapsed "$start")" "$logs/ci.cuda.log"
  fail "ci cuda tests (logs: $logs/ci.*.log)"
fi

# ---- 5. Every lesson's solution at its default (timing) size -----------------------------------
for program in "$dir"/lessons/bin/*.solution.cuda; do
  [ -e "$program" ] || continue
  name=${program##*/}
  start=$(date +%s%N)
  timeout 600 "$program" >"$logs/run.$name.log" 2>&1
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

# ---- 6. The program corpus on the GPU ----------------------------------------------------------
for name in "${programs[@]}"; do
  start=$(date +%s%N)
  timeout 300 "$dir/bin/$name" >"$logs/run.program.$name.log" 2>&1
  status=$?
  seconds=$(awk -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "%.2f", ns / 1e9 }')
  if [ $status -eq 0 ] && grep -q PASS "$logs/run.program.$name.log" && ! grep -q FAIL "$logs/run.program.$name.log"; then
    row "program $name" pass "$seconds" ""
  else
    row "program $name" "FAIL (exit $status)" "$seconds" "$(tail -n 1 "$logs/run.program.$name.log")"
    fail "program $name on the GPU (log: $logs/run.program.$name.log)"
  fi
done

echo "results: $results"
finish
