/* cusim-rewrite's __shared__ declarations: each declarator of '__shared__ T name[N];' (several
 * in one declaration as nvcc takes them) becomes a typedef and a reference to the block's copy,
 * ::cusim::shared_var<T>(SITE); an 'extern __shared__ T name[];' becomes a pointer into the
 * block's dynamic arena, ::cusim::shared_dynamic(). What the simulator cannot rewrite, and
 * what nvcc rejects (an initializer), is reported. */
#include "rewriter_internal.h"

#include <stdlib.h>

/* ---- __shared__ declarations ------------------------------------------------------------ */

/* Specifiers that only say where the variable lives; a typedef cannot carry them. */
static int is_storage_word(const rewriter *r, size_t i, void *unused) {
  (void)unused;
  return token_is(r, i, "__shared__") || token_is(r, i, "static") || token_is(r, i, "extern") ||
         token_is(r, i, "__device__");
}

/* The tokens of an 'alignas(...)' in the declaration ([0], [1] inclusive; NO_TOKEN: none): a
 * typedef cannot carry it, so it goes into the site instead (scratch_shared_declarator). */
static size_t alignas_range[2] = {NO_TOKEN, NO_TOKEN};
static int is_storage_word_or_alignas(const rewriter *r, size_t i, void *unused) {
  return (alignas_range[0] != NO_TOKEN && i >= alignas_range[0] && i <= alignas_range[1]) ||
         is_storage_word(r, i, unused);
}

/* The name of the declarator in tokens [from, to): the last plain identifier before its array
 * part, not a type's template name, qualifier or attribute, and not a keyword; or NO_TOKEN. */
static size_t declarator_name(const rewriter *r, size_t from, size_t to) {
  size_t name = NO_TOKEN, depth = 0, angle = 0;
  for (size_t k = from; k < to; k++) {
    if (depth == 0 && token_is_char(r, k, '[')) break;
    if (token_is_char(r, k, '(')) depth++;
    if (token_is_char(r, k, ')') && depth > 0) depth--;
    if (depth > 0) continue;
    if (token_is_char(r, k, '<')) angle++;
    if (token_is_char(r, k, '>') && angle > 0) angle--;
    if (angle == 0 && is_name(r, k) && !token_is_char(r, k + 1, '(') &&
        !token_is_char(r, k + 1, '<') && !token_is(r, k + 1, "::") && !token_is(r, k - 1, "::"))
      name = k;
  }
  return name;
}

/* ---- __shared__ at file scope ----------------------------------------------------------- */

/* The file-scope __shared__ declarator whose name is token i's text, or NO_TOKEN. */
static size_t file_shared_index(const rewriter *r, size_t i) {
  for (size_t f = 0; f < r->file_shared_count; f++) {
    size_t n = r->file_shared_names[f];
    if (r->tokens[n].length == r->tokens[i].length &&
        memcmp(token_text(r, n), token_text(r, i), r->tokens[i].length) == 0)
      return f;
  }
  return NO_TOKEN;
}

static int note_file_shared(rewriter *r, size_t name, size_t after) {
  if (!reserve((void **)&r->file_shared_names, &r->file_shared_capacity, r->file_shared_count + 1,
               sizeof(size_t)) ||
      !reserve((void **)&r->file_shared_ends, &r->file_shared_end_capacity,
               r->file_shared_count + 1, sizeof(size_t))) {
    r->out_of_memory = 1;
    return 0;
  }
  r->file_shared_names[r->file_shared_count] = name;
  r->file_shared_ends[r->file_shared_count++] = after;
  return 1;
}

/* Words after which a name is read, not declared: return count, sizeof count, case count. */
static const char *const expression_words[] = {
    "return",   "sizeof", "case", "else",    "do",     "throw", "co_return", "co_yield",
    "co_await", "delete", "new",  "alignof", "typeid", "not",   "compl",     NULL};

/* Token i names a file-scope __shared__ variable after its declaration, and is not a member
 * (.NAME, ->NAME): a use, to become a call of the variable's accessor. */
