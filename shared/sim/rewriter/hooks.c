/* cusim-rewrite's hooks in device code, where the GPU defines what C++ leaves to the compiler
 * or where the profiler counts: the conditions of if, while and for are wrapped for the
 * branch-divergence counts; shifts get the GPU's clamped shl/shr (a 32-bit x << 32 is 0);
 * explicit float-to-integer casts get cvt's saturation (NaN gives 0). The runtime side is
 * cusim_shift.h and the profiler. rules.c's pass 2 calls these in device code, on preprocessed
 * input only (the headers that define what they call are there). */
#include "rewriter_internal.h"

/* ---- branch divergence: the conditions of device code ----------------------------------- */

/* The closing ')' of the group opened at `open`, counting (), [] and {} (a lambda in a
 * condition); NO_TOKEN when it is not found within the walk limit. */
static size_t condition_close(const rewriter *r, size_t open) {
  size_t depth = 0;
  for (size_t k = open; k < r->token_count && k - open < RULE_WALK_LIMIT; k++) {
    if (token_is_directive(r, k)) return NO_TOKEN;
    if (token_is_char(r, k, '(') || token_is_char(r, k, '[') || token_is_char(r, k, '{'))
      depth++;
    else if (token_is_char(r, k, ')') || token_is_char(r, k, ']') || token_is_char(r, k, '}')) {
      if (depth == 0) return NO_TOKEN;
      if (--depth == 0) return token_is_char(r, k, ')') ? k : NO_TOKEN;
    }
  }
  return NO_TOKEN;
}

/* Top-level ';' between first and end (tokens), the first two of them in semi[]. */
static int top_level_semicolons(const rewriter *r, size_t first, size_t end, size_t semi[2]) {
  size_t depth = 0;
  int n = 0;
  for (size_t k = first; k < end; k++) {
    if (token_is_char(r, k, '(') || token_is_char(r, k, '[') || token_is_char(r, k, '{'))
      depth++;
    else if ((token_is_char(r, k, ')') || token_is_char(r, k, ']') || token_is_char(r, k, '}')) &&
             depth > 0)
      depth--;
    else if (depth == 0 && token_is_char(r, k, ';')) {
      if (n < 2) semi[n] = k;
      n++;
    }
  }
  return n;
}

/* Words that make tokens an expression, not a declaration (sizeof T{}, x or T{}). */
static const char *const expression_words[] = {
    "sizeof", "alignof", "new",    "delete", "throw",  "co_await", "co_yield",
    "return", "typeid",  "and",    "or",     "not",    "xor",      "bitand",
    "bitor",  "compl",   "and_eq", "or_eq",  "xor_eq", "not_eq",   NULL};

/* Tokens [first, name) can be a declaration's type: names that start no expression and '::',
 * the first a name or '::'; with punct also '*', '&' and template arguments ('<', '>', ',',
 * numbers). */
static int type_before(const rewriter *r, size_t first, size_t name, int punct) {
  if (name <= first || !(token_is_identifier(r, first) || token_is(r, first, "::"))) return 0;
  for (size_t k = first; k < name; k++) {
    if (token_is_identifier(r, k)) {
      if (token_in_list(r, k, expression_words)) return 0;
    } else if (!token_is(r, k, "::") &&
               !(punct && (r->tokens[k].kind == TOKEN_NUMBER || token_is_char(r, k, '*') ||
                           token_is_char(r, k, '&') || token_is_char(r, k, '<') ||
                           token_is_char(r, k, '>') || token_is_char(r, k, ',')))) {
      return 0;
    }
  }
  return 1;
}

/* A condition that declares a variable: if (int x = f()), a top-level '=' after a name that
 * follows a type word, '*', '&' or '>'; or if (int x{f()}), a top-level '{' after a name that
 * follows a type word, with only names and '::' before (ns::Foo{} and a > B{} are
 * expressions). Returns the name's token, or NO_TOKEN. */
