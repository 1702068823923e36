/* cusim-rewrite's core: the API of rewrite.h, and the order of the passes over the input.
 *   1. the tokenizer (lexer.c) turns the input into tokens, each preprocessor directive one
 *      opaque token, and reads preprocessed input's linemarkers so that errors (errors.c) name
 *      the file and line they give;
 *   2. a linear scan over the tokens (scan.c) finds kernel launches (launches.c), __shared__
 *      declarations (shared_decl.c) and __global__ parameter lists (kernel_parameters.c), and
 *      records edits (edits.c: byte ranges and their replacements);
 *   3. nvcc's static rules (rules.c: execution spaces, kernel signatures) over the same tokens,
 *      and, on preprocessed input, the hooks in device code (hooks.c: branches, shifts, casts),
 *      the cudaLaunchKernel registration after each kernel and the built-in variables
 *      (builtins.c).
 * The output (output.c) is the input with the edits applied. Every edit is followed by as many
 * newlines as it removed, so output line N is input line N (after the leading #line).
 * Every scan is bounded so that the total work stays linear whatever the input.
 * What the parts share is in rewriter_internal.h. */
#include "rewriter_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int branch_sites = 1; /* cusim_rewrite_set_branch_sites */

void cusim_rewrite_set_branch_sites(int on) {
  branch_sites = on;
}

const char *device_warnings = NULL; /* cusim_rewrite_set_device_warnings */

int cusim_rewrite_set_device_warnings(const char *list) {
  if (list && *list) {
    const char *option = list;
    for (const char *c = list;; c++) {
      if (*c == ',' || *c == '\0') {
        if (c - option < 3 || option[0] != '-' || option[1] != 'W') return 0;
        if (*c == '\0') break;
        option = c + 1;
      } else if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                   (*c >= '0' && *c <= '9') || *c == '-' || *c == '+' || *c == '_')) {
        return 0;
      }
    }
  }
  device_warnings = list && *list ? list : NULL;
  return 1;
}

int cusim_rewrite_buffer(const char *input, size_t size, const char *filename, cusim_sink output,
                         cusim_sink errors) {
  rewriter r;
  memset(&r, 0, sizeof r);
  r.source = input ? input : "";
  r.source_size = input ? size : 0;
  r.filename = filename ? filename : "<input>";
  r.errors = errors;
  r.position_line = 1;

  if (r.source_size >= UINT32_MAX) {
    report(&r, NO_TOKEN, "input too large (the rewriter reads files below 4 GiB)", NO_TOKEN, NULL);
    return 1;
  }
  /* A UTF-8 byte order mark is dropped: after the #line it would sit mid-file. */
  size_t body_start = 0;
  if (r.source_size >= 3 && memcmp(r.source, "\xEF\xBB\xBF", 3) == 0) body_start = 3;

  if (tokenize(&r, body_start)) {
    scan(&r);
    if (!r.out_of_memory && !r.stopped) check_rules(&r);
    if (!r.out_of_memory && !r.stopped) rename_file_shared(&r);
  }
  if (!r.out_of_memory && r.error_count == 0) {
    /* Edits are made in scan order, except null_arg() ones that precede a nested construct. */
    if (r.edit_count > 1) /* qsort must not be handed the NULL of an empty list */
      qsort(r.edits, r.edit_count, sizeof(edit), compare_edits);
    size_t position = body_start;
    for (size_t e = 0; e < r.edit_count; e++) {
      if (r.edits[e].start < position) {
        /* Only contrived code (a launch inside another launch's template arguments) gets here:
         * refuse rather than emit a garbled file. */
        report(&r, r.edits[e].token,
               "cannot rewrite this kernel launch: it overlaps another construct the simulator "
               "rewrites",
               NO_TOKEN, NULL);
        break;
      }
      position = r.edits[e].end;
    }
  }
  if (r.out_of_memory) {
    byte_buffer line = {0};
    if (buffer_append_text(&line, r.filename) &&
        buffer_append_text(&line, ": error: out of memory"))
      write_error_line(&r, &line);
    free(line.data);
  } else if (r.error_count == 0) {
    write_output(&r, body_start, output);
  }
  int failed = r.out_of_memory || r.error_count > 0;
  free(r.tokens);
  free(r.edits);
  free(r.texts.data);
  free(r.scratch.data);
  free(r.braces_in_function);
  free(r.open_launches);
  free(r.bounded_templates);
  free(r.markers);
  free(r.file_shared_names);
  free(r.file_shared_ends);
  return failed;
}
