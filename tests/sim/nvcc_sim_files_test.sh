#!/usr/bin/env bash
# Programs of several files, built by nvcc-sim: usage: nvcc_sim_files_test.sh NVCC_SIM WORK_DIR
# (CUSIM_BUILD_DIR names the CMake build whose simulator nvcc-sim uses).
# 1. A leak from the C function cudaMalloc((void **)&p, n), called from the program's own code (not
#    the inlined template), was named by nvcc-sim's rewritten file ("1-leaky.cu.cpp:5", a file it
#    removes): addr2line names DWARF 5's file 0 there. It must say leaky.cu:5, as the template's
#    call says leaky.cu:6.
# 2. Two files whose template kernels with __launch_bounds__ stand at the same token (the same
#    text up to their names): each file's registration is its own (an unnamed namespace), so both
#    kernels keep their bounds; without it, one bound was lost.
set -uo pipefail
nvcc_sim=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

cat >leaky.cu <<'CU'
#include <cstdio>
int main() {
  float *f;
  double *d;
  cudaMalloc((void **)&f, 64);
  cudaMalloc(&d, 32);
  printf("allocated\n");
  return 0;
}
CU
if "$nvcc_sim" -o leaky leaky.cu; then
  out=$(./leaky 2>&1)
  echo "$out"
  grep -q 'from cudaMalloc at leaky\.cu:5 (64 bytes); 1 from cudaMalloc at leaky\.cu:6 (32 bytes)' <<<"$out" ||
    fail "the leak report does not name leaky.cu:5 and leaky.cu:6"
else
  fail "nvcc-sim could not build leaky.cu"
fi

cat >first.cu <<'CU'
#include <cstdio>
template <int N> __global__ void __launch_bounds__(N * 1) first_kernel(int *x) { x[threadIdx.x] = N; }
bool second_ok(int *x);
int main() {
  int *x;
  cudaMalloc(&x, 4096);
  first_kernel<64><<<1, 65>>>(x);
  cudaError_t over = cudaGetLastError();
  first_kernel<64><<<1, 64>>>(x);
  cudaError_t within = cudaGetLastError();
  bool ok = over == cudaErrorInvalidValue && within == cudaSuccess && second_ok(x);
  cudaFree(x);
  printf("%s\n", ok ? "both bounds kept" : "a bound was lost");
  return 0;
}
CU
cat >second.cu <<'CU'
#include <cstdio>
template <int N> __global__ void __launch_bounds__(N * 2) second_kernel(int *x) { x[threadIdx.x] = N; }
bool second_ok(int *x) {
  second_kernel<64><<<1, 129>>>(x);
  cudaError_t over = cudaGetLastError();
  second_kernel<64><<<1, 128>>>(x);
  cudaError_t within = cudaGetLastError();
  return over == cudaErrorInvalidValue && within == cudaSuccess;
}
CU
if "$nvcc_sim" -std=c++17 -o two first.cu second.cu; then
  out=$(./two 2>&1)
  echo "$out"
  grep -q '^both bounds kept$' <<<"$out" || fail "a template kernel's bound was lost across two files"
else
  fail "nvcc-sim could not build first.cu and second.cu"
fi
[[ $failures -eq 0 ]] && echo "PASS nvcc_sim_files"
exit $((failures > 0))