static size_t condition_declared_name(const rewriter *r, size_t first, size_t end) {
  if (token_is_char(r, first, '*')) return NO_TOKEN; /* if (*p = v): an assignment */
  size_t depth = 0;
  for (size_t k = first; k < end; k++) {
    if (depth == 0 && token_is_char(r, k, '{') && k >= first + 2 && is_name(r, k - 1) &&
        token_is_identifier(r, k - 2) && type_before(r, first, k - 1, 0))
      return k - 1;
    if (token_is_char(r, k, '(') || token_is_char(r, k, '[') || token_is_char(r, k, '{'))
      depth++;
    else if ((token_is_char(r, k, ')') || token_is_char(r, k, ']') || token_is_char(r, k, '}')) &&
             depth > 0)
      depth--;
    else if (depth == 0 && token_is_char(r, k, '=') && k >= first + 2 && is_name(r, k - 1) &&
             (token_is_identifier(r, k - 2) || token_is_char(r, k - 2, '*') ||
              token_is_char(r, k - 2, '&') || token_is_char(r, k - 2, '>')))
      return k - 1;
  }
  return NO_TOKEN;
}

static const char branch_site_text[] =
    "::cusim::dev::br([] { static constexpr ::cusim::dev::branch_site s{__FILE__, __LINE__}; "
    "return &s; }(), static_cast<bool>(";

/* Wraps tokens [first, end) of a condition: ::cusim::dev::br(SITE, static_cast<bool>(COND)),
 * SITE a static record of the file and line (the profiler's divergence counts). A condition
 * that declares a variable is left alone here (hook_branch tests its variable). */
static void wrap_condition(rewriter *r, size_t first, size_t end) {
  if (first >= end || condition_declared_name(r, first, end) != NO_TOKEN) return;
  /* while (0) of a macro, while (1), if (true): a constant, which nvcc compiles away */
  if (end == first + 1 && (r->tokens[first].kind == TOKEN_NUMBER || token_is(r, first, "true") ||
                           token_is(r, first, "false")))
    return;
  size_t at = r->tokens[first].start;
  r->scratch.size = 0;
  scratch_text(r, branch_site_text);
  add_edit(r, first, at, at);
  size_t after = r->tokens[end - 1].start + r->tokens[end - 1].length;
  r->scratch.size = 0;
  scratch_text(r, "))");
  add_edit(r, end - 1, after, after);
}

/* if (T x = E) or if (T x{E}): nvcc branches on x, so the simulator counts it too, as C++17's
 * if (T x = E; br(SITE, static_cast<bool>(x))): the same scope and the same test. Only when the
 * tokens before the name can be a type (type_before); otherwise left as it was, unwrapped.
 * (A while's declaration has no such form: left alone.) */
static void wrap_declared_if(rewriter *r, size_t first, size_t end) {
  size_t name = condition_declared_name(r, first, end);
  if (name == NO_TOKEN || !type_before(r, first, name, 1)) return;
  size_t after = r->tokens[end - 1].start + r->tokens[end - 1].length;
  r->scratch.size = 0;
  scratch_text(r, "; ");
  scratch_text(r, branch_site_text);
  scratch_token(r, name);
  scratch_text(r, "))");
  add_edit(r, end - 1, after, after);
}

/* if (...), while (...) (and do ... while (...)), for (...; COND; ...) at token i; an if's
 * init-statement (if (INIT; COND)) is left out of the wrapped condition. */
void hook_branch(rewriter *r, size_t i) {
  if (r->tokens[i].system || !token_is_char(r, i + 1, '(')) return; /* if constexpr: left */
  size_t close = condition_close(r, i + 1);
  if (close == NO_TOKEN) return;
  size_t semi[2];
  int n = top_level_semicolons(r, i + 2, close, semi);
  if (token_is(r, i, "for")) {
    if (n == 2) wrap_condition(r, semi[0] + 1, semi[1]);
  } else if (n == 0) {
    wrap_condition(r, i + 2, close);
    if (token_is(r, i, "if")) wrap_declared_if(r, i + 2, close);
  } else if (n == 1 && token_is(r, i, "if")) {
    wrap_condition(r, semi[0] + 1, close);
  }
}

/* ---- shifts in device code: the GPU's clamped shl/shr (issue 27, cusim_shift.h) --------- */

/* Tokens i and i+1 are the two touching halves of '<<' or '>>' (c), and no third one follows
 * them ('<<<' and '<< <', '>>>' and '>> >' are a launch's). */
static int shift_pair(const rewriter *r, size_t i, char c) {
  return token_is_char(r, i, c) && token_is_char(r, i + 1, c) && token_touches_previous(r, i + 1) &&
         !token_is_char(r, i + 2, c) &&
         !(i > 0 && token_is_char(r, i - 1, c) && token_touches_previous(r, i));
}

