/* Lesson 16 driver: compiles kernel strings with your NVRTC code, loads and launches them with
 * your driver API code, and checks each result against the CPU: a string with an error (its log
 * must name the line), the Python original's kernel, a box filter generic and specialized, and
 * the module cache. You do not need to edit this file. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "lesson.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const wb_program program = {
    .program = "16-runtime-compilation",
    .summary = "kernels compiled at run time: NVRTC and the driver API",
    .default_n = 10 * 1024 * 1024, /* the original's smallest size: 10 x 2^20 floats */
    .sim_default_n = 1 << 20,
    .min_n = 1,
    .max_n = 1 << 30,
    .n_meaning = "number of floats",
    .default_repeat = 5,
};

/* A driver API call of the driver's own: on an error, print it and exit 3. */
#define CU_CHECK(call) cu_check((call), #call, __FILE__, __LINE__)
static void cu_check(CUresult status, const char *what, const char *file, int line) {
  if (status == CUDA_SUCCESS) return;
  const char *name = "?", *message = "?";
  cuGetErrorName(status, &name);
  cuGetErrorString(status, &message);
  fprintf(stderr, "%s:%d: CUDA error %s (%d): %s\n  in: %s\n", file, line, name, (int)status,
          message, what);
  printf("FAIL: CUDA error %s\n", name);
  exit(WB_EXIT_CUDA);
}

static const char *cu_name(CUresult status) {
  const char *name = "an unknown CUresult";
  cuGetErrorName(status, &name);
  return name;
}

/* ---- given: the cache's key and files ------------------------------------------------------ */

