/* cusim-rewrite's two passes (issue 27): nvcc preprocesses a .cu file twice, once for the host
 * (__CUDA_ARCH__ undefined) and once for the device (__CUDA_ARCH__ 900 on the simulated GPU), and
 * compiles device code from the second only. The simulator compiles one file, so this splices
 * the two preprocessed files into one before the rewrite (cusim_splice_passes, rewrite.h):
 *   - each file is cut into the declarations of its namespace and class scopes ("units": a
 *     declaration up to its ';', a function definition up to its body's '}', the opening and the
 *     closing of a namespace, extern "C" or class body), each placed by its linemarkers at a
 *     source position: the include chain, the line and its rank on that line;
 *   - a unit is device-only when its specifiers say __global__, or __device__, __constant__ or
 *     __shared__ without __host__ (the device pass keeps __constant__ in the text for this);
 *   - the two lists are merged in source order: at a position both passes have, a device-only
 *     unit comes from the device pass, any other from the host pass; a device-only definition
 *     that only the host pass has is left out (nvcc compiles none of it); a unit only the device
 *     pass has is taken when it is device-only, or when the host pass declares nothing of that
 *     name at that place (between the same two shared units) and has no unit at that file and
 *     line elsewhere (an #if __CUDA_ARCH__ without #else: a helper type of device code, an
 *     #include).
 * Where the simulator cannot do what nvcc does, one note says what runs: a unit other than a
 * device-only one or a host function (a __host__ __device__ function, a class member, a type, a
 * variable) whose text differs between the passes runs the host pass's text in kernels too, as
 * does a declaration that the device pass has beside the host pass's own of the same name.
 * The merged file keeps its linemarkers (without the include flags 1 and 2, whose nesting the
 * splice breaks), so errors and __LINE__ still name the program's own lines. */
#include "rewriter_internal.h"

#include <stdio.h>
#include <stdlib.h>

/* An include instance: file entered from line include_line of its parent. */
typedef struct frame {
  size_t parent, include_line, depth;
  const char *file;
  size_t file_length;
} frame;

typedef struct frame_table {
  frame *items;
  size_t count, capacity;
} frame_table;

enum { UNIT_OTHER, UNIT_OPEN, UNIT_CLOSE };

typedef struct unit {
  size_t first, last; /* tokens, inclusive */
  size_t frame, line, ordinal;
  size_t name;    /* a token that names it, or NO_TOKEN */
  size_t partner; /* the unit at the same place in the other pass, or NO_TOKEN */
  size_t gap;     /* how many shared units precede it */
  unsigned char kind, device_only, host_device, host_function, defines, system;
} unit;

typedef struct pass {
  rewriter r;
  size_t *marker_frames;
  unit *units;
  size_t unit_count, unit_capacity;
  size_t *constant_tokens; /* __constant__ words, blanked in the output */
  size_t constant_count, constant_capacity;
} pass;

typedef struct splice {
  pass host, device;
  frame_table frames;
  byte_buffer out, notes;
  size_t note_count;
  int out_of_memory;
} splice;

static size_t frame_id(splice *s, size_t parent, size_t include_line, const char *file,
                       size_t length) {
  frame_table *t = &s->frames;
  for (size_t i = t->count; i-- > 0;) {
    frame *f = &t->items[i];
    if (f->parent == parent && f->include_line == include_line && f->file_length == length &&
        memcmp(f->file, file, length) == 0)
      return i;
  }
  if (!reserve((void **)&t->items, &t->capacity, t->count + 1, sizeof(frame))) {
    s->out_of_memory = 1;
    return 0;
  }
  frame *f = &t->items[t->count];
  f->parent = parent;
  f->include_line = include_line;
  f->depth = parent == NO_TOKEN ? 0 : t->items[parent].depth + 1;
  f->file = file;
  f->file_length = length;
  return t->count++;
}

