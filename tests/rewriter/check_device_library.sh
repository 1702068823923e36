#!/usr/bin/env bash
# check_device_library.sh REWRITER CXX INCLUDE_DIR CALLS WORK [NVCC]
# CUSIM's rule "host code calls the __device__ function" for CUDA's own device library (rules.c,
# device_only_functions): the simulator's headers define atomicAdd, __shfl_sync, curand_uniform
# and the rest as plain functions, so without the rule a host function calling one built on the
# simulator and failed under nvcc. For each call of CALLS (one a line):
#   - in a host function, the rewriter reports it, naming the function, at its line;
#   - in a kernel, in a __host__ __device__ function and in a __device__ lambda inside a host
#     function, it reports nothing, and the output compiles as the build compiles it;
#   - a host function of the program's own with one of those names (an overload), a member call
#     and a call qualified by another namespace are not reported (never a false alarm);
#   - with NVCC: nvcc rejects each host call with "calling a __device__ function" (the list is
#     nvcc's, not a guess), and accepts the kernel.
# And every function of rules.c's list is among CALLS, so that nvcc checks each.
set -euo pipefail
rewriter=$1 cxx=$2 include=$3 calls=$4 work=$5 nvcc=${6:-}
rules=$(dirname "$0")/../../shared/sim/rewriter/rules.c
rm -rf "$work"
mkdir -p "$work"
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
mapfile -t lines < <(grep -v -E '^(#|$)' "$calls")
header='#include <curand_kernel.h>'
params='int *ip, unsigned *up, float *fp, curandStatePhilox4_32_10_t ps, curandStateXORWOW_t xs'
rewrite() { # NAME: preprocessed as cusim.cmake's step does it, then rewritten (its errors kept)
  "$cxx" -x c++ -std=gnu++17 -E -DCUSIM_PREPROCESS -isystem "$include" -include cusim_prelude.h \
    "$work/$1.cu" -o "$work/$1.ii"
  "$rewriter" "$work/$1.ii" "$work/$1.cpp" 2>"$work/$1.errors"
}

# The lists: every CUDA name in rules.c's device_only_functions, device_macros and
# device_macro_name (the simulator's own names, such as shfl or warp_op, left out) is in CALLS.
listed=$(sed -n '/^static const char \*const device_only_functions\[\] = {/,/^static int is_scope_boundary/p' "$rules" |
  grep -o '"[^"]*"' | tr -d '"' | grep -E '^(__|atomic|curand|clock64)' | sort -u)
called=$(printf '%s\n' "${lines[@]}" | sed 's/(.*//' | sort -u)
[ -n "$listed" ] || fail "no device_only_functions list in $rules"
missing=$(comm -23 <(echo "$listed") <(echo "$called") | tr "\n" " ")
[ -z "$missing" ] || fail "rules.c lists functions CALLS does not call (so nvcc never checks them): $missing"

# Host calls, in files of 16 (the rewriter stops at 20 errors): each reported at its line.
for ((start = 0; start < ${#lines[@]}; start += 16)); do
  name=host_$start
  {
    echo "$header"
    for ((k = start; k < start + 16 && k < ${#lines[@]}; k++)); do
      echo "void host_$k($params) { (void)(${lines[k]}); }"
    done
  } >"$work/$name.cu"
  if rewrite $name; then fail "$name.cu: the rewriter accepted host calls of device functions"; fi
  for ((k = start; k < start + 16 && k < ${#lines[@]}; k++)); do
    function=${lines[k]%%(*}
    grep -q -E "^$work/$name.cu:$((k - start + 2)):[0-9]+: error: host code calls the __device__ function '$function'; only device code can call it \(nvcc rejects this too\)$" \
      "$work/$name.errors" || fail "a host call of $function was not reported at its line"
  done
done

# Device calls: none reported, and the output compiles.
{
  echo "$header"
  echo "__global__ void kernel($params) {"
  for line in "${lines[@]}"; do echo "  (void)($line);"; done
  echo "}"
  echo "__host__ __device__ void both(int *ip) {"
  echo "#ifdef __CUDA_ARCH__"
  echo "  atomicAdd(ip, 1);"
  echo "#endif"
  echo "}"
  echo "void launch(int *ip) {"
  echo "  auto add = [] __device__(int *p) { atomicAdd(p, 1); __syncwarp(); };"
  echo "  (void)add;"
  echo "  (void)ip;"
  echo "}"
} >"$work/device.cu"
rewrite device || fail "device code calling the device library was refused: $(head -n 3 "$work/device.errors")"
"$cxx" -x c++ -std=gnu++17 -fsyntax-only -D__global__= -D__device__= -D__host__= -isystem "$include" \
  "$work/device.cpp" 2>"$work/device.compile" ||
  fail "device.cu's rewritten output does not compile: $(head -n 3 "$work/device.compile")"

# Never a false alarm: the program's own host functions of those names, members, other namespaces.
cat >"$work/namesakes.cu" <<'EOF'
#include <atomic>
int atomicAdd(std::atomic<int> *counter, int value) { return counter->fetch_add(value); }
namespace mine {
inline unsigned __popc(unsigned x) { return x ? 1u + __popc(x & (x - 1)) : 0u; }
}
struct Generator {
  float curand_uniform() { return 0.5f; }
};
int main() {
  std::atomic<int> counter{0};
  atomicAdd(&counter, 1);
  Generator generator;
  float u = generator.curand_uniform();
  return (int)mine::__popc(3u) + (int)u + counter.load();
}
EOF
rewrite namesakes || fail "a host program's own namesakes were reported: $(head -n 3 "$work/namesakes.errors")"

# nvcc: the same host calls rejected, each one; the kernel accepted.
if [ -n "$nvcc" ]; then
  {
    echo "$header"
    for ((k = 0; k < ${#lines[@]}; k++)); do echo "void host_$k($params) { (void)(${lines[k]}); }"; done
  } >"$work/nvcc_host.cu"
  if "$nvcc" -arch=sm_90 -cuda "$work/nvcc_host.cu" -o "$work/nvcc_host.ii" >"$work/nvcc_host.log" 2>&1; then
    fail "nvcc accepted the host calls"
  fi
  for ((k = 0; k < ${#lines[@]}; k++)); do
    grep -q -F "nvcc_host.cu($((k + 2))): error: calling a __device__ function" "$work/nvcc_host.log" ||
      fail "nvcc did not reject the host call of ${lines[k]%%(*} (the list must hold only nvcc's device functions)"
  done
  "$nvcc" -arch=sm_90 --extended-lambda -cuda "$work/device.cu" -o "$work/nvcc_device.ii" >"$work/nvcc_device.log" 2>&1 ||
    fail "nvcc rejected the device calls: $(grep error "$work/nvcc_device.log" | head -n 3)"
  "$nvcc" -arch=sm_90 -cuda "$work/namesakes.cu" -o "$work/nvcc_namesakes.ii" >"$work/nvcc_namesakes.log" 2>&1 ||
    fail "nvcc rejected the namesakes: $(grep error "$work/nvcc_namesakes.log" | head -n 3)"
else
  echo "note: no nvcc; the list is checked against nvcc where the toolkit is installed (CI)"
fi
[ $failures -eq 0 ] || exit 1
echo "the device library's ${#lines[@]} functions: host calls reported as nvcc reports them, no false alarm"
