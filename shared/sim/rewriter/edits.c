/* cusim-rewrite's edits: each rewrite is recorded as a byte range of the input and its
 * replacement text (built in r->scratch, kept in r->texts), and applied only at the end
 * (output.c), in the order compare_edits gives. */
#include "rewriter_internal.h"

/* ---- edits ------------------------------------------------------------------------------ */

/* Records that input bytes [start, end) become r->scratch's contents. */
void add_edit(rewriter *r, size_t at, size_t start, size_t end) {
  size_t text_start = r->texts.size;
  if (!buffer_append(&r->texts, r->scratch.data, r->scratch.size) ||
      !reserve((void **)&r->edits, &r->edit_capacity, r->edit_count + 1, sizeof(edit))) {
    r->out_of_memory = 1;
    return;
  }
  edit *e = &r->edits[r->edit_count++];
  e->start = start;
  e->end = end;
  e->text_start = text_start;
  e->text_size = r->scratch.size;
  e->token = at;
}

void scratch_text(rewriter *r, const char *text) {
  if (!buffer_append_text(&r->scratch, text)) r->out_of_memory = 1;
}

void scratch_token(rewriter *r, size_t i) {
  if (!buffer_append(&r->scratch, token_text(r, i), r->tokens[i].length)) r->out_of_memory = 1;
}

void scratch_buffer(rewriter *r, const byte_buffer *b) {
  if (!buffer_append(&r->scratch, b->data, b->size)) r->out_of_memory = 1;
}

/* Appends tokens [first, end) to out on one line: comments dropped, each gap one space. Tokens
 * for which skip() is true are left out (and leave a space). */
int append_tokens(rewriter *r, byte_buffer *out, size_t first, size_t end,
                  int (*skip)(const rewriter *, size_t, void *), void *skip_context) {
  int gap = 0, any = 0;
  for (size_t i = first; i < end && i < r->token_count; i++) {
    if (skip && skip(r, i, skip_context)) {
      gap = 1;
      continue;
    }
    if (any && (gap || !token_touches_previous(r, i)))
      if (!buffer_append(out, " ", 1)) return 0;
    if (!buffer_append(out, token_text(r, i), r->tokens[i].length)) return 0;
    any = 1;
    gap = 0;
  }
  return 1;
}

void scratch_tokens(rewriter *r, size_t first, size_t end,
                    int (*skip)(const rewriter *, size_t, void *), void *skip_context) {
  if (!append_tokens(r, &r->scratch, first, end, skip, skip_context)) r->out_of_memory = 1;
}

int compare_edits(const void *a, const void *b) {
  const edit *x = a, *y = b;
  /* at one offset an insertion (empty range) goes before a replacement that starts there */
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  if (x->end != y->end) return x->end < y->end ? -1 : 1;
  /* insertions at one offset keep the order they were made in (their texts' order) */
  return x->text_start < y->text_start ? -1 : x->text_start > y->text_start;
}
