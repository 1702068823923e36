/* cusim-rewrite: command line front end of the rewriter's core (rewrite.h). */
#include "rewrite.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: cusim-rewrite [--no-branch-sites] [--device-warnings=LIST] [--device-pass=FILE]\n"
    "                     [--prelude-header=FILE | --prelude-only] INPUT.cu OUTPUT.cpp\n"
    "       cusim-rewrite INPUT.cu -o OUTPUT.cpp\n"
    "Rewrites a CUDA C file into C++ for the CPU simulator: kernel launches become calls of\n"
    "::cusim::launch, __shared__ declarations become references into the block's shared memory,\n"
    "and every line stays where it was (the output starts with #line 1 \"INPUT.cu\").\n"
    "'-' reads standard input or writes standard output.\n"
    "--no-branch-sites leaves the conditions of device code unwrapped (no branch counts for\n"
    "the profiler; NVRTC uses it, so that its log's columns are the string's own).\n"
    "--device-warnings=-Wall,-Wsign-compare: on preprocessed input, those host-compiler\n"
    "warnings never fail the build in __global__ and __device__-only functions, whose bodies\n"
    "nvcc's host compiler never sees (nvcc-sim passes the -W options of a -Werror build).\n"
    "--device-pass=DEVICE.ii: INPUT is a .cu file preprocessed as nvcc's host pass sees it, and\n"
    "DEVICE.ii the same file as its device pass does (-D__CUDA_ARCH__=900 -DCUSIM_DEVICE_PASS);\n"
    "the kernels and __device__-only declarations come from DEVICE.ii, the rest from INPUT, and\n"
    "a note names each place where the simulator cannot do what nvcc does. An empty DEVICE.ii\n"
    "means one pass is all there is (the program never mentions __CUDA_ARCH__).\n"
    "--prelude-header=FILE: on input preprocessed with -include cusim_prelude.h, where the text\n"
    "from the input's second line to the main file's first line is exactly FILE's, write\n"
    "#include \"FILE\" instead of it (a precompiled FILE.gch then stands for it); otherwise\n"
    "change nothing. --prelude-only writes that text alone (how FILE is made).\n"
    "Exit status: 0 done, 1 errors in the input (reported as file:line:col: error: ...),\n"
    "2 usage error.\n";

typedef struct memory {
  char *data;
  size_t size, capacity;
  int failed;
} memory;

static void memory_write(void *context, const char *data, size_t size) {
  memory *m = context;
  if (m->failed || size == 0) return;
  if (m->size + size > m->capacity) {
    size_t capacity = m->capacity ? m->capacity : 1 << 16;
    while (capacity < m->size + size && capacity <= (size_t)-1 / 2) capacity *= 2;
    char *grown = capacity >= m->size + size ? realloc(m->data, capacity) : NULL;
    if (!grown) {
      m->failed = 1;
      return;
    }
    m->data = grown;
    m->capacity = capacity;
  }
  memcpy(m->data + m->size, data, size);
  m->size += size;
}

static void stream_write(void *context, const char *data, size_t size) {
  fwrite(data, 1, size, (FILE *)context);
}

static int usage_error(const char *message, const char *argument) {
  fprintf(stderr, "cusim-rewrite: error: %s%s\n%s", message, argument ? argument : "", usage);
  return 2;
}

static int read_all(FILE *file, memory *input) {
  char chunk[1 << 16];
  size_t got;
  while ((got = fread(chunk, 1, sizeof chunk, file)) > 0) memory_write(input, chunk, got);
  return !ferror(file) && !input->failed;
}

/* --device-pass: input becomes the two passes spliced (arch_passes.c); its notes go to stderr. */
static int splice_device_pass(memory *input, const char *name, const char *device_path) {
  FILE *file = fopen(device_path, "rb");
  if (!file) {
    fprintf(stderr, "%s: error: cannot open: %s\n", device_path, strerror(errno));
    return 0;
  }
  memory device = {0};
  int read_ok = read_all(file, &device);
  fclose(file);
  if (!read_ok) {
    fprintf(stderr, "%s: error: cannot read\n", device_path);
    free(device.data);
    return 0;
  }
  if (device.size == 0) return 1; /* one pass: nothing to splice */
  memory merged = {0};
  cusim_sink merged_sink = {memory_write, &merged};
  cusim_sink note_sink = {stream_write, stderr};
  int failed = cusim_splice_passes(input->data, input->size, device.data, device.size, merged_sink,
                                   note_sink) ||
               merged.failed;
  free(device.data);
  if (failed) {
    fprintf(stderr, "%s: error: out of memory\n", name);
    free(merged.data);
    return 0;
  }
  free(input->data);
  *input = merged;
  return 1;
}

