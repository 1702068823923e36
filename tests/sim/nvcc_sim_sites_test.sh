#!/usr/bin/env bash
# Sites named by the .cu file in programs nvcc-sim builds: usage: nvcc_sim_sites_test.sh NVCC_SIM
# WORK_DIR (CUSIM_BUILD_DIR names the CMake build whose simulator nvcc-sim uses).
# A leak from the C function cudaMalloc((void **)&p, n), called from the program's own code (not
# the inlined template), was named by nvcc-sim's rewritten file ("1-leaky.cu.cpp:5", a file it
# removes): addr2line names DWARF 5's file 0 there. It must say leaky.cu:5, as the template's
# call says leaky.cu:6.
set -uo pipefail
nvcc_sim=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
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
"$nvcc_sim" -o leaky leaky.cu || { echo "FAIL: nvcc-sim could not build leaky.cu"; exit 1; }
out=$(./leaky 2>&1)
echo "$out"
if grep -q 'from cudaMalloc at leaky\.cu:5 (64 bytes); 1 from cudaMalloc at leaky\.cu:6 (32 bytes)' <<<"$out"; then
  echo "PASS nvcc_sim_sites"
else
  echo "FAIL: the leak report does not name leaky.cu:5 and leaky.cu:6"
  exit 1
fi