/* The '>>' at i closes two template argument lists (vector<vector<int>>): walking back through
 * its expression, two '<' are open. One open '<' is a comparison (i < n >> 1). Where it cannot
 * tell, it says yes: a shift left alone keeps x86's answer, a template closer rewritten would not
 * compile. */
static int closes_templates(const rewriter *r, size_t i) {
  size_t parens = 0, closed = 0, open = 0;
  for (size_t k = i; k-- > 0 && i - k < RULE_WALK_LIMIT;) {
    if (is_statement_boundary(r, k)) break;
    if (token_is_char(r, k, ')') || token_is_char(r, k, ']')) {
      parens++;
    } else if (token_is_char(r, k, '(') || token_is_char(r, k, '[')) {
      if (parens == 0) break;
      parens--;
    } else if (parens > 0) {
      continue;
    } else if (token_is(r, k, "&&") || token_is_char(r, k, '|') || token_is_char(r, k, '?') ||
               token_is_char(r, k, ':') || token_is_char(r, k, '=')) {
      break;
    } else if (token_is_char(r, k, '>')) {
      closed++;
    } else if (token_is_char(r, k, '<')) {
      if (closed > 0)
        closed--;
      else if (++open >= 2)
        return 1;
    }
  }
  return 0;
}

/* An edit already replaces the bytes around `at`, or inserts there (their order would be
 * unknown): the shift is left alone. */
static int edit_at(const rewriter *r, size_t at) {
  for (size_t e = 0; e < r->edit_count; e++)
    if (r->edits[e].start == at || (r->edits[e].start < at && at < r->edits[e].end)) return 1;
  return 0;
}

/* '<<', '>>', '<<=' or '>>=' at token i of device code: a second operator of the same precedence
 * and associativity is inserted after it, with the site (cusim_shift.h):
 * a << b  ->  a << ::cusim::dev::shift_site{__FILE__, __LINE__} << b. */
void hook_shift(rewriter *r, size_t i) {
  char c = token_is_char(r, i, '<') ? '<' : '>';
  if (r->tokens[i].system || !shift_pair(r, i, c) || token_is(r, i - 1, "operator")) return;
  int compound = token_is_char(r, i + 2, '=') && token_touches_previous(r, i + 2) &&
                 !(token_is_char(r, i + 3, '=') && token_touches_previous(r, i + 3));
  if (c == '>' && !compound && closes_templates(r, i)) return;
  size_t last = compound ? i + 2 : i + 1;
  size_t at = r->tokens[last].start + r->tokens[last].length;
  if (edit_at(r, at)) return;
  r->scratch.size = 0;
  scratch_text(r, " ::cusim::dev::shift_site{__FILE__, __LINE__} ");
  scratch_text(r, c == '<' ? (compound ? "<<=" : "<<") : (compound ? ">>=" : ">>"));
  add_edit(r, last, at, at);
}

/* ---- explicit float-to-integer conversions in device code (issue 27, cusim_shift.h) ------- */

static const char *const integer_words[] = {"unsigned", "signed", "char", "short",
                                            "int",      "long",   NULL};
static const char *const integer_typedefs[] = {
    "size_t",  "ssize_t", "ptrdiff_t", "intptr_t", "uintptr_t", "int8_t",   "int16_t",
    "int32_t", "int64_t", "uint8_t",   "uint16_t", "uint32_t",  "uint64_t", NULL};

/* Tokens [first, end) spell an integer type: keywords only (unsigned long long), or one of the
 * usual typedefs, optionally std:: or ::. */
static int integer_type(const rewriter *r, size_t first, size_t end) {
  if (first >= end) return 0;
  if (token_in_list(r, first, integer_typedefs) && end == first + 1) return 1;
  if (end == first + 2 && token_is(r, first, "::") && token_in_list(r, first + 1, integer_typedefs))
    return 1;
  if (end == first + 3 && token_is(r, first, "std") && token_is(r, first + 1, "::") &&
      token_in_list(r, first + 2, integer_typedefs))
    return 1;
  for (size_t k = first; k < end; k++)
    if (!token_in_list(r, k, integer_words)) return 0;
  return 1;
}

/* The group opened at `open` ('(') closes at its matching ')' with no top-level ',' in it. */
static size_t single_argument_close(const rewriter *r, size_t open) {
  size_t close = condition_close(r, open);
  if (close == NO_TOKEN) return NO_TOKEN;
  size_t depth = 0;
  for (size_t k = open + 1; k < close; k++) {
    if (token_is_char(r, k, '(') || token_is_char(r, k, '[') || token_is_char(r, k, '{'))
      depth++;
    else if (token_is_char(r, k, ')') || token_is_char(r, k, ']') || token_is_char(r, k, '}'))
      depth--;
    else if (depth == 0 && token_is_char(r, k, ','))
      return NO_TOKEN;
  }
  return close;
}