static int is_file_shared_use(const rewriter *r, size_t i) {
  if (r->file_shared_count == 0 || !token_is_identifier(r, i) || i == 0 ||
      token_is_char(r, i - 1, '.') || token_is(r, i - 1, "->"))
    return 0;
  size_t f = file_shared_index(r, i);
  return f != NO_TOKEN && i >= r->file_shared_ends[f];
}

/* A use that reads as a declaration of the same name (int count, a member, a parameter). */
static int is_redeclaration(const rewriter *r, size_t i) {
  return token_is_identifier(r, i - 1) && !token_in_list(r, i - 1, expression_words);
}

/* Appends tokens [from, to) as scratch_tokens does, with each use of a file-scope __shared__
 * variable (sizeof(table) in an array bound) its accessor's call. */
static void scratch_tokens_renamed(rewriter *r, size_t from, size_t to) {
  size_t run = from;
  for (size_t k = from; k < to; k++) {
    if (!is_file_shared_use(r, k)) continue;
    scratch_tokens(r, run, k, is_storage_word_or_alignas, NULL);
    scratch_text(r, " cusim_file_shared_");
    scratch_token(r, k);
    scratch_text(r, "() ");
    run = k + 1;
  }
  scratch_tokens(r, run, to, is_storage_word_or_alignas, NULL);
}

/* After all other edits: each use of a file-scope __shared__ variable's name after its
 * declaration (not a member: .NAME, ->NAME) becomes a call of its accessor,
 * cusim_file_shared_NAME(), a reference to (or, extern, a pointer into) the current block's copy.
 * Tokens inside another edit's text are left as they are (a __shared__ declaration's array
 * bound renames its own, scratch_tokens_renamed). A later declaration of the same name in a
 * block (a local variable, a member) hides the variable until the block ends, as in C++; one in
 * parentheses (a parameter) or at file scope is reported: the rename does not follow it. */
void rename_file_shared(rewriter *r) {
  if (r->file_shared_count == 0) return;
  size_t sorted = r->edit_count, next_edit = 0, covered_to = 0;
  if (sorted > 1) qsort(r->edits, sorted, sizeof(edit), compare_edits);
  /* A declaration of the same name in a block hides the variable there, until the block ends,
   * as in C++: shadow[f] is the brace depth it was declared at (0: not hidden). */
  size_t *shadow = calloc(r->file_shared_count, sizeof(size_t));
  if (shadow == NULL) {
    r->out_of_memory = 1;
    return;
  }
  size_t braces = 0, parens = 0; /* the first declaration is at file scope: both 0 there */
  for (size_t i = r->file_shared_ends[0]; i < r->token_count && !r->out_of_memory; i++) {
    if (token_is_char(r, i, '{')) braces++;
    if (token_is_char(r, i, '(')) parens++;
    if (token_is_char(r, i, ')') && parens > 0) parens--;
    if (token_is_char(r, i, '}') && braces > 0) {
      for (size_t f = 0; f < r->file_shared_count; f++)
        if (shadow[f] == braces) shadow[f] = 0;
      braces--;
    }
    if (!is_file_shared_use(r, i)) continue;
    size_t f = file_shared_index(r, i);
    if (shadow[f] != 0) continue;
    size_t start = r->tokens[i].start, end = start + r->tokens[i].length;
    while (next_edit < sorted && r->edits[next_edit].start < end)
      if (r->edits[next_edit++].end > covered_to) covered_to = r->edits[next_edit - 1].end;
    if (covered_to > start) continue;
    if (is_redeclaration(r, i)) {
      if (braces > 0 && parens == 0) { /* dim3 block(8, 8); in a function: its own variable */
        shadow[f] = braces;
        continue;
      }
      report(r, i, "'", i,
             "' is declared again after a __shared__ variable of that name at file scope; the "
             "simulator does not tell them apart: rename one");
      continue;
    }
    r->scratch.size = 0;
    scratch_text(r, "cusim_file_shared_");
    scratch_token(r, i);
    scratch_text(r, "()");
    add_edit(r, i, start, end);
  }
  free(shadow);
}