/* Each linemarker's include instance: flag 1 enters a file, flag 2 returns, none switches. */
static void assign_frames(splice *s, pass *p) {
  rewriter *r = &p->r;
  size_t n = r->marker_count;
  size_t *include_lines = calloc(n + 1, sizeof(size_t));
  size_t *stack = malloc((n + 1) * sizeof(size_t));
  p->marker_frames = malloc((n + 1) * sizeof(size_t));
  if (!include_lines || !stack || !p->marker_frames) {
    s->out_of_memory = 1;
    free(include_lines);
    free(stack);
    return;
  }
  size_t depth = 0;
  for (size_t k = 0; k < n; k++) { /* the line of each #include: its return marker's, less 1 */
    const linemarker *m = &r->markers[k];
    if ((m->flags & 4) && depth > 0) include_lines[stack[--depth]] = m->line > 0 ? m->line - 1 : 0;
    if (m->flags & 2) stack[depth++] = k;
  }
  size_t root = frame_id(s, NO_TOKEN, 0, "", 0);
  depth = 0;
  stack[depth++] = root;
  for (size_t k = 0; k < n && !s->out_of_memory; k++) {
    const linemarker *m = &r->markers[k];
    const char *file = r->source + m->file_start;
    size_t top = stack[depth - 1];
    if (m->flags & 2) {
      stack[depth++] = frame_id(s, top, include_lines[k], file, m->file_length);
    } else {
      if ((m->flags & 4) && depth > 1) depth--;
      top = stack[depth - 1];
      const frame *f = &s->frames.items[top];
      if (f->file_length != m->file_length || memcmp(f->file, file, m->file_length) != 0)
        stack[depth - 1] = frame_id(s, f->parent, f->include_line, file, m->file_length);
    }
    p->marker_frames[k] = stack[depth - 1];
  }
  free(include_lines);
  free(stack);
}

/* ---- units ------------------------------------------------------------------------------ */

/* The token closing the group opened at i ('(', '[' or '{'), or the last token. */
static size_t group_end(const rewriter *r, size_t i) {
  size_t depth = 0;
  for (size_t k = i; k < r->token_count; k++) {
    if (r->tokens[k].kind != TOKEN_PUNCTUATOR || r->tokens[k].length != 1) continue;
    char c = token_text(r, k)[0];
    if (c == '(' || c == '[' || c == '{') depth++;
    if ((c == ')' || c == ']' || c == '}') && depth > 0 && --depth == 0) return k;
  }
  return r->token_count - 1;
}

/* The '>' closing a template header's '<' at i (parentheses skipped), or the last token. */
static size_t angle_end(const rewriter *r, size_t i) {
  size_t depth = 0;
  for (size_t k = i; k < r->token_count; k++) {
    if (token_is_char(r, k, '(') || token_is_char(r, k, '[')) {
      k = group_end(r, k);
      continue;
    }
    if (token_is_char(r, k, '<')) depth++;
    if (token_is_char(r, k, '>') && --depth == 0) return k;
    if (token_is_char(r, k, ';') || token_is_char(r, k, '{')) return k - 1;
  }
  return r->token_count - 1;
}

static int is_class_key(const rewriter *r, size_t k) {
  return token_is(r, k, "class") || token_is(r, k, "struct") || token_is(r, k, "union") ||
         token_is(r, k, "enum");
}

/* Words whose parenthesized group is no parameter list. */
static int takes_group(const rewriter *r, size_t k) {
  static const char *const words[] = {"decltype", "sizeof",     "alignof",  "noexcept",
                                      "throw",    "__typeof__", "typeof",   "__alignof__",
                                      "asm",      "__asm__",    "_Alignas", NULL};
  return token_in_list(r, k, attribute_words) || token_in_list(r, k, words);
}

static int push_unit(splice *s, pass *p, size_t first, size_t last, unsigned char kind) {
  if (!reserve((void **)&p->units, &p->unit_capacity, p->unit_count + 1, sizeof(unit))) {
    s->out_of_memory = 1;
    return 0;
  }
  unit *u = &p->units[p->unit_count++];
  memset(u, 0, sizeof *u);
  u->first = first;
  u->last = last;
  u->kind = kind;
  u->name = NO_TOKEN;
  u->partner = NO_TOKEN;
  /* the user's when any token is (a system header's macro, __host__ say, marks its own) */
  u->system = 1;
  for (size_t k = first; k <= last && u->system; k++)
    if (!p->r.tokens[k].system && !token_is_directive(&p->r, k)) u->system = 0;
  return 1;
}

