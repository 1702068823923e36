/* cusim-rewrite's error lines: "file:line:col: error: message", at a token or a byte offset.
 * In preprocessed input the file and line are the ones its linemarkers name (the learner's own
 * file and line, not the preprocessed file's). After MAX_ERRORS errors the rewriter stops. */
#include "rewriter_internal.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- errors ----------------------------------------------------------------------------- */

void position_of(rewriter *r, size_t offset, size_t *line, size_t *column) {
  if (offset > r->source_size) offset = r->source_size;
  if (offset < r->position_offset) {
    r->position_offset = 0;
    r->position_line = 1;
    r->position_line_start = 0;
  }
  for (size_t i = r->position_offset; i < offset; i++) {
    if (r->source[i] == '\n') {
      r->position_line++;
      r->position_line_start = i + 1;
    }
  }
  r->position_offset = offset;
  *line = r->position_line;
  *column = offset - r->position_line_start + 1;
}

void write_error_line(rewriter *r, byte_buffer *line) {
  if (buffer_append(line, "\n", 1))
    r->errors.write(r->errors.context, line->data, line->size);
  else
    r->out_of_memory = 1;
}

/* The last linemarker before offset, or NULL. */
const linemarker *marker_before(const rewriter *r, size_t offset) {
  size_t low = 0, high = r->marker_count;
  while (low < high) {
    size_t middle = low + (high - low) / 2;
    if (r->markers[middle].next_line <= offset)
      low = middle + 1;
    else
      high = middle;
  }
  return low > 0 ? &r->markers[low - 1] : NULL;
}

/* Reports "file:line:col: error: before NAME after" at byte offset (NAME is token `name`'s text,
 * left out when name is NO_TOKEN). In preprocessed input, file and line are the ones the
 * linemarkers name: the learner's own file and line. */
void report_at_offset(rewriter *r, size_t offset, const char *before, size_t name,
                      const char *after) {
  if (r->stopped) return;
  byte_buffer line = {0};
  size_t line_number = 1, column = 1, marker_line = 1, marker_column = 1;
  const linemarker *marker = marker_before(r, offset);
  if (marker) position_of(r, marker->next_line, &marker_line, &marker_column);
  position_of(r, offset, &line_number, &column);
  if (marker) line_number = marker->line + (line_number - marker_line);
  char position[64];
  snprintf(position, sizeof position, ":%zu:%zu: error: ", line_number, column);
  int ok =
      (marker ? buffer_append_file_name(&line, r->source + marker->file_start, marker->file_length)
              : buffer_append_text(&line, r->filename)) &&
      buffer_append_text(&line, position) && buffer_append_text(&line, before);
  if (ok && name != NO_TOKEN && name < r->token_count)
    ok = buffer_append(&line, token_text(r, name), r->tokens[name].length);
  if (ok && after) ok = buffer_append_text(&line, after);
  if (ok)
    write_error_line(r, &line);
  else
    r->out_of_memory = 1;
  free(line.data);
  if (++r->error_count >= MAX_ERRORS) {
    line.data = NULL;
    line.size = line.capacity = 0;
    if (buffer_append_text(&line, r->filename) &&
        buffer_append_text(&line, ": error: too many errors; stopping"))
      write_error_line(r, &line);
    free(line.data);
    r->stopped = 1;
  }
}

/* The same, at token `at`. */
void report(rewriter *r, size_t at, const char *before, size_t name, const char *after) {
  report_at_offset(r, at < r->token_count ? r->tokens[at].start : r->source_size, before, name,
                   after);
}