/* One declarator's replacement: typedef BASE PTRS cusim_shared_t_NAME DIMS; and the reference
 * (or, extern, the pointer into the dynamic arena) named NAME. Tokens [first, base_end) are the
 * specifiers shared by all declarators, [ptrs, name) this declarator's '*'s, (name, end) its
 * array part. */
static void scratch_shared_declarator(rewriter *r, size_t first, size_t base_end, size_t ptrs,
                                      size_t name, size_t end, int is_extern, int is_aligned,
                                      int file_scope) {
  scratch_text(r, "typedef ");
  scratch_tokens_renamed(r, first, base_end);
  if (ptrs < name) {
    scratch_text(r, " ");
    scratch_tokens(r, ptrs, name, is_storage_word, NULL);
  }
  scratch_text(r, " cusim_shared_t_");
  scratch_token(r, name);
  scratch_tokens_renamed(r, name + 1, end);
  scratch_text(r, "; ");
  if (is_extern && file_scope) {
    /* At file scope: an accessor of the block's dynamic arena; uses of NAME call it. */
    scratch_text(r, "static inline ::std::remove_extent_t<cusim_shared_t_");
    scratch_token(r, name);
    scratch_text(r, ">* cusim_file_shared_");
    scratch_token(r, name);
    scratch_text(r, "() { return (::std::remove_extent_t<cusim_shared_t_");
    scratch_token(r, name);
    scratch_text(r, ">*)::cusim::shared_dynamic(); }");
  } else if (is_extern) {
    const char *element[] = {"::std::remove_extent_t<cusim_shared_t_", NULL, ">"};
    for (int pointer = 0; pointer < 2; pointer++) {
      if (pointer) scratch_text(r, " = (");
      scratch_text(r, element[0]);
      scratch_token(r, name);
      scratch_text(r, element[2]);
      scratch_text(r, pointer ? "*)::cusim::shared_dynamic();" : "* const ");
      if (!pointer) scratch_token(r, name);
    }
  } else {
    /* At file scope: an accessor of the current block's copy (one site, whichever kernel or
     * device function uses it); uses of NAME call it (rename_file_shared). */
    scratch_text(r, file_scope ? "static inline cusim_shared_t_" : "cusim_shared_t_");
    scratch_token(r, name);
    scratch_text(r, file_scope ? "& cusim_file_shared_" : "& ");
    scratch_token(r, name);
    scratch_text(r, file_scope ? "() { return *::cusim::shared_var<cusim_shared_t_"
                               : " = *::cusim::shared_var<cusim_shared_t_");
    scratch_token(r, name);
    /* A template argument loses a typedef's alignment attribute, so an aligned declaration's
     * site also tells the alignment (an addition to the contract in docs/architecture.md: site()
     * returns it). */
    if (alignas_range[0] != NO_TOKEN) {
      /* alignas(type) or alignas(expression): legal on a member, whichever it is */
      scratch_text(r, ">([]{ struct cusim_aligned { ");
      scratch_tokens(r, alignas_range[0], alignas_range[1] + 1, NULL, NULL);
      scratch_text(r, " cusim_shared_t_");
      scratch_token(r, name);
      scratch_text(r, " v; }; return alignof(cusim_aligned); });");
    } else if (is_aligned) {
      scratch_text(r, ">([]{ return alignof(cusim_shared_t_");
      scratch_token(r, name);
      scratch_text(r, "); });");
    } else {
      scratch_text(r, ">([]{});");
    }
    if (file_scope) scratch_text(r, " }");
  }
}

enum { MAX_SHARED_DECLARATORS = 64 };

