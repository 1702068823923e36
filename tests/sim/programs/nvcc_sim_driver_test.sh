#!/usr/bin/env bash
# Checks shared/sim/bin/nvcc-sim end to end: usage: nvcc_sim_driver_test.sh NVCC_SIM PROGRAMS_DIR WORK_DIR
# Builds programs with nvcc command lines, runs them, and checks the driver's errors.
set -uo pipefail

nvcc_sim=$1
programs=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
# Standalone use: no CMake build to borrow, the simulator is built into this cache.
unset CUSIM_BUILD_DIR
# ccache (CUSIM_COMPILER_LAUNCHER, where the build uses it) keeps its cache under XDG_CACHE_HOME
# unless told otherwise: it keeps the one it used before this test changes that.
if [[ -n "${CUSIM_COMPILER_LAUNCHER:-}" && -z "${CCACHE_DIR:-}" ]] && command -v ccache >/dev/null; then
  CCACHE_DIR=$(ccache -k cache_dir 2>/dev/null) && export CCACHE_DIR
fi
export XDG_CACHE_HOME="$work/cache"

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

expect_pass() { # name, then the command
  local name=$1
  shift
  local output
  if ! output=$("$@" 2>&1); then
    fail "$name: exit status $?: $output"
  elif ! grep -q '^PASS' <<<"$output"; then
    fail "$name: no PASS line: $output"
  else
    echo "ok: $name"
  fi
}

expect_error() { # name, pattern, then the command
  local name=$1 pattern=$2
  shift 2
  local output status
  output=$("$@" 2>&1)
  status=$?
  if [[ $status -eq 0 ]]; then
    fail "$name: succeeded, expected an error"
  elif ! grep -Eq -- "$pattern" <<<"$output"; then
    fail "$name: error did not match '$pattern': $output"
  else
    echo "ok: $name"
  fi
}

cd "$work" || exit 1

expect_error "CUSIM_COMPILER_LAUNCHER that is not a command: one line, before any build" \
  "^nvcc-sim: error: CUSIM_COMPILER_LAUNCHER: 'no-such-launcher' is not a command$" \
  env XDG_CACHE_HOME="$work/launcher-cache" CUSIM_COMPILER_LAUNCHER=no-such-launcher \
  "$nvcc_sim" -o never "$programs/vector_add.cu"
[[ ! -e "$work/launcher-cache/cusim" ]] || fail "a refused CUSIM_COMPILER_LAUNCHER left a build folder"
expect_pass "vector_add built like nvcc" \
  bash -c "'$nvcc_sim' -arch=sm_75 -O3 -lineinfo -Xcompiler -Wall -o vector_add '$programs/vector_add.cu' && ./vector_add"
expect_pass "-lto, nvcc's alias of -dlto, is ignored with a note, not taken for a library named 'to'" \
  bash -c "out=\$('$nvcc_sim' -arch=sm_90 -lto -o vector_add_lto '$programs/vector_add.cu' 2>&1) && grep -q 'ignored, they concern only GPU code: -lto$' <<<\"\$out\" && ./vector_add_lto"
expect_pass "monte_carlo_pi with -lcurand and -gencode (SASS for sm_75 and its PTX, which a 9.0 GPU compiles)" \
  bash -c "'$nvcc_sim' -gencode arch=compute_75,code=[sm_75,compute_75] -std=c++17 -lcurand '$programs/monte_carlo_pi.cu' -o pi && ./pi"
expect_pass "curand_host_pi: cuRAND's host API with -lcurand" \
  bash -c "'$nvcc_sim' -arch=sm_90 -lcurand -o curand_host_pi '$programs/curand_host_pi.cu' && ./curand_host_pi"
expect_pass "nvrtc_cublas: NVRTC, the driver API and cuBLAS with -lnvrtc -lcuda -lcublas" \
  bash -c "'$nvcc_sim' -arch=sm_90 -lnvrtc -lcuda -lcublas -o nvrtc_cublas '$programs/nvrtc_cublas.cu' && ./nvrtc_cublas"
expect_pass "separate compilation with -c, then link" \
  bash -c "'$nvcc_sim' -c -o hello.o '$programs/hello_blocks.cu' && '$nvcc_sim' hello.o -o hello && ./hello"
