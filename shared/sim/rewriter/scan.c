/* cusim-rewrite's scan: one linear pass over the tokens that tracks nesting ((), [], {}, and
 * whether each '{' is inside a function body), hands each kernel launch, __shared__
 * declaration and __global__ parameter list to its part (launches.c, shared_decl.c,
 * kernel_parameters.c), and reports launches written in #define bodies. The backward walks
 * here never go below r->walk_floor, past the last rewritten construct, so the work stays
 * linear. */
#include "rewriter_internal.h"

/* ---- walks within one statement --------------------------------------------------------- */

/* Index of the '<' that opens the template argument list closed by the '>' at close, or
 * NO_TOKEN. Parenthesized parts may hold '<' and '>' of their own. */
size_t matching_angle_backward(const rewriter *r, size_t close) {
  size_t angle = 0, parens = 0;
  for (size_t k = close + 1; k-- > r->walk_floor;) {
    if (is_statement_boundary(r, k)) return NO_TOKEN;
    if (token_is_char(r, k, ')') || token_is_char(r, k, ']')) {
      parens++;
    } else if (token_is_char(r, k, '(') || token_is_char(r, k, '[')) {
      if (parens == 0) return NO_TOKEN;
      parens--;
    } else if (parens == 0 && token_is_char(r, k, '>')) {
      angle++;
    } else if (parens == 0 && token_is_char(r, k, '<')) {
      if (--angle == 0) return k;
    }
  }
  return NO_TOKEN;
}

/* Index of the '(' matching the ')' at close, or NO_TOKEN; stays within one statement. */
size_t matching_paren_backward(const rewriter *r, size_t close) {
  size_t depth = 0;
  for (size_t k = close + 1; k-- > r->walk_floor;) {
    if (is_statement_boundary(r, k)) return NO_TOKEN;
    if (token_is_char(r, k, ')'))
      depth++;
    else if (token_is_char(r, k, '(') && --depth == 0)
      return k;
  }
  return NO_TOKEN;
}

/* ---- attribute groups ------------------------------------------------------------------- */

/* An attribute group: an attribute word with its parenthesized arguments (__launch_bounds__(...),
 * __attribute__((...)), alignas(...), __declspec(...)), or [[...]]. Its arguments are
 * expressions that may hold '<', '>', '>>', '?' and ':' (__launch_bounds__(N < 512 ? N : 512)):
 * the walks that look for template angles or a declaration's start treat the group as one
 * opaque unit, matched by balanced parentheses (or brackets). */

/* The last token of the attribute group that starts at token k, or NO_TOKEN when none starts
 * there; stays within one statement and RULE_WALK_LIMIT tokens. */
size_t attribute_group_end(const rewriter *r, size_t k) {
  char opening, closing;
  if (token_in_list(r, k, attribute_words) && token_is_char(r, k + 1, '(')) {
    opening = '(', closing = ')';
    k++;
  } else if (token_is_char(r, k, '[') && token_is_char(r, k + 1, '[')) {
    opening = '[', closing = ']';
  } else {
    return NO_TOKEN;
  }
  size_t depth = 0;
  for (size_t j = k; j < r->token_count && j - k < RULE_WALK_LIMIT; j++) {
    if (is_statement_boundary(r, j)) return NO_TOKEN;
    if (token_is_char(r, j, opening)) depth++;
    if (token_is_char(r, j, closing) && --depth == 0)
      return opening == '(' || token_is_char(r, j - 1, ']') ? j : NO_TOKEN;
  }
  return NO_TOKEN;
}

/* The first token of the attribute group whose last token is at close (its attribute word, or
 * the first '[' of [[), or NO_TOKEN when no group ends there. */
size_t attribute_group_start(const rewriter *r, size_t close) {
  char opening, closing;
  if (token_is_char(r, close, ')')) {
    opening = '(', closing = ')';
  } else if (token_is_char(r, close, ']') && close > 0 && token_is_char(r, close - 1, ']')) {
    opening = '[', closing = ']';
  } else {
    return NO_TOKEN;
  }
  size_t depth = 0;
  for (size_t j = close + 1; j-- > 0 && close - j < RULE_WALK_LIMIT;) {
    if (is_statement_boundary(r, j)) return NO_TOKEN;
    if (token_is_char(r, j, closing)) depth++;
    if (token_is_char(r, j, opening) && --depth == 0) {
      if (opening == '(')
        return j > 0 && token_in_list(r, j - 1, attribute_words) ? j - 1 : NO_TOKEN;
      return token_is_char(r, j + 1, '[') ? j : NO_TOKEN;
    }
  }
  return NO_TOKEN;
}

