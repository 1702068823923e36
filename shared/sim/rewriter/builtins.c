/* cusim-rewrite's built-in variables: in device code, threadIdx, blockIdx, blockDim and gridDim
 * become the simulator's reads of them; elsewhere they are the program's own names, as under
 * nvcc (issue 27, item 4). */
#include "rewriter_internal.h"

#include <stdlib.h>

/* ---- the built-in variables: names in device code only (issue 27, item 4) ---------------- */

/* On preprocessed input the headers leave threadIdx, blockIdx, blockDim and gridDim undefined
 * (cusim_device.h): in a __device__ or __global__ body, and in any block or lambda inside one, or
 * a lambda written __device__, each of these names that is not a member (.x, ->x, Q::x) becomes
 * the simulator's read of it. Elsewhere the name is the program's own: a host variable,
 * parameter or member named gridDim builds, as under nvcc. A local variable of device code with
 * one of these names is the limit (nvcc lets it hide the built-in; here it does not compile). */
/* clock() in device code is the GPU's cycle counter, not the C library's clock() (a system call
 * per thread, and CPU time): a call of clock in device code becomes the simulator's. */
static const char *const builtin_names[] = {"threadIdx", "blockIdx", "blockDim",
                                            "gridDim",   "clock",    NULL};
static const char *const builtin_reads[] = {
    "::cusim::detail::builtin_thread_idx()", "::cusim::detail::builtin_block_idx()",
    "::cusim::detail::builtin_block_dim()", "::cusim::detail::builtin_grid_dim()",
    "::cusim::detail::builtin_clock"};
static const int builtin_clock_index = 4;

/* The '{' at open follows __device__ in its own statement: [=] __device__ (int i) { ... }. */
static int opens_device_lambda(const rewriter *r, size_t open) {
  for (size_t k = open; k-- > 0 && open - k < 64;) {
    if (is_statement_boundary(r, k)) return 0;
    if (token_is(r, k, "__device__")) return 1;
  }
  return 0;
}

void rewrite_builtins(rewriter *r, const unsigned char *device_body) {
  unsigned char *in_device = NULL;
  size_t brace_count = 0, brace_capacity = 0;
  size_t sorted = r->edit_count, next_edit = 0, covered_to = 0;
  if (sorted > 1) qsort(r->edits, sorted, sizeof(edit), compare_edits);
  for (size_t i = 0; i < r->token_count && !r->out_of_memory && !r->stopped; i++) {
    int inside = brace_count > 0 && in_device[brace_count - 1];
    if (token_is_char(r, i, '{')) {
      if (!reserve((void **)&in_device, &brace_capacity, brace_count + 1, 1)) {
        r->out_of_memory = 1;
        break;
      }
      in_device[brace_count++] =
          (unsigned char)(inside || device_body[i] || opens_device_lambda(r, i));
      continue;
    }
    if (token_is_char(r, i, '}')) {
      if (brace_count > 0) brace_count--;
      continue;
    }
    if (!inside || !token_is_identifier(r, i)) continue;
    int which = -1;
    for (int b = 0; builtin_names[b]; b++)
      if (token_is(r, i, builtin_names[b])) which = b;
    /* ::threadIdx names the global built-in too; Q::threadIdx, .threadIdx, ->threadIdx do not */
    int global = i > 0 && token_is(r, i - 1, "::") &&
                 !(i > 1 && (token_is_identifier(r, i - 2) || token_is_char(r, i - 2, '>')));
    if (which < 0 || token_is_char(r, i - 1, '.') || token_is(r, i - 1, "->") ||
        (token_is(r, i - 1, "::") && !global))
      continue;
    if (which == builtin_clock_index && !(i + 1 < r->token_count && token_is_char(r, i + 1, '(')))
      continue; /* only a call: a variable named clock is the program's */
    size_t start = r->tokens[global ? i - 1 : i].start,
           end = r->tokens[i].start + r->tokens[i].length;
    /* inside a launch's or a declaration's rewritten text: left as it is (the earlier edits are
     * sorted, and tokens come in order: one walk over them) */
    while (next_edit < sorted && r->edits[next_edit].start < end)
      if (r->edits[next_edit++].end > covered_to) covered_to = r->edits[next_edit - 1].end;
    if (covered_to > start) continue;
    r->scratch.size = 0;
    scratch_text(r, builtin_reads[which]);
    add_edit(r, i, start, end);
  }
  free(in_device);
}