/* Cuts the tokens into units (see the top of the file). */
static void cut_units(splice *s, pass *p) {
  const rewriter *r = &p->r;
  size_t n = r->token_count;
  unsigned char *scopes = NULL; /* per open scope: 1 for a class body */
  size_t scope_count = 0, scope_capacity = 0;
  for (size_t i = 0; i < n && !s->out_of_memory;) {
    if (token_is_directive(r, i) || token_is_char(r, i, ';')) {
      push_unit(s, p, i, i, UNIT_OTHER);
      i++;
      continue;
    }
    if (token_is_char(r, i, '}')) {
      size_t last = i;
      if (scope_count > 0 && scopes[scope_count - 1]) /* a class: its declarators, its ';' */
        while (last + 1 < n && !token_is_char(r, last, ';') && !token_is_char(r, last + 1, '}') &&
               !token_is_char(r, last + 1, '{'))
          last++;
      if (scope_count > 0) scope_count--;
      push_unit(s, p, i, last, UNIT_CLOSE);
      i = last + 1;
      continue;
    }
    int in_class = scope_count > 0 && scopes[scope_count - 1];
    if (in_class &&
        (token_is(r, i, "public") || token_is(r, i, "private") || token_is(r, i, "protected")) &&
        token_is_char(r, i + 1, ':')) {
      push_unit(s, p, i, i + 1, UNIT_OTHER);
      i += 2;
      continue;
    }
    size_t ns = token_is(r, i, "inline") ? i + 1 : i;
    int opens_namespace = token_is(r, ns, "namespace");
    int opens_linkage = token_is(r, i, "extern") && i + 2 < n &&
                        r->tokens[i + 1].kind == TOKEN_LITERAL && token_is_char(r, i + 2, '{');
    size_t end = NO_TOKEN, name = NO_TOKEN, open = NO_TOKEN;
    int saw_equals = 0, saw_params = 0, saw_operator = 0, definition = 0;
    int global = 0, device = 0, host = 0, constant = 0, shared = 0, specifiers_done = 0;
    int is_constexpr = 0;
    size_t class_key = NO_TOKEN, last_name = NO_TOKEN;
    int params_after_key = 0;
    size_t j = i;
    while (j < n) {
      if (token_is_directive(r, j)) {
        j++;
        continue;
      }
      if (token_is_char(r, j, ';')) {
        end = j;
        break;
      }
      if (token_is_char(r, j, '}')) { /* a scope's end: not this unit's */
        end = j > i ? j - 1 : j;
        break;
      }
      if (!specifiers_done) {
        global |= token_is(r, j, "__global__");
        device |= token_is(r, j, "__device__");
        host |= token_is(r, j, "__host__");
        constant |= token_is(r, j, "__constant__");
        shared |= token_is(r, j, "__shared__");
        is_constexpr |= token_is(r, j, "constexpr");
      }
      if (token_is(r, j, "template") && token_is_char(r, j + 1, '<')) {
        j = angle_end(r, j + 1) + 1;
        continue;
      }
      if (token_is_char(r, j, '(') || token_is_char(r, j, '[')) {
        if (token_is_char(r, j, '(') && !(j > i && takes_group(r, j - 1))) {
          if (!saw_params && !saw_equals && j > i && token_is_identifier(r, j - 1)) name = j - 1;
          saw_params = 1;
          if (class_key != NO_TOKEN) params_after_key = 1;
        }
        j = group_end(r, j) + 1;
        continue;
      }
      if (!saw_params && !saw_equals && is_name(r, j)) last_name = j;
      if (token_is(r, j, "operator")) saw_operator = 1;
      if (token_is_char(r, j, '=') && !saw_operator) {
        saw_equals = 1;
        specifiers_done = 1;
      }
      if (is_class_key(r, j)) {
        class_key = j;
        params_after_key = 0;
        if (token_is_identifier(r, j + 1) && !token_in_list(r, j + 1, reserved_words)) name = j + 1;
      }
      if (token_is_char(r, j, '{')) {
        specifiers_done = 1;
        if (saw_equals) {
          j = group_end(r, j) + 1;
          continue;
        }
        if (class_key != NO_TOKEN && !params_after_key) {
          if (token_is(r, class_key, "class") || token_is(r, class_key, "struct")) {
            open = j; /* a class body: its members are units of their own */
            break;
          }
          j = group_end(r, j) + 1;
          continue;
        }
        if (opens_namespace || opens_linkage) {
          open = j;
          break;
        }
        if (saw_params || saw_operator) {
          size_t close = group_end(r, j);
          if (close + 1 < n &&
              (token_is_char(r, close + 1, ',') || token_is_char(r, close + 1, '{'))) {
            j = close + 1; /* a constructor's brace initializers: the body comes later */
            continue;
          }
          end = close;
          definition = 1;
          break;
        }
        j = group_end(r, j) + 1; /* int x{5} */
        continue;
      }
      j++;
    }
    if (open != NO_TOKEN) {
      if (!reserve((void **)&scopes, &scope_capacity, scope_count + 1, 1)) {
        s->out_of_memory = 1;
        break;
      }
      scopes[scope_count++] = !(opens_namespace || opens_linkage);
      if (!push_unit(s, p, i, open, UNIT_OPEN)) break;
      p->units[p->unit_count - 1].name = name;
      i = open + 1;
      continue;
    }
    if (end == NO_TOKEN || end < i) end = j < n ? j : n - 1;
    if (!push_unit(s, p, i, end, UNIT_OTHER)) break;
    unit *u = &p->units[p->unit_count - 1];
    u->name = name != NO_TOKEN ? name : last_name; /* typedef double real_t; int x = 1; */
    u->device_only = (unsigned char)(global || ((device || constant || shared) && !host));
    u->host_device = (unsigned char)(host && device);
    u->defines = (unsigned char)(definition || saw_equals);
    /* a host function: kernels never call it, whichever pass's text it has */
    u->host_function =
        (unsigned char)(saw_params && !saw_equals && !global && !device && !is_constexpr &&
                        (class_key == NO_TOKEN || params_after_key));
    i = end + 1;
  }
  free(scopes);
}

