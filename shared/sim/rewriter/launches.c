/* cusim-rewrite's kernel launches: k<<<grid, block, shared, stream>>>(args) becomes
 * ::cusim::launch(::cusim::config(grid, block, ...), "k", __FILE__, __LINE__, CALL, args), where
 * CALL calls the kernel in each simulated thread (the contract is in docs/architecture.md). The
 * scan (scan.c) finds the '<<<' and follows the argument list, where a lone 0 or NULL becomes
 * ::cusim::null_arg(). */
#include "rewriter_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- kernel launches -------------------------------------------------------------------- */

/* A launch opens with "<<" then "<" and closes with ">>" then ">", with or without space between
 * (nvcc 13 takes "k << < g, b >> > (...)", as Rodinia's particlefilter writes it, and refuses
 * "< <<" and "> >>"). */
int is_launch_start(const rewriter *r, size_t i) {
  return token_is_char(r, i, '<') && token_is_char(r, i + 1, '<') && token_is_char(r, i + 2, '<') &&
         token_touches_previous(r, i + 1) && !token_is(r, i - 1, "operator");
}

static int is_launch_end(const rewriter *r, size_t i) {
  return token_is_char(r, i, '>') && token_is_char(r, i + 1, '>') && token_is_char(r, i + 2, '>') &&
         token_touches_previous(r, i + 1);
}

/* First token of the callee expression that ends just before token end (a '<<<'): a name with
 * optional template arguments, '::'-qualified, possibly '::template'; or a parenthesized
 * expression such as (*kernel_pointer) that is not a call's argument list. NO_TOKEN if none. */
static size_t callee_start(const rewriter *r, size_t end) {
  if (end > r->walk_floor && token_is_char(r, end - 1, ')')) {
    size_t open = matching_paren_backward(r, end - 1);
    if (open == NO_TOKEN || open + 1 >= end - 1) return NO_TOKEN; /* () holds nothing */
    if (open > r->walk_floor &&
        (is_name(r, open - 1) || token_is_char(r, open - 1, ')') ||
         token_is_char(r, open - 1, ']') || token_is_char(r, open - 1, '>')))
      return NO_TOKEN; /* f(x)<<<: a call's result, not a kernel */
    return open;
  }
  size_t first = end;
  int want_name = 1, after_scope = 0;
  while (first > r->walk_floor) {
    size_t k = first - 1;
    if (want_name) {
      if (token_is_char(r, k, '>')) {
        size_t open = matching_angle_backward(r, k);
        if (open == NO_TOKEN || open == 0 || open - 1 < r->walk_floor || !is_name(r, open - 1))
          break;
        first = open - 1;
      } else if (is_name(r, k)) {
        first = k;
      } else {
        break;
      }
      want_name = 0;
      after_scope = 0;
    } else if (token_is(r, k, "::")) {
      first = k;
      want_name = 1;
      after_scope = 1;
    } else if (token_is(r, k, "template") && k > r->walk_floor && token_is(r, k - 1, "::")) {
      first = k; /* ns::template kernel<T> */
    } else {
      break;
    }
  }
  if (first == end || (want_name && !after_scope)) return NO_TOKEN;
  return first;
}

/* Index of the first '>' of the '>>>' that closes the launch configuration starting at token
 * first, or NO_TOKEN (after reporting why). */
static size_t launch_config_end(rewriter *r, size_t open, size_t first) {
  size_t depth = 0;
  for (size_t k = first; k < r->token_count; k++) {
    if (token_is_directive(r, k)) {
      report(r, k,
             "a preprocessor directive inside a kernel launch configuration is not supported by "
             "the simulator",
             NO_TOKEN, NULL);
      return NO_TOKEN;
    }
    if (token_is_char(r, k, '(') || token_is_char(r, k, '[') || token_is_char(r, k, '{')) {
      depth++;
    } else if (token_is_char(r, k, ')') || token_is_char(r, k, ']') || token_is_char(r, k, '}')) {
      if (depth == 0) break;
      depth--;
    } else if (depth == 0 && token_is_char(r, k, ';')) {
      break;
    } else if (depth == 0 && is_launch_end(r, k)) {
      return k;
    }
  }
  report(r, open, "'<<<' without a matching '>>>'", NO_TOKEN, NULL);
  return NO_TOKEN;
}

static int is_null_literal(const rewriter *r, size_t i) {
  return token_is(r, i, "0") || token_is(r, i, "NULL") || token_is(r, i, "0L") ||
         token_is(r, i, "0UL");
}

/* A launch argument spans tokens [first, end): a lone 0 or NULL there becomes null_arg(). */
void finish_launch_argument(rewriter *r, size_t first, size_t end) {
  if (end == first + 1 && is_null_literal(r, first)) {
    r->scratch.size = 0;
    scratch_text(r, "::cusim::null_arg()");
    add_edit(r, first, r->tokens[first].start, r->tokens[first].start + r->tokens[first].length);
  }
}

/* The template kernels with __launch_bounds__ in the whole input, found once: after each
 * __launch_bounds__(...), the first name followed by '(' within a few tokens, where the
 * declaration holding it starts with 'template'. */