/* ---- the prelude's region (--prelude-only, --prelude-header) ------------------------------
 * A file preprocessed with -include cusim_prelude.h and rewritten starts with
 *   #line 1 "IN.ii"          (the rewriter's)
 *   # 0 "IN.cu"              (the preprocessor's first linemarker)
 * then the text of the built-ins, the command line and the forced prelude, up to the linemarker
 * `# 1 "IN.cu"` where the main file starts. That region is the same text for every file built
 * with the same flags (it holds system headers only, which the rewriter leaves as they are), so a
 * build may compile it once as a precompiled header (shared/sim/cusim.cmake). Where the text
 * differs from the header's in any byte, nothing is replaced: the file compiles as it is. */
static int prelude_region(const char *data, size_t size, size_t *begin, size_t *end) {
  if (!data || size == 0) return 0;
  const char *line2 = memchr(data, '\n', size);
  if (!line2) return 0;
  line2++;
  size_t rest = size - (size_t)(line2 - data);
  if (rest < 6 || memcmp(line2, "# 0 \"", 5) != 0) return 0;
  const char *line3 = memchr(line2, '\n', rest);
  if (!line3) return 0;
  line3++;
  /* The needle: "\n# 1 \"IN.cu\"\n", the main file's name as line 2 spells it. */
  size_t name_length = (size_t)(line3 - line2) - 4; /* "\"IN.cu\"\n" */
  size_t needle_length = 5 + name_length;
  char *needle = malloc(needle_length);
  if (!needle) return 0;
  memcpy(needle, "\n# 1 ", 5);
  memcpy(needle + 5, line2 + 4, name_length);
  int found = 0;
  for (const char *p = line3 - 1; p + needle_length <= data + size;) {
    const char *newline = memchr(p, '\n', (size_t)(data + size - p));
    if (!newline || newline + needle_length > data + size) break;
    if (memcmp(newline, needle, needle_length) == 0) {
      *begin = (size_t)(line3 - data);
      *end = (size_t)(newline + 1 - data);
      found = 1;
      break;
    }
    p = newline + 1;
  }
  free(needle);
  return found;
}

/* --prelude-header=FILE: when the region is exactly FILE's text, the output says
 * `#include "FILE"` in its place (where FILE.gch is valid, the compiler loads that instead). */
static int include_prelude_header(memory *output, const char *header_path) {
  size_t begin = 0, end = 0;
  if (!prelude_region(output->data, output->size, &begin, &end)) return 0;
  FILE *file = fopen(header_path, "rb");
  if (!file) return 0;
  memory header = {0};
  int read_ok = read_all(file, &header);
  fclose(file);
  int same = read_ok && header.size == end - begin &&
             memcmp(header.data, output->data + begin, header.size) == 0;
  free(header.data);
  if (!same) return 0;
  memory directive = {0};
  memory_write(&directive, "#include \"", 10);
  for (const char *c = header_path; *c; c++) {
    if (*c == '"' || *c == '\\') memory_write(&directive, "\\", 1);
    memory_write(&directive, c, 1);
  }
  memory_write(&directive, "\"\n", 2);
  if (directive.failed || directive.size > end - begin) {
    free(directive.data);
    return 0;
  }
  memcpy(output->data + begin, directive.data, directive.size);
  memmove(output->data + begin + directive.size, output->data + end, output->size - end);
  output->size -= end - begin - directive.size;
  free(directive.data);
  return 1;
}

/* --prelude-only: the output is the region alone (the header a build precompiles). */
static int keep_prelude_only(memory *output) {
  size_t begin = 0, end = 0;
  if (!prelude_region(output->data, output->size, &begin, &end)) return 0;
  memmove(output->data, output->data + begin, end - begin);
  output->size = end - begin;
  return 1;
}