/* Each unit's position: the include instance and line of its first token, its rank there. */
static void place_units(pass *p) {
  const rewriter *r = &p->r;
  size_t marker = 0, offset = 0, line = 1, frame = 0;
  for (size_t u = 0; u < p->unit_count; u++) {
    size_t at = r->tokens[p->units[u].first].start;
    while (marker < r->marker_count && r->markers[marker].next_line <= at) {
      offset = r->markers[marker].next_line;
      line = r->markers[marker].line;
      frame = p->marker_frames[marker];
      marker++;
    }
    for (; offset < at; offset++)
      if (r->source[offset] == '\n') line++;
    unit *x = &p->units[u];
    x->frame = frame;
    x->line = line;
    x->ordinal = u > 0 && p->units[u - 1].frame == frame && p->units[u - 1].line == line
                     ? p->units[u - 1].ordinal + 1
                     : 0;
  }
}

/* Source order of two places: -1, 0 or 1; places in different files of one include line (an
 * #include whose name differs between the passes) come host first. */
static int compare_places(const splice *s, size_t fa, size_t la, size_t fb, size_t lb) {
  if (fa == fb) return la < lb ? -1 : la > lb ? 1 : 0;
  const frame *a = &s->frames.items[fa], *b = &s->frames.items[fb];
  if (a->depth > b->depth) {
    int c = compare_places(s, a->parent, a->include_line, fb, lb);
    return c != 0 ? c : 1;
  }
  if (b->depth > a->depth) {
    int c = compare_places(s, fa, la, b->parent, b->include_line);
    return c != 0 ? c : -1;
  }
  if (a->depth == 0) return -1;
  int c = compare_places(s, a->parent, a->include_line, b->parent, b->include_line);
  return c != 0 ? c : -1;
}

static int compare_units(const splice *s, const unit *h, const unit *d) {
  int c = compare_places(s, h->frame, h->line, d->frame, d->line);
  if (c != 0) return c;
  return h->ordinal < d->ordinal ? -1 : h->ordinal > d->ordinal ? 1 : 0;
}

