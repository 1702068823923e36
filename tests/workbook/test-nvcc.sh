#!/usr/bin/env bash
# unit.workbook.nvcc: nvcc in the learner's loop. With the CUDA toolkit, `./workbook check 01`
# fails for two mistakes nvcc rejects and the simulator may accept (a host function calling the
# __device__ square(); a __global__ kernel returning float), showing nvcc's message at the
# exercise's line; a solved exercise passes, and a plain `ctest` in the folder the workbook made
# passes too (nothing unbuilt is run). Without the toolkit (nvcc hidden, WB_CUDA=OFF) the
# simulator itself rejects both mistakes, naming nvcc's rule at the learner's line.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tree=$SCRATCH/tree
copy_source_tree "$tree"
out=$SCRATCH/out.txt
lesson=$(lesson_folder "$tree" 01) || exit 1
exercise=$tree/lessons/$lesson/exercise.cu
shipped=$SOURCE_ROOT/lessons/$lesson/exercise.cu

# The two mistakes, made on the shipped exercise; the line each one is on.
launch_line=$(grep -n 'squares_kernel<<<' "$shipped" | head -n 1 | cut -d: -f1)
kernel_line=$(grep -n '^__global__ void squares_kernel' "$shipped" | head -n 1 | cut -d: -f1)
host_calls_device() { sed "${launch_line}a\\  d_out[0] = square(2.0f);" "$shipped" >"$exercise"; }
kernel_returns_float() { sed "${kernel_line}s/__global__ void/__global__ float/" "$shipped" >"$exercise"; }

# The copies keep the rest of their configure arguments (CI: -DWB_CCACHE=ON, so the simulator's
# objects come from unit.workbook.prime's cache instead of being compiled twice more, about
# 150 s of CPU); only the CUDA backend is switched on here and off below.
other_args=" $WORKBOOK_CMAKE_ARGS "
other_args=${other_args// -DWB_CUDA=OFF / }
if command -v nvcc >/dev/null; then
  export WORKBOOK_CMAKE_ARGS="${other_args# }-DWB_LESSONS=01"
  host_calls_device
  wb "$tree" "$out" check 01
  check "nvcc: host calling a __device__ function fails the check" status_is $? 1
  check "nvcc: ... with nvcc's message" contains "$out" 'calling a __device__ function("square(float)") from a __host__ function'
  check "nvcc: ... at the exercise's line" contains "$out" "exercise.cu:$((launch_line + 1)): error:"
  check "nvcc: ... says it is nvcc" contains "$out" "does not compile with nvcc"
  kernel_returns_float
  wb "$tree" "$out" check 01
  check "nvcc: a __global__ float kernel fails the check" status_is $? 1
  check "nvcc: ... with nvcc's message at its line" \
    contains "$out" "exercise.cu:$kernel_line: error: a __global__ function must have a void return type"
  wb "$tree" "$out" run 01 -- --n 10 --repeat 1
  check "nvcc: run refuses it too" status_is $? 1
  check "nvcc: ... with nvcc's message" contains "$out" "must have a void return type"
  cp "$SOURCE_ROOT/solutions/$lesson/solution.cu" "$exercise"
  wb "$tree" "$out" check 01
  check "nvcc: the solution passes the check, nvcc included" status_is $? 0
  (cd "$tree/build" && timeout 600 ctest --output-on-failure) >"$out" 2>&1
  check "plain ctest in the workbook's build folder passes (step 3 of the README)" status_is $? 0
  check "plain ctest ran nvcc's check" grep -q -E "$lesson\\.exercise\\.nvcc .*Passed" "$out"
  (cd "$tree/build" && timeout 600 cmake --build . -j 2) >"$out" 2>&1
  check "the README's cmake --build builds" status_is $? 0
  check "... no solution (only what the learner's ctest runs)" \
    bash -c '! ls "$1"/bin/*.solution.* >/dev/null 2>&1' _ "$tree/build"
  sed 's/^/    | /' "$out"
else
  echo "skip - nvcc is not on PATH: the checks with the toolkit did not run"
fi

# Without the toolkit: hide nvcc and turn the CUDA backend off; the check runs on the simulator.
path_without_nvcc=$(tr ':' '\n' <<<"$PATH" | while read -r dir; do [ -x "$dir/nvcc" ] || printf '%s:' "$dir"; done)
export PATH=${path_without_nvcc%:}
export WORKBOOK_BUILD_DIR=$tree/build-nocuda
export WORKBOOK_CMAKE_ARGS="${other_args# }-DWB_CUDA=OFF -DWB_LESSONS=01"
check "no toolkit: nvcc is hidden" bash -c '! command -v nvcc'
# Here the mistakes are made on the SOLUTION, so only the mistake can fail the check: the
# simulator itself rejects each one, naming nvcc's rule at the learner's line.
shipped=$SOURCE_ROOT/solutions/$lesson/solution.cu
launch_line=$(grep -n 'squares_kernel<<<' "$shipped" | head -n 1 | cut -d: -f1)
kernel_line=$(grep -n '^__global__ void squares_kernel' "$shipped" | head -n 1 | cut -d: -f1)
for mistake in host_calls_device kernel_returns_float; do
  $mistake
  wb "$tree" "$out" check 01
  check "no toolkit ($mistake): the simulator fails the check" status_is $? 1
  check "no toolkit ($mistake): no nvcc step" lacks "$out" "does not compile with nvcc"
  check "no toolkit ($mistake): names nvcc's rule" contains "$out" "(nvcc rejects this too)"
done
host_calls_device
wb "$tree" "$out" check 01
check "no toolkit: ... a __device__ function called from host code, at its line" \
  grep -q -E "exercise.cu:$((launch_line + 1)):[0-9]+: error: .*__device__" "$out"
cp "$shipped" "$exercise"
wb "$tree" "$out" check 01
check "no toolkit: the solution itself passes" status_is $? 0
finish