static uint64_t fnv1a(uint64_t hash, const char *text) {
  for (const unsigned char *p = (const unsigned char *)text; *p; ++p) {
    hash ^= *p;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

uint64_t module_key(const char *source, int count, const char *const *options) {
  uint64_t hash = fnv1a(0xcbf29ce484222325ULL, source);
  for (int i = 0; i < count; ++i) {
    hash = fnv1a(hash, "\n"); /* "-DA" "B" and "-DAB" are different options */
    hash = fnv1a(hash, options[i]);
  }
  return hash;
}

char *read_text_file(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file) return NULL;
  char *text = NULL;
  long size = -1;
  if (fseek(file, 0, SEEK_END) == 0) size = ftell(file);
  if (size >= 0 && fseek(file, 0, SEEK_SET) == 0) text = malloc((size_t)size + 1);
  if (text && fread(text, 1, (size_t)size, file) != (size_t)size) {
    free(text);
    text = NULL;
  }
  if (text) text[size] = '\0';
  fclose(file);
  return text;
}

int write_text_file(const char *path, const char *text) {
  FILE *file = fopen(path, "wb");
  if (!file) return -1;
  size_t length = strlen(text);
  int ok = fwrite(text, 1, length, file) == length;
  return fclose(file) == 0 && ok ? 0 : -1;
}

/* ---- the checks ------------------------------------------------------------------------------ */

/* A kernel string whose third line uses a name nobody declared. */
static const char *broken_source = "extern \"C\" __global__ void broken(float *a, int n) {\n"
                                   "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                   "  if (i < n) a[i] = undeclared_scale * a[i];\n"
                                   "}\n";

/* A kernel string that compiles only when the option -DOPTIONS_REACH_NVRTC=1 reached NVRTC. */
static const char *options_source = "#if OPTIONS_REACH_NVRTC != 1\n"
                                    "#error the options given did not reach nvrtcCompileProgram\n"
                                    "#endif\n"
                                    "extern \"C\" __global__ void probe(int *p) { *p = 1; }\n";

/* Prints the first lines of a log, indented (at most `lines` lines). */
static void print_log(const wb_args *args, const char *log, int lines) {
  const char *line = log;
  for (int shown = 0; line && *line && shown < lines; ++shown) {
    const char *end = strchr(line, '\n');
    int length = end ? (int)(end - line) : (int)strlen(line);
    if (length > 74) length = 74;
    wb_info(args, "    | %.*s\n", length, line);
    line = end ? end + 1 : NULL;
  }
}

typedef struct {
  CUfunction function;
  CUdeviceptr in, out;
  int n, radius, fixed;
} launch_context;

static void run_box(void *c_) {
  launch_context *c = c_;
  CU_CHECK(launch_box(c->function, c->in, c->out, c->n, c->radius, c->fixed));
}

typedef struct {
  const char *dir, *source;
  const char *const *options;
  int count;
  char *image;
  CUmodule module;
  CUfunction function;
} load_context;

/* A cached load, as the next run of a program does it: read the file, load the module. */
static void run_cached_load(void *c_) {
  load_context *c = c_;
  int hit = 0;
  nvrtcResult result =
      cached_module(c->dir, c->source, "box.cu", c->count, c->options, &c->image, &hit);
  if (result != NVRTC_SUCCESS || !hit) return;
  if (rtc_load(c->image, "box_generic", &c->module, &c->function) == CUDA_SUCCESS)
    CU_CHECK(cuModuleUnload(c->module));
  free(c->image);
  c->image = NULL;
}

/* Removes the cache folder and the files in it (named KEY.module). */
/* The check's cache folder is its own (mkdtemp): every file in it goes, whatever name the
   exercise stored a module under, so no run leaves a folder behind. */
static void remove_cache(const char *dir) {
  char path[4096];
  DIR *folder = opendir(dir);
  if (folder) {
    for (struct dirent *entry; (entry = readdir(folder)) != NULL;) {
      if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
      snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
      remove(path);
    }
    closedir(folder);
  }
  rmdir(dir);
}

int main(int argc, char **argv) {
  wb_args args;
  wb_parse_args(argc, argv, &program, &args);
  args.n = wb_seeded_n(&program, &args); /* --seed S: a size of its own (a grade uses one) */
  int n = (int)args.n;
  size_t bytes = (size_t)n * sizeof(float);
  wb_require_host_memory(&program, 5.0 * (double)bytes);

  wb_device device;
  wb_device_open(&device);
  wb_require_device_memory(&program, &device, 3.0 * (double)bytes);
  wb_print_header(&program, &device, &args);

  /* The driver API shares the runtime's primary context: make it current on this thread. */
  CUdevice cu_device;
  CUcontext context;
  CU_CHECK(cuInit(0));
  CU_CHECK(cuDeviceGet(&cu_device, 0));
  CU_CHECK(cuDevicePrimaryCtxRetain(&context, cu_device));
  CU_CHECK(cuCtxSetCurrent(context));
  /* PTX for this device's architecture, so the driver's JIT accepts it. */
  char arch[64];
  snprintf(arch, sizeof arch, "--gpu-architecture=compute_%d%d", device.major, device.minor);

  float *a = malloc(bytes), *b = malloc(bytes), *got = malloc(bytes), *want = malloc(bytes);
  float *box_in = malloc(bytes);
  if (!a || !b || !got || !want || !box_in)
    wb_usage_error(&program, "cannot allocate %zu bytes of host memory", 5 * bytes);
  wb_fill_f32(a, (size_t)n, args.seed, -1.0f, 1.0f);
  wb_fill_f32(b, (size_t)n, args.seed + 1, -1.0f, 1.0f);
  wb_fill_f32(box_in, (size_t)n, args.seed + 2, 0.0f, 1.0f);
  CUdeviceptr d_a, d_b, d_out;
  CU_CHECK(cuMemAlloc(&d_a, bytes));
  CU_CHECK(cuMemAlloc(&d_b, bytes));
  CU_CHECK(cuMemAlloc(&d_out, bytes));
  const char *failure = NULL;

  /* Check 1 (task 1): a compile error comes back with its log, which names line 3. A run with a
   * seed of its own (a grade's) puts 1 to 5 blank lines first, so a log made up for the shipped
   * string does not name the line. */
  int blank_lines = args.seed == 1 ? 0 : 1 + (int)(wb_hash64(args.seed, 0xB40CE7ULL) % 5);
  int broken_line = 3 + blank_lines;
  char broken[512], broken_where[32];
  snprintf(broken, sizeof broken, "%.*s%s", blank_lines, "\n\n\n\n\n", broken_source);
  snprintf(broken_where, sizeof broken_where, "broken.cu(%d)", broken_line);
  wb_input_record(broken, strlen(broken));
  char *image = NULL, *log = NULL;
  const char *arch_only[] = {arch};
  double start = wb_now_ms();
  nvrtcResult result = rtc_compile(broken, "broken.cu", 1, arch_only, &image, &log);
  int log_names_line = log != NULL && strstr(log, broken_where) != NULL;
  int check1 = result == NVRTC_ERROR_COMPILATION && image == NULL && log_names_line;
  wb_info(&args, "check 1: a kernel string with an error on line %d -> %s\n", broken_line,
          nvrtcGetErrorString(result));
  if (log && *log) {
    wb_info(&args, "  the log NVRTC returned:\n");
    print_log(&args, log, 3);
  }
  wb_info(&args, "  error reported, with the log naming line %d: %s\n", broken_line,
          check1 ? "yes" : "no");
  if (!check1)
    failure = result == NVRTC_ERROR_INVALID_OPTION
                  ? "task 1: NVRTC rejected an option (the log says which): pass those given"
              : result == NVRTC_ERROR_COMPILATION && !log_names_line
                  ? "task 1: a failed compile must return NVRTC's log (it names the line)"
                  : "task 1: a string with an error must give NVRTC_ERROR_COMPILATION";
  free(image);
  free(log);

  /* Check 1, again: the options given reach NVRTC (this string compiles only with its -D). */
  image = NULL, log = NULL;
  const char *probe_options[] = {arch, "-DOPTIONS_REACH_NVRTC=1"};
  result = rtc_compile(options_source, "options.cu", 2, probe_options, &image, &log);
  wb_info(&args, "  a string that needs the options given compiles: %s\n",
          result == NVRTC_SUCCESS ? "yes" : "no");
  if (result != NVRTC_SUCCESS && log && *log) print_log(&args, log, 3);
  if (result != NVRTC_SUCCESS && !failure)
    failure = result == NVRTC_ERROR_INVALID_OPTION
                  ? "task 1: NVRTC rejected an option (the log says which): pass those given"
                  : "task 1: pass the options given to nvrtcCompileProgram (count, options)";
  free(image);
  free(log);

  /* Check 2 (tasks 1 to 3): the Python original's kernel, compiled, loaded and launched. */
  image = NULL, log = NULL;
  start = wb_now_ms();
  result = rtc_compile(seed_source, "seed.cu", 1, arch_only, &image, &log);
  double seed_compile_ms = wb_now_ms() - start;
  CUmodule seed_module = NULL;
  CUfunction func = NULL;
  size_t seed_wrong = (size_t)n;
  if (result != NVRTC_SUCCESS || image == NULL) {
    wb_info(&args, "check 2: the seed kernel does not compile (%s)\n", nvrtcGetErrorString(result));
    if (log && *log) print_log(&args, log, 5);
    if (!failure) failure = "task 1: the seed kernel did not compile into an image";
  } else {
    CUresult loaded = rtc_load(image, "func", &seed_module, &func);
    if (loaded != CUDA_SUCCESS) {
      seed_module = NULL;
      wb_info(&args, "check 2: loading the module or finding 'func' failed: %s\n", cu_name(loaded));
      /* Is the image itself the trouble (task 1's options), or the loading (task 2)? */
      CUmodule probe = NULL;
      CUresult image_loads = cuModuleLoadData(&probe, image);
      if (image_loads == CUDA_SUCCESS) CU_CHECK(cuModuleUnload(probe));
      if (!failure)
        failure =
            image_loads == CUDA_ERROR_INVALID_PTX || image_loads == CUDA_ERROR_NO_BINARY_FOR_GPU
                ? "task 1: the PTX is for a newer GPU than this one: use the options given"
            : loaded == CUDA_ERROR_NOT_FOUND
                ? "task 2: no kernel 'func' in the module (is its name extern \"C\"?)"
                : "task 2: load the module and find 'func' in it";
    } else {
      CU_CHECK(cuMemcpyHtoD(d_a, a, bytes));
      CU_CHECK(cuMemcpyHtoD(d_b, b, bytes));
      CUresult launched = launch_seed(func, d_a, d_b, n);
      if (launched == CUDA_SUCCESS) launched = cuCtxSynchronize();
      if (launched != CUDA_SUCCESS) {
        wb_info(&args, "check 2: the launch failed: %s\n", cu_name(launched));
        if (!failure)
          failure = launched == CUDA_ERROR_INVALID_VALUE
                        ? "task 3: kernelParams holds each argument's address (&a, not a)"
                        : "task 3: cuLaunchKernel with the arguments' addresses";
        /* A failed kernel leaves the context unusable (on a GPU too): stop here. */
        return wb_finish(0, failure);
      } else {
        CU_CHECK(cuMemcpyDtoH(got, d_a, bytes));
        memcpy(want, a, bytes);
        seed_reference(want, b, n);
        /* The GPU may fuse a * 10 + 2 into one rounding (an FMA): a few units in the last
         * place apart from the CPU's two roundings, times values up to about 6,000. */
        seed_wrong = wb_compare_f32("a", got, want, (size_t)n, 1e-3, 1e-5);
        double largest = 0.0;
        for (int i = 0; i < n; ++i) {
          double d = got[i] > want[i] ? got[i] - want[i] : want[i] - got[i];
          if (d > largest) largest = d;
        }
        wb_info(&args, "check 2: the seed kernel on %d floats: %s (largest difference %.3g)\n", n,
                seed_wrong ? "no" : "yes", largest);
        if (seed_wrong && !failure)
          failure = "task 3: wrong result (the grid must cover all n elements)";
      }
    }
  }
  free(image);
  free(log);

  /* Check 3 (task 4): the box filter, generic and with its radius baked in. */
  char radius_define[64] = "";
  radius_option(FILTER_RADIUS, radius_define, sizeof radius_define);
  const char *fixed_options[] = {arch, radius_define};
  CUmodule generic_module = NULL, fixed_module = NULL;
  CUfunction box_generic = NULL, box_fixed = NULL;
  image = NULL, log = NULL;
  result = rtc_compile(box_source, "box.cu", 1, arch_only, &image, &log);
  if (result == NVRTC_SUCCESS &&
      rtc_load(image, "box_generic", &generic_module, &box_generic) != CUDA_SUCCESS)
    result = NVRTC_ERROR_INVALID_PROGRAM;
  free(image);
  free(log);
  image = NULL, log = NULL;
  nvrtcResult fixed_result = rtc_compile(box_source, "box.cu", 2, fixed_options, &image, &log);
  CUresult fixed_loaded = CUDA_ERROR_NOT_FOUND;
  if (fixed_result == NVRTC_SUCCESS)
    fixed_loaded = rtc_load(image, "box_fixed", &fixed_module, &box_fixed);
  if (fixed_loaded != CUDA_SUCCESS) fixed_module = NULL;
  wb_info(&args, "check 3: box filter of radius %d, the radius baked in with '%s'\n", FILTER_RADIUS,
          radius_define);
  if (fixed_result != NVRTC_SUCCESS && log && *log) print_log(&args, log, 5);
  free(image);
  free(log);
  launch_context box = {.in = d_a, .out = d_out, .n = n, .radius = FILTER_RADIUS};
  double generic_ms = 0, fixed_ms = 0;
  if (result != NVRTC_SUCCESS || fixed_result != NVRTC_SUCCESS || fixed_loaded != CUDA_SUCCESS) {
    wb_info(&args, "  compiling or loading it failed: %s, %s\n", nvrtcGetErrorString(fixed_result),
            cu_name(fixed_loaded));
    if (!failure)
      failure = "task 4: the option must define RADIUS (-DRADIUS=7), so box_fixed exists";
  } else {
    CU_CHECK(cuMemcpyHtoD(d_a, box_in, bytes));
    box_reference(box_in, want, n, FILTER_RADIUS);
    box.function = box_generic, box.fixed = 0;
    CU_CHECK(cuMemsetD32(d_out, 0xFFFFFFFFu, (size_t)n));
    run_box(&box);
    CU_CHECK(cuMemcpyDtoH(got, d_out, bytes));
    size_t generic_wrong = wb_compare_f32("out (generic)", got, want, (size_t)n, 1e-5, 1e-5);
    box.function = box_fixed, box.fixed = 1;
    CU_CHECK(cuMemsetD32(d_out, 0xFFFFFFFFu, (size_t)n));
    run_box(&box);
    CU_CHECK(cuMemcpyDtoH(got, d_out, bytes));
    size_t fixed_wrong = wb_compare_f32("out (specialized)", got, want, (size_t)n, 1e-5, 1e-5);
    int box_ok = !generic_wrong && !fixed_wrong;
    wb_info(&args, "  generic: %s, specialized: %s\n", generic_wrong ? "no" : "yes",
            fixed_wrong ? "no" : "yes");
    if (!box_ok && !failure)
      failure = "task 4: the specialized filter must use the radius given (7)";
  }

  /* Check 4 (task 5): the cache. A miss compiles and stores; the same source and options again
   * hit; other options are another module. */
  const char *tmp = getenv("TMPDIR");
  char dir_template[4096];
  snprintf(dir_template, sizeof dir_template, "%s/workbook-16-cache.XXXXXX",
           tmp && *tmp ? tmp : "/tmp");
  char *cache_dir = mkdtemp(dir_template);
  if (!cache_dir) {
    fprintf(stderr, "cannot make a cache folder in %s\n", tmp && *tmp ? tmp : "/tmp");
    printf("FAIL: system error\n");
    return WB_EXIT_CUDA;
  }
  uint64_t keys[2] = {module_key(box_source, 1, arch_only),
                      module_key(box_source, 2, fixed_options)};
  int hits[3] = {-1, -1, -1};
  char *images[3] = {NULL, NULL, NULL};
  nvrtcResult results[3];
  start = wb_now_ms();
  results[0] = cached_module(cache_dir, box_source, "box.cu", 1, arch_only, &images[0], &hits[0]);
  double miss_ms = wb_now_ms() - start;
  start = wb_now_ms();
  results[1] = cached_module(cache_dir, box_source, "box.cu", 1, arch_only, &images[1], &hits[1]);
  double hit_ms = wb_now_ms() - start;
  results[2] =
      cached_module(cache_dir, box_source, "box.cu", 2, fixed_options, &images[2], &hits[2]);
  char path[4096];
  snprintf(path, sizeof path, "%s/%016llx.module", cache_dir, (unsigned long long)keys[0]);
  char *stored = read_text_file(path);
  int cache_ok = results[0] == NVRTC_SUCCESS && results[1] == NVRTC_SUCCESS &&
                 results[2] == NVRTC_SUCCESS && hits[0] == 0 && hits[1] == 1 && hits[2] == 0 &&
                 stored != NULL && images[1] != NULL && strcmp(stored, images[1]) == 0;
  /* The module from the cache must run: the specialized one, asked for by its options. */
  CUmodule cached_fixed = NULL;
  CUfunction cached_box = NULL;
  if (cache_ok && images[2]) {
    CUresult loaded = rtc_load(images[2], "box_fixed", &cached_fixed, &cached_box);
    cache_ok = loaded == CUDA_SUCCESS;
    if (!cache_ok) cached_fixed = NULL;
  }
  wb_info(&args, "check 4: the module cache, keyed by source and options\n");
  wb_info(&args, "  first request: %s; the same again: %s; other options: %s\n",
          hits[0] == 1   ? "hit"
          : hits[0] == 0 ? "compiled"
                         : "?",
          hits[1] == 1   ? "hit"
          : hits[1] == 0 ? "compiled"
                         : "?",
          hits[2] == 1   ? "hit"
          : hits[2] == 0 ? "compiled"
                         : "?");
  wb_info(&args, "  cache works: %s\n", cache_ok ? "yes" : "no");
  if (!cache_ok && !failure)
    failure = hits[2] == 1 ? "task 5: the key must cover the options too (another module)"
                           : "task 5: a miss compiles and stores; the same request then hits";
  for (int i = 0; i < 3; ++i) free(images[i]);
  free(stored);

  /* Figures: only for right answers. */
  if (!failure) {
    box.function = box_generic, box.fixed = 0;
    generic_ms = wb_time_cuda_ms(run_box, &box, 1, args.repeat);
    box.function = box_fixed, box.fixed = 1;
    fixed_ms = wb_time_cuda_ms(run_box, &box, 1, args.repeat);
    load_context load = {.dir = cache_dir, .source = box_source, .options = arch_only, .count = 1};
    double load_ms = wb_time_host_ms(run_cached_load, &load, 1, args.repeat);
    wb_info(&args, "figures (%d floats; compile and load times on the host clock):\n", n);
    wb_print_figure(&args, "box filter, generic", generic_ms, 2.0 * (double)bytes, &device, 0);
    wb_print_figure(&args, "box filter, specialized", fixed_ms, 2.0 * (double)bytes, &device, 0);
    if (fixed_ms > 0)
      wb_info(&args, "  the specialized filter is %.2fx as fast as the generic one\n",
              generic_ms / fixed_ms);
    wb_info(&args, "  %-28s %10.3f ms\n", "NVRTC compile (seed kernel)", seed_compile_ms);
    wb_info(&args, "  %-28s %10.3f ms\n", "cache miss (compile, store)", miss_ms);
    wb_info(&args, "  %-28s %10.3f ms\n", "cache hit (read the file)", hit_ms);
    wb_info(&args, "  %-28s %10.3f ms\n", "cached load (read, load)", load_ms);
    if (load_ms > 0)
      wb_info(&args, "  the compile costs %.0fx a cached load, %.0fx the kernel\n",
              miss_ms / load_ms, generic_ms > 0 ? miss_ms / generic_ms : 0.0);
    if (device.is_simulator)
      wb_info(&args, "  (on the simulator the compile is the host C++ compiler's: the times\n"
                     "  say nothing about NVRTC on a GPU)\n");
  }

  remove_cache(cache_dir);
  if (cached_fixed) CU_CHECK(cuModuleUnload(cached_fixed));
  if (fixed_module) CU_CHECK(cuModuleUnload(fixed_module));
  if (generic_module) CU_CHECK(cuModuleUnload(generic_module));
  if (seed_module) CU_CHECK(cuModuleUnload(seed_module));
  CU_CHECK(cuMemFree(d_a));
  CU_CHECK(cuMemFree(d_b));
  CU_CHECK(cuMemFree(d_out));
  CU_CHECK(cuDevicePrimaryCtxRelease(cu_device));
  free(a);
  free(b);
  free(got);
  free(want);
  free(box_in);
  return wb_finish(failure == NULL, failure);
}