static int same_text(const pass *a, const unit *ua, const pass *b, const unit *ub) {
  size_t i = ua->first, j = ub->first;
  for (;; i++, j++) {
    while (i <= ua->last && token_is_directive(&a->r, i)) i++;
    while (j <= ub->last && token_is_directive(&b->r, j)) j++;
    if (i > ua->last || j > ub->last) return i > ua->last && j > ub->last;
    const token *x = &a->r.tokens[i], *y = &b->r.tokens[j];
    int x_constant = x->length == 12 && memcmp(token_text(&a->r, i), "__constant__", 12) == 0;
    int y_constant = y->length == 12 && memcmp(token_text(&b->r, j), "__constant__", 12) == 0;
    if (x_constant != y_constant) { /* only the device pass keeps the word */
      if (x_constant)
        j--;
      else
        i--;
      continue;
    }
    if (x->length != y->length ||
        memcmp(token_text(&a->r, i), token_text(&b->r, j), x->length) != 0)
      return 0;
  }
}

/* ---- output ----------------------------------------------------------------------------- */

static void append(splice *s, const char *data, size_t size) {
  if (!buffer_append(&s->out, data, size)) s->out_of_memory = 1;
}

static void append_marker(splice *s, size_t line, const char *file, size_t length, int flags) {
  char number[32];
  snprintf(number, sizeof number, "# %zu \"", line);
  append(s, number, strlen(number));
  append(s, file, length);
  append(s, "\"", 1);
  if (flags & 8) append(s, " 3", 2);
  if (flags & 16) append(s, " 4", 2);
}

/* The bytes [a, b) of a pass: linemarkers without their include flags, __constant__ blanked. */
static void copy_range(splice *s, pass *p, size_t a, size_t b) {
  const rewriter *r = &p->r;
  size_t low = 0, high = r->marker_count; /* the first marker at or after a */
  while (low < high) {
    size_t middle = low + (high - low) / 2;
    if (r->markers[middle].start < a)
      low = middle + 1;
    else
      high = middle;
  }
  size_t marker = low;
  low = 0, high = p->constant_count;
  while (low < high) {
    size_t middle = low + (high - low) / 2;
    if (r->tokens[p->constant_tokens[middle]].start < a)
      low = middle + 1;
    else
      high = middle;
  }
  size_t constant = low, position = a;
  while (position < b && !s->out_of_memory) {
    size_t next_marker = marker < r->marker_count ? r->markers[marker].start : b;
    size_t next_constant =
        constant < p->constant_count ? r->tokens[p->constant_tokens[constant]].start : b;
    size_t next = next_marker < next_constant ? next_marker : next_constant;
    if (next > b) next = b;
    append(s, r->source + position, next - position);
    position = next;
    if (position >= b) break;
    if (next == next_marker) {
      const linemarker *m = &r->markers[marker++];
      append_marker(s, m->line, r->source + m->file_start, m->file_length, m->flags);
      position = m->end;
    } else {
      append(s, "            ", 12);
      position += 12;
      constant++;
    }
  }
}

/* Where the text at offset stands: a linemarker saying so, on a line of its own. */
static void append_place(splice *s, pass *p, size_t offset) {
  const linemarker *m = marker_before(&p->r, offset);
  if (!m) return;
  size_t line = m->line;
  for (size_t k = m->next_line; k < offset; k++)
    if (p->r.source[k] == '\n') line++;
  append(s, "\n", 1);
  append_marker(s, line, p->r.source + m->file_start, m->file_length, m->flags);
  append(s, "\n", 1);
}

static size_t unit_end_byte(const pass *p, size_t u) {
  const token *t = &p->r.tokens[p->units[u].last];
  return t->start + t->length;
}

typedef struct emitter {
  pass *last_pass;
  size_t last_unit;
} emitter;

static void emit(splice *s, emitter *e, pass *p, size_t u) {
  size_t from = u > 0 ? unit_end_byte(p, u - 1) : 0;
  if (e->last_pass != p || e->last_unit + 1 != u) {
    if (e->last_pass || u > 0) append_place(s, p, from);
  }
  copy_range(s, p, from, unit_end_byte(p, u));
  e->last_pass = p;
  e->last_unit = u;
}