static void find_bounded_templates(rewriter *r) {
  r->bounded_templates_found = 1;
  for (size_t k = 0; k + 1 < r->token_count && !r->out_of_memory; k++) {
    if (!token_is(r, k, "__launch_bounds__") || !token_is_char(r, k + 1, '(')) continue;
    size_t depth = 0, close = NO_TOKEN, name = NO_TOKEN;
    for (size_t j = k + 1; j < r->token_count && close == NO_TOKEN; j++) {
      if (token_is_char(r, j, ';') || token_is_char(r, j, '{')) break;
      if (token_is_char(r, j, '(')) depth++;
      if (token_is_char(r, j, ')') && --depth == 0) close = j;
    }
    for (size_t j = close + 1; close != NO_TOKEN && j + 1 < r->token_count && j < close + 8; j++)
      if (is_name(r, j) && token_is_char(r, j + 1, '(')) {
        name = j;
        break;
      }
    int templated = 0;
    for (size_t j = k; name != NO_TOKEN && j-- > 0 && k - j < 256;) {
      if (token_is_char(r, j, ';') || token_is_char(r, j, '{') || token_is_char(r, j, '}') ||
          token_is_directive(r, j))
        break;
      if (token_is(r, j, "template")) templated = 1;
    }
    if (!templated) continue;
    if (!reserve((void **)&r->bounded_templates, &r->bounded_template_capacity,
                 r->bounded_template_count + 1, sizeof(size_t))) {
      r->out_of_memory = 1;
      return;
    }
    r->bounded_templates[r->bounded_template_count++] = name;
    k = name;
  }
}

/* True when the callee [first, end) is a plain (possibly qualified) name of such a template. */
static int names_bounded_template(rewriter *r, size_t first, size_t end) {
  if (end == first || !token_is_identifier(r, end - 1)) return 0;
  for (size_t k = first; k < end; k++)
    if (token_is_char(r, k, '(') || token_is_char(r, k, '<')) return 0;
  if (!r->bounded_templates_found) find_bounded_templates(r);
  for (size_t n = 0; n < r->bounded_template_count; n++) {
    size_t t = r->bounded_templates[n];
    if (r->tokens[t].length == r->tokens[end - 1].length &&
        memcmp(token_text(r, t), token_text(r, end - 1), r->tokens[t].length) == 0)
      return 1;
  }
  return 0;
}

/* Rewrites the launch whose '<<<' starts at token open; *depth is the scan's nesting depth.
 * Returns the token the scan continues at. */
size_t rewrite_launch(rewriter *r, size_t open, size_t *depth) {
  size_t first = callee_start(r, open);
  if (first == NO_TOKEN) {
    report(r, open, "expected a kernel name before '<<<'", NO_TOKEN, NULL);
    return open + 3;
  }
  if (first > 0 && (token_is_char(r, first - 1, '.') || token_is(r, first - 1, "->"))) {
    report(r, first - 1, "a kernel must be a function, not a member reached with '.' or '->'",
           NO_TOKEN, NULL);
    return open + 3;
  }
  size_t config_end = launch_config_end(r, open, open + 3);
  if (config_end == NO_TOKEN) return open + 3;
  size_t paren = config_end + 3;
  if (!token_is_char(r, paren, '(')) {
    report(r, paren < r->token_count ? paren : config_end,
           "expected '(' and the kernel's arguments after '>>>'", NO_TOKEN, NULL);
    return paren;
  }
  /* A template's instance (k<256>), or a template kernel with bounds named without its arguments
     (k<<<...>>>(x)): the launch passes a probe that finds the instance, by the arguments' types
     or by the name alone (cusim_device.h: with_probe), so that its own __launch_bounds__ apply,
     not those of every instance of the name. */
  int probed = 0;
  for (size_t k = first; k < open; k++)
    if (token_is_char(r, k, '<')) probed = 1;
  if (!probed) probed = names_bounded_template(r, first, open);
  byte_buffer callee = {0};
  if (!append_tokens(r, &callee, first, open, NULL, NULL)) r->out_of_memory = 1;
  r->scratch.size = 0;
  scratch_text(r, probed ? "::cusim::launch(::cusim::with_probe(::cusim::config("
                         : "::cusim::launch(::cusim::config(");
  scratch_tokens(r, open + 3, config_end, NULL, NULL);
  if (probed) {
    scratch_text(r, "), [&](auto cusim_probe) -> decltype(::cusim::detail::kernel_pointer(");
    scratch_buffer(r, &callee);
    scratch_text(r, ", cusim_probe)) { return ::cusim::detail::kernel_pointer(");
    scratch_buffer(r, &callee);
    scratch_text(r, ", cusim_probe); }");
  }
  scratch_text(r, "), \"");
  if (!r->out_of_memory && buffer_append_escaped(&r->scratch, callee.data, callee.size)) {
    /* The kernel's arguments reach each simulated thread as CUDA passes them, bytes copied
       without a constructor or destructor (cusim_device.h: call_kernel): the first lambda finds
       the kernel's address where its name resolves to one function, the second is the plain
       call for the rest. */
    scratch_text(r, "\", __FILE__, __LINE__, [=](auto&&... cusim_arg) { "
                    "::cusim::detail::call_kernel([&](auto cusim_probe) -> "
                    "decltype(::cusim::detail::kernel_pointer(");
    scratch_buffer(r, &callee);
    scratch_text(r, ", cusim_probe)) { return ::cusim::detail::kernel_pointer(");
    scratch_buffer(r, &callee);
    scratch_text(r, ", cusim_probe); }, [&] { ");
    scratch_buffer(r, &callee);
    scratch_text(r, "(cusim_arg...); }, cusim_arg...); }");
    if (!token_is_char(r, paren + 1, ')')) scratch_text(r, ", ");
  } else {
    r->out_of_memory = 1;
  }
  free(callee.data);
  add_edit(r, open, r->tokens[first].start, r->tokens[paren].start + 1);

  if (!reserve((void **)&r->open_launches, &r->open_launch_capacity, r->open_launch_count + 1,
               sizeof(launch_arguments))) {
    r->out_of_memory = 1;
    return paren + 1;
  }
  (*depth)++;
  launch_arguments *arguments = &r->open_launches[r->open_launch_count++];
  arguments->depth_inside = *depth;
  arguments->first_argument_token = paren + 1;
  r->walk_floor = paren + 1;
  return paren + 1;
}
