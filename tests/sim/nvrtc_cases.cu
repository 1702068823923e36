// The simulator's NVRTC and driver API (runtime/nvrtc.cpp, runtime/driver.cpp): each case prints
// what it saw, and tests/sim/CMakeLists.txt requires it. This program has no kernel of its own:
// everything a module's kernels call in the runtime must be linked and exported without one.
#include <cuda.h>
#include <nvrtc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVRTC(call)                                                                                \
  do {                                                                                             \
    nvrtcResult r_ = (call);                                                                       \
    if (r_ != NVRTC_SUCCESS) {                                                                     \
      printf("FAIL line %d: %s -> %s\n", __LINE__, #call, nvrtcGetErrorString(r_));                \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)
#define CU(call)                                                                                   \
  do {                                                                                             \
    CUresult r_ = (call);                                                                          \
    if (r_ != CUDA_SUCCESS) {                                                                      \
      const char *name_ = "?";                                                                     \
      cuGetErrorName(r_, &name_);                                                                  \
      printf("FAIL line %d: %s -> %s\n", __LINE__, #call, name_);                                  \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

static const char *result_name(CUresult r) {
  const char *name = "?";
  cuGetErrorName(r, &name);
  return name;
}

// The Python original's kernel (PyCUDA's SourceModule), with a scale baked in by -D.
static const char *seed_kernel = "extern \"C\" __global__ void func(float *a, const float *b,\n"
                                 "                                  size_t n) {\n"
                                 "  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;\n"
                                 "  if (i >= n) return;\n"
                                 "  a[i] = (a[i] * 10 + 2) * ((b[i] + 2) * 10 - 5) * SCALE;\n"
                                 "}\n";

// Compiles src; returns the module text (malloc'd), or NULL with the log printed.
static char *compile(const char *src, const char *name, int count, const char **options,
                     nvrtcResult *result, int cubin) {
  nvrtcProgram prog;
  NVRTC(nvrtcCreateProgram(&prog, src, name, 0, NULL, NULL));
  *result = nvrtcCompileProgram(prog, count, options);
  size_t log_size = 0;
  NVRTC(nvrtcGetProgramLogSize(prog, &log_size));
  char *log = (char *)malloc(log_size);
  NVRTC(nvrtcGetProgramLog(prog, log));
  if (*result != NVRTC_SUCCESS) {
    printf("compile -> %s\nlog:\n%s", nvrtcGetErrorString(*result), log);
    free(log);
    NVRTC(nvrtcDestroyProgram(&prog));
    return NULL;
  }
  free(log);
  size_t size = 0;
  if (cubin) {
    NVRTC(nvrtcGetCUBINSize(prog, &size));
  } else {
    NVRTC(nvrtcGetPTXSize(prog, &size));
  }
  char *image = (char *)malloc(size ? size : 1);
  if (size && cubin) NVRTC(nvrtcGetCUBIN(prog, image));
  if (size && !cubin) NVRTC(nvrtcGetPTX(prog, image));
  if (!size) image[0] = '\0';
  NVRTC(nvrtcDestroyProgram(&prog));
  return image;
}

static void context(void) {
  CUdevice device;
  CUcontext ctx;
  CU(cuInit(0));
  CU(cuDeviceGet(&device, 0));
  CU(cuDevicePrimaryCtxRetain(&ctx, device));
  CU(cuCtxSetCurrent(ctx));
}

// Compile with -DSCALE=5, load, launch over n elements, compare with the CPU.
static int seed(void) {
  context();
  const char *options[] = {"--gpu-architecture=compute_90", "-DSCALE=5", "-lineinfo"};
  nvrtcResult r;
  char *ptx = compile(seed_kernel, "seed.cu", 3, options, &r, 0);
  if (!ptx) return 1;
  printf("ptx starts: %.15s\n", ptx);
  CUmodule module;
  CUfunction func;
  CU(cuModuleLoadData(&module, ptx));
  CU(cuModuleGetFunction(&func, module, "func"));
  size_t n = 100003;
  float *a = (float *)malloc(n * sizeof(float)), *b = (float *)malloc(n * sizeof(float));
  float *want = (float *)malloc(n * sizeof(float));
  for (size_t i = 0; i < n; ++i) {
    a[i] = (float)(i % 17) * 0.25f - 2.0f;
    b[i] = (float)(i % 13) * 0.5f - 3.0f;
    want[i] = (a[i] * 10 + 2) * ((b[i] + 2) * 10 - 5) * 5;
  }
  CUdeviceptr d_a, d_b;
  CU(cuMemAlloc(&d_a, n * sizeof(float)));
  CU(cuMemAlloc(&d_b, n * sizeof(float)));
  CU(cuMemcpyHtoD(d_a, a, n * sizeof(float)));
  CU(cuMemcpyHtoD(d_b, b, n * sizeof(float)));
  void *args[] = {&d_a, &d_b, &n};
  unsigned threads = 256, blocks = (unsigned)((n + threads - 1) / threads);
  CU(cuLaunchKernel(func, blocks, 1, 1, threads, 1, 1, 0, NULL, args, NULL));
  CU(cuCtxSynchronize());
  CU(cuMemcpyDtoH(a, d_a, n * sizeof(float)));
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i) wrong += a[i] != want[i];
  printf("seed kernel: %zu of %zu wrong\n", wrong, n);
  CU(cuMemFree(d_a));
  CU(cuMemFree(d_b));
  CU(cuModuleUnload(module));
  // After the unload its function is gone.
  CUresult late = cuLaunchKernel(func, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL);
  printf("launch after unload -> %s\n", result_name(late));
  free(a);
  free(b);
  free(want);
  free(ptx);
  return wrong == 0 ? 0 : 1;
}

// A kernel with shared memory, a barrier, an atomic and a warp shuffle; a C++ template kernel
// found through a name expression; a header given to nvrtcCreateProgram.
static int features(void) {
  context();
  const char *header = "#define BLOCK 128\n";
  const char *header_name = "block.h";
  const char *src = "#include \"block.h\"\n"
                    "extern \"C\" __global__ void block_sums(const int *in, int *total) {\n"
                    "  __shared__ int part[BLOCK];\n"
                    "  part[threadIdx.x] = in[blockIdx.x * BLOCK + threadIdx.x];\n"
                    "  __syncthreads();\n"
                    "  for (int s = BLOCK / 2; s >= 32; s /= 2) {\n"
                    "    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];\n"
                    "    __syncthreads();\n"
                    "  }\n"
                    "  if (threadIdx.x < 32) {\n"
                    "    int v = part[threadIdx.x];\n"
                    "    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
                    "    if (threadIdx.x == 0) atomicAdd(total, v);\n"
                    "  }\n"
                    "}\n"
                    "template <int F> __global__ void times(int *x) { x[threadIdx.x] *= F; }\n";
  nvrtcProgram prog;
  NVRTC(nvrtcCreateProgram(&prog, src, "features.cu", 1, &header, &header_name));
  NVRTC(nvrtcAddNameExpression(prog, "&times<3>"));
  const char *options[] = {"-arch", "sm_90", "-std=c++17"};
  NVRTC(nvrtcCompileProgram(prog, 3, options));
  const char *lowered = NULL;
  NVRTC(nvrtcGetLoweredName(prog, "&times<3>", &lowered));
  printf("lowered name: %s\n", lowered);
  size_t size = 0;
  NVRTC(nvrtcGetCUBINSize(prog, &size));
  char *cubin = (char *)malloc(size);
  NVRTC(nvrtcGetCUBIN(prog, cubin));
  CUmodule module;
  CU(cuModuleLoadDataEx(&module, cubin, 0, NULL, NULL));
  CUfunction sums, times3;
  CU(cuModuleGetFunction(&sums, module, "block_sums"));
  CU(cuModuleGetFunction(&times3, module, lowered));
  NVRTC(nvrtcDestroyProgram(&prog));

  int blocks = 50, n = blocks * 128;
  int *in = (int *)malloc(n * sizeof(int));
  long long want = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = i % 101 - 50;
    want += in[i];
  }
  CUdeviceptr d_in, d_total;
  CU(cuMemAlloc(&d_in, n * sizeof(int)));
  CU(cuMemAlloc(&d_total, sizeof(int)));
  CU(cuMemcpyHtoD(d_in, in, n * sizeof(int)));
  CU(cuMemsetD32(d_total, 0, 1));
  void *args[] = {&d_in, &d_total};
  CU(cuLaunchKernel(sums, blocks, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
  int total = 0;
  CU(cuMemcpyDtoH(&total, d_total, sizeof(int)));
  printf("block sums: %d (want %lld)\n", total, want);
  void *targs[] = {&d_in};
  CU(cuLaunchKernel(times3, 1, 1, 1, 64, 1, 1, 0, NULL, targs, NULL));
  CU(cuMemcpyDtoH(in, d_in, 64 * sizeof(int)));
  printf("times<3>: in[5] = %d (want %d)\n", in[5], 3 * (5 % 101 - 50));
  CU(cuMemFree(d_in));
  CU(cuMemFree(d_total));
  CU(cuModuleUnload(module));
  free(in);
  free(cubin);
  return 0;
}

// A kernel string with an error on its third line: the log names that line, as NVRTC's does.
static int compile_error(void) {
  const char *src = "extern \"C\" __global__ void broken(float *a) {\n"
                    "  int i = threadIdx.x;\n"
                    "  a[i] = undeclared_name * 2.0f;\n"
                    "}\n";
  nvrtcResult r;
  char *ptx = compile(src, "broken.cu", 0, NULL, &r, 0);
  if (ptx) {
    printf("FAIL: the broken kernel compiled\n");
    return 1;
  }
  return 0;
}

static int bad_option(void) {
  const char *options[] = {"--no-such-option"};
  nvrtcResult r;
  compile(seed_kernel, "seed.cu", 1, options, &r, 0);
  const char *arch[] = {"-arch=compute_20"};
  compile(seed_kernel, "seed.cu", 1, arch, &r, 0);
  return 0;
}

// What the driver API refuses: calls before cuInit, calls without a context, real PTX, a kernel
// name the module lacks, a CUBIN asked of a virtual architecture.
static int driver_errors(void) {
  CUdevice device;
  printf("cuDeviceGet before cuInit -> %s\n", result_name(cuDeviceGet(&device, 0)));
  CU(cuInit(0));
  CUmodule module;
  printf("cuModuleLoadData without a context -> %s\n",
         result_name(cuModuleLoadData(&module, "// cusim module 0\n")));
  context();
  const char *ptx = "//\n.version 8.0\n.target sm_90\n.address_size 64\n";
  printf("cuModuleLoadData of real PTX -> %s\n", result_name(cuModuleLoadData(&module, ptx)));
  const char *options[] = {"-DSCALE=1"};
  nvrtcResult r;
  char *image = compile(seed_kernel, "seed.cu", 1, options, &r, 1);
  printf("CUBIN size for compute_75: %zu\n", strlen(image));
  free(image);
  image = compile(seed_kernel, "seed.cu", 1, options, &r, 0);
  // A damaged module (cut short) is refused, not loaded.
  char *cut = strdup(image);
  cut[strlen(cut) / 2] = '\0';
  printf("cuModuleLoadData of half a module -> %s\n", result_name(cuModuleLoadData(&module, cut)));
  free(cut);
  CU(cuModuleLoadData(&module, image));
  CUfunction f;
  printf("cuModuleGetFunction(\"fun\") -> %s\n",
         result_name(cuModuleGetFunction(&f, module, "fun")));
  CU(cuModuleGetFunction(&f, module, "func"));
  // A launch with a block too large fails as cuLaunchKernel does.
  CUdeviceptr d;
  CU(cuMemAlloc(&d, 4096));
  size_t n = 1;
  void *args[] = {&d, &d, &n};
  printf("cuLaunchKernel with 2048 threads -> %s\n",
         result_name(cuLaunchKernel(f, 1, 1, 1, 2048, 1, 1, 0, NULL, args, NULL)));
  printf("cuLaunchKernel with 48 KiB + 1 of dynamic shared memory -> %s\n",
         result_name(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 48 * 1024 + 1, NULL, args, NULL)));
  CU(cuModuleUnload(module));
  free(image);
  // A block above the kernel's __launch_bounds__: refused as the runtime refuses it.
  const char *bounded = "extern \"C\" __global__ void __launch_bounds__(256) bounded(int *a) {\n"
                        "  a[threadIdx.x] = 1;\n"
                        "}\n";
  image = compile(bounded, "bounded.cu", 0, NULL, &r, 0);
  if (!image) return 1;
  CU(cuModuleLoadData(&module, image));
  CU(cuModuleGetFunction(&f, module, "bounded"));
  void *one[] = {&d};
  printf("cuLaunchKernel of 512 threads, __launch_bounds__(256) -> %s\n",
         result_name(cuLaunchKernel(f, 1, 1, 1, 512, 1, 1, 0, NULL, one, NULL)));
  printf("cuLaunchKernel of 256 threads, __launch_bounds__(256) -> %s\n",
         result_name(cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, NULL, one, NULL)));
  CU(cuCtxSynchronize());
  CU(cuMemFree(d));
  CU(cuModuleUnload(module));
  free(image);
  return 0;
}

// A kernel string without its bounds check: the memory checker sees the module's accesses too.
static int bounds(void) {
  context();
  const char *src = "extern \"C\" __global__ void no_guard(float *a) {\n"
                    "  a[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;\n"
                    "}\n";
  nvrtcResult r;
  char *ptx = compile(src, "no_guard.cu", 0, NULL, &r, 0);
  if (!ptx) return 1;
  CUmodule module;
  CUfunction f;
  CU(cuModuleLoadData(&module, ptx));
  CU(cuModuleGetFunction(&f, module, "no_guard"));
  CUdeviceptr d;
  CU(cuMemAlloc(&d, 100 * sizeof(float)));
  void *args[] = {&d};
  CU(cuLaunchKernel(f, 1, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
  printf("cuCtxSynchronize -> %s\n", result_name(cuCtxSynchronize()));
  free(ptx);
  return 0;
}

// Two modules loaded at once, each with its own kernel: each is found in its own module (a
// module is not mistaken for another one loaded before it).
static int two_modules(void) {
  context();
  const char *first = "extern \"C\" __global__ void first(int *x) { *x = 1; }\n";
  const char *second = "extern \"C\" __global__ void second(int *x) { *x = 2; }\n";
  nvrtcResult r;
  char *image1 = compile(first, "first.cu", 0, NULL, &r, 0);
  char *image2 = compile(second, "second.cu", 0, NULL, &r, 0);
  if (!image1 || !image2) return 1;
  CUmodule m1, m2;
  CUfunction f1, f2;
  CU(cuModuleLoadData(&m1, image1));
  CU(cuModuleLoadData(&m2, image2));
  CU(cuModuleGetFunction(&f1, m1, "first"));
  CU(cuModuleGetFunction(&f2, m2, "second"));
  printf("'second' in the first module -> %s\n",
         result_name(cuModuleGetFunction(&f1, m1, "second")));
  CUdeviceptr d;
  CU(cuMemAlloc(&d, sizeof(int)));
  void *args[] = {&d};
  int x = 0;
  CU(cuLaunchKernel(f2, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
  CU(cuMemcpyDtoH(&x, d, sizeof x));
  printf("second module's kernel wrote %d\n", x);
  CU(cuModuleUnload(m1));
  CU(cuModuleUnload(m2));
  CU(cuMemFree(d));
  free(image1);
  free(image2);
  return 0;
}

// Where the simulated device (an H100, sm_90) loads what NVRTC made, as a GPU does: PTX for its
// own architecture or an older one, and `compute_90a`; not PTX for a newer target (the JIT
// fails: CUDA_ERROR_INVALID_PTX), nor a CUBIN of another major architecture
// (CUDA_ERROR_NO_BINARY_FOR_GPU). nvcc builds this file too (unit.sim.nvrtc.cases_build_with_nvcc);
// the answers are an H100's, and the values are the ones real NVRTC 13 accepts.
static int arch_load(void) {
  context();
  static const struct {
    const char *option;
    int cubin;
  } cases[] = {{"-arch=compute_75", 0},  {"-arch=compute_90", 0},  {"-arch=compute_90a", 0},
               {"-arch=compute_100", 0}, {"-arch=compute_120", 0}, {"-arch=compute_100f", 0},
               {"-arch=sm_120", 0},      {"-arch=sm_90", 1},       {"-arch=sm_90a", 1},
               {"-arch=sm_80", 1},       {"-arch=sm_120", 1}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    const char *options[] = {cases[c].option, "-DSCALE=1"};
    nvrtcResult r;
    char *image = compile(seed_kernel, "seed.cu", 2, options, &r, cases[c].cubin);
    if (!image) return 1;
    CUmodule module;
    CUresult loaded = cuModuleLoadData(&module, image);
    printf("%s %s -> %s\n", cases[c].option, cases[c].cubin ? "CUBIN" : "PTX", result_name(loaded));
    if (loaded == CUDA_SUCCESS) CU(cuModuleUnload(module));
    free(image);
  }
  return 0;
}

// __CUDA_ARCH__ in a module: NVRTC compiles device code only, with the architecture asked for
// (compute_75 by default), and -arch=compute_90a adds the family- and arch-specific macros.
static const char *arch_kernel =
    "#ifndef __CUDA_ARCH_SPECIFIC__\n#define __CUDA_ARCH_SPECIFIC__ 0\n#endif\n"
    "#ifndef __CUDA_ARCH_FAMILY_SPECIFIC__\n#define __CUDA_ARCH_FAMILY_SPECIFIC__ 0\n#endif\n"
    "extern \"C\" __global__ void arch(int *out) {\n"
    "#ifdef __CUDA_ARCH__\n"
    "  out[0] = __CUDA_ARCH__;\n"
    "#else\n"
    "  out[0] = -1;\n"
    "#endif\n"
    "  out[1] = __CUDA_ARCH_LIST__;\n"
    "  out[2] = __CUDA_ARCH_FAMILY_SPECIFIC__;\n"
    "  out[3] = __CUDA_ARCH_SPECIFIC__;\n"
    "}\n";

static int arch_macro(void) {
  context();
  const char *cases[] = {NULL, "-arch=compute_90", "-arch=compute_90a"};
  CUdeviceptr d;
  CU(cuMemAlloc(&d, 4 * sizeof(int)));
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    nvrtcResult r;
    char *image = compile(arch_kernel, "arch.cu", cases[c] ? 1 : 0, &cases[c], &r, 0);
    if (!image) return 1;
    CUmodule module;
    CUfunction f;
    CU(cuModuleLoadData(&module, image));
    CU(cuModuleGetFunction(&f, module, "arch"));
    void *args[] = {&d};
    CU(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
    int out[4];
    CU(cuMemcpyDtoH(out, d, sizeof out));
    printf("%s: __CUDA_ARCH__ %d, list %d, family-specific %d, specific %d\n",
           cases[c] ? cases[c] : "no -arch", out[0], out[1], out[2], out[3]);
    CU(cuModuleUnload(module));
    free(image);
  }
  CU(cuMemFree(d));
  return 0;
}

// Values in the argument array where the addresses of the arguments belong: cuLaunchKernel copies
// each argument from the address given, so on a GPU the host crashes inside the call (device
// memory is not the host's). The simulator refuses the launch and names the entry.
static int args_by_value(void) {
  context();
  const char *options[] = {"-DSCALE=1"};
  nvrtcResult r;
  char *image = compile(seed_kernel, "seed.cu", 1, options, &r, 0);
  CUmodule module;
  CUfunction f;
  CU(cuModuleLoadData(&module, image));
  CU(cuModuleGetFunction(&f, module, "func"));
  CUdeviceptr d;
  CU(cuMemAlloc(&d, 4096));
  size_t n = 1;
  void *values[] = {(void *)d, (void *)d, &n};
  printf("device pointers as values -> %s\n",
         result_name(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, values, NULL)));
  void *count[] = {&d, &d, (void *)n};
  printf("a count as a value -> %s\n",
         result_name(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, count, NULL)));
  void *addresses[] = {&d, &d, &n};
  CU(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, addresses, NULL));
  CU(cuCtxSynchronize());
  printf("addresses -> CUDA_SUCCESS\n");
  CU(cuMemFree(d));
  CU(cuModuleUnload(module));
  free(image);
  return 0;
}
int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "";
  if (!strcmp(which, "seed")) return seed();
  if (!strcmp(which, "features")) return features();
  if (!strcmp(which, "compile_error")) return compile_error();
  if (!strcmp(which, "bad_option")) return bad_option();
  if (!strcmp(which, "driver_errors")) return driver_errors();
  if (!strcmp(which, "bounds")) return bounds();
  if (!strcmp(which, "two_modules")) return two_modules();
  if (!strcmp(which, "arch_load")) return arch_load();
  if (!strcmp(which, "args_by_value")) return args_by_value();
  if (!strcmp(which, "arch_macro")) return arch_macro();
  printf("usage: sim_nvrtc_cases "
         "seed|features|compile_error|bad_option|driver_errors|bounds|two_modules|arch_load|args_"
         "by_value|arch_macro\n");
  return 2;
}