static void note(splice *s, pass *p, const unit *u) {
  s->note_count++;
  if (s->note_count > 3) return;
  const frame *f = &s->frames.items[u->frame];
  char number[32];
  snprintf(number, sizeof number, ":%zu: note: ", u->line);
  int ok = buffer_append(&s->notes, f->file, f->file_length) &&
           buffer_append_text(&s->notes, number) &&
           buffer_append_text(&s->notes, u->host_device ? "the __host__ __device__ function"
                                                        : "the declaration");
  if (ok && u->name != NO_TOKEN)
    ok = buffer_append_text(&s->notes, u->host_device ? " '" : " of '") &&
         buffer_append(&s->notes, token_text(&p->r, u->name), p->r.tokens[u->name].length) &&
         buffer_append_text(&s->notes, "'");
  ok = ok &&
       buffer_append_text(&s->notes, " differs in nvcc's device pass (__CUDA_ARCH__ defined): the "
                                     "simulator keeps the host pass's, in kernels too\n");
  if (!ok) s->out_of_memory = 1;
}

static int same_name(const pass *a, const unit *ua, const pass *b, const unit *ub) {
  return ua->name != NO_TOKEN && ub->name != NO_TOKEN &&
         a->r.tokens[ua->name].length == b->r.tokens[ub->name].length &&
         memcmp(token_text(&a->r, ua->name), token_text(&b->r, ub->name),
                a->r.tokens[ua->name].length) == 0;
}

/* A hash of (file, line, rank) for the host pass's units: a unit the device pass has elsewhere
 * (a header included at another place) is the host's one. */
static uint64_t place_hash(const splice *s, const unit *u) {
  const frame *f = &s->frames.items[u->frame];
  uint64_t h = 1469598103934665603u;
  for (size_t k = 0; k < f->file_length; k++) h = (h ^ (unsigned char)f->file[k]) * 1099511628211u;
  h = (h ^ u->line) * 1099511628211u;
  h = (h ^ u->ordinal) * 1099511628211u;
  return h | 1;
}