/* Replaces tokens [first, open] (the cast up to the operand's '(', or a C cast's ')' when its
 * operand is not parenthesized) with ::cusim::dev::gpu_cast<TYPE>(SITE, , TYPE tokens
 * [type, type_end). A C cast keeps its own '(' (a condition's wrapping may start there): (int)(x)
 * becomes (gpu_cast<int>)(SITE, x). With operand_end (a token) the operand is not parenthesized:
 * (int)x becomes (gpu_cast<int>)(SITE, x), a ')' inserted after its last token. Left alone when
 * another edit is there already (the order of two insertions at one offset is not kept). */
static void wrap_cast(rewriter *r, size_t first, size_t open, size_t type, size_t type_end,
                      int c_style, size_t operand_end) {
  size_t start = r->tokens[first].start, end = r->tokens[open].start + 1;
  size_t after = operand_end == NO_TOKEN
                     ? 0
                     : r->tokens[operand_end - 1].start + r->tokens[operand_end - 1].length;
  for (size_t e = 0; e < r->edit_count; e++)
    if (r->edits[e].start < end && r->edits[e].end > start) return;
  for (size_t e = 0; e < r->edit_count; e++)
    if (r->edits[e].start == start || r->edits[e].start == end) return;
  if (operand_end != NO_TOKEN && edit_at(r, after)) return;
  r->scratch.size = 0;
  scratch_text(r, "::cusim::dev::gpu_cast<");
  scratch_tokens(r, type, type_end, NULL, NULL);
  scratch_text(r, c_style ? ">)(" : ">(");
  scratch_text(r, "::cusim::dev::shift_site{__FILE__, __LINE__}, ");
  add_edit(r, first, start, end);
  if (operand_end != NO_TOKEN) {
    r->scratch.size = 0;
    scratch_text(r, ")");
    add_edit(r, operand_end - 1, after, after);
  }
}

/* The token that closes the group opened at `open` ('(', '[' or '{'), counting all three;
 * NO_TOKEN when the closer does not match or is not found within the walk limit. */
static size_t group_close(const rewriter *r, size_t open) {
  static const char opens[] = "([{", closes[] = ")]}";
  char want = 0;
  for (int c = 0; c < 3; c++)
    if (token_is_char(r, open, opens[c])) want = closes[c];
  size_t depth = 0;
  for (size_t k = open; want && k < r->token_count && k - open < RULE_WALK_LIMIT; k++) {
    if (token_is_directive(r, k)) return NO_TOKEN;
    if (token_is_char(r, k, '(') || token_is_char(r, k, '[') || token_is_char(r, k, '{'))
      depth++;
    else if (token_is_char(r, k, ')') || token_is_char(r, k, ']') || token_is_char(r, k, '}')) {
      if (depth == 0) return NO_TOKEN;
      if (--depth == 0) return token_is_char(r, k, want) ? k : NO_TOKEN;
    }
  }
  return NO_TOKEN;
}

/* The '<' at k opens a template argument list followed by a call or a scope (f<int>(x),
 * A<3>::v): a '>' at its depth before the expression ends, then '(', '::' or '{'. A '<' that
 * is a comparison (x < n) or a shift is not. */
static int opens_template_call(const rewriter *r, size_t k) {
  if (token_is_char(r, k + 1, '<') && token_touches_previous(r, k + 1)) return 0; /* << */
  size_t depth = 0;
  for (size_t j = k + 1; j < r->token_count && j - k < 32; j++) {
    if (is_statement_boundary(r, j) || token_is(r, j, "&&") || token_is_char(r, j, '?')) return 0;
    if (token_is_char(r, j, '(') || token_is_char(r, j, '[')) {
      depth++;
    } else if (token_is_char(r, j, ')') || token_is_char(r, j, ']')) {
      if (depth == 0) return 0;
      depth--;
    } else if (depth == 0 && token_is_char(r, j, '>')) {
      return token_is_char(r, j + 1, '(') || token_is(r, j + 1, "::") ||
             token_is_char(r, j + 1, '{') || token_is_char(r, j + 1, '>');
    }
  }
  return 1; /* cannot tell: as a template (the cast is then left alone) */
}