# HeCBench-style Makefiles say `CC = nvcc`; `make CC=nvcc-sim` exports CC to nvcc-sim itself,
# which must not take itself for the host compiler (it would refuse -std=c11, or call itself).
expect_pass "CC and CXX naming nvcc-sim (make CC=nvcc-sim) are not host compilers" \
  bash -c "CC='$nvcc_sim' CXX='$nvcc_sim' '$nvcc_sim' -o hello_cc '$programs/hello_blocks.cu' && ./hello_cc"
mkdir -p "$work/run-tmp"
expect_pass "-run, leaving nothing in TMPDIR" \
  bash -c "TMPDIR='$work/run-tmp' '$nvcc_sim' -run -o stencil '$programs/stencil_1d.cu' && [ -z \"\$(ls -A '$work/run-tmp')\" ]"

# __CUDA_ARCH__ in the program's own files: nvcc's device pass is preprocessed too and kernels take
# their code from it (arch_branches.cu); where the simulator cannot (kernel_arguments.cu tests it
# in two __host__ __device__ members) one note names each; a program without it, none.
output=$("$nvcc_sim" -o kernel_arguments "$programs/kernel_arguments.cu" 2>&1 && ./kernel_arguments 2>&1)
arch=$("$nvcc_sim" -arch=sm_90 -o arch_branches "$programs/arch_branches.cu" 2>&1 && ./arch_branches 2>&1)
quiet=$("$nvcc_sim" -o vector_add_again "$programs/vector_add.cu" 2>&1)
if grep -q '^PASS' <<<"$output" &&
  grep -Eq "kernel_arguments.cu:15: note: the __host__ __device__ function 'Tally' differs in nvcc's device pass \(__CUDA_ARCH__ defined\): the simulator keeps the host pass's, in kernels too" <<<"$output" &&
  grep -q "kernel_arguments.cu:20: note: the __host__ __device__ function 'Tally'" <<<"$output" &&
  grep -q '^PASS arch_branches (__CUDA_ARCH__ 900 in device code' <<<"$arch" &&
  ! grep -q note <<<"$arch" && ! grep -q __CUDA_ARCH__ <<<"$quiet"; then
  echo "ok: kernels see __CUDA_ARCH__ 900, a note where the simulator cannot, none elsewhere"
else
  fail "__CUDA_ARCH__ note: $output / $quiet"
fi
# __CUDA_ARCH__ is the variant a 9.0 GPU would run (arch_branches.cu computes what it expects from
# __CUDA_ARCH_LIST__ and the device): 750 for nvcc 13's default (sm_75: PTX the driver compiles),
# 800 for SASS for sm_90 made from compute_80.
expect_pass "__CUDA_ARCH__ 750 without -arch (nvcc 13's default, sm_75)" \
  bash -c "'$nvcc_sim' -o arch_default '$programs/arch_branches.cu' && ./arch_default | grep 'ARCH__ 750 in device'"
expect_pass "__CUDA_ARCH__ 800 for -gencode arch=compute_80,code=sm_90" \
  bash -c "'$nvcc_sim' -gencode arch=compute_80,code=sm_90 -o arch_80 '$programs/arch_branches.cu' && ./arch_80 | grep 'ARCH__ 800 in device'"
expect_error "-arch=sm_35: refused, as nvcc 13 refuses it" \
  "^nvcc-sim: error: unsupported gpu architecture 'sm_35': CUDA 13 removed every architecture before sm_75" \
  "$nvcc_sim" -arch=sm_35 -o never "$programs/vector_add.cu"
expect_error "only sm_80 SASS: nothing a 9.0 GPU runs" \
  "^nvcc-sim: error: no code here that a GPU of compute capability 9.0 .*cudaErrorNoKernelImageForDevice" \
  "$nvcc_sim" -gencode arch=compute_80,code=sm_80 -o never "$programs/vector_add.cu"

