#!/usr/bin/env bash
# unit.workbook.profile: `workbook profile 04 --solution` builds lesson 04 for the simulator, runs
# it with the profiler on, and prints a summary per kernel: sectors per request against the ideal,
# occupancy, registers (from nvcc when it is installed, else marked assumed), and the source lines,
# all within 80 columns. Bad input gets one line and exit 2.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tree=$SCRATCH/tree
copy_source_tree "$tree"
out=$SCRATCH/out.txt
export WORKBOOK_CMAKE_ARGS="$WORKBOOK_CMAKE_ARGS -DWB_LESSONS=04;09"

wb "$tree" "$out" profile 04 --solution
check "profile 04 --solution: exit 0" status_is $? 0
check "the program ran and passed" grep -q '^PASS' "$out"
for kernel in double_kernel double_grid_stride_kernel; do
  check "a summary of $kernel" grep -q "^kernel '$kernel' (launched at solution.cu:[0-9]*)" "$out"
done
# Doubles, 32 lanes, 256 bytes a request: 8 sectors, the ideal, for every load and store.
check "global loads at the ideal" grep -q -E '^  global loads +[0-9]+ requests, +8\.0 sectors/request, ideal 8\.0 \(100%\)' "$out"
check "global stores at the ideal" grep -q -E '^  global stores +[0-9]+ requests, +8\.0 sectors/request, ideal 8\.0 \(100%\)' "$out"
check "the grid-stride loop's line" grep -q -E '^    loads: 8\.0 sectors/request, ideal 8\.0: coalesced, at solution\.cu:[0-9]+$' "$out"
check "full lanes" grep -q -E '^  active lanes: 32\.0 of 32 per request \(100%\)' "$out"
# Each if and loop test, once per warp: n is a multiple of 32 and the grid-stride loop's trips
# are the same in every lane of a warp, so no branch diverges.
check "branches, none divergent" grep -q -E '^  branches: [0-9]+, 0 divergent; branch efficiency 100%$' "$out"
check "occupancy" grep -q -E '^  occupancy: [0-9]+% \([0-9]+ warps of 64 per SM; limited by ' "$out"
if command -v nvcc >/dev/null 2>&1; then
  check "registers from nvcc" grep -q -E '^  registers: [0-9]+ per thread \(from nvcc --resource-usage, sm_90\)' "$out"
else
  check "registers marked assumed" grep -q -E '^  registers: 32 per thread, assumed' "$out"
fi
# shellcheck disable=SC2016 # $1 is the inner shell's
check "every line from the run on within 80 columns" bash -c '! sed -n "/^Profiling the/,\$p" "$1" | awk "length > 80" | grep -q .' _ "$out"

wb "$tree" "$out" profile 04 -- --n 1000 --repeat 1
check "profile of the shipped exercise runs it (it fails its check: exit 1)" status_is $? 1
check "and still prints the report" grep -q "^cusim profile: counts as an NVIDIA H100" "$out"

wb "$tree" "$out" profile 09
check "a CPU lesson: exit 2" status_is $? 2
check "a CPU lesson: one clear line" grep -q "lesson 09 is about the CPU: it has no kernels to profile" "$out"
wb "$tree" "$out" profile 04 --frobnicate
check "an unknown option: exit 2" status_is $? 2
wb "$tree" "$out" profile --help
check "help: exit 0" status_is $? 0
check "help names the command" grep -q "Usage: .*profile NN" "$out"
finish
