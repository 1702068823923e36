/* Lesson 16: the interface between the driver (main.c) and your code (exercise.cu). */
#ifndef LESSON_H
#define LESSON_H

#include "wb.h"

#include <cuda.h>
#include <nvrtc.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  SEED_BLOCK = 256,  /* threads per block of every launch in this lesson (the original's 256) */
  FILTER_RADIUS = 7, /* the box filter adds each element and 7 neighbours on either side */
  MAX_OPTIONS = 8    /* at most this many NVRTC options in one compile */
};

/* The kernel strings (exercise.cu). seed_source holds `func`, the Python original's kernel:
 * a[i] = (a[i] * 10 + 2) * ((b[i] + 2) * 10 - 5) * 5. box_source holds `box_generic`, whose
 * radius is a parameter, and `box_fixed`, whose radius is the macro RADIUS: it exists only in a
 * compile that defines RADIUS. */
extern const char *const seed_source;
extern const char *const box_source;

/* Task 1: compile `source` (named `name` in messages) with NVRTC and `count` options. On success
 * *image is the module (PTX) as a malloc'd string; on a compile error *image is NULL. Either
 * way *log is NVRTC's log as a malloc'd string (possibly empty). Returns NVRTC's result. */
nvrtcResult rtc_compile(const char *source, const char *name, int count, const char *const *options,
                        char **image, char **log);

/* Task 2: load a module from its image and find the kernel named `kernel` in it. */
CUresult rtc_load(const char *image, const char *kernel, CUmodule *module, CUfunction *function);

/* Task 3: launch the seed kernel `func` over n elements (blocks of SEED_BLOCK threads). Returns
 * the launch's result; it does not wait. */
CUresult launch_seed(CUfunction func, CUdeviceptr a, CUdeviceptr b, int n);

/* Task 4: the option that bakes `radius` into box_source as the macro RADIUS (written into
 * `option`, which holds `size` bytes). */
void radius_option(int radius, char *option, size_t size);

/* Task 5: the module for (source, options) from the cache folder `dir`: the file
 * DIR/KEY.module, KEY = module_key(source, count, options) in 16 hex digits. When the file
 * exists, *image is its text and *hit is 1; otherwise compile (rtc_compile), store the image in
 * that file, and set *hit to 0. Returns NVRTC's result (NVRTC_SUCCESS on a hit). */
nvrtcResult cached_module(const char *dir, const char *source, const char *name, int count,
                          const char *const *options, char **image, int *hit);

/* Given (main.c): the cache key of a source and its options (64-bit FNV-1a over both), and
 * whole-file reads and writes. read_text_file returns a malloc'd string, or NULL when the file
 * does not exist; write_text_file returns 0 on success. */
uint64_t module_key(const char *source, int count, const char *const *options);
char *read_text_file(const char *path);
int write_text_file(const char *path, const char *text);

/* Given (exercise.cu): launch a box filter kernel over n elements (radius is passed to
 * box_generic and ignored for box_fixed). */
CUresult launch_box(CUfunction box, CUdeviceptr in, CUdeviceptr out, int n, int radius, int fixed);

/* The CPU references (reference.c). */
void seed_reference(float *a, const float *b, int n);
void box_reference(const float *in, float *out, int n, int radius);

#ifdef __cplusplus
}
#endif

#endif