static void merge(splice *s) {
  pass *h = &s->host, *d = &s->device;
  size_t nh = h->unit_count, nd = d->unit_count;
  size_t *gap_host = malloc((nh + nd + 2) * sizeof(size_t)); /* each gap's first host unit */
  size_t table_size = 1;
  while (table_size < 2 * nh + 2) table_size *= 2;
  uint64_t *table = calloc(table_size, sizeof(uint64_t));
  if (!gap_host || !table) {
    s->out_of_memory = 1;
    free(gap_host);
    free(table);
    return;
  }
  for (size_t i = 0; i < nh; i++) {
    uint64_t key = place_hash(s, &h->units[i]);
    size_t k = (size_t)key & (table_size - 1);
    while (table[k] != 0 && table[k] != key) k = (k + 1) & (table_size - 1);
    table[k] = key;
  }
  /* First walk: which units are at the same place in both passes, and the gaps between them. */
  for (size_t g = 0; g < nh + nd + 2; g++) gap_host[g] = NO_TOKEN;
  size_t i = 0, j = 0, gap = 0;
  while (i < nh || j < nd) {
    int c = i >= nh ? 1 : j >= nd ? -1 : compare_units(s, &h->units[i], &d->units[j]);
    if (c == 0) {
      h->units[i].partner = j;
      d->units[j].partner = i;
      gap++;
      i++, j++;
    } else if (c < 0) {
      if (gap_host[gap] == NO_TOKEN) gap_host[gap] = i;
      h->units[i++].gap = gap;
    } else {
      d->units[j++].gap = gap;
    }
  }
  /* Second walk: the output. */
  emitter e = {NULL, 0};
  i = 0, j = 0;
  while ((i < nh || j < nd) && !s->out_of_memory) {
    if (i < nh && h->units[i].partner != NO_TOKEN && j < nd && d->units[j].partner == i) {
      unit *hu = &h->units[i], *du = &d->units[j];
      if (du->device_only) {
        emit(s, &e, d, j);
      } else {
        emit(s, &e, h, i);
        if (!hu->system && !hu->host_function && !same_text(h, hu, d, du)) note(s, h, hu);
      }
      i++, j++;
    } else if (i < nh && h->units[i].partner == NO_TOKEN &&
               (j >= nd || d->units[j].partner != NO_TOKEN ||
                compare_units(s, &h->units[i], &d->units[j]) < 0)) {
      unit *hu = &h->units[i];
      if (!(hu->device_only && hu->defines)) emit(s, &e, h, i);
      i++;
    } else if (j < nd) {
      unit *du = &d->units[j];
      uint64_t key = place_hash(s, du);
      size_t k = (size_t)key & (table_size - 1);
      while (table[k] != 0 && table[k] != key) k = (k + 1) & (table_size - 1);
      int host_has_it = table[k] == key, host_has_its_own = 0;
      /* an #if __CUDA_ARCH__ / #else: the host pass declares the same name at that place */
      for (size_t x = gap_host[du->gap], walked = 0;
           x != NO_TOKEN && x < nh && h->units[x].partner == NO_TOKEN && walked < RULE_WALK_LIMIT;
           x++, walked++)
        if (same_name(h, &h->units[x], d, du)) host_has_its_own = 1;
      if (du->device_only || (!host_has_its_own && !host_has_it))
        emit(s, &e, d, j);
      else if (!du->system && !host_has_it && !du->host_function)
        note(s, d, du);
      j++;
    } else {
      i++; /* unreachable: a matched host unit always meets its partner */
    }
  }
  /* What follows the host pass's last unit (blank lines). */
  if (nh > 0 && e.last_pass == h && e.last_unit == nh - 1)
    copy_range(s, h, unit_end_byte(h, nh - 1), h->r.source_size);
  append(s, "\n", 1);
  if (s->note_count > 3) {
    char more[96];
    snprintf(more, sizeof more, "cusim-rewrite: note: and %zu more such place%s\n",
             s->note_count - 3, s->note_count - 3 == 1 ? "" : "s");
    if (!buffer_append_text(&s->notes, more)) s->out_of_memory = 1;
  }
  free(gap_host);
  free(table);
}

static void prepare(splice *s, pass *p, const char *text, size_t size) {
  p->r.source = text ? text : "";
  p->r.source_size = text ? size : 0;
  p->r.filename = "<input>";
  p->r.position_line = 1;
  if (!tokenize(&p->r, 0)) {
    s->out_of_memory = 1;
    return;
  }
  for (size_t k = 0; k < p->r.token_count; k++) {
    if (!token_is(&p->r, k, "__constant__")) continue;
    if (!reserve((void **)&p->constant_tokens, &p->constant_capacity, p->constant_count + 1,
                 sizeof(size_t))) {
      s->out_of_memory = 1;
      return;
    }
    p->constant_tokens[p->constant_count++] = k;
  }
  assign_frames(s, p);
  if (s->out_of_memory) return;
  cut_units(s, p);
  if (!s->out_of_memory) place_units(p);
}

static void release(pass *p) {
  free(p->r.tokens);
  free(p->r.markers);
  free(p->marker_frames);
  free(p->units);
  free(p->constant_tokens);
}

int cusim_splice_passes(const char *host, size_t host_size, const char *device, size_t device_size,
                        cusim_sink output, cusim_sink notes) {
  if (host_size >= UINT32_MAX || device_size >= UINT32_MAX) return 1;
  splice *s = calloc(1, sizeof(splice));
  if (!s) return 1;
  prepare(s, &s->host, host, host_size);
  if (!s->out_of_memory) prepare(s, &s->device, device, device_size);
  if (!s->out_of_memory) merge(s);
  int failed = s->out_of_memory;
  if (!failed) {
    output.write(output.context, s->out.data ? s->out.data : "", s->out.size);
    if (s->notes.size > 0) notes.write(notes.context, s->notes.data, s->notes.size);
  }
  release(&s->host);
  release(&s->device);
  free(s->frames.items);
  free(s->out.data);
  free(s->notes.data);
  free(s);
  return failed;
}