# A Makefile's separate compilation (issue 27, item 3): -rdc=true -dc of two .cu files (a kernel
# calls a __device__ function of the other), -dlink, a .c file in the host compiler's default
# dialect (M_PI, timersub: hidden by -std=c11), -include, -Xcompiler lists, and GPU-only flags
# that are ignored with one note. nvcc accepts the same command lines (checked when installed).
multi=$programs/multi_file
multi_build() { # COMPILER: the five steps, then the program for nvcc-sim
  "$1" -rdc=true -dc -arch=sm_90 -include "$multi/config.h" -Xcompiler -O2,-Wall -Xptxas -v \
    -maxrregcount 32 -lineinfo --use_fast_math -o kernels.o "$multi/kernels.cu" &&
    "$1" -rdc=true -dc -G -arch=sm_90 -o scale.o "$multi/scale.cu" &&
    "$1" -dlink -arch=sm_90 kernels.o scale.o -o dlink.o &&
    "$1" -include "$multi/config.h" -Xcompiler -Wall,-Werror -c -o main.o "$multi/main.c" &&
    "$1" -arch=sm_90 kernels.o scale.o dlink.o main.o -o multi_file
}
if output=$(multi_build "$nvcc_sim" 2>&1 && ./multi_file 2>&1); then
  if grep -q '^PASS multi_file' <<<"$output" &&
    grep -q 'note: ignored, they concern only GPU code: -rdc=true -Xptxas -v -maxrregcount 32 -lineinfo --use_fast_math$' <<<"$output" &&
    grep -q 'note: -dlink: nothing to link' <<<"$output"; then
    echo "ok: separate compilation, -dlink, -include, C in the default dialect"
  else
    fail "multi_file: not the expected output or notes: $output"
  fi
else
  fail "multi_file: exit status $?: $output"
fi
if command -v nvcc >/dev/null 2>&1; then
  mkdir -p with_nvcc
  if output=$(cd with_nvcc && multi_build nvcc 2>&1); then
    echo "ok: nvcc accepts the same command lines"
  else
    fail "multi_file: nvcc refuses the command lines: $output"
  fi
