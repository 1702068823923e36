/* libFuzzer target: arbitrary bytes into cusim_rewrite_buffer. Besides the sanitizers' checks it
 * asserts the contract's invariants: a successful rewrite of input without linemarkers has
 * exactly one more line than its input (the #line; with linemarkers, edits may add a resyncing
 * linemarker), and every error is one well-formed "FILE:L:C: error: ..." line (FILE is fuzz.cu,
 * or what a linemarker names). */
#include "rewrite.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct output_summary {
  size_t newlines, bytes;
} output_summary;

static void count_output(void *context, const char *data, size_t size) {
  output_summary *summary = context;
  for (size_t i = 0; i < size; i++) summary->newlines += data[i] == '\n';
  summary->bytes += size;
}

static void check_error(void *context, const char *data, size_t size) {
  size_t *errors = context;
  static const char marker[] = ": error: ";
  int has_marker = 0;
  for (size_t i = 0; i + sizeof marker - 1 <= size && !has_marker; i++)
    has_marker = memcmp(data + i, marker, sizeof marker - 1) == 0;
  if (size == 0 || !has_marker || data[size - 1] != '\n' ||
      memchr(data, '\n', size) != data + size - 1)
    abort();
  ++*errors;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  output_summary output = {0, 0};
  size_t errors = 0;
  cusim_sink output_sink = {count_output, &output};
  cusim_sink error_sink = {check_error, &errors};
  int failed = cusim_rewrite_buffer((const char *)data, size, "fuzz.cu", output_sink, error_sink);
  if (failed) {
    if (errors == 0 || output.bytes != 0) abort(); /* a failure says why and writes nothing */
    return 0;
  }
  size_t input_newlines = 0, hashes = 0;
  for (size_t i = 0; i < size; i++) {
    input_newlines += data[i] == '\n';
    hashes += data[i] == '#';
  }
  if (errors != 0 || output.newlines < input_newlines + 1 ||
      (hashes == 0 && output.newlines != input_newlines + 1))
    abort(); /* line N of the output must be line N of the input */
  return 0;
}
