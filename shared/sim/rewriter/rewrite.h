/* cusim-rewrite's core: turns CUDA C source into C++ for the CPU simulator.
 * The output format is the simulator contract in docs/architecture.md. */
#ifndef CUSIM_REWRITE_H
#define CUSIM_REWRITE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where text goes: write(context, data, size) is called with consecutive pieces. */
typedef void (*cusim_write_fn)(void *context, const char *data, size_t size);
typedef struct cusim_sink {
  cusim_write_fn write;
  void *context;
} cusim_sink;

/* Rewrites input[0, size) (any bytes; it need not be NUL-terminated). filename is the name used
 * in the leading #line directive and in error messages (NULL means "<input>").
 * On success writes the whole rewritten file to output and returns 0. Otherwise writes nothing
 * to output, one "file:line:col: error: message\n" per write to errors, and returns 1. */
int cusim_rewrite_buffer(const char *input, size_t size, const char *filename, cusim_sink output,
                         cusim_sink errors);

/* Whether the conditions of device code are wrapped for the profiler's branch counts (default 1).
 * NVRTC turns it off: the wrapping moves columns, and its log puts a caret under the string. */
void cusim_rewrite_set_branch_sites(int on);

/* Host-compiler warnings that never fail a build in device-only code (__global__ and __device__
 * function definitions, not __host__ __device__ ones): list is a comma-separated list of -W
 * options ("-Wall,-Wextra,-Wsign-compare"), or NULL for none (the default). nvcc's host compiler
 * never sees those bodies, so its -Werror cannot fail on them; the simulator compiles them with
 * the host compiler, and nvcc-sim passes here the -W options that -Werror would make errors.
 * Each definition is then wrapped in _Pragma("GCC diagnostic ...") on its own lines: with gcc
 * the warnings stay warnings, with clang they are not shown. Returns 0 (and keeps the previous
 * list) when an option is not -W followed by letters, digits, '-', '+' and '_'. The list is
 * used, not copied: it must live as long as the rewrites. */
int cusim_rewrite_set_device_warnings(const char *list);

/* nvcc's two passes in one file (issue 27; arch_passes.c): host is the .cu file preprocessed as
 * nvcc's host pass sees it (__CUDA_ARCH__ undefined), device as its device pass does
 * (__CUDA_ARCH__ defined, __constant__ kept in the text: CUSIM_DEVICE_PASS in cusim_prelude.h).
 * Writes to output one preprocessed file whose __global__ and __device__-only declarations are
 * the device pass's and everything else the host pass's, and to notes one line per place where
 * that differs from nvcc ("file:line: note: ..."; at most three, then a count). Returns 0, or 1
 * when out of memory or an input is 4 GiB or more (then nothing is written). */
int cusim_splice_passes(const char *host, size_t host_size, const char *device, size_t device_size,
                        cusim_sink output, cusim_sink notes);

#ifdef __cplusplus
}
#endif

#endif
