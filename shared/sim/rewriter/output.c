/* cusim-rewrite's output: a leading #line, then the input with the edits applied. Every edit is
 * followed by as many newlines as it removed, so output line N is input line N; where an edit
 * swallowed linemarkers, a new linemarker puts the code after it back on its line. */
#include "rewriter_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- output ----------------------------------------------------------------------------- */

static size_t count_newlines(const char *data, size_t size) {
  size_t count = 0;
  for (size_t i = 0; i < size; i++) count += data[i] == '\n';
  return count;
}

/* After a replacement that removed more newlines than it holds: the missing newlines (in the
 * input's style, \n or \r\n), then blanks as wide as the start of the edit's last line, so the
 * code after the edit keeps its line and its column. */
static void write_line_padding(const rewriter *r, const edit *x, size_t missing,
                               cusim_sink output) {
  const char *region = r->source + x->start;
  size_t size = x->end - x->start;
  const char *first_newline = memchr(region, '\n', size);
  int crlf = first_newline && first_newline > region && first_newline[-1] == '\r';
  char chunk[256];
  while (missing > 0) {
    size_t count = 0;
    for (; missing > 0 && count + 2 <= sizeof chunk; missing--) {
      if (crlf) chunk[count++] = '\r';
      chunk[count++] = '\n';
    }
    output.write(output.context, chunk, count);
  }
  size_t last_line = size;
  while (last_line > 0 && region[last_line - 1] != '\n') last_line--;
  while (last_line < size) {
    size_t count = 0;
    for (; last_line < size && count < sizeof chunk; last_line++)
      chunk[count++] = region[last_line] == '\t' ? '\t' : ' ';
    output.write(output.context, chunk, count);
  }
}

/* After a replacement that swallowed linemarkers (a construct with tokens from a system macro):
 * a linemarker naming the line the edit ends on, then blanks up to the edit end's column, so
 * the code after it keeps its line (the physical line count changes; the logical one does not). */
static void write_marker_resync(rewriter *r, const edit *x, const linemarker *last,
                                cusim_sink output) {
  size_t marker_line = 1, end_line = 1, column = 1, unused = 1;
  position_of(r, last->next_line, &marker_line, &unused);
  position_of(r, x->end, &end_line, &column);
  char number[64];
  snprintf(number, sizeof number, "\n# %zu \"", last->line + (end_line - marker_line));
  output.write(output.context, number, strlen(number));
  byte_buffer name = {0};
  if (!buffer_append_file_name(&name, r->source + last->file_start, last->file_length)) {
    r->out_of_memory = 1;
    free(name.data);
    return;
  }
  output.write(output.context, name.data, name.size);
  free(name.data);
  output.write(output.context, last->system ? "\" 3\n" : "\"\n", last->system ? 4 : 2);
  for (size_t c = 1; c < column; c++) output.write(output.context, " ", 1);
}

void write_output(rewriter *r, size_t body_start, cusim_sink output) {
  byte_buffer header = {0};
  if (!buffer_append_text(&header, "#line 1 \"") ||
      !buffer_append_escaped(&header, r->filename, strlen(r->filename)) ||
      !buffer_append_text(&header, "\"\n")) {
    free(header.data);
    r->out_of_memory = 1;
    return;
  }
  output.write(output.context, header.data, header.size);
  free(header.data);

  size_t position = body_start;
  char last = '\n'; /* the last byte written */
  for (size_t e = 0; e < r->edit_count; e++) {
    const edit *x = &r->edits[e];
    const char *text = r->texts.data + x->text_start;
    if (x->start > position) {
      output.write(output.context, r->source + position, x->start - position);
      last = r->source[x->start - 1];
    }
    /* Replacements that begin with "::" (the built-ins' reads, launches, hooks) must not join the
     * byte before them: x%gridDim.x would give the digraph "%:" (#), c ? 0 :blockDim.x ":::" */
    if (x->text_size > 0 && text[0] == ':' && (last == '%' || last == ':' || last == '<'))
      output.write(output.context, " ", 1);
    output.write(output.context, text, x->text_size);
    if (x->text_size > 0) last = text[x->text_size - 1];
    size_t removed = count_newlines(r->source + x->start, x->end - x->start);
    size_t added = count_newlines(text, x->text_size);
    const linemarker *before = marker_before(r, x->start), *after = marker_before(r, x->end);
    if (before != after && after)
      write_marker_resync(r, x, after, output);
    else if (removed > added)
      write_line_padding(r, x, removed - added, output);
    position = x->end;
  }
  if (r->source_size > position)
    output.write(output.context, r->source + position, r->source_size - position);
}
