/* cusim-rewrite's check of __global__ parameter lists: a kernel parameter passed by reference
 * is reported. nvcc accepts it, but on a GPU the kernel would read host memory; the simulator,
 * which shares the host's memory, would otherwise run it without complaint. */
#include "rewriter_internal.h"

#include <stdio.h>

/* ---- __global__ parameter lists --------------------------------------------------------- */

/* Index of the ')' matching the '(' at open, or NO_TOKEN; gives up at a statement boundary or
 * another __global__ so that scans from different kernels never overlap. */
static size_t matching_paren_forward(const rewriter *r, size_t open) {
  size_t depth = 0;
  for (size_t k = open; k < r->token_count; k++) {
    if (is_statement_boundary(r, k) || token_is(r, k, "__global__")) return NO_TOKEN;
    if (token_is_char(r, k, '('))
      depth++;
    else if (token_is_char(r, k, ')') && --depth == 0)
      return k;
  }
  return NO_TOKEN;
}

static void report_reference_parameter(rewriter *r, size_t ampersand, size_t name,
                                       size_t parameter_number) {
  if (name != NO_TOKEN) {
    report(r, ampersand, "kernel parameter '", name,
           "' is a reference; __global__ functions take their parameters by value (nvcc accepts "
           "this, but the kernel would read host memory on a GPU)");
  } else {
    char text[200];
    snprintf(text, sizeof text,
             "kernel parameter %zu is a reference; __global__ functions take their parameters by "
             "value (nvcc accepts this, but the kernel would read host memory on a GPU)",
             parameter_number);
    report(r, ampersand, text, NO_TOKEN, NULL);
  }
}

/* Reports reference parameters of the __global__ function declared at token at. */
void check_kernel_parameters(rewriter *r, size_t at) {
  size_t open = NO_TOKEN;
  for (size_t k = at + 1; k < r->token_count; k++) {
    if (is_statement_boundary(r, k) || token_is(r, k, "__global__")) return;
    if (!token_is_char(r, k, '(')) continue;
    if (token_in_list(r, k - 1, attribute_words)) {
      size_t close = matching_paren_forward(r, k); /* __launch_bounds__(...) and the like */
      if (close == NO_TOKEN) return;
      k = close;
      continue;
    }
    if (token_is_identifier(r, k - 1) || token_is_char(r, k - 1, '>')) open = k;
    break;
  }
  if (open == NO_TOKEN) return;
  size_t depth = 1, angle = 0, parameter_number = 1;
  size_t ampersand = NO_TOKEN, name = NO_TOKEN;
  int in_default = 0;
  for (size_t k = open + 1; k < r->token_count; k++) {
    if (is_statement_boundary(r, k) || token_is(r, k, "__global__")) return;
    if (token_is_char(r, k, '(') || token_is_char(r, k, '[')) {
      depth++;
      continue;
    }
    int closes = token_is_char(r, k, ')') || token_is_char(r, k, ']');
    if (closes && --depth > 0) continue;
    if (closes || (depth == 1 && angle == 0 && token_is_char(r, k, ','))) {
      if (ampersand != NO_TOKEN) report_reference_parameter(r, ampersand, name, parameter_number);
      if (closes || r->stopped) return;
      parameter_number++;
      ampersand = name = NO_TOKEN;
      in_default = 0;
      continue;
    }
    if (depth != 1 || in_default) continue;
    if (token_is_char(r, k, '<')) {
      angle++;
    } else if (token_is_char(r, k, '>')) {
      if (angle > 0) angle--;
    } else if (angle == 0 && token_is_char(r, k, '=')) {
      in_default = 1;
    } else if (angle == 0 && (token_is_char(r, k, '&') || token_is(r, k, "&&"))) {
      if (ampersand == NO_TOKEN) ampersand = k;
    } else if (angle == 0 && is_name(r, k) && !token_is(r, k + 1, "::") &&
               !token_is_char(r, k + 1, '<') && !token_is_char(r, k + 1, '(')) {
      name = k;
    }
  }
}
