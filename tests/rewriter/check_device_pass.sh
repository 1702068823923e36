#!/usr/bin/env bash
# cusim-rewrite --device-pass (rewriter/arch_passes.c): device_pass/device_pass.cu preprocessed as
# nvcc's host pass and as its device pass (__CUDA_ARCH__ 900), spliced. Each marker comment of
# the file must be in the output at its own line (the linemarkers still name it) or not at all,
# and the notes must be device_pass/device_pass.notes exactly. An empty device pass changes
# nothing.
set -euo pipefail
rewriter=$1 cxx=$2 cases=$3 work=$4
mkdir -p "$work"
cd "$cases"
fail() {
  echo "FAIL: $*"
  exit 1
}
# -C keeps the marker comments in the preprocessed text.
"$cxx" -x c++ -std=c++17 -E -C device_pass.cu -o "$work/host.ii"
"$cxx" -x c++ -std=c++17 -E -C -D__CUDA_ARCH__=900 device_pass.cu -o "$work/device.ii"
"$rewriter" --device-pass="$work/device.ii" "$work/host.ii" "$work/out.cpp" 2>"$work/notes"
diff -u device_pass.notes "$work/notes" || fail "the notes differ from device_pass.notes (above)"

# Where the output's linemarkers put WORD: FILE:LINE.
placed() {
  awk -v word="$1" '
    /^#(line)? *[0-9]+ "/ { sub(/^#(line)? */, ""); line = $1; file = $2; gsub(/"/, "", file); next }
    { if (index($0, word)) { print file ":" line; exit } line++ }' "$work/out.cpp"
}
kept=(header_device_branch kernel_device_branch device_function_device_branch
  gated_function_device_only gated_helper_device_only twin_device_pass table_device_branch
  host_function_host_branch both_host_branch real_t_host_branch device_member_device_branch
  shared_member_host_branch)
dropped=(header_host_branch kernel_host_branch device_function_host_branch twin_host_pass
  table_host_branch host_function_device_branch both_device_branch real_t_device_branch
  device_member_host_branch shared_member_device_branch "__constant__ int")
for word in "${kept[@]}"; do
  source=$(grep -n -F "$word" device_pass.cu device_pass_header.cuh | head -n 1 | cut -d: -f1,2)
  [[ -n "$source" ]] || fail "no $word in the case files"
  got=$(placed "$word")
  [[ "$got" == "$source" ]] || fail "$word: at ${got:-nowhere} in the output, $source expected"
done
for word in "${dropped[@]}"; do
  ! grep -q -F "$word" "$work/out.cpp" || fail "$word is in the output; nvcc would not run it there"
done

: >"$work/empty.ii"
"$rewriter" --device-pass="$work/empty.ii" "$work/host.ii" "$work/one-pass.cpp"
"$rewriter" "$work/host.ii" "$work/plain.cpp"
cmp -s "$work/one-pass.cpp" "$work/plain.cpp" || fail "an empty device pass changed the output"
echo "PASS: kernels and __device__-only code from the device pass, the rest from the host pass," \
  "${#kept[@]} places kept at their lines, ${#dropped[@]} left out, the notes as expected"