/* The operand of a C cast that starts at k when it is not parenthesized: prefix operators
 * (- + ! ~ * & ++ --), then a name (qualified or not), a number, a literal, this, or a
 * parenthesized expression, then postfix operators ([...], (...), .name, ->name, ++, --).
 * Returns the token after its last one, or NO_TOKEN where it is something else (a nested cast
 * (int)(float)x, a template call f<T>(x), a lambda, a braced initializer): left alone. */
static size_t cast_operand_end(const rewriter *r, size_t k) {
  size_t first = k;
  while (k - first < 8 &&
         (token_is_char(r, k, '-') || token_is_char(r, k, '+') || token_is_char(r, k, '!') ||
          token_is_char(r, k, '~') || token_is_char(r, k, '*') || token_is_char(r, k, '&')))
    k++;
  if (k >= r->token_count) return NO_TOKEN;
  int parenthesized = 0;
  if (token_is_char(r, k, '(')) {
    size_t close = group_close(r, k);
    if (close == NO_TOKEN) return NO_TOKEN;
    k = close + 1;
    parenthesized = 1;
  } else if (r->tokens[k].kind == TOKEN_NUMBER || r->tokens[k].kind == TOKEN_LITERAL) {
    if (k >= r->token_count) return NO_TOKEN;
    k++;
  } else {
    if (token_is(r, k, "::")) k++;
    if (!is_name(r, k) && !token_is(r, k, "this") && !token_is(r, k, "true") &&
        !token_is(r, k, "false") && !token_is(r, k, "nullptr"))
      return NO_TOKEN;
    k++;
    while (token_is(r, k, "::") && is_name(r, k + 1)) k += 2;
  }
  /* (int)-(float)x, (int)-(f)(x): the parenthesized part is a cast or a callee */
  if (parenthesized && (token_is_char(r, k, '(') || token_is_identifier(r, k) ||
                        r->tokens[k].kind == TOKEN_NUMBER || r->tokens[k].kind == TOKEN_LITERAL))
    return NO_TOKEN;
  for (;;) {
    if (token_is_char(r, k, '[') || token_is_char(r, k, '(')) {
      size_t close = group_close(r, k);
      if (close == NO_TOKEN) return NO_TOKEN;
      k = close + 1;
    } else if ((token_is_char(r, k, '.') || token_is(r, k, "->")) && is_name(r, k + 1)) {
      k += 2;
    } else if ((token_is_char(r, k, '+') && token_is_char(r, k + 1, '+') &&
                token_touches_previous(r, k + 1)) ||
               (token_is_char(r, k, '-') && token_is_char(r, k + 1, '-') &&
                token_touches_previous(r, k + 1))) {
      k += 2;
    } else {
      break;
    }
  }
  if (k >= r->token_count || token_is_char(r, k, '{') || token_is_char(r, k, '.') ||
      token_is(r, k, "->") || token_is(r, k, "::") || token_is_identifier(r, k) ||
      r->tokens[k].kind == TOKEN_NUMBER || r->tokens[k].kind == TOKEN_LITERAL ||
      (token_is_char(r, k, '<') && opens_template_call(r, k)))
    return NO_TOKEN;
  return k;
}

/* The tokens before a functional cast int(x) at `type` make it an expression: an operator, '(',
 * '[', ',', '=' or return. After ';', '{', '}' or ':' int(x) declares x; after '<' or '>' it may
 * be a function type (function<int(float)>). */
static int expression_before(const rewriter *r, size_t k) {
  static const char operators[] = "=([,?+-*/%&|^!~";
  if (token_is(r, k, "return")) return 1;
  if (token_is_char(r, k, '(') && (token_is(r, k - 1, "for") || token_is(r, k - 1, "catch")))
    return 0;
  for (const char *c = operators; *c; c++)
    if (token_is_char(r, k, *c)) return 1;
  return token_is(r, k, "&&");
}

/* The functional cast INT(x) whose '(' is at i (INT one word: int, unsigned, long, short, char,
 * signed, or a typedef, optionally std:: or ::), in an expression, with one argument that is not
 * a type: ::cusim::dev::gpu_cast<INT>(SITE, x). */
