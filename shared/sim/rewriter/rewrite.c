/* cusim-rewrite's core. Two passes over the input:
 *   1. a tokenizer that knows C++'s lexical rules well enough to skip comments, string,
 *      character and raw-string literals, pp-numbers with digit separators and whole
 *      preprocessor directives (each directive becomes one opaque token);
 *   2. a linear scan over the tokens that finds kernel launches, __shared__ declarations and
 *      __global__ parameter lists, and records edits (byte ranges and their replacements);
 *   3. nvcc's static rules (execution spaces, kernel signatures) over the same tokens, and, on
 *      preprocessed input, the cudaLaunchKernel registration after each kernel.
 * Preprocessed input's linemarkers are read, not tokenized: errors name the file and line they
 * give.
 * The output is the input with the edits applied. Every edit is followed by as many newlines as
 * it removed, so output line N is input line N (after the leading #line).
 * Every scan is bounded so that the total work stays linear whatever the input. */
#include "rewrite.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_ERRORS = 20 };
#define NO_TOKEN ((size_t)-1)

/* ---- growable buffers ------------------------------------------------------------------- */

typedef struct byte_buffer {
  char *data;
  size_t size, capacity;
} byte_buffer;

/* Grows *array (of element_size-byte elements) to hold at least needed ones; 0 on failure. */
static int reserve(void **array, size_t *capacity, size_t needed, size_t element_size) {
  if (needed <= *capacity) return 1;
  size_t new_capacity = *capacity ? *capacity : 64;
  while (new_capacity < needed) {
    if (new_capacity > SIZE_MAX / 2 / element_size) return 0;
    new_capacity *= 2;
  }
  void *grown = realloc(*array, new_capacity * element_size);
  if (!grown) return 0;
  *array = grown;
  *capacity = new_capacity;
  return 1;
}

static int buffer_append(byte_buffer *buffer, const char *data, size_t size) {
  if (size > SIZE_MAX - buffer->size ||
      !reserve((void **)&buffer->data, &buffer->capacity, buffer->size + size, 1))
    return 0;
  if (size) memcpy(buffer->data + buffer->size, data, size);
  buffer->size += size;
  return 1;
}

static int buffer_append_text(byte_buffer *buffer, const char *text) {
  return buffer_append(buffer, text, strlen(text));
}

/* Appends data as the inside of a C string literal: quotes and backslashes escaped, control and
 * non-ASCII bytes as three-digit octal escapes, so the literal is one line and means the same
 * bytes. */
static int buffer_append_escaped(byte_buffer *buffer, const char *data, size_t size) {
  for (size_t i = 0; i < size; i++) {
    unsigned char c = (unsigned char)data[i];
    if (c == '"' || c == '\\') {
      char escape[2] = {'\\', (char)c};
      if (!buffer_append(buffer, escape, 2)) return 0;
    } else if (c < 0x20 || c >= 0x7f) {
      char escape[5] = {'\\', (char)('0' + (c >> 6)), (char)('0' + ((c >> 3) & 7)),
                        (char)('0' + (c & 7)), 0};
      if (!buffer_append(buffer, escape, 4)) return 0;
    } else if (!buffer_append(buffer, (const char *)&c, 1)) {
      return 0;
    }
  }
  return 1;
}

/* A linemarker's file name, as the preprocessor escaped it: kept, except that control bytes (a
 * line splice in a hand-written marker) become '?', so an error stays one line. */
static int buffer_append_file_name(byte_buffer *buffer, const char *data, size_t size) {
  for (size_t i = 0; i < size; i++) {
    char c = (unsigned char)data[i] < 0x20 ? '?' : data[i];
    if (!buffer_append(buffer, &c, 1)) return 0;
  }
  return 1;
}

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

  /* Launches written in #define bodies: the directive's token and the '<<<''s offset. */
  size_t macro_launch_tokens[MAX_ERRORS], macro_launch_offsets[MAX_ERRORS];
  size_t macro_launch_count;

  /* Backward walks never go below this token: it is past the last rewritten construct. */
  size_t walk_floor;

  linemarker *markers;
  size_t marker_count, marker_capacity;
  int in_system_header; /* while tokenizing: the last linemarker had flag 3 */

  /* Cache for turning byte offsets into line:column (errors usually come in order). */
  size_t position_offset, position_line, position_line_start;
} rewriter;

static const char *token_text(const rewriter *r, size_t i) {
  return r->source + r->tokens[i].start;
}

static int token_is(const rewriter *r, size_t i, const char *text) {
  if (i >= r->token_count || r->tokens[i].kind == TOKEN_DIRECTIVE) return 0;
  size_t length = strlen(text);
  return r->tokens[i].length == length && memcmp(token_text(r, i), text, length) == 0;
}

static int token_is_char(const rewriter *r, size_t i, char c) {
  return i < r->token_count && r->tokens[i].kind == TOKEN_PUNCTUATOR && r->tokens[i].length == 1 &&
         token_text(r, i)[0] == c;
}

static int token_is_identifier(const rewriter *r, size_t i) {
  return i < r->token_count && r->tokens[i].kind == TOKEN_IDENTIFIER;
}

static int token_is_directive(const rewriter *r, size_t i) {
  return i < r->token_count && r->tokens[i].kind == TOKEN_DIRECTIVE;
}

/* True when token i directly follows token i-1, with nothing between them. */
static int token_touches_previous(const rewriter *r, size_t i) {
  return i > 0 && i < r->token_count &&
         r->tokens[i].start == r->tokens[i - 1].start + r->tokens[i - 1].length;
}

static int text_in_list(const char *text, size_t length, const char *const *list) {
  for (; *list; list++)
    if (strlen(*list) == length && memcmp(*list, text, length) == 0) return 1;
  return 0;
}

/* Words that can never be the name of a kernel, a variable or a parameter. */
static const char *const reserved_words[] = {"alignas",
                                             "alignof",
                                             "auto",
                                             "bool",
                                             "break",
                                             "case",
                                             "char",
                                             "char8_t",
                                             "char16_t",
                                             "char32_t",
                                             "class",
                                             "const",
                                             "constexpr",
                                             "const_cast",
                                             "continue",
                                             "decltype",
                                             "default",
                                             "delete",
                                             "do",
                                             "double",
                                             "dynamic_cast",
                                             "else",
                                             "enum",
                                             "explicit",
                                             "extern",
                                             "false",
                                             "float",
                                             "for",
                                             "friend",
                                             "goto",
                                             "if",
                                             "inline",
                                             "int",
                                             "long",
                                             "mutable",
                                             "namespace",
                                             "new",
                                             "noexcept",
                                             "nullptr",
                                             "operator",
                                             "private",
                                             "protected",
                                             "public",
                                             "register",
                                             "reinterpret_cast",
                                             "restrict",
                                             "return",
                                             "short",
                                             "signed",
                                             "sizeof",
                                             "static",
                                             "static_assert",
                                             "static_cast",
                                             "struct",
                                             "switch",
                                             "template",
                                             "this",
                                             "throw",
                                             "true",
                                             "try",
                                             "typedef",
                                             "typeid",
                                             "typename",
                                             "union",
                                             "unsigned",
                                             "using",
                                             "virtual",
                                             "void",
                                             "volatile",
                                             "wchar_t",
                                             "while",
                                             "co_await",
                                             "co_return",
                                             "co_yield",
                                             "__restrict__",
                                             "__restrict",
                                             "__shared__",
                                             "__device__",
                                             "__global__",
                                             "__host__",
                                             "__constant__",
                                             "__managed__",
                                             "__align__",
                                             "__attribute__",
                                             "__declspec",
                                             "__launch_bounds__",
                                             "__forceinline__",
                                             "__noinline__",
                                             NULL};

/* Words followed by a parenthesized group that belongs to a declaration's specifiers. */
static const char *const attribute_words[] = {
    "__align__",   "__attribute__",    "alignas",           "__declspec", "__launch_bounds__",
    "__maxnreg__", "__cluster_dims__", "__grid_constant__", NULL};

static int token_in_list(const rewriter *r, size_t i, const char *const *list) {
  return token_is_identifier(r, i) && text_in_list(token_text(r, i), r->tokens[i].length, list);
}

/* ---- errors ----------------------------------------------------------------------------- */