/* Rewrites the __shared__ declaration around token at; returns the token the scan continues at. */
size_t rewrite_shared(rewriter *r, size_t at) {
  const char *unsupported = "cannot rewrite this __shared__ declaration for the simulator "
                            "(expected a declaration like '__shared__ float name[N];')";
  /* Back to the start of the declaration: only specifiers may come before __shared__. */
  size_t first = at;
  while (first > r->walk_floor) {
    size_t k = first - 1;
    if (is_statement_boundary(r, k) || token_is_char(r, k, ':')) break;
    if (token_is_char(r, k, ')')) {
      size_t open = matching_paren_backward(r, k);
      if (open == NO_TOKEN || open == 0 || !token_in_list(r, open - 1, attribute_words)) {
        report(r, at, unsupported, NO_TOKEN, NULL);
        return at + 1;
      }
      first = open - 1;
      continue;
    }
    if (token_is_char(r, k, '(') || token_is_char(r, k, '=') || token_is_char(r, k, ',') ||
        token_is_char(r, k, '?') || token_is_char(r, k, '[') || token_is_char(r, k, ']') ||
        token_is_char(r, k, '<') || r->tokens[k].kind == TOKEN_LITERAL ||
        r->tokens[k].kind == TOKEN_NUMBER) {
      report(r, at, unsupported, NO_TOKEN, NULL);
      return at + 1;
    }
    first = k;
  }

  /* Forward to the ';', noting the declarator's name, its array part and what is not allowed. */
  size_t depth = 0, angle = 0, end = NO_TOKEN, dimensions = NO_TOKEN, name = NO_TOKEN;
  size_t comma = NO_TOKEN, initializer = NO_TOKEN, alignas_at = NO_TOKEN;
  size_t commas[MAX_SHARED_DECLARATORS], comma_count = 0; /* between declarators */
  int is_extern = 0, is_aligned = 0;
  for (size_t k = first; k < r->token_count; k++) {
    if (token_is_directive(r, k)) {
      report(r, k,
             "a preprocessor directive inside a __shared__ declaration is not supported by the "
             "simulator",
             NO_TOKEN, NULL);
      return at + 1;
    }
    int opens = token_is_char(r, k, '(') || token_is_char(r, k, '[') || token_is_char(r, k, '{');
    int closes = token_is_char(r, k, ')') || token_is_char(r, k, ']') || token_is_char(r, k, '}');
    if (depth == 0) {
      if (token_is_char(r, k, ';')) {
        end = k;
        break;
      }
      if (token_is_char(r, k, '[') && dimensions == NO_TOKEN) dimensions = k;
      if ((token_is_char(r, k, '{') || token_is_char(r, k, '=')) && angle == 0 &&
          initializer == NO_TOKEN)
        initializer = k;
      if (token_is_char(r, k, ',') && angle == 0) {
        if (comma == NO_TOKEN) comma = k;
        if (comma_count == MAX_SHARED_DECLARATORS) {
          report(r, k, "more __shared__ declarators in one declaration than the simulator takes",
                 NO_TOKEN, NULL);
          return at + 1;
        }
        commas[comma_count++] = k;
      }
      if (dimensions == NO_TOKEN && token_is_char(r, k, '<')) angle++;
      if (dimensions == NO_TOKEN && token_is_char(r, k, '>') && angle > 0) angle--;
      if (token_is(r, k, "extern")) is_extern = 1;
      if (token_is(r, k, "alignas") && alignas_at == NO_TOKEN) alignas_at = k;
      if (token_is(r, k, "__align__") || token_is(r, k, "__attribute__")) is_aligned = 1;
      /* The name: the last plain identifier before the array part, not a type's template name,
       * qualifier or attribute, and not a keyword. */
      if (dimensions == NO_TOKEN && initializer == NO_TOKEN && comma == NO_TOKEN && angle == 0 &&
          is_name(r, k) && !token_is_char(r, k + 1, '(') && !token_is_char(r, k + 1, '<') &&
          !token_is(r, k + 1, "::") && !token_is(r, k - 1, "::"))
        name = k;
    }
    if (opens) {
      depth++;
    } else if (closes) {
      if (depth == 0) {
        report(r, at, unsupported, NO_TOKEN, NULL);
        return at + 1;
      }
      depth--;
    }
  }
  if (end == NO_TOKEN) {
    report(r, at, "expected ';' after this __shared__ declaration", NO_TOKEN, NULL);
    return at + 1;
  }
  int in_function = r->brace_count > 0 && r->braces_in_function[r->brace_count - 1];
  /* At file scope (outside any braces) nvcc takes it too: each block of a kernel that uses it
   * has its own copy. Inside a namespace or class it is not supported. */
  int file_scope = r->brace_count == 0;
  if (!in_function && !file_scope) {
    report(r, at, "__shared__ variable '", name,
           name != NO_TOKEN ? "' in a namespace or class is not supported by the simulator; "
                              "declare it at file scope or inside the kernel"
                            : "in a namespace or class is not supported by the simulator; declare "
                              "it at file scope or inside the kernel");
    return end + 1;
  }
  if (name == NO_TOKEN) {
    report(r, at, unsupported, NO_TOKEN, NULL);
    return end + 1;
  }
  if (initializer != NO_TOKEN) {
    report(r, initializer, "__shared__ variable '", name,
           "' has an initializer; CUDA does not allow initializing __shared__ variables "
           "(nvcc rejects this too)");
    return end + 1;
  }
  alignas_range[0] = alignas_range[1] = NO_TOKEN;
  if (alignas_at != NO_TOKEN) {
    /* One alignas(...) before the name; its alignment goes into the site. */
    size_t close = NO_TOKEN, depth = 0;
    for (size_t k = alignas_at + 1; k < end && close == NO_TOKEN; k++) {
      if (token_is_char(r, k, '(')) depth++;
      if (token_is_char(r, k, ')') && depth > 0 && --depth == 0) close = k;
    }
    size_t again = NO_TOKEN;
    for (size_t k = close == NO_TOKEN ? end : close + 1; k < end && again == NO_TOKEN; k++)
      if (token_is(r, k, "alignas")) again = k;
    if (!token_is_char(r, alignas_at + 1, '(') || close == NO_TOKEN || close > name ||
        again != NO_TOKEN) {
      report(r, again != NO_TOKEN ? again : alignas_at,
             "this alignas in a __shared__ declaration is not supported by the simulator (one "
             "alignas(...) before the name is); use __align__(n)",
             NO_TOKEN, NULL);
      return end + 1;
    }
    alignas_range[0] = alignas_at;
    alignas_range[1] = close;
  }
  /* Several declarators (__shared__ int x, y[4];): each its own variable, as nvcc makes them. The
   * specifiers end before the first declarator's '*'s; each declarator keeps its own. */
  size_t base_end = name;
  while (base_end > first &&
         (token_is_char(r, base_end - 1, '*') || token_is_char(r, base_end - 1, '&') ||
          (token_is(r, base_end - 1, "const") && base_end - 1 > first &&
           token_is_char(r, base_end - 2, '*'))))
    base_end--;
  r->scratch.size = 0;
  for (size_t d = 0; d <= comma_count; d++) {
    size_t from = d == 0 ? first : commas[d - 1] + 1, to = d == comma_count ? end : commas[d];
    size_t own = d == 0 ? name : declarator_name(r, from, to);
    if (own == NO_TOKEN) {
      report(r, from < to ? from : at, unsupported, NO_TOKEN, NULL);
      return end + 1;
    }
    if (is_extern &&
        !(to == own + 3 && token_is_char(r, own + 1, '[') && token_is_char(r, own + 2, ']'))) {
      report(r, own, "extern __shared__ variable '", own,
             "' must be an array of unknown size, as in 'extern __shared__ float name[];'");
      return end + 1;
    }
    if (!file_scope && is_file_shared_use(r, own)) {
      report(r, own, "'", own,
             "' is declared again after a __shared__ variable of that name at file scope; the "
             "simulator does not tell them apart: rename one");
      r->scratch.size = 0; /* an empty edit: the rename does not report it again */
      add_edit(r, at, r->tokens[first].start, r->tokens[end].start + 1);
      return end + 1;
    }
    if (file_scope && file_shared_index(r, own) != NO_TOKEN) continue; /* declared again */
    if (file_scope && !note_file_shared(r, own, end + 1)) return end + 1;
    if (d > 0) scratch_text(r, " ");
    scratch_shared_declarator(r, first, base_end, d == 0 ? base_end : from, own, to, is_extern,
                              is_aligned, file_scope);
  }
  alignas_range[0] = alignas_range[1] = NO_TOKEN;
  add_edit(r, at, r->tokens[first].start, r->tokens[end].start + 1);
  r->walk_floor = end + 1;
  return end + 1;
}
