/* What the parts of cusim-rewrite's core share (not part of its API, which is rewrite.h): the
 * rewriter's state, its tokens, linemarkers and edits, the small token tests every pass uses,
 * and the functions one part calls in another. Each part's .c file says what it does; rewrite.c
 * is the driver that runs them in order. */
#ifndef CUSIM_REWRITER_INTERNAL_H
#define CUSIM_REWRITER_INTERNAL_H

#include "rewrite.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum { MAX_ERRORS = 20 };
#define NO_TOKEN ((size_t)-1)

/* Walks in the rules' passes look this many tokens at most, so that the work stays linear. */
enum { RULE_WALK_LIMIT = 2048 };

/* ---- growable buffers ------------------------------------------------------------------- */

typedef struct byte_buffer {
  char *data;
  size_t size, capacity;
} byte_buffer;

/* ---- tokens ----------------------------------------------------------------------------- */

enum token_kind {
  TOKEN_IDENTIFIER,
  TOKEN_NUMBER,
  TOKEN_LITERAL, /* string, character or raw-string literal, with its prefix */
  TOKEN_PUNCTUATOR,
  TOKEN_DIRECTIVE /* a whole preprocessor directive, continuation lines included */
};

typedef struct token {
  uint32_t start, length; /* byte range in the input; inputs are limited to 4 GiB */
  uint16_t kind;
  uint16_t system; /* 1 in a system header (linemarker flag 3): not the user's code */
} token;

/* A linemarker ('# 12 "file.cu" 3', or '#line 12 "file.cu"') of preprocessed input: the line
 * after it is line `line` of `file`. */
typedef struct linemarker {
  size_t next_line; /* offset of the line it names */
  size_t line;
  size_t file_start, file_length; /* the name, between the quotes, in the input */
  int system;
  size_t start, end; /* the directive's bytes (arch_passes.c copies it without flags 1 and 2) */
  int flags;         /* bit N set for flag N (1 enters a file, 2 returns to one, 3, 4) */
} linemarker;

typedef struct edit {
  size_t start, end;            /* input bytes replaced */
  size_t text_start, text_size; /* replacement, in rewriter.texts */
  size_t token;                 /* where to point an error about it */
} edit;

typedef struct launch_arguments {
  size_t depth_inside;         /* nesting depth of the tokens directly inside the parentheses */
  size_t first_argument_token; /* first token of the argument being read */
} launch_arguments;

typedef struct rewriter {
  const char *source;
  size_t source_size;
  const char *filename;
  cusim_sink errors;
  int error_count, out_of_memory, stopped;

  token *tokens;
  size_t token_count, token_capacity;

  edit *edits;
  size_t edit_count, edit_capacity;
  byte_buffer texts; /* all replacement texts, back to back */
  byte_buffer scratch;

  /* Per open '{': 1 when it is inside a function body (where __shared__ may appear). */
  unsigned char *braces_in_function;
  size_t brace_count, brace_capacity;

  launch_arguments *open_launches;
  size_t open_launch_count, open_launch_capacity;

  /* Names of template kernels with __launch_bounds__ (launches.c), found on the first launch that
   * names a kernel without template arguments: such a launch resolves its instance by its
   * arguments' types. */
  size_t *bounded_templates;
  size_t bounded_template_count, bounded_template_capacity;
  int bounded_templates_found;

  /* Launches written in #define bodies: the directive's token and the '<<<''s offset. */
  size_t macro_launch_tokens[MAX_ERRORS], macro_launch_offsets[MAX_ERRORS];
  size_t macro_launch_count;

  /* Backward walks never go below this token: it is past the last rewritten construct. */
  size_t walk_floor;

  /* File-scope __shared__ declarators (shared_decl.c): each name token and the token after its
   * declaration; later uses of the name become calls of its accessor. */
  size_t *file_shared_names, *file_shared_ends;
  size_t file_shared_count, file_shared_capacity, file_shared_end_capacity;

  linemarker *markers;
  size_t marker_count, marker_capacity;
  int ptx_refused;      /* inline_ptx.c: one refusal of inline PTX said; the rest are not */
  int in_system_header; /* while tokenizing: the last linemarker had flag 3 */

  /* Cache for turning byte offsets into line:column (errors usually come in order). */
  size_t position_offset, position_line, position_line_start;
} rewriter;

/* ---- token tests ------------------------------------------------------------------------ */

static inline const char *token_text(const rewriter *r, size_t i) {
  return r->source + r->tokens[i].start;
}

static inline int token_is(const rewriter *r, size_t i, const char *text) {
  if (i >= r->token_count || r->tokens[i].kind == TOKEN_DIRECTIVE) return 0;
  size_t length = strlen(text);
  return r->tokens[i].length == length && memcmp(token_text(r, i), text, length) == 0;
}

static inline int token_is_char(const rewriter *r, size_t i, char c) {
  return i < r->token_count && r->tokens[i].kind == TOKEN_PUNCTUATOR && r->tokens[i].length == 1 &&
         token_text(r, i)[0] == c;
}

static inline int token_is_identifier(const rewriter *r, size_t i) {
  return i < r->token_count && r->tokens[i].kind == TOKEN_IDENTIFIER;
}