fi
# --toolkit DIR: a stand-in toolkit for Makefiles; a program whose objects come from DIR/bin/nvcc and
# that is linked by the C compiler with -lcudart (as Rodinia's backprop does) runs.
if output=$("$nvcc_sim" --toolkit toolkit 2>&1 &&
  toolkit/bin/nvcc -c -o tk_hello.o "$programs/hello_blocks.cu" 2>&1 &&
  cc tk_hello.o -Ltoolkit/lib64 -lcudart -o tk_hello 2>&1 && ./tk_hello 2>&1) &&
  [ -d toolkit/include ] && ! ls toolkit/include/* >/dev/null 2>&1; then
  echo "ok: --toolkit: make CUDA_DIR=DIR builds, and gcc links nvcc's objects with -lcudart"
else
  fail "--toolkit: $output"
fi
if output=$("$nvcc_sim" -cuda "$programs/vector_add.cu" 2>&1) &&
  grep -q 'note: -cuda: the simulator has no separate host pass' <<<"$output"; then
  echo "ok: -cuda (a Makefile's host-pass step) is a note, not a refusal"
else
  fail "-cuda: $output"
fi
expect_error "-ptx is refused with its reason" "nvcc-sim: error: -ptx asks for GPU code" \
  "$nvcc_sim" -ptx -o x.ptx "$programs/vector_add.cu"

# --profile: the program prints the profiler's report when it exits, with the source lines; the
# registers come from nvcc when it is installed, else the report says they are assumed.
if output=$("$nvcc_sim" --profile -o matmul_profiled "$programs/matmul_tiled.cu" 2>&1 &&
  ./matmul_profiled 2>&1); then
  regs='registers: [0-9]+ per thread, assumed'
  command -v nvcc >/dev/null 2>&1 && regs='registers: [0-9]+ per thread \(from nvcc'
  if grep -q '^PASS' <<<"$output" && grep -q "^kernel 'matmul'" <<<"$output" &&
    grep -Eq "$regs" <<<"$output" &&
    grep -Eq 'global loads +[0-9]+ requests, +[0-9.]+ sectors/request' <<<"$output" &&
    grep -Eq 'at matmul_tiled.cu:[0-9]+' <<<"$output"; then
    echo "ok: --profile"
  else
    fail "--profile: no report, or not the expected one: $output"
  fi
else
  fail "--profile: exit status $?: $output"
fi
# A float4 load is one request of 16 bytes a lane under --profile too (its flags keep gcc from
# splitting it): 16 sectors a request, the ideal.
if output=$(CUSIM_PROFILE_PICTURE=0 bash -c "'$nvcc_sim' --profile -o vector_profiled \
  '$programs/vector_loads.cu' && ./vector_profiled" 2>&1); then
  if grep -q '^PASS' <<<"$output" &&
    grep -Eq 'global loads +8 requests, +16.0 sectors/request, ideal 16.0' <<<"$output" &&
    ! grep -q 'uncoalesced' <<<"$output"; then
    echo "ok: --profile counts a float4 load as one request"
  else
    fail "--profile: a float4 load is not one request of 16 sectors: $output"
  fi
else
  fail "--profile vector_loads: exit status $?: $output"
fi

expect_error "a library the simulator lacks" "nvcc-sim: error: .*cuFFT" \
  "$nvcc_sim" -lcufft -o x "$programs/vector_add.cu"
expect_error "an unknown option" "nvcc-sim: error: unknown option" "$nvcc_sim" --frobnicate x.cu
expect_error "a missing input" "nvcc-sim: error: no such file" "$nvcc_sim" -o x missing.cu

# nvcc-sim builds kernels with the memory checker, as the CMake build does: the warp-synchronous
# reduction written before Volta (no __syncwarp()) is refused with its line, never a wrong sum.
expect_error "warp-synchronous code without __syncwarp() is refused" \
  "warp_synchronous.cu:10: .*needs __syncwarp\\(\\) between each step" \
  bash -c "'$nvcc_sim' -o warp_synchronous '$programs/../warp_synchronous.cu' &&
    ./warp_synchronous legacy"
expect_pass "the same with __syncwarp() between the steps" \
  bash -c "'$nvcc_sim' -o reduce_warp_unrolled '$programs/reduce_warp_unrolled.cu' &&
    ./reduce_warp_unrolled"

# A compile error points at the learner's .cu file and line.
printf '__global__ void k(int *p) {\n  *p = undefined_name;\n}\nint main(void) { return 0; }\n' \
  >broken.cu
expect_error "compile errors name the .cu line" "broken.cu:2" "$nvcc_sim" -o broken broken.cu

# A toolkit header the simulator lacks stops the build with one line that names it (the real
# toolkit's copy is never picked up); the toolkit's own guard macros are defined, as
# helper_cuda.h expects; headers that cuda_runtime.h gathers, NVTX and math_constants.h work.
printf '#include <cuda_runtime.h>\n#include <cufft.h>\nint main(void) { return 0; }\n' \
  >uses_cufft.cu
expect_error "a toolkit header the simulator lacks" \
  "<cufft.h> is not simulated \\(cuFFT\\)" "$nvcc_sim" -o x uses_cufft.cu
cat >toolkit_headers.cu <<'EOF2'
#include <cstdio>
#include <cuda_runtime.h>
#include <device_functions.h>
#include <cuda_profiler_api.h>
#include <math_constants.h>
#include <nvtx3/nvToolsExt.h>
#if !defined(__CUDA_RUNTIME_H__) || !defined(__DRIVER_TYPES_H__) || CUDART_VERSION < 13000
#error "the toolkit's guard and version macros are missing"
#endif
__global__ void pi(float *out) { *out = CUDART_PI_F; }
int main(void) {
  float *d = NULL, h = 0.0f;
  nvtxRangePushA("pi");
  cudaMalloc(&d, sizeof h);
  pi<<<1, 1>>>(d);
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  nvtxRangePop();
  cudaFree(d);
  printf(h > 3.14159f && h < 3.1416f ? "PASS\n" : "FAIL: %f\n", h);
  return 0;
}
EOF2
expect_pass "toolkit headers, guards and NVTX" \
  bash -c "'$nvcc_sim' -o toolkit_headers toolkit_headers.cu && ./toolkit_headers"

if [[ $failures -ne 0 ]]; then
  echo "FAIL nvcc_sim_driver: $failures checks failed"
  exit 1
fi
echo "PASS nvcc_sim_driver"