/* ---- the scan --------------------------------------------------------------------------- */

/* Whether the '{' at token open starts a function body (or a block inside one): decided by the
 * nearest telling token before it in the same statement. */
static int opens_function_body(const rewriter *r, size_t open) {
  for (size_t k = open; k-- > 0;) {
    if (token_is_directive(r, k)) continue;
    if (token_is_char(r, k, ';') || token_is_char(r, k, '{') || token_is_char(r, k, '}') ||
        token_is_char(r, k, '=') || r->tokens[k].kind == TOKEN_LITERAL)
      return 0; /* a file-scope initializer or extern "C" { */
    if (token_is(r, k, "namespace") || token_is(r, k, "struct") || token_is(r, k, "class") ||
        token_is(r, k, "union") || token_is(r, k, "enum"))
      return 0;
    if (token_is_char(r, k, ']') || token_is_char(r, k, ')')) {
      /* struct alignas(8) S { and struct [[nodiscard]] S { are no function: skip attribute
       * groups; any other ')' ends a parameter list, any other ']' a lambda's captures. */
      size_t group = attribute_group_start(r, k);
      if (group == NO_TOKEN) return 1;
      k = group; /* the loop goes on before the attribute */
    }
  }
  return 0;
}

static void push_brace(rewriter *r, size_t open) {
  int in_function = (r->brace_count > 0 && r->braces_in_function[r->brace_count - 1]) ||
                    opens_function_body(r, open);
  if (!reserve((void **)&r->braces_in_function, &r->brace_capacity, r->brace_count + 1, 1)) {
    r->out_of_memory = 1;
    return;
  }
  r->braces_in_function[r->brace_count++] = (unsigned char)in_function;
}

/* Handles a closing ')', ']' or '}' at token k: finishes a launch argument list it closes. */
static void close_nesting(rewriter *r, size_t k, size_t *depth) {
  if (r->open_launch_count > 0) {
    launch_arguments *arguments = &r->open_launches[r->open_launch_count - 1];
    if (arguments->depth_inside == *depth) {
      if (token_is_char(r, k, ')')) finish_launch_argument(r, arguments->first_argument_token, k);
      r->open_launch_count--;
    }
  }
  if (*depth > 0) (*depth)--;
}

void scan(rewriter *r) {
  size_t depth = 0; /* (), [] and {} together: enough to find the end of a launch's arguments */
  size_t i = 0, macro_launch = 0;
  while (i < r->token_count && !r->stopped && !r->out_of_memory) {
    const token *t = &r->tokens[i];
    if (t->kind == TOKEN_PUNCTUATOR && t->length == 1) {
      launch_arguments *arguments =
          r->open_launch_count > 0 ? &r->open_launches[r->open_launch_count - 1] : NULL;
      switch (token_text(r, i)[0]) {
      case '{':
        push_brace(r, i);
        depth++;
        break;
      case '(':
      case '[':
        depth++;
        break;
      case '}':
        if (r->brace_count > 0) r->brace_count--;
        close_nesting(r, i, &depth);
        break;
      case ')':
      case ']':
        close_nesting(r, i, &depth);
        break;
      case ',':
        if (arguments && arguments->depth_inside == depth) {
          finish_launch_argument(r, arguments->first_argument_token, i);
          arguments->first_argument_token = i + 1;
        }
        break;
      case ';':
        if (arguments && arguments->depth_inside == depth)
          r->open_launch_count--; /* a broken argument list: the compiler will say so */
        break;
      case '<':
        if (is_launch_start(r, i)) {
          i = rewrite_launch(r, i, &depth);
          continue;
        }
        break;
      default:
        break;
      }
    } else if (t->kind == TOKEN_IDENTIFIER) {
      if (token_is(r, i, "__shared__")) {
        i = rewrite_shared(r, i);
        continue;
      }
      if (token_is(r, i, "__global__")) check_kernel_parameters(r, i);
    } else if (t->kind == TOKEN_DIRECTIVE) {
      /* A macro body cannot be rewritten line for line; say so rather than let the C++ compiler
       * stumble over '<<<' wherever the macro is used. */
      while (macro_launch < r->macro_launch_count && r->macro_launch_tokens[macro_launch] < i)
        macro_launch++;
      if (macro_launch < r->macro_launch_count && r->macro_launch_tokens[macro_launch] == i)
        report_at_offset(r, r->macro_launch_offsets[macro_launch],
                         "a kernel launch inside a #define is not supported by the simulator; "
                         "launch the kernel outside the macro",
                         NO_TOKEN, NULL);
    }
    i++;
  }
}
