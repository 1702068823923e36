/* Lesson 16: kernels compiled at run time.
 *
 * PyCUDA's SourceModule took CUDA C as a Python string and compiled it while the program ran.
 * In C the same two steps are NVRTC (the compiler as a library: a string in, PTX out) and the
 * driver API (cuModuleLoadData loads the PTX, cuModuleGetFunction finds a kernel in it,
 * cuLaunchKernel launches it with its arguments as an array of pointers). Because the compile
 * happens at run time, a value known only then can be baked into the source as a constant, and
 * the compiler specializes the kernel for it. And because compiling costs time, a program keeps
 * what it compiled in a cache, keyed by a hash of the source and options.
 *
 * Your five tasks are marked below. Check your work with:  ./workbook check 16
 * (or: ctest --test-dir build -L lesson16 --output-on-failure).
 */
#include "lesson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The Python original's kernel, as PyCUDA's SourceModule received it. extern "C" keeps its name
 * `func` as it is: a C++ name would be mangled (_Z4funcPfPKfi). */
const char *const seed_source =
    "extern \"C\" __global__ void func(float *a, const float *b, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i >= n) return;\n"
    "  float temp_a = a[i];\n"
    "  float temp_b = b[i];\n"
    "  a[i] = (temp_a * 10 + 2) * ((temp_b + 2) * 10 - 5) * 5;\n"
    "}\n";

/* A box filter: out[i] is the sum of in[i - r] .. in[i + r] (0 outside the array). The generic
 * kernel takes r at run time; box_fixed has it as the constant RADIUS, so the loop has a known
 * trip count and unrolls. */
const char *const box_source =
    "extern \"C\" __global__ void box_generic(const float *in, float *out, int n, int r) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i >= n) return;\n"
    "  float sum = 0.0f;\n"
    "  for (int d = -r; d <= r; ++d) {\n"
    "    int j = i + d;\n"
    "    if (j >= 0 && j < n) sum += in[j];\n"
    "  }\n"
    "  out[i] = sum;\n"
    "}\n"
    "#ifdef RADIUS\n"
    "extern \"C\" __global__ void box_fixed(const float *in, float *out, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i >= n) return;\n"
    "  float sum = 0.0f;\n"
    "#pragma unroll\n"
    "  for (int d = -RADIUS; d <= RADIUS; ++d) {\n"
    "    int j = i + d;\n"
    "    if (j >= 0 && j < n) sum += in[j];\n"
    "  }\n"
    "  out[i] = sum;\n"
    "}\n"
    "#endif\n";

nvrtcResult rtc_compile(const char *source, const char *name, int count, const char *const *options,
                        char **image, char **log) {
  *image = NULL;
  *log = NULL;
  // ---- task 1: compile the string with NVRTC, keep the log and the PTX ----------------------
  // TODO: what PyCUDA's SourceModule did for you, in C:
  //         nvrtcProgram program;
  //         nvrtcCreateProgram(&program, source, name, 0, NULL, NULL);  (no extra headers)
  //         nvrtcResult compiled = nvrtcCompileProgram(program, count, options);
  //       Then, whatever the compile gave, the log: nvrtcGetProgramLogSize(program, &size),
  //       *log = malloc(size), nvrtcGetProgramLog(program, *log). Only if the compile
  //       succeeded, the PTX the same way (nvrtcGetPTXSize, malloc, nvrtcGetPTX) into *image.
  //       nvrtcDestroyProgram(&program) at the end, and return the compile's result (or the
  //       first call that failed). Check every call: each returns an nvrtcResult.
  (void)source;
  (void)name;
  (void)count;
  (void)options;
  return NVRTC_ERROR_INVALID_PROGRAM;
  // ---- end of task 1 ------------------------------------------------------------------------
}

CUresult rtc_load(const char *image, const char *kernel, CUmodule *module, CUfunction *function) {
  // ---- task 2: load the module and find the kernel in it -------------------------------------
  // TODO: cuModuleLoadData(module, image) loads the PTX (the driver compiles it for this GPU);
  //       cuModuleGetFunction(function, *module, kernel) finds the kernel by its name. Return
  //       the first result that is not CUDA_SUCCESS (and unload the module if only the second
  //       call failed), or CUDA_SUCCESS.
  (void)image;
  (void)kernel;
  (void)module;
  (void)function;
  return CUDA_ERROR_NOT_FOUND;
  // ---- end of task 2 ------------------------------------------------------------------------
}

CUresult launch_seed(CUfunction func, CUdeviceptr a, CUdeviceptr b, int n) {
  // ---- task 3: the arguments as an array of pointers, then cuLaunchKernel --------------------
  // TODO: cuLaunchKernel takes the kernel's arguments as an array with the ADDRESS of each:
  //         void *args[] = {&a, &b, &n};
  //       (the kernel's parameters are float *, const float * and int: a CUdeviceptr has the
  //       size of a pointer). Then launch enough blocks of SEED_BLOCK threads to cover n:
  //         cuLaunchKernel(func, BLOCKS, 1, 1, SEED_BLOCK, 1, 1, 0, NULL, args, NULL)
  //       (grid x, y, z; block x, y, z; shared bytes; stream; arguments; extra) and return its
  //       result.
  (void)func;
  (void)a;
  (void)b;
  (void)n;
  return CUDA_SUCCESS;
  // ---- end of task 3 ------------------------------------------------------------------------
}

void radius_option(int radius, char *option, size_t size) {
  // ---- task 4: bake the radius into the source ----------------------------------------------
  // TODO: box_fixed exists only when RADIUS is defined. Write the NVRTC option that defines
  //       it as the given radius into option (size bytes): snprintf(option, size, ...), the
  //       same -D as a compiler's command line.
  (void)radius;
  (void)option;
  (void)size;
  // ---- end of task 4 ------------------------------------------------------------------------
}

nvrtcResult cached_module(const char *dir, const char *source, const char *name, int count,
                          const char *const *options, char **image, int *hit) {
  char path[4096];
  // ---- task 5: look in the cache first; compile and store only on a miss ---------------------
  // TODO: the file for this source and these options is DIR/KEY.module, KEY in 16 hex digits:
  //         snprintf(path, sizeof path, "%s/%016llx.module", dir,
  //                  (unsigned long long)module_key(source, count, options));
  //       If read_text_file(path) returns text, that is *image: a hit (*hit = 1, return
  //       NVRTC_SUCCESS). Otherwise *hit = 0: compile with rtc_compile (free the log), and on
  //       success store *image with write_text_file(path, *image) for the next time (a write
  //       that fails is not an error: the next run compiles again). Return the compile's
  //       result.
  (void)dir;
  (void)source;
  (void)name;
  (void)count;
  (void)options;
  (void)path;
  *image = NULL;
  *hit = 0;
  return NVRTC_ERROR_INVALID_PROGRAM;
  // ---- end of task 5 ------------------------------------------------------------------------
}

CUresult launch_box(CUfunction box, CUdeviceptr in, CUdeviceptr out, int n, int radius, int fixed) {
  void *generic_args[] = {&in, &out, &n, &radius};
  void *fixed_args[] = {&in, &out, &n};
  unsigned blocks = (unsigned)((n + SEED_BLOCK - 1) / SEED_BLOCK);
  return cuLaunchKernel(box, blocks, 1, 1, SEED_BLOCK, 1, 1, 0, NULL,
                        fixed ? fixed_args : generic_args, NULL);
}