static void functional_cast(rewriter *r, size_t i) {
  if (i < 2) return;
  size_t type = i - 1;
  if (token_in_list(r, type, integer_typedefs)) {
    if (token_is(r, type - 1, "::")) {
      type--;
      if (token_is(r, type - 1, "std")) type--;
    }
  } else if (!token_in_list(r, type, integer_words)) {
    return;
  }
  if (type == 0 || token_in_list(r, type - 1, integer_words) || !expression_before(r, type - 1))
    return;
  size_t close = single_argument_close(r, i);
  if (close == NO_TOKEN || close == i + 1) return;
  /* int(float), int(const T &), int(T *): a function type's parameter, not a value */
  if ((close == i + 2 && token_is_identifier(r, i + 1) && !is_name(r, i + 1) &&
       !token_is(r, i + 1, "this") && !token_is(r, i + 1, "true") && !token_is(r, i + 1, "false") &&
       !token_is(r, i + 1, "nullptr")) ||
      token_is(r, i + 1, "const") || token_is(r, i + 1, "volatile") ||
      token_is(r, i + 1, "struct") || token_is(r, i + 1, "class") ||
      token_is(r, i + 1, "typename") || token_is_char(r, close - 1, '*') ||
      token_is_char(r, close - 1, '&') || token_is(r, close - 1, "&&"))
    return;
  wrap_cast(r, type, i, type, i, 0, NO_TOKEN);
}

/* static_cast<INTEGER>(x); the C cast (INTEGER)(x) whose operand is parenthesized and not
 * followed by a postfix operator (the cast would then apply to more than the parentheses); the C
 * cast (INTEGER)x whose operand is a unary expression (cast_operand_end: (int)x, (int)f[0],
 * (int)p->v, (unsigned)-x, (long long)f(3)); the functional cast INTEGER(x). */
void hook_cast(rewriter *r, size_t i) {
  if (r->tokens[i].system) return;
  if (token_is(r, i, "static_cast") && token_is_char(r, i + 1, '<')) {
    size_t close = i + 2;
    while (close < r->token_count && close - i < 8 && !token_is_char(r, close, '>')) close++;
    if (!token_is_char(r, close, '>') || !token_is_char(r, close + 1, '(') ||
        !integer_type(r, i + 2, close) || single_argument_close(r, close + 1) == NO_TOKEN)
      return;
    wrap_cast(r, i, close + 1, i + 2, close, 0, NO_TOKEN);
    return;
  }
  if (!token_is_char(r, i, '(')) return;
  functional_cast(r, i);
  if (is_name(r, i - 1) || token_is_char(r, i - 1, ')') || token_is_char(r, i - 1, ']') ||
      token_is_char(r, i - 1, '>') || token_is(r, i - 1, "sizeof") ||
      token_is(r, i - 1, "alignof") || token_is(r, i - 1, "decltype") ||
      token_is(r, i - 1, "typeid") || token_is(r, i - 1, "noexcept") ||
      token_is(r, i - 1, "operator") || token_in_list(r, i - 1, integer_words) ||
      token_in_list(r, i - 1, integer_typedefs))
    return;
  size_t close = i + 1;
  while (close < r->token_count && close - i < 8 && !token_is_char(r, close, ')')) close++;
  if (!token_is_char(r, close, ')') || !integer_type(r, i + 1, close)) return;
  if (!token_is_char(r, close + 1, '(')) {
    size_t operand_end = cast_operand_end(r, close + 1);
    if (operand_end != NO_TOKEN) wrap_cast(r, i + 1, close, i + 1, close, 1, operand_end);
    return;
  }
  size_t operand_close = single_argument_close(r, close + 1);
  if (operand_close == NO_TOKEN) return;
  size_t after = operand_close + 1;
  /* (int)(p)[3] casts p[3]; (int)(float)x casts x; (int)(f)(x) casts a call: left alone */
  if (token_is_char(r, after, '[') || token_is_char(r, after, '(') ||
      token_is_char(r, after, '.') || token_is(r, after, "->") ||
      r->tokens[after].kind == TOKEN_IDENTIFIER || r->tokens[after].kind == TOKEN_NUMBER ||
      r->tokens[after].kind == TOKEN_LITERAL ||
      (token_is_char(r, after, '+') && token_is_char(r, after + 1, '+') &&
       token_touches_previous(r, after + 1)) ||
      (token_is_char(r, after, '-') && token_is_char(r, after + 1, '-') &&
       token_touches_previous(r, after + 1)))
    return;
  wrap_cast(r, i + 1, close + 1, i + 1, close, 1, NO_TOKEN);
}
