/* cusim-rewrite's lexer: growable buffers, the word lists the passes test tokens against, and
 * the tokenizer. The tokenizer knows C++'s lexical rules well enough to skip comments, string,
 * character and raw-string literals, pp-numbers with digit separators and whole preprocessor
 * directives (each directive becomes one opaque token); it reads preprocessed input's
 * linemarkers instead of tokenizing them, so that errors name the file and line they give, and
 * notes launches written in #define bodies for the scan to report. */
#include "rewriter_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- growable buffers ------------------------------------------------------------------- */

/* Grows *array (of element_size-byte elements) to hold at least needed ones; 0 on failure. */
int reserve(void **array, size_t *capacity, size_t needed, size_t element_size) {
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

int buffer_append(byte_buffer *buffer, const char *data, size_t size) {
  if (size > SIZE_MAX - buffer->size ||
      !reserve((void **)&buffer->data, &buffer->capacity, buffer->size + size, 1))
    return 0;
  if (size) memcpy(buffer->data + buffer->size, data, size);
  buffer->size += size;
  return 1;
}

int buffer_append_text(byte_buffer *buffer, const char *text) {
  return buffer_append(buffer, text, strlen(text));
}

/* Appends data as the inside of a C string literal: quotes and backslashes escaped, control and
 * non-ASCII bytes as three-digit octal escapes, so the literal is one line and means the same
 * bytes. */
int buffer_append_escaped(byte_buffer *buffer, const char *data, size_t size) {
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
int buffer_append_file_name(byte_buffer *buffer, const char *data, size_t size) {
  for (size_t i = 0; i < size; i++) {
    char c = (unsigned char)data[i] < 0x20 ? '?' : data[i];
    if (!buffer_append(buffer, &c, 1)) return 0;
  }
  return 1;
}

/* ---- word lists --------------------------------------------------------------------------- */

/* Words that can never be the name of a kernel, a variable or a parameter. */
const char *const reserved_words[] = {"alignas",
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
const char *const attribute_words[] = {"__align__",        "__attribute__",     "alignas",
                                       "__declspec",       "__launch_bounds__", "__maxnreg__",
                                       "__cluster_dims__", "__grid_constant__", NULL};

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
  int system = 0, flags = 0;
  for (p++; p < end; p++)
    if (s[p] >= '1' && s[p] <= '4' && (s[p - 1] == ' ' || s[p - 1] == '\t') &&
        (p + 1 == end || s[p + 1] == ' ' || s[p + 1] == '\t' || s[p + 1] == '\r'))
      flags |= 1 << (s[p] - '0');
  system = (flags >> 3) & 1;
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
  m->start = start;
  m->end = end;
  m->flags = flags;
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

int tokenize(rewriter *r, size_t start) {
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