int main(int argc, char **argv) {
  const char *input_path = NULL, *output_path = NULL, *device_path = NULL, *prelude_header = NULL;
  int options_done = 0, prelude_only = 0;
  for (int i = 1; i < argc; i++) {
    const char *argument = argv[i];
    if (!options_done && (strcmp(argument, "--help") == 0 || strcmp(argument, "-h") == 0)) {
      fputs(usage, stdout);
      return 0;
    }
    if (!options_done && strcmp(argument, "--") == 0) {
      options_done = 1;
    } else if (!options_done && strcmp(argument, "--no-branch-sites") == 0) {
      cusim_rewrite_set_branch_sites(0);
    } else if (!options_done && strncmp(argument, "--device-warnings=", 18) == 0) {
      if (!cusim_rewrite_set_device_warnings(argument + 18))
        return usage_error("--device-warnings takes -W options separated by commas: ", argument);
    } else if (!options_done && strncmp(argument, "--device-pass=", 14) == 0) {
      device_path = argument + 14;
    } else if (!options_done && strncmp(argument, "--prelude-header=", 17) == 0 &&
               argument[17] != '\0') {
      prelude_header = argument + 17;
    } else if (!options_done && strcmp(argument, "--prelude-only") == 0) {
      prelude_only = 1;
    } else if (!options_done && strcmp(argument, "-o") == 0) {
      if (i + 1 >= argc) return usage_error("-o needs a file name", NULL);
      if (output_path) return usage_error("more than one output file", NULL);
      output_path = argv[++i];
    } else if (!options_done && argument[0] == '-' && argument[1] != '\0') {
      return usage_error("unknown option ", argument);
    } else if (!input_path) {
      input_path = argument;
    } else if (!output_path) {
      output_path = argument;
    } else {
      return usage_error("unexpected argument ", argument);
    }
  }
  if (!input_path || !output_path)
    return usage_error(input_path ? "no output file given" : "no input file given", NULL);
  if (prelude_header && prelude_only)
    return usage_error("--prelude-header and --prelude-only exclude each other", NULL);

  int from_stdin = strcmp(input_path, "-") == 0;
  const char *name = from_stdin ? "<stdin>" : input_path;
  FILE *input_file = from_stdin ? stdin : fopen(input_path, "rb");
  if (!input_file) {
    fprintf(stderr, "%s: error: cannot open: %s\n", name, strerror(errno));
    return 1;
  }
  memory input = {0};
  int read_ok = read_all(input_file, &input);
  if (!from_stdin) fclose(input_file);
  if (!read_ok) {
    fprintf(stderr, "%s: error: cannot read%s\n", name, input.failed ? ": out of memory" : "");
    free(input.data);
    return 1;
  }

  memory output = {0};
  cusim_sink output_sink = {memory_write, &output};
  cusim_sink error_sink = {stream_write, stderr};
  if (device_path && !splice_device_pass(&input, name, device_path)) {
    free(input.data);
    return 1;
  }
  int failed = cusim_rewrite_buffer(input.data, input.size, name, output_sink, error_sink);
  free(input.data);
  if (!failed && output.failed) {
    fprintf(stderr, "%s: error: out of memory\n", name);
    failed = 1;
  }
  if (!failed && prelude_only && !keep_prelude_only(&output)) {
    fprintf(stderr, "%s: error: no prelude: not preprocessed with -include cusim_prelude.h\n",
            name);
    failed = 1;
  }
  if (!failed && prelude_header) include_prelude_header(&output, prelude_header);

  int to_stdout = strcmp(output_path, "-") == 0;
  if (failed) {
    /* No output on failure, so a build never mistakes a stale file for a fresh one. */
    if (!to_stdout) remove(output_path);
    free(output.data);
    return 1;
  }
  FILE *output_file = to_stdout ? stdout : fopen(output_path, "wb");
  if (!output_file) {
    fprintf(stderr, "%s: error: cannot write: %s\n", output_path, strerror(errno));
    free(output.data);
    return 1;
  }
  int write_ok = fwrite(output.data ? output.data : "", 1, output.size, output_file) == output.size;
  write_ok = (to_stdout ? fflush(output_file) : fclose(output_file)) == 0 && write_ok;
  free(output.data);
  if (!write_ok) {
    fprintf(stderr, "%s: error: cannot write: %s\n", output_path, strerror(errno));
    if (!to_stdout) remove(output_path);
    return 1;
  }
  return 0;
}