static void position_of(rewriter *r, size_t offset, size_t *line, size_t *column) {
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

static void write_error_line(rewriter *r, byte_buffer *line) {
  if (buffer_append(line, "\n", 1))
    r->errors.write(r->errors.context, line->data, line->size);
  else
    r->out_of_memory = 1;
}

/* The last linemarker before offset, or NULL. */
static const linemarker *marker_before(const rewriter *r, size_t offset) {
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
static void report_at_offset(rewriter *r, size_t offset, const char *before, size_t name,
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
static void report(rewriter *r, size_t at, const char *before, size_t name, const char *after) {
  report_at_offset(r, at < r->token_count ? r->tokens[at].start : r->source_size, before, name,
                   after);
}

/* ---- tokenizer -------------------------------------------------------------------------- */

static int is_identifier_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}

static int is_identifier_char(unsigned char c) {
  return is_identifier_start(c) || (c >= '0' && c <= '9');
}

static int is_digit(unsigned char c) {
  return c >= '0' && c <= '9';
}

/* Length of a line splice (backslash, newline) starting at p, or 0. */
static size_t splice_length(const char *s, size_t n, size_t p) {
  if (p < n && s[p] == '\\') {
    if (p + 1 < n && s[p + 1] == '\n') return 2;
    if (p + 2 < n && s[p + 1] == '\r' && s[p + 2] == '\n') return 3;
  }
  return 0;
}

typedef struct lexer {
  const char *s;
  size_t n, p;
  int at_line_start; /* no token yet on this line: a '#' here starts a directive */
} lexer;

/* Skips whitespace, line splices and comments. Inside a directive, stops at the newline that
 * ends it. An unterminated comment runs to the end of the input (the compiler will say so). */
static void skip_blanks(lexer *lex, int in_directive) {
  const char *s = lex->s;
  size_t n = lex->n;
  while (lex->p < n) {
    unsigned char c = (unsigned char)s[lex->p];
    size_t splice;
    if (c == '\n') {
      if (in_directive) return;
      lex->at_line_start = 1;
      lex->p++;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
      lex->p++;
    } else if ((splice = splice_length(s, n, lex->p)) != 0) {
      lex->p += splice;
    } else if (c == '/' && lex->p + 1 < n && s[lex->p + 1] == '/') {
      size_t q = lex->p + 2; /* a // comment ends at a newline that is not spliced */
      while (q < n && s[q] != '\n') {
        size_t k = splice_length(s, n, q);
        q += k ? k : 1;
      }
      lex->p = q;
    } else if (c == '/' && lex->p + 1 < n && s[lex->p + 1] == '*') {
      size_t q = lex->p + 2;
      while (q + 1 < n && !(s[q] == '*' && s[q + 1] == '/')) q++;
      lex->p = q + 1 < n ? q + 2 : n;
    } else {
      return;
    }
  }
}

/* End of a "..." or '...' literal whose opening quote is at q. An unterminated one stops before
 * the newline, as the compiler's own lexer recovers. */
static size_t lex_quoted(const char *s, size_t n, size_t q) {
  char quote = s[q++];
  while (q < n) {
    char c = s[q];
    if (c == '\\') {
      size_t k = splice_length(s, n, q);
      q += k ? k : 2;
    } else if (c == quote) {
      return q + 1;
    } else if (c == '\n') {
      return q;
    } else {
      q++;
    }
  }
  return n;
}

/* End of a raw string R"delim(...)delim" whose opening quote is at q. */
static size_t lex_raw(const char *s, size_t n, size_t q) {
  size_t delimiter_start = q + 1, d = delimiter_start;
  while (d < n && d - delimiter_start <= 16 && s[d] != '(') {
    char c = s[d];
    if (c == ' ' || c == ')' || c == '\\' || c == '"' || c == '\t' || c == '\v' || c == '\f' ||
        c == '\n' || c == '\r')
      break;
    d++;
  }
  if (d >= n || s[d] != '(' || d - delimiter_start > 16)
    return lex_quoted(s, n, q); /* not a valid raw string: let the compiler complain */
  size_t delimiter_length = d - delimiter_start;
  for (size_t e = d + 1; e < n; e++) {
    if (s[e] == ')' && e + 1 + delimiter_length < n &&
        memcmp(s + e + 1, s + delimiter_start, delimiter_length) == 0 &&
        s[e + 1 + delimiter_length] == '"')
      return e + delimiter_length + 2;
  }
  return n;
}

/* Lexes one token starting at p (not blank); returns its end, at least p + 1. */
static size_t lex_token(const char *s, size_t n, size_t p, uint32_t *kind) {
  unsigned char c = (unsigned char)s[p];
  if (is_identifier_start(c)) {
    size_t q = p + 1;
    while (q < n && is_identifier_char((unsigned char)s[q])) q++;
    if (q < n && (s[q] == '"' || s[q] == '\'')) {
      static const char *const raw_prefixes[] = {"R", "u8R", "uR", "UR", "LR", NULL};
      static const char *const encoding_prefixes[] = {"u8", "u", "U", "L", NULL};
      if (s[q] == '"' && text_in_list(s + p, q - p, raw_prefixes)) {
        *kind = TOKEN_LITERAL;
        return lex_raw(s, n, q);
      }
      if (text_in_list(s + p, q - p, encoding_prefixes)) {
        *kind = TOKEN_LITERAL;
        return lex_quoted(s, n, q);
      }
    }
    *kind = TOKEN_IDENTIFIER;
    return q;
  }
  if (is_digit(c) || (c == '.' && p + 1 < n && is_digit((unsigned char)s[p + 1]))) {
    /* A pp-number: digit separators (1'000) and exponent signs (1e+5) belong to it. */
    size_t q = p + 1;
    while (q < n) {
      unsigned char d = (unsigned char)s[q];
      if ((d == 'e' || d == 'E' || d == 'p' || d == 'P') && q + 1 < n &&
          (s[q + 1] == '+' || s[q + 1] == '-'))
        q += 2;
      else if (d == '\'' && q + 1 < n && is_identifier_char((unsigned char)s[q + 1]))
        q += 2;
      else if (is_identifier_char(d) || d == '.')
        q++;
      else
        break;
    }
    *kind = TOKEN_NUMBER;
    return q;
  }
  if (c == '"' || c == '\'') {
    *kind = TOKEN_LITERAL;
    return lex_quoted(s, n, p);
  }
  *kind = TOKEN_PUNCTUATOR;
  if (p + 1 < n) {
    char d = s[p + 1];
    /* '<' and '>' stay single so that '>>' can close two template lists and '<<<' is three. */
    if ((c == ':' && d == ':') || (c == '&' && d == '&') || (c == '-' && d == '>')) return p + 2;
  }
  return p + 1;
}

static int push_token(rewriter *r, size_t start, size_t end, uint32_t kind) {
  if (!reserve((void **)&r->tokens, &r->token_capacity, r->token_count + 1, sizeof(token))) {
    r->out_of_memory = 1;
    return 0;
  }
  token *t = &r->tokens[r->token_count++];
  t->start = (uint32_t)start;
  t->length = (uint32_t)(end - start);
  t->kind = (uint16_t)kind;
  t->system = (uint16_t)r->in_system_header;
  return 1;
}

/* Records the directive [start, end) if it is a linemarker, and whether what follows is a system
 * header's. Returns 2 for a linemarker (which is no token: the preprocessor puts them inside
 * statements, around tokens from system macros), 1 for another directive, 0 when out of memory. */
static int note_linemarker(rewriter *r, size_t start, size_t end) {
  const char *s = r->source;
  size_t p = start + 1;
  while (p < end && (s[p] == ' ' || s[p] == '\t')) p++;
  if (end - p > 4 && memcmp(s + p, "line", 4) == 0 && !is_identifier_char((unsigned char)s[p + 4]))
    p += 4;
  while (p < end && (s[p] == ' ' || s[p] == '\t')) p++;
  if (p >= end || !is_digit((unsigned char)s[p])) return 1;
  size_t line = 0;
  while (p < end && is_digit((unsigned char)s[p])) {
    if (line < (size_t)1 << 40) line = line * 10 + (size_t)(s[p] - '0');
    p++;
  }
  while (p < end && (s[p] == ' ' || s[p] == '\t')) p++;
  if (p >= end || s[p] != '"') return 1;
  size_t file_start = ++p;
  while (p < end && s[p] != '"') p += s[p] == '\\' ? 2 : 1;
  if (p >= end) return 1;
  size_t file_length = p - file_start;
  int system = 0;
  for (p++; p < end; p++)
    if (s[p] == '3' && (s[p - 1] == ' ' || s[p - 1] == '\t')) system = 1;
  r->in_system_header = system;
  size_t next_line = end;
  while (next_line < r->source_size && r->source[next_line] != '\n') next_line++;
  if (next_line < r->source_size) next_line++;
  if (!reserve((void **)&r->markers, &r->marker_capacity, r->marker_count + 1,
               sizeof(linemarker))) {
    r->out_of_memory = 1;
    return 0;
  }
  linemarker *m = &r->markers[r->marker_count++];
  m->next_line = next_line;
  m->line = line;
  m->file_start = file_start;
  m->file_length = file_length;
  m->system = system;
  return 2;
}

static void note_macro_launch(rewriter *r, size_t offset) {
  size_t count = r->macro_launch_count;
  if (count < MAX_ERRORS && (count == 0 || r->macro_launch_tokens[count - 1] != r->token_count)) {
    r->macro_launch_tokens[count] = r->token_count; /* the directive's token, pushed next */
    r->macro_launch_offsets[count] = offset;
    r->macro_launch_count++;
  }
}

static int tokenize(rewriter *r, size_t start) {
  lexer lex = {r->source, r->source_size, start, 1};

  const char *s = r->source;
  size_t n = r->source_size;
  for (;;) {
    skip_blanks(&lex, 0);
    if (lex.p >= n) return 1;
    size_t token_start = lex.p;
    uint32_t kind;
    if (lex.at_line_start &&
        (s[lex.p] == '#' || (s[lex.p] == '%' && lex.p + 1 < n && s[lex.p + 1] == ':'))) {
      /* A directive runs to the end of its logical line; its own tokens are lexed only so that
       * comments and literals in it cannot hide that end. */
      lex.p += s[lex.p] == '#' ? 1 : 2;
      size_t end = lex.p, words = 0, angles = 0;
      int is_define = 0;
      for (;;) {
        skip_blanks(&lex, 1);
        if (lex.p >= n || s[lex.p] == '\n') break;
        size_t word = lex.p;
        lex.p = lex_token(s, n, lex.p, &kind);
        if (words++ == 0)
          is_define =
              kind == TOKEN_IDENTIFIER && lex.p - word == 6 && !memcmp(s + word, "define", 6);
        /* A launch in a macro body stays as it is, so it is reported (see scan()). */
        int is_angle = kind == TOKEN_PUNCTUATOR && lex.p - word == 1 && s[word] == '<';
        angles = is_angle ? (angles > 0 && word == end ? angles + 1 : 1) : 0;
        if (angles == 3 && is_define) note_macro_launch(r, word - 2);
        end = lex.p;
      }
      lex.at_line_start = 0;
      int marker = note_linemarker(r, token_start, end);
      if (marker == 0 || (marker == 1 && !push_token(r, token_start, end, TOKEN_DIRECTIVE)))
        return 0;
      continue;
    }
    lex.at_line_start = 0;
    lex.p = lex_token(s, n, lex.p, &kind);
    if (!push_token(r, token_start, lex.p, kind)) return 0;
  }
}

/* ---- edits ------------------------------------------------------------------------------ */

/* Records that input bytes [start, end) become r->scratch's contents. */
static void add_edit(rewriter *r, size_t at, size_t start, size_t end) {
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

static void scratch_text(rewriter *r, const char *text) {
  if (!buffer_append_text(&r->scratch, text)) r->out_of_memory = 1;
}

static void scratch_token(rewriter *r, size_t i) {
  if (!buffer_append(&r->scratch, token_text(r, i), r->tokens[i].length)) r->out_of_memory = 1;
}

/* Appends tokens [first, end) to out on one line: comments dropped, each gap one space. Tokens
 * for which skip() is true are left out (and leave a space). */
static int append_tokens(rewriter *r, byte_buffer *out, size_t first, size_t end,
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

static void scratch_tokens(rewriter *r, size_t first, size_t end,
                           int (*skip)(const rewriter *, size_t, void *), void *skip_context) {
  if (!append_tokens(r, &r->scratch, first, end, skip, skip_context)) r->out_of_memory = 1;
}

/* ---- kernel launches -------------------------------------------------------------------- */

/* A launch opens with "<<" then "<" and closes with ">>" then ">", with or without space between
 * (nvcc 13 takes "k << < g, b >> > (...)", as Rodinia's particlefilter writes it, and refuses
 * "< <<" and "> >>"). */
static int is_launch_start(const rewriter *r, size_t i) {
  return token_is_char(r, i, '<') && token_is_char(r, i + 1, '<') && token_is_char(r, i + 2, '<') &&
         token_touches_previous(r, i + 1) && !token_is(r, i - 1, "operator");
}

static int is_launch_end(const rewriter *r, size_t i) {
  return token_is_char(r, i, '>') && token_is_char(r, i + 1, '>') && token_is_char(r, i + 2, '>') &&
         token_touches_previous(r, i + 1);
}

static int is_statement_boundary(const rewriter *r, size_t i) {
  return token_is_directive(r, i) || token_is_char(r, i, ';') || token_is_char(r, i, '{') ||
         token_is_char(r, i, '}');
}

/* Index of the '<' that opens the template argument list closed by the '>' at close, or
 * NO_TOKEN. Parenthesized parts may hold '<' and '>' of their own. */
static size_t matching_angle_backward(const rewriter *r, size_t close) {
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

static int is_name(const rewriter *r, size_t i) {
  return token_is_identifier(r, i) && !token_in_list(r, i, reserved_words);
}

static size_t matching_paren_backward(const rewriter *r, size_t close);

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
static void finish_launch_argument(rewriter *r, size_t first, size_t end) {
  if (end == first + 1 && is_null_literal(r, first)) {
    r->scratch.size = 0;
    scratch_text(r, "::cusim::null_arg()");
    add_edit(r, first, r->tokens[first].start, r->tokens[first].start + r->tokens[first].length);
  }
}

/* Rewrites the launch whose '<<<' starts at token open; *depth is the scan's nesting depth.
 * Returns the token the scan continues at. */
static size_t rewrite_launch(rewriter *r, size_t open, size_t *depth) {
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
  r->scratch.size = 0;
  scratch_text(r, "::cusim::launch(::cusim::config(");
  scratch_tokens(r, open + 3, config_end, NULL, NULL);
  scratch_text(r, "), \"");
  byte_buffer callee = {0};
  if (append_tokens(r, &callee, first, open, NULL, NULL) &&
      buffer_append_escaped(&r->scratch, callee.data, callee.size)) {
    /* The kernel's arguments reach each simulated thread as CUDA passes them, bytes copied
       without a constructor or destructor (cusim_device.h: call_kernel): the first lambda finds
       the kernel's address where its name resolves to one function, the second is the plain
       call for the rest. */
    scratch_text(r, "\", __FILE__, __LINE__, [=](auto&&... cusim_arg) { "
                    "::cusim::detail::call_kernel([&](auto cusim_probe) -> "
                    "decltype(::cusim::detail::kernel_pointer(");
    if (!buffer_append(&r->scratch, callee.data, callee.size)) r->out_of_memory = 1;
    scratch_text(r, ", cusim_probe)) { return ::cusim::detail::kernel_pointer(");
    if (!buffer_append(&r->scratch, callee.data, callee.size)) r->out_of_memory = 1;
    scratch_text(r, ", cusim_probe); }, [&] { ");
    if (!buffer_append(&r->scratch, callee.data, callee.size)) r->out_of_memory = 1;
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

/* ---- __shared__ declarations ------------------------------------------------------------ */

/* Index of the '(' matching the ')' at close, or NO_TOKEN; stays within one statement. */
static size_t matching_paren_backward(const rewriter *r, size_t close) {
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

/* Specifiers that only say where the variable lives; a typedef cannot carry them. */
static int is_storage_word(const rewriter *r, size_t i, void *unused) {
  (void)unused;
  return token_is(r, i, "__shared__") || token_is(r, i, "static") || token_is(r, i, "extern") ||
         token_is(r, i, "__device__");
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

/* One declarator's replacement: typedef BASE PTRS cusim_shared_t_NAME DIMS; and the reference
 * (or, extern, the pointer into the dynamic arena) named NAME. Tokens [first, base_end) are the
 * specifiers shared by all declarators, [ptrs, name) this declarator's '*'s, (name, end) its
 * array part. */
static void scratch_shared_declarator(rewriter *r, size_t first, size_t base_end, size_t ptrs,
                                      size_t name, size_t end, int is_extern, int is_aligned) {
  scratch_text(r, "typedef ");
  scratch_tokens(r, first, base_end, is_storage_word, NULL);
  if (ptrs < name) {
    scratch_text(r, " ");
    scratch_tokens(r, ptrs, name, is_storage_word, NULL);
  }
  scratch_text(r, " cusim_shared_t_");
  scratch_token(r, name);
  scratch_tokens(r, name + 1, end, is_storage_word, NULL);
  scratch_text(r, "; ");
  if (is_extern) {
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
    scratch_text(r, "cusim_shared_t_");
    scratch_token(r, name);
    scratch_text(r, "& ");
    scratch_token(r, name);
    scratch_text(r, " = *::cusim::shared_var<cusim_shared_t_");
    scratch_token(r, name);
    /* A template argument loses a typedef's alignment attribute, so an aligned declaration's
     * site also tells the alignment (an addition to the contract in docs/architecture.md: site()
     * returns it). */
    if (is_aligned) {
      scratch_text(r, ">([]{ return alignof(cusim_shared_t_");
      scratch_token(r, name);
      scratch_text(r, "); });");
    } else {
      scratch_text(r, ">([]{});");
    }
  }
}

enum { MAX_SHARED_DECLARATORS = 64 };

/* Rewrites the __shared__ declaration around token at; returns the token the scan continues at. */
static size_t rewrite_shared(rewriter *r, size_t at) {
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
  if (!in_function) {
    report(r, at, "__shared__ variable '", name,
           name != NO_TOKEN ? "' outside a function is not supported by the simulator; declare "
                              "it inside the kernel"
                            : "outside a function is not supported by the simulator; declare "
                              "it inside the kernel");
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
  if (alignas_at != NO_TOKEN) {
    report(r, alignas_at,
           "alignas in a __shared__ declaration is not supported by the simulator; use "
           "__align__(n)",
           NO_TOKEN, NULL);
    return end + 1;
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
    if (d > 0) scratch_text(r, " ");
    scratch_shared_declarator(r, first, base_end, d == 0 ? base_end : from, own, to, is_extern,
                              is_aligned);
  }
  add_edit(r, at, r->tokens[first].start, r->tokens[end].start + 1);
  r->walk_floor = end + 1;
  return end + 1;
}

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
static void check_kernel_parameters(rewriter *r, size_t at) {
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
    if (token_is_char(r, k, ']')) return 1; /* a lambda */
    if (token_is_char(r, k, ')')) {
      /* struct alignas(8) S { is not a function; skip attribute groups. */
      size_t depth = 0, j = k + 1;
      while (j-- > 0) {
        if (is_statement_boundary(r, j)) return 1;
        if (token_is_char(r, j, ')'))
          depth++;
        else if (token_is_char(r, j, '(') && --depth == 0)
          break;
      }
      if (j == 0 || j == (size_t)-1 || !token_in_list(r, j - 1, attribute_words)) return 1;
      k = j; /* the loop goes on before the attribute word */
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

static void scan(rewriter *r) {
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

/* ---- nvcc's static rules: execution spaces and kernel signatures -------------------------- */

/* What nvcc rejects and the simulator's C++ compiler would accept: calls across execution
 * spaces, kernels that return a value or are called without <<< >>>, <<< >>> on a function
 * that is no kernel, __shared__ and __syncthreads() in host code. The check knows functions
 * by name only, so it fires only when every declaration of a name agrees (overloads in
 * different spaces, templates called with explicit arguments, member calls and lambda
 * bodies are left alone): it may miss an error, never invent one. */

/* SPACE_CONSTEXPR marks a constexpr function's body: its conditions are not wrapped for the
 * profiler (a static in a lambda would make it unusable in a constant expression). */
enum {
  SPACE_HOST = 1,
  SPACE_DEVICE = 2,
  SPACE_GLOBAL = 4,
  SPACE_CONSTEXPR = 0x40,
  SPACE_UNKNOWN = 0x80
};

typedef struct function_name {
  size_t token;         /* a token spelling the name */
  size_t scope;         /* the namespace or class it is declared in (Q of Q::f), or NO_TOKEN */
  unsigned spaces;      /* union of the spaces of all its declarations */
  unsigned user_spaces; /* the same, of its declarations outside system headers */
  int user;             /* declared at least once outside a system header */
} function_name;

typedef struct function_table {
  function_name *slots;
  size_t capacity, count;
  /* Non-template __global__ definitions, for cudaLaunchKernel's registry: name, '(' and '{'. */
  size_t *kernels;
  size_t kernel_count, kernel_capacity;
  /* Namespace aliases (namespace cg = cooperative_groups;): alias and namespace name tokens. */
  size_t *aliases;
  size_t alias_count, alias_capacity;
} function_table;

static uint64_t token_hash(const rewriter *r, size_t i) {
  uint64_t hash = 1469598103934665603u;
  for (size_t k = 0; k < r->tokens[i].length; k++)
    hash = (hash ^ (unsigned char)token_text(r, i)[k]) * 1099511628211u;
  return hash;
}

static int same_token_text(const rewriter *r, size_t a, size_t b) {
  return r->tokens[a].length == r->tokens[b].length &&
         memcmp(token_text(r, a), token_text(r, b), r->tokens[a].length) == 0;
}

/* The table holds each name twice: by its short name (scope NO_TOKEN: all its declarations) and
 * by its scope and name (the declarations in that namespace or class), for qualified calls. */
static uint64_t entry_hash(const rewriter *r, size_t scope, size_t name) {
  return token_hash(r, name) ^ (scope == NO_TOKEN ? 0 : token_hash(r, scope) * 31u);
}

static int same_scope(const rewriter *r, size_t a, size_t b) {
  return a == NO_TOKEN || b == NO_TOKEN ? a == b : same_token_text(r, a, b);
}

static function_name *table_find_in(const rewriter *r, const function_table *table, size_t scope,
                                    size_t name) {
  if (!table->capacity) return NULL;
  for (size_t k = entry_hash(r, scope, name) & (table->capacity - 1);;
       k = (k + 1) & (table->capacity - 1)) {
    function_name *slot = &table->slots[k];
    if (slot->token == NO_TOKEN) return NULL;
    if (same_token_text(r, slot->token, name) && same_scope(r, slot->scope, scope)) return slot;
  }
}

static function_name *table_find(const rewriter *r, const function_table *table, size_t name) {
  return table_find_in(r, table, NO_TOKEN, name);
}

static function_name *table_add_in(rewriter *r, function_table *table, size_t scope, size_t name) {
  function_name *found = table_find_in(r, table, scope, name);
  if (found) return found;
  if ((table->count + 1) * 2 > table->capacity) {
    size_t capacity = table->capacity ? table->capacity * 2 : 1024;
    function_name *slots = malloc(capacity * sizeof *slots);
    if (!slots) {
      r->out_of_memory = 1;
      return NULL;
    }
    for (size_t k = 0; k < capacity; k++) slots[k].token = NO_TOKEN;
    for (size_t k = 0; k < table->capacity; k++) {
      if (table->slots[k].token == NO_TOKEN) continue;
      size_t j = entry_hash(r, table->slots[k].scope, table->slots[k].token) & (capacity - 1);
      while (slots[j].token != NO_TOKEN) j = (j + 1) & (capacity - 1);
      slots[j] = table->slots[k];
    }
    free(table->slots);
    table->slots = slots;
    table->capacity = capacity;
  }
  size_t k = entry_hash(r, scope, name) & (table->capacity - 1);
  while (table->slots[k].token != NO_TOKEN) k = (k + 1) & (table->capacity - 1);
  table->slots[k].token = name;
  table->slots[k].scope = scope;
  table->slots[k].spaces = 0;
  table->slots[k].user = 0;
  table->slots[k].user_spaces = 0;
  table->count++;
  return &table->slots[k];
}

/* The name of the namespace or class whose body the '{' at open starts (the identifier after
 * 'namespace', 'struct', 'class' or 'union' in its statement), or NO_TOKEN (an anonymous
 * namespace, extern "C", an initializer). */
static size_t scope_opened(const rewriter *r, size_t open) {
  for (size_t k = open; k-- > 0 && open - k < 64;) {
    if (is_statement_boundary(r, k)) return NO_TOKEN;
    if (token_is(r, k, "namespace") || token_is(r, k, "struct") || token_is(r, k, "class") ||
        token_is(r, k, "union"))
      return token_is_identifier(r, k + 1) && !token_in_list(r, k + 1, reserved_words) ? k + 1
                                                                                       : NO_TOKEN;
  }
  return NO_TOKEN;
}

/* What a qualifier names: the namespace an alias stands for, or itself. */
static size_t resolve_alias(const rewriter *r, const function_table *table, size_t q) {
  for (size_t a = 0; a < table->alias_count; a++)
    if (same_token_text(r, table->aliases[2 * a], q)) return table->aliases[2 * a + 1];
  return q;
}

/* Library functions that exist only on the host (CUDA's device library has none of them). */
static const char *const host_only_functions[] = {
    "rand",   "srand",   "rand_r",  "random", "srandom", "drand48", "fopen",
    "fclose", "fread",   "fwrite",  "fgets",  "fputs",   "puts",    "fputc",
    "fgetc",  "getchar", "fprintf", "fscanf", "scanf",   "time",    "exit",
    "system", "getenv",  "sleep",   "usleep", "fflush",  "perror",  NULL};

static int is_scope_boundary(const rewriter *r, size_t k) {
  return is_statement_boundary(r, k) ||
         (token_is_char(r, k, ':') && !token_is_char(r, k + 1, ':') &&
          !token_is_char(r, k - 1, ':'));
}

/* Walks in the rules' passes look this many tokens at most, so that the work stays linear. */
enum { RULE_WALK_LIMIT = 2048 };

/* First token of the declaration statement that holds token name, or NO_TOKEN when it is too
 * far away. */
static size_t declaration_start(const rewriter *r, size_t name) {
  size_t k = name;
  while (k > 0 && !is_scope_boundary(r, k - 1)) {
    if (name - k > RULE_WALK_LIMIT) return NO_TOKEN;
    k--;
  }
  return k;
}

static size_t skip_group_forward(const rewriter *r, size_t open, char opening, char closing) {
  size_t depth = 0;
  for (size_t k = open; k < r->token_count; k++) {
    if (token_is_char(r, k, opening)) depth++;
    if (token_is_char(r, k, closing) && --depth == 0) return k;
    if (token_is_char(r, k, ';') || token_is_char(r, k, '{')) return NO_TOKEN;
  }
  return NO_TOKEN;
}

static void report_rule(rewriter *r, size_t at, const char *before, size_t name,
                        const char *after) {
  byte_buffer text = {0};
  if (!buffer_append_text(&text, after ? after : "") ||
      !buffer_append_text(&text, " (nvcc rejects this too)") || !buffer_append(&text, "", 1)) {
    r->out_of_memory = 1;
    free(text.data);
    return;
  }
  report(r, at, before, name, text.data);
  free(text.data);
}

/* A __global__ function's return type must be void: the tokens before its name, less
 * specifiers, attributes and a template header, must be exactly 'void'. */
static void check_kernel_return(rewriter *r, size_t first, size_t name) {
  static const char *const specifiers[] = {"__global__", "static",          "inline",
                                           "extern",     "__forceinline__", "__noinline__",
                                           "__host__",   "__device__",      NULL};
  size_t void_count = 0, other = NO_TOKEN;
  for (size_t k = first; k < name; k++) {
    if (token_is(r, k, "template") && token_is_char(r, k + 1, '<')) {
      size_t close = NO_TOKEN, depth = 0;
      for (size_t j = k + 1; j < name; j++) {
        if (token_is_char(r, j, '<')) depth++;
        if (token_is_char(r, j, '>') && --depth == 0) {
          close = j;
          break;
        }
      }
      if (close == NO_TOKEN) return;
      k = close;
      continue;
    }
    if (token_in_list(r, k, attribute_words) && token_is_char(r, k + 1, '(')) {
      size_t close = skip_group_forward(r, k + 1, '(', ')');
      if (close == NO_TOKEN) return;
      k = close;
      continue;
    }
    if (token_is_char(r, k, '[') && token_is_char(r, k + 1, '[')) {
      size_t close = skip_group_forward(r, k, '[', ']');
      if (close == NO_TOKEN) return;
      k = close;
      continue;
    }
    if (token_in_list(r, k, specifiers) || r->tokens[k].kind == TOKEN_LITERAL) continue;
    if (token_is(r, k, "auto") || token_is(r, k, "decltype")) return; /* left to the compiler */
    if (token_is(r, k, "void"))
      void_count++;
    else if (other == NO_TOKEN)
      other = k;
  }
  if (void_count == 1 && other == NO_TOKEN) return;
  report_rule(r, other != NO_TOKEN ? other : name, "__global__ function '", name,
              "' must have a void return type");
}

/* Records a __global__ definition for registration, unless it is a template, qualified, or has
 * default arguments or an ellipsis (those a function pointer type cannot spell). */
static void note_kernel(rewriter *r, function_table *table, size_t first, size_t name,
                        size_t body) {
  if (token_is(r, name - 1, "::")) return;
  for (size_t k = first; k < name; k++)
    if (token_is(r, k, "template")) return;
  for (size_t k = name + 1; k < body; k++)
    if (token_is_char(r, k, '=') || token_is_char(r, k, '.')) return;
  if (!reserve((void **)&table->kernels, &table->kernel_capacity, table->kernel_count + 4,
               sizeof(size_t))) {
    r->out_of_memory = 1;
    return;
  }
  size_t bounds = NO_TOKEN; /* the '(' of __launch_bounds__(...), the registration passes it on */
  for (size_t k = first; k + 1 < name; k++)
    if (token_is(r, k, "__launch_bounds__") && token_is_char(r, k + 1, '(')) bounds = k + 1;
  table->kernels[table->kernel_count++] = name;
  table->kernels[table->kernel_count++] = name + 1;
  table->kernels[table->kernel_count++] = body;
  table->kernels[table->kernel_count++] = bounds;
}

/* After each recorded kernel's body, on the same line: a registration that lets
 * cudaLaunchKernel find the kernel by its address (cusim_launch_kernel.h), with the arguments of
 * its __launch_bounds__ if it has them (the launch checks, cudaFuncGetAttributes and the
 * occupancy API honour them). */
static void register_kernels(rewriter *r, const function_table *table) {
  for (size_t e = 0; e + 3 < table->kernel_count && !r->out_of_memory; e += 4) {
    size_t name = table->kernels[e], open = table->kernels[e + 1], body = table->kernels[e + 2];
    size_t bounds = table->kernels[e + 3];
    size_t bounds_close = bounds == NO_TOKEN ? NO_TOKEN : skip_group_forward(r, bounds, '(', ')');
    size_t close = skip_group_forward(r, open, '(', ')'), depth = 0, end = NO_TOKEN;
    for (size_t k = body; k < r->token_count; k++) {
      if (token_is_char(r, k, '{')) depth++;
      if (token_is_char(r, k, '}') && --depth == 0) {
        end = k;
        break;
      }
    }
    if (close == NO_TOKEN || end == NO_TOKEN) continue;
    char unique[64];
    snprintf(unique, sizeof unique, "%zu(static_cast<void (*)(", name);
    r->scratch.size = 0;
    scratch_text(r, " static const ::cusim::kernel_registration cusim_kernel_registration_");
    scratch_text(r, unique);
    scratch_tokens(r, open + 1, close, NULL, NULL);
    scratch_text(r, ")>(&");
    scratch_token(r, name);
    scratch_text(r, "), \"");
    scratch_token(r, name);
    scratch_text(r, "\"");
    if (bounds_close != NO_TOKEN && bounds_close > bounds + 1) {
      scratch_text(r, ", ::cusim::launch_bounds(");
      scratch_tokens(r, bounds + 1, bounds_close, NULL, NULL);
      scratch_text(r, ")");
    }
    scratch_text(r, ");");
    size_t after = r->tokens[end].start + 1;
    add_edit(r, end, after, after);
  }
}

/* Every __launch_bounds__(...) leaves the text: the prelude kept it through preprocessing for
 * the registration above, and the compiler after the rewriter does not know it. Its lines stay. */
static void strip_launch_bounds(rewriter *r) {
  for (size_t k = 0; k + 1 < r->token_count && !r->out_of_memory; k++) {
    if (!token_is(r, k, "__launch_bounds__") || !token_is_char(r, k + 1, '(')) continue;
    size_t close = skip_group_forward(r, k + 1, '(', ')');
    if (close == NO_TOKEN) return;
    size_t from = r->tokens[k].start, to = r->tokens[close].start + r->tokens[close].length;
    r->scratch.size = 0;
    scratch_text(r, " ");
    for (size_t c = from; c < to; c++)
      if (r->source[c] == '\n') scratch_text(r, "\n");
    add_edit(r, k, from, to);
    k = close;
  }
}

/* Pass 1: every function declared outside function bodies, with its execution spaces; marks
 * in body_space the '{' of each definition's body. */
static void collect_functions(rewriter *r, function_table *table, unsigned char *body_space,
                              unsigned char *device_body) {
  unsigned char *in_function = NULL;
  size_t *scopes = NULL; /* per open brace: the innermost named namespace or class, or NO_TOKEN */
  size_t brace_count = 0, brace_capacity = 0, scope_capacity = 0, parens = 0;
  for (size_t i = 0; i < r->token_count && !r->out_of_memory && !r->stopped; i++) {
    int inside = brace_count > 0 && in_function[brace_count - 1];
    size_t scope = brace_count > 0 ? scopes[brace_count - 1] : NO_TOKEN;
    if (token_is_char(r, i, '{')) {
      if (!reserve((void **)&in_function, &brace_capacity, brace_count + 1, 1) ||
          !reserve((void **)&scopes, &scope_capacity, brace_count + 1, sizeof *scopes)) {
        r->out_of_memory = 1;
        break;
      }
      size_t opened = inside || body_space[i] ? NO_TOKEN : scope_opened(r, i);
      scopes[brace_count] = opened != NO_TOKEN ? opened : scope;
      in_function[brace_count++] = (unsigned char)(inside || body_space[i]);
      parens = 0;
      continue;
    }
    if (token_is_char(r, i, '}')) {
      if (brace_count > 0) brace_count--;
      parens = 0;
      continue;
    }
    if (inside) continue;
    if (token_is(r, i, "namespace") && token_is_identifier(r, i + 1) &&
        token_is_char(r, i + 2, '=')) { /* namespace cg = cooperative_groups; */
      size_t target = NO_TOKEN;
      for (size_t k = i + 3; k < r->token_count && k - i < 64 && !token_is_char(r, k, ';'); k++)
        if (token_is_identifier(r, k)) target = k;
      if (target != NO_TOKEN) {
        if (!reserve((void **)&table->aliases, &table->alias_capacity, 2 * table->alias_count + 2,
                     sizeof *table->aliases)) {
          r->out_of_memory = 1;
          break;
        }
        table->aliases[2 * table->alias_count] = i + 1;
        table->aliases[2 * table->alias_count + 1] = target;
        table->alias_count++;
      }
      continue;
    }
    if (token_is_char(r, i, ';')) parens = 0;
    if (token_is_char(r, i, '(')) parens++;
    if (token_is_char(r, i, ')') && parens > 0) parens--;
    if (parens != 0 || !is_name(r, i) || !token_is_char(r, i + 1, '(') || i == 0) continue;
    size_t before = i - 1;
    if (token_is_char(r, before, ')')) { /* void __launch_bounds__(256) name(: the attribute */
      size_t open = NO_TOKEN, depth = 0;
      for (size_t k = before + 1; k-- > 0 && before - k < RULE_WALK_LIMIT;) {
        if (is_statement_boundary(r, k)) break;
        if (token_is_char(r, k, ')')) depth++;
        if (token_is_char(r, k, '(') && --depth == 0) {
          open = k;
          break;
        }
      }
      if (open != NO_TOKEN && open > 1 && token_is(r, open - 1, "__launch_bounds__"))
        before = open - 2;
    }
    if (!(token_is_identifier(r, before) || token_is_char(r, before, '*') ||
          token_is_char(r, before, '&') || token_is(r, before, "&&") ||
          token_is_char(r, before, '>') || token_is(r, before, "::")) ||
        token_is(r, before, "operator") || token_is(r, before, "return") ||
        token_is(r, before, "new") || token_is(r, before, "typedef"))
      continue;
    if (r->tokens[i + 2 < r->token_count ? i + 2 : i].kind == TOKEN_NUMBER ||
        r->tokens[i + 2 < r->token_count ? i + 2 : i].kind == TOKEN_LITERAL)
      continue; /* int x(5): a variable */
    size_t first = declaration_start(r, i);
    if (first == NO_TOKEN) continue;
    unsigned spaces = 0;
    int is_constexpr = 0, is_typedef = 0, is_using = 0;
    size_t host_at = NO_TOKEN, device_at = NO_TOKEN, global_at = NO_TOKEN;
    for (size_t k = first; k < i; k++) {
      if (token_is(r, k, "__global__")) global_at = k;
      if (token_is(r, k, "__device__")) device_at = k;
      if (token_is(r, k, "__host__")) host_at = k;
      if (token_is(r, k, "constexpr")) is_constexpr = 1;
      if (token_is(r, k, "typedef")) is_typedef = 1;
      if (token_is(r, k, "using") || token_is_char(r, k, '=')) is_using = 1;
    }
    if (is_typedef || is_using) continue;
    if (global_at != NO_TOKEN) {
      spaces = SPACE_GLOBAL;
      if (!r->tokens[i].system) {
        if (host_at != NO_TOKEN || device_at != NO_TOKEN)
          report_rule(r, host_at != NO_TOKEN ? host_at : device_at, "'",
                      host_at != NO_TOKEN ? host_at : device_at,
                      "' cannot be used together with __global__");
        else
          check_kernel_return(r, first, i);
      }
    } else {
      if (host_at != NO_TOKEN || (device_at == NO_TOKEN)) spaces |= SPACE_HOST;
      if (device_at != NO_TOKEN) spaces |= SPACE_DEVICE;
      if (is_constexpr) spaces |= SPACE_HOST | SPACE_DEVICE;
    }
    /* its scope: Q of an out-of-line Q::f, or the namespace or class around it */
    size_t own_scope =
        token_is(r, i - 1, "::") && i > 1 && token_is_identifier(r, i - 2) ? i - 2 : scope;
    for (int pass = 0; pass < 2; pass++) {
      if (pass == 1 && own_scope == NO_TOKEN) break;
      function_name *entry = table_add_in(r, table, pass == 0 ? NO_TOKEN : own_scope, i);
      if (!entry) break;
      entry->spaces |= spaces;
      if (!r->tokens[i].system) {
        entry->user = 1;
        entry->user_spaces |= spaces;
      }
    }
    if (r->out_of_memory) break;
    /* The body, if this is a definition: after the parameters, qualifiers and a constructor's
     * initializers. */
    size_t close = skip_group_forward(r, i + 1, '(', ')');
    if (close == NO_TOKEN) continue;
    size_t depth = 0;
    for (size_t k = close + 1; k < r->token_count && k - close < RULE_WALK_LIMIT; k++) {
      if (token_is_char(r, k, '(') || token_is_char(r, k, '[')) depth++;
      if ((token_is_char(r, k, ')') || token_is_char(r, k, ']')) && depth > 0) depth--;
      if (depth > 0) continue;
      if (token_is_char(r, k, ';') || token_is_char(r, k, '}') || token_is_directive(r, k)) break;
      if (token_is_char(r, k, '{')) {
        /* a system header's function bodies are not checked (its code is not the user's) */
        body_space[k] =
            (unsigned char)(r->tokens[i].system ? SPACE_UNKNOWN
                                                : spaces | (is_constexpr ? SPACE_CONSTEXPR : 0));
        /* written __device__ or __global__, in any file: the built-ins resolve there */
        device_body[k] = (unsigned char)(global_at != NO_TOKEN || device_at != NO_TOKEN);
        if (spaces == SPACE_GLOBAL && !r->tokens[i].system) note_kernel(r, table, first, i, k);
        break;
      }
      if (token_is_char(r, k, '=') || token_is_char(r, k, ',')) break;
    }
  }
  free(in_function);
  free(scopes);
}

/* The space of a '{' inside a function body: a lambda's body is unknown (its space depends on
 * annotations and on where it is called); any other block has its function's space. */
static unsigned block_space(const rewriter *r, size_t open, unsigned outer) {
  size_t depth = 0;
  for (size_t k = open; k-- > 0;) {
    if (open - k > RULE_WALK_LIMIT) return SPACE_UNKNOWN;
    if (is_statement_boundary(r, k)) return outer;
    if (token_is_char(r, k, ')') || token_is_char(r, k, ']')) {
      if (depth == 0 && token_is_char(r, k, ']')) return SPACE_UNKNOWN;
      depth++;
    } else if (token_is_char(r, k, '(') || token_is_char(r, k, '[')) {
      if (depth == 0) return outer;
      depth--;
    } else if (depth == 0 && (token_is_char(r, k, ',') || token_is_char(r, k, '='))) {
      return outer;
    }
  }
  return outer;
}

/* ---- branch divergence: the conditions of device code ----------------------------------- */
static int branch_sites = 1; /* cusim_rewrite_set_branch_sites */

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
static void hook_branch(rewriter *r, size_t i) {
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
static void hook_shift(rewriter *r, size_t i) {
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

/* Replaces tokens [first, open] (the cast up to the operand's '(') with
 * ::cusim::dev::gpu_cast<TYPE>(SITE, , TYPE tokens [type, type_end). A C cast keeps its own '('
 * (a condition's wrapping may start there): (int)(x) becomes (gpu_cast<int>)(SITE, x). */
static void wrap_cast(rewriter *r, size_t first, size_t open, size_t type, size_t type_end,
                      int c_style) {
  size_t start = r->tokens[first].start, end = r->tokens[open].start + 1;
  for (size_t e = 0; e < r->edit_count; e++)
    if (r->edits[e].start < end && r->edits[e].end > start) return;
  for (size_t e = 0; e < r->edit_count; e++)
    if (r->edits[e].start == start || r->edits[e].start == end) return;
  r->scratch.size = 0;
  scratch_text(r, "::cusim::dev::gpu_cast<");
  scratch_tokens(r, type, type_end, NULL, NULL);
  scratch_text(r, c_style ? ">)(" : ">(");
  scratch_text(r, "::cusim::dev::shift_site{__FILE__, __LINE__}, ");
  add_edit(r, first, start, end);
}

/* static_cast<INTEGER>(x), and the C cast (INTEGER)(x) whose operand is parenthesized and not
 * followed by a postfix operator (the cast would then apply to more than the parentheses). */
static void hook_cast(rewriter *r, size_t i) {
  if (r->tokens[i].system) return;
  if (token_is(r, i, "static_cast") && token_is_char(r, i + 1, '<')) {
    size_t close = i + 2;
    while (close < r->token_count && close - i < 8 && !token_is_char(r, close, '>')) close++;
    if (!token_is_char(r, close, '>') || !token_is_char(r, close + 1, '(') ||
        !integer_type(r, i + 2, close) || single_argument_close(r, close + 1) == NO_TOKEN)
      return;
    wrap_cast(r, i, close + 1, i + 2, close, 0);
    return;
  }
  if (!token_is_char(r, i, '(') || is_name(r, i - 1) || token_is_char(r, i - 1, ')') ||
      token_is_char(r, i - 1, ']') || token_is_char(r, i - 1, '>') ||
      token_is(r, i - 1, "sizeof") || token_is(r, i - 1, "alignof") ||
      token_is(r, i - 1, "decltype") || token_is(r, i - 1, "typeid") ||
      token_is(r, i - 1, "noexcept") || token_is(r, i - 1, "operator"))
    return;
  size_t close = i + 1;
  while (close < r->token_count && close - i < 8 && !token_is_char(r, close, ')')) close++;
  if (!token_is_char(r, close, ')') || !integer_type(r, i + 1, close) ||
      !token_is_char(r, close + 1, '('))
    return;
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
  wrap_cast(r, i + 1, close + 1, i + 1, close, 1);
}

/* Pass 2: the calls, launches and block-level constructs in each function body. */
static void check_calls(rewriter *r, function_table *table, const unsigned char *body_space) {
  unsigned char *spaces = NULL;
  size_t brace_count = 0, brace_capacity = 0;
  r->walk_floor = 0;
  for (size_t i = 0; i < r->token_count && !r->out_of_memory && !r->stopped; i++) {
    unsigned space = brace_count > 0 ? spaces[brace_count - 1] : 0;
    if (token_is_char(r, i, '{')) {
      if (!reserve((void **)&spaces, &brace_capacity, brace_count + 1, 1)) {
        r->out_of_memory = 1;
        break;
      }
      spaces[brace_count++] =
          (unsigned char)(space == 0 ? body_space[i] : block_space(r, i, space));
      continue;
    }
    if (token_is_char(r, i, '}')) {
      if (brace_count > 0) brace_count--;
      continue;
    }
    if (space == 0 || space == SPACE_UNKNOWN) continue;
    if (branch_sites && r->marker_count > 0 && (space & (SPACE_DEVICE | SPACE_GLOBAL)) &&
        !(space & SPACE_CONSTEXPR) &&
        (token_is(r, i, "if") || token_is(r, i, "while") || token_is(r, i, "for")))
      hook_branch(r, i);
    if (r->marker_count > 0 && (space & (SPACE_DEVICE | SPACE_GLOBAL)) &&
        !(space & SPACE_CONSTEXPR) && (token_is_char(r, i, '<') || token_is_char(r, i, '>')))
      hook_shift(r, i);
    if (r->marker_count > 0 && (space & (SPACE_DEVICE | SPACE_GLOBAL)) &&
        !(space & SPACE_CONSTEXPR) && (token_is(r, i, "static_cast") || token_is_char(r, i, '(')))
      hook_cast(r, i);
    int host_only = space == SPACE_HOST;
    int device_only = !(space & SPACE_HOST);
    if (host_only && token_is(r, i, "__shared__")) {
      report_rule(r, i, "__shared__ variables belong in device code, not in a host function",
                  NO_TOKEN, NULL);
      continue;
    }
    if (host_only && (token_is(r, i, "__syncthreads") ||
                      ((token_is(r, i, "sync_block") || token_is(r, i, "sync_block_inline")) &&
                       token_is(r, i - 1, "::") && token_is(r, i - 2, "dev")))) {
      report_rule(r, i, "__syncthreads() is a device function; host code cannot call it", NO_TOKEN,
                  NULL);
      continue;
    }
    if (is_launch_start(r, i)) {
      size_t name = i - 1;
      if (token_is_char(r, name, '>')) {
        size_t open = matching_angle_backward(r, name);
        name = open == NO_TOKEN || open == 0 ? NO_TOKEN : open - 1;
      }
      if (name == NO_TOKEN || !is_name(r, name) || token_is(r, name - 1, ".") ||
          token_is(r, name - 1, "->"))
        continue;
      function_name *entry = table_find(r, table, name);
      if (entry && !(entry->spaces & SPACE_GLOBAL))
        report_rule(r, name, "'", name,
                    "' is not a __global__ function; only kernels are launched with <<< >>>");
      i += 2;
      continue;
    }
    if (!is_name(r, i) || !token_is_char(r, i + 1, '(')) continue;
    if (token_is_char(r, i - 1, '.') || token_is(r, i - 1, "->") || token_is_char(r, i - 1, '~'))
      continue;
    function_name *entry;
    if (token_is(r, i - 1, "::") && i > 1 && token_is_identifier(r, i - 2)) {
      /* Q::f (cg::reduce) is Q's f, never a namesake elsewhere: unknown in Q, no rule applies */
      entry = table_find_in(r, table, resolve_alias(r, table, i - 2), i);
      if (!entry) continue;
    } else if (token_is(r, i - 1, "::") && i > 1 && token_is_char(r, i - 2, '>')) {
      continue; /* C<T>::f: a template's member, not known by name */
    } else {
      entry = table_find(r, table, i);
    }
    unsigned callee = entry ? entry->spaces : 0;
    /* An unqualified call finds the user's function, not a system header's namesake in std. */
    unsigned user_callee =
        entry && !(token_is(r, i - 1, "::") && token_is(r, i - 2, "std")) ? entry->user_spaces : 0;
    if (user_callee == SPACE_GLOBAL) {
      report_rule(r, i, "'", i,
                  "' is a __global__ function: launch it with <<<grid, block>>>, do not call it");
    } else if (host_only && user_callee == SPACE_DEVICE) {
      report_rule(r, i, "host code calls the __device__ function '", i,
                  "'; only device code can call it");
    } else if (device_only && (callee == 0 || callee == SPACE_HOST) &&
               ((entry && entry->user) || token_in_list(r, i, host_only_functions))) {
      report_rule(r, i, "device code calls the host function '", i,
                  "'; a kernel can call only __device__ functions");
    }
  }
  free(spaces);
}

static int compare_edits(const void *a, const void *b);

/* ---- the built-in variables: names in device code only (issue 27, item 4) ---------------- */

/* On preprocessed input the headers leave threadIdx, blockIdx, blockDim and gridDim undefined
 * (cusim_device.h): in a __device__ or __global__ body, and in any block or lambda inside one, or
 * a lambda written __device__, each of these names that is not a member (.x, ->x, Q::x) becomes
 * the simulator's read of it. Elsewhere the name is the program's own: a host variable,
 * parameter or member named gridDim builds, as under nvcc. A local variable of device code with
 * one of these names is the limit (nvcc lets it hide the built-in; here it does not compile). */
static const char *const builtin_names[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", NULL};
static const char *const builtin_reads[] = {
    "::cusim::detail::builtin_thread_idx()", "::cusim::detail::builtin_block_idx()",
    "::cusim::detail::builtin_block_dim()", "::cusim::detail::builtin_grid_dim()"};

/* The '{' at open follows __device__ in its own statement: [=] __device__ (int i) { ... }. */
static int opens_device_lambda(const rewriter *r, size_t open) {
  for (size_t k = open; k-- > 0 && open - k < 64;) {
    if (is_statement_boundary(r, k)) return 0;
    if (token_is(r, k, "__device__")) return 1;
  }
  return 0;
}

static void rewrite_builtins(rewriter *r, const unsigned char *device_body) {
  unsigned char *in_device = NULL;
  size_t brace_count = 0, brace_capacity = 0;
  size_t sorted = r->edit_count, next_edit = 0, covered_to = 0;
  if (sorted > 1) qsort(r->edits, sorted, sizeof(edit), compare_edits);
  for (size_t i = 0; i < r->token_count && !r->out_of_memory && !r->stopped; i++) {
    int inside = brace_count > 0 && in_device[brace_count - 1];
    if (token_is_char(r, i, '{')) {
      if (!reserve((void **)&in_device, &brace_capacity, brace_count + 1, 1)) {
        r->out_of_memory = 1;
        break;
      }
      in_device[brace_count++] =
          (unsigned char)(inside || device_body[i] || opens_device_lambda(r, i));
      continue;
    }
    if (token_is_char(r, i, '}')) {
      if (brace_count > 0) brace_count--;
      continue;
    }
    if (!inside || !token_is_identifier(r, i)) continue;
    int which = -1;
    for (int b = 0; builtin_names[b]; b++)
      if (token_is(r, i, builtin_names[b])) which = b;
    /* ::threadIdx names the global built-in too; Q::threadIdx, .threadIdx, ->threadIdx do not */
    int global = i > 0 && token_is(r, i - 1, "::") &&
                 !(i > 1 && (token_is_identifier(r, i - 2) || token_is_char(r, i - 2, '>')));
    if (which < 0 || token_is_char(r, i - 1, '.') || token_is(r, i - 1, "->") ||
        (token_is(r, i - 1, "::") && !global))
      continue;
    size_t start = r->tokens[global ? i - 1 : i].start,
           end = r->tokens[i].start + r->tokens[i].length;
    /* inside a launch's or a declaration's rewritten text: left as it is (the earlier edits are
     * sorted, and tokens come in order: one walk over them) */
    while (next_edit < sorted && r->edits[next_edit].start < end)
      if (r->edits[next_edit++].end > covered_to) covered_to = r->edits[next_edit - 1].end;
    if (covered_to > start) continue;
    r->scratch.size = 0;
    scratch_text(r, builtin_reads[which]);
    add_edit(r, i, start, end);
  }
  free(in_device);
}

static void check_rules(rewriter *r) {
  unsigned char *body_space = calloc(r->token_count + 1, 1);
  unsigned char *device_body = calloc(r->token_count + 1, 1);
  function_table table = {0};
  if (!body_space || !device_body) {
    free(body_space);
    free(device_body);
    r->out_of_memory = 1;
    return;
  }
  collect_functions(r, &table, body_space, device_body);
  check_calls(r, &table, body_space);
  /* Only preprocessed input has the headers that declare the registry. */
  if (r->marker_count > 0) {
    register_kernels(r, &table);
    strip_launch_bounds(r);
    rewrite_builtins(r, device_body);
  }
  free(table.slots);
  free(table.kernels);
  free(table.aliases);
  free(body_space);
  free(device_body);
}

/* ---- output ----------------------------------------------------------------------------- */

static int compare_edits(const void *a, const void *b) {
  const edit *x = a, *y = b;
  /* at one offset an insertion (empty range) goes before a replacement that starts there */
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  return x->end < y->end ? -1 : x->end > y->end;
}

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

static void write_output(rewriter *r, size_t body_start, cusim_sink output) {
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
  for (size_t e = 0; e < r->edit_count; e++) {
    const edit *x = &r->edits[e];
    const char *text = r->texts.data + x->text_start;
    if (x->start > position)
      output.write(output.context, r->source + position, x->start - position);
    output.write(output.context, text, x->text_size);
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

void cusim_rewrite_set_branch_sites(int on) {
  branch_sites = on;
}

int cusim_rewrite_buffer(const char *input, size_t size, const char *filename, cusim_sink output,
                         cusim_sink errors) {
  rewriter r;
  memset(&r, 0, sizeof r);
  r.source = input ? input : "";
  r.source_size = input ? size : 0;
  r.filename = filename ? filename : "<input>";
  r.errors = errors;
  r.position_line = 1;

  if (r.source_size >= UINT32_MAX) {
    report(&r, NO_TOKEN, "input too large (the rewriter reads files below 4 GiB)", NO_TOKEN, NULL);
    return 1;
  }
  /* A UTF-8 byte order mark is dropped: after the #line it would sit mid-file. */
  size_t body_start = 0;
  if (r.source_size >= 3 && memcmp(r.source, "\xEF\xBB\xBF", 3) == 0) body_start = 3;

  if (tokenize(&r, body_start)) {
    scan(&r);
    if (!r.out_of_memory && !r.stopped) check_rules(&r);
  }
  if (!r.out_of_memory && r.error_count == 0) {
    /* Edits are made in scan order, except null_arg() ones that precede a nested construct. */
    if (r.edit_count > 1) /* qsort must not be handed the NULL of an empty list */
      qsort(r.edits, r.edit_count, sizeof(edit), compare_edits);
    size_t position = body_start;
    for (size_t e = 0; e < r.edit_count; e++) {
      if (r.edits[e].start < position) {
        /* Only contrived code (a launch inside another launch's template arguments) gets here:
         * refuse rather than emit a garbled file. */
        report(&r, r.edits[e].token,
               "cannot rewrite this kernel launch: it overlaps another construct the simulator "
               "rewrites",
               NO_TOKEN, NULL);
        break;
      }
      position = r.edits[e].end;
    }
  }
  if (r.out_of_memory) {
    byte_buffer line = {0};
    if (buffer_append_text(&line, r.filename) &&
        buffer_append_text(&line, ": error: out of memory"))
      write_error_line(&r, &line);
    free(line.data);
  } else if (r.error_count == 0) {
    write_output(&r, body_start, output);
  }
  int failed = r.out_of_memory || r.error_count > 0;
  free(r.tokens);
  free(r.edits);
  free(r.texts.data);
  free(r.scratch.data);
  free(r.braces_in_function);
  free(r.open_launches);
  free(r.markers);
  return failed;
}