static inline int token_is_directive(const rewriter *r, size_t i) {
  return i < r->token_count && r->tokens[i].kind == TOKEN_DIRECTIVE;
}

/* True when token i directly follows token i-1, with nothing between them. */
static inline int token_touches_previous(const rewriter *r, size_t i) {
  return i > 0 && i < r->token_count &&
         r->tokens[i].start == r->tokens[i - 1].start + r->tokens[i - 1].length;
}

static inline int text_in_list(const char *text, size_t length, const char *const *list) {
  /* First character, then the rest and the end (no strlen of every entry: this runs for every
   * identifier of a 40,000-line preprocessed file against several lists). */
  for (; *list; list++)
    if ((*list)[0] == text[0] && strncmp(*list, text, length) == 0 && (*list)[length] == '\0')
      return 1;
  return 0;
}

static inline int token_in_list(const rewriter *r, size_t i, const char *const *list) {
  return token_is_identifier(r, i) && text_in_list(token_text(r, i), r->tokens[i].length, list);
}

static inline int is_statement_boundary(const rewriter *r, size_t i) {
  return token_is_directive(r, i) || token_is_char(r, i, ';') || token_is_char(r, i, '{') ||
         token_is_char(r, i, '}');
}

/* Word lists (lexer.c). */
extern const char *const reserved_words[];
extern const char *const attribute_words[];

static inline int is_name(const rewriter *r, size_t i) {
  return token_is_identifier(r, i) && !token_in_list(r, i, reserved_words);
}

/* ---- lexer.c: growable buffers and the tokenizer ----------------------------------------- */

int reserve(void **array, size_t *capacity, size_t needed, size_t element_size);
int buffer_append(byte_buffer *buffer, const char *data, size_t size);
int buffer_append_text(byte_buffer *buffer, const char *text);
int buffer_append_escaped(byte_buffer *buffer, const char *data, size_t size);
int buffer_append_file_name(byte_buffer *buffer, const char *data, size_t size);
/* Fills r->tokens and r->markers from r->source, from byte start on; 0 when out of memory. */
int tokenize(rewriter *r, size_t start);

/* ---- errors.c: "file:line:col: error: ..." lines ------------------------------------------ */

void position_of(rewriter *r, size_t offset, size_t *line, size_t *column);
void write_error_line(rewriter *r, byte_buffer *line);
const linemarker *marker_before(const rewriter *r, size_t offset);
void report_at_offset(rewriter *r, size_t offset, const char *before, size_t name,
                      const char *after);
void report(rewriter *r, size_t at, const char *before, size_t name, const char *after);

/* ---- edits.c: recording edits and their replacement texts --------------------------------- */

void add_edit(rewriter *r, size_t at, size_t start, size_t end);
void scratch_text(rewriter *r, const char *text);
void scratch_token(rewriter *r, size_t i);
void scratch_buffer(rewriter *r, const byte_buffer *b); /* appends b's bytes */
int append_tokens(rewriter *r, byte_buffer *out, size_t first, size_t end,
                  int (*skip)(const rewriter *, size_t, void *), void *skip_context);
void scratch_tokens(rewriter *r, size_t first, size_t end,
                    int (*skip)(const rewriter *, size_t, void *), void *skip_context);
int compare_edits(const void *a, const void *b);

/* ---- scan.c: the scan over the tokens, and walks within one statement --------------------- */

size_t matching_angle_backward(const rewriter *r, size_t close);
size_t matching_paren_backward(const rewriter *r, size_t close);
size_t attribute_group_end(const rewriter *r, size_t k);
size_t attribute_group_start(const rewriter *r, size_t close);
void scan(rewriter *r);

/* ---- host_code.c: host-only functions of the program left uninstrumented ---------------- */

/* definitions: (first token, name, '{') triples, count their number times 3. */
void mark_host_code(rewriter *r, const size_t *definitions, size_t count);

/* ---- launches.c, shared_decl.c, kernel_parameters.c: what the scan rewrites or checks ------ */

int is_launch_start(const rewriter *r, size_t i);
void finish_launch_argument(rewriter *r, size_t first, size_t end);
size_t rewrite_launch(rewriter *r, size_t open, size_t *depth);
size_t rewrite_shared(rewriter *r, size_t at);
void rename_file_shared(rewriter *r);
void check_kernel_parameters(rewriter *r, size_t at);

/* ---- rules.c: nvcc's static rules; hooks.c and builtins.c: what they rewrite in device code - */

extern int branch_sites;            /* cusim_rewrite_set_branch_sites (rewrite.c) */
extern const char *device_warnings; /* cusim_rewrite_set_device_warnings (rewrite.c) */
void check_rules(rewriter *r);
void hook_branch(rewriter *r, size_t i);
void hook_shift(rewriter *r, size_t i);
void hook_cast(rewriter *r, size_t i);
void rewrite_builtins(rewriter *r, const unsigned char *device_body);
/* inline_ptx.c: asm statements of device code; returns the token the scan goes on after */
size_t rewrite_inline_ptx(rewriter *r, size_t at);

/* ---- output.c: the input with the edits applied ------------------------------------------- */

void write_output(rewriter *r, size_t body_start, cusim_sink output);

#endif
