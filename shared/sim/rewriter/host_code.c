/* Host code left uninstrumented (issue 27: programs from the wild within 120 s). In a program
 * built with the memory checker every load and store is a call into the checker, host code's
 * too, and the checker returns at once for each of those (it checks only code that runs in a
 * block). A CPU reference loop of a benchmark program then runs several times slower than it
 * would (PolyBench's FDTD-2D: 4.5 s against 0.47 s at a tenth of its size). So each host-only
 * function defined in the program's own files gets __attribute__((no_sanitize("thread"))).
 *
 * gcc does not inline a function into one whose sanitizer attributes differ, so a marked
 * function that called an inline function (an operator of a vector type, a small helper, a
 * member function) would call it out of line, at every use. A function is marked only where
 * that cannot happen: it calls nothing but the C library's functions, the CUDA libraries', and
 * other host functions of the file (marked too, or a call that was a call already); it names no
 * member function, no '::' and no type the rewriter does not know to be a plain one (a built-in
 * type, a C library typedef, a struct or typedef of the program's own when none of its files
 * defines an operator); its file says `using namespace` nowhere. Everything else stays as it was.
 * Not marked either: __device__, __host__ __device__, __global__ and constexpr functions (device
 * code may run them), templates, members, operators.
 *
 * Only where cusim_device.h declares cusim_host_code_is_not_checked (a checked build): under
 * ThreadSanitizer (the sim-race build) host code is what it checks. */
#include "rewriter_internal.h"

#include <stdlib.h>

/* Functions of the C library and POSIX that are not inline in a C++ translation unit, or whose
 * inline wrapper only forwards to a builtin. */
static const char *const library_functions[] = {"printf",
                                                "fprintf",
                                                "sprintf",
                                                "snprintf",
                                                "vprintf",
                                                "vfprintf",
                                                "puts",
                                                "putchar",
                                                "fputs",
                                                "fputc",
                                                "fgets",
                                                "fgetc",
                                                "getc",
                                                "getchar",
                                                "scanf",
                                                "fscanf",
                                                "sscanf",
                                                "fopen",
                                                "fclose",
                                                "fread",
                                                "fwrite",
                                                "fflush",
                                                "fseek",
                                                "ftell",
                                                "rewind",
                                                "feof",
                                                "ferror",
                                                "perror",
                                                "remove",
                                                "malloc",
                                                "calloc",
                                                "realloc",
                                                "free",
                                                "memcpy",
                                                "memset",
                                                "memmove",
                                                "memcmp",
                                                "strcpy",
                                                "strncpy",
                                                "strcat",
                                                "strncat",
                                                "strcmp",
                                                "strncmp",
                                                "strlen",
                                                "strchr",
                                                "strrchr",
                                                "strstr",
                                                "strtok",
                                                "strdup",
                                                "atoi",
                                                "atol",
                                                "atoll",
                                                "atof",
                                                "strtol",
                                                "strtoul",
                                                "strtoll",
                                                "strtoull",
                                                "strtod",
                                                "strtof",
                                                "exit",
                                                "abort",
                                                "atexit",
                                                "rand",
                                                "srand",
                                                "rand_r",
                                                "random",
                                                "srandom",
                                                "drand48",
                                                "srand48",
                                                "lrand48",
                                                "time",
                                                "clock",
                                                "gettimeofday",
                                                "clock_gettime",
                                                "difftime",
                                                "sleep",
                                                "usleep",
                                                "getenv",
                                                "system",
                                                "qsort",
                                                "bsearch",
                                                "__assert_fail",
                                                "sqrt",
                                                "sqrtf",
                                                "cbrt",
                                                "cbrtf",
                                                "exp",
                                                "expf",
                                                "exp2",
                                                "exp2f",
                                                "expm1",
                                                "expm1f",
                                                "log",
                                                "logf",
                                                "log2",
                                                "log2f",
                                                "log10",
                                                "log10f",
                                                "log1p",
                                                "log1pf",
                                                "pow",
                                                "powf",
                                                "fabs",
                                                "fabsf",
                                                "abs",
                                                "labs",
                                                "llabs",
                                                "fmin",
                                                "fminf",
                                                "fmax",
                                                "fmaxf",
                                                "floor",
                                                "floorf",
                                                "ceil",
                                                "ceilf",
                                                "round",
                                                "roundf",
                                                "lround",
                                                "lroundf",
                                                "trunc",
                                                "truncf",
                                                "rint",
                                                "rintf",
                                                "fmod",
                                                "fmodf",
                                                "sin",
                                                "sinf",
                                                "cos",
                                                "cosf",
                                                "tan",
                                                "tanf",
                                                "asin",
                                                "asinf",
                                                "acos",
                                                "acosf",
                                                "atan",
                                                "atanf",
                                                "atan2",
                                                "atan2f",
                                                "sinh",
                                                "sinhf",
                                                "cosh",
                                                "coshf",
                                                "tanh",
                                                "tanhf",
                                                "erf",
                                                "erff",
                                                "erfc",
                                                "erfcf",
                                                "hypot",
                                                "hypotf",
                                                "ldexp",
                                                "ldexpf",
                                                "frexp",
                                                "frexpf",
                                                "omp_get_wtime",
                                                "omp_get_num_threads",
                                                "omp_get_thread_num",
                                                NULL};

/* Type names other than the reserved words that are plain scalars or C structs. */
static const char *const plain_types[] = {
    "size_t",      "ssize_t",       "ptrdiff_t",     "intptr_t",       "uintptr_t",  "int8_t",
    "int16_t",     "int32_t",       "int64_t",       "uint8_t",        "uint16_t",   "uint32_t",
    "uint64_t",    "FILE",          "clock_t",       "time_t",         "off_t",      "timeval",
    "timespec",    "timezone",      "uint",          "ulong",          "ushort",     "uchar",
    "cudaError_t", "cudaEvent_t",   "cudaStream_t",  "cudaDeviceProp", "__restrict", "__restrict__",
    "__null",      "__extension__", "__attribute__", "__inline",       "__inline__", NULL};

/* Reserved words a marked function may hold (the rest, auto, class, operator, template, this,
 * new, delete, throw, try, typeid, dynamic_cast, ..., keep it unmarked). */
static const char *const plain_words[] = {"bool",       "break",    "case",
                                          "char",       "const",    "continue",
                                          "default",    "do",       "double",
                                          "else",       "enum",     "extern",
                                          "false",      "float",    "for",
                                          "goto",       "if",       "inline",
                                          "int",        "long",     "register",
                                          "return",     "short",    "signed",
                                          "sizeof",     "static",   "static_cast",
                                          "struct",     "switch",   "true",
                                          "typedef",    "union",    "unsigned",
                                          "void",       "volatile", "while",
                                          "nullptr",    "alignof",  "reinterpret_cast",
                                          "const_cast", "restrict", "__restrict__",
                                          "__restrict", "__host__", "__attribute__",
                                          NULL};

typedef struct host_definition {
  size_t first, name, body, end; /* declaration's first token, name, '{' and its '}' */
  int marked;
} host_definition;

static size_t body_end(const rewriter *r, size_t open) {
  size_t depth = 0;
  for (size_t k = open; k < r->token_count; k++) {
    if (token_is_char(r, k, '{')) depth++;
    if (token_is_char(r, k, '}') && --depth == 0) return k;
  }
  return NO_TOKEN;
}

/* Names declared by the program's own files as plain types: struct, union and enum tags, and
 * typedefs with no '::' or '<' in them. */
/* The work stays bounded whatever the input: at most this many type names and candidates. */
enum { max_plain_types = 1024, max_definitions = 4096 };

typedef struct name_set {
  size_t *tokens;
  size_t count, capacity;
} name_set;

static int set_has(const rewriter *r, const name_set *s, size_t i) {
  for (size_t k = 0; k < s->count; k++)
    if (r->tokens[s->tokens[k]].length == r->tokens[i].length &&
        memcmp(token_text(r, s->tokens[k]), token_text(r, i), r->tokens[i].length) == 0)
      return 1;
  return 0;
}

static int set_add(rewriter *r, name_set *s, size_t i) {
  if (s->count >= max_plain_types || set_has(r, s, i)) return 1; /* (past it: unknown, so kept) */
  if (!reserve((void **)&s->tokens, &s->capacity, s->count + 1, sizeof(size_t))) {
    r->out_of_memory = 1;
    return 0;
  }
  s->tokens[s->count++] = i;
  return 1;
}

/* Whether the function's tokens [from, to) keep it from being marked; `defs` are the candidates
 * (a call of one of them is a call of a function marked the same way, or of one left as it was,
 * which costs a call and nothing else). */
static int plain_tokens(const rewriter *r, size_t from, size_t to, const name_set *types,
                        const host_definition *defs, size_t def_count) {
  for (size_t k = from; k < to; k++) {
    if (r->tokens[k].kind == TOKEN_DIRECTIVE) continue;
    if (token_is(r, k, "::")) {
      /* ::cusim::dev::assert_check(...), the simulator's assert(): a call of its own runtime */
      if (!token_is(r, k + 1, "cusim")) return 0;
      while (token_is(r, k + 1, "::") || token_is_identifier(r, k + 1)) k++;
      continue;
    }
    if ((token_is_char(r, k, '.') || token_is(r, k, "->")) && token_is_identifier(r, k + 1) &&
        (token_is_char(r, k + 2, '(') || token_is_char(r, k + 2, '<')))
      return 0; /* a member function */
    if (token_is_char(r, k, ']') &&
        (token_is_char(r, k + 1, '{') || token_is_char(r, k + 1, '(')) && k > from &&
        (token_is_char(r, k - 1, '[') || token_is_char(r, k - 1, '=') ||
         token_is_char(r, k - 1, '&')))
      return 0; /* a lambda */
    if (!token_is_identifier(r, k)) continue;
    if (token_in_list(r, k, reserved_words)) {
      if (!token_in_list(r, k, plain_words)) return 0;
      continue;
    }
    if (token_in_list(r, k, plain_types) || set_has(r, types, k)) continue;
    if (token_is_char(r, k + 1, '(')) { /* a call */
      if (token_in_list(r, k, library_functions)) continue;
      size_t length = r->tokens[k].length;
      const char *text = token_text(r, k);
      /* the CUDA libraries: cudaMalloc, curand..., cublas..., cufft..., the driver's cuInit */
      if ((length > 4 && memcmp(text, "cuda", 4) == 0) ||
          (length > 6 && (memcmp(text, "curand", 6) == 0 || memcmp(text, "cublas", 6) == 0)) ||
          (length > 5 && memcmp(text, "cufft", 5) == 0) ||
          (length > 2 && memcmp(text, "cu", 2) == 0 && text[2] >= 'A' && text[2] <= 'Z'))
        continue;
      if (length > 10 && memcmp(text, "__builtin_", 10) == 0) continue;
      int known = 0;
      for (size_t d = 0; d < def_count && !known; d++)
        known = r->tokens[defs[d].name].length == length &&
                memcmp(token_text(r, defs[d].name), text, length) == 0;
      if (!known) return 0;
      continue;
    }
    if (is_launch_start(r, k + 1)) continue; /* kernel<<<...>>>(...) */
    /* A type the list does not know: Name x, Name *x, Name &x at a statement's start, (Name) or
     * (Name *), Name<...>. A variable is none of these. */
    if (token_is_identifier(r, k + 1) && !token_in_list(r, k + 1, reserved_words)) return 0;
    if (token_is_char(r, k + 1, '<') && !token_is_char(r, k + 2, '<')) {
      /* i < n is a comparison: a name declared here (a parameter or a local of a plain type)
       * comes before it; anything else may be a template */
      int declared = 0;
      for (size_t j = k - from > RULE_WALK_LIMIT ? k - RULE_WALK_LIMIT : from; j < k && !declared;
           j++)
        declared = token_is_identifier(r, j) && r->tokens[j].length == r->tokens[k].length &&
                   memcmp(token_text(r, j), token_text(r, k), r->tokens[k].length) == 0 &&
                   j > from &&
                   (token_in_list(r, j - 1, plain_words) || token_in_list(r, j - 1, plain_types) ||
                    set_has(r, types, j - 1) || token_is_char(r, j - 1, '*') ||
                    token_is_char(r, j - 1, ','));
      if (!declared) return 0;
    }
    if ((token_is_char(r, k + 1, '*') || token_is_char(r, k + 1, '&')) &&
        (is_statement_boundary(r, k - 1) || token_is_char(r, k - 1, '(') ||
         token_is_char(r, k - 1, ',')) &&
        (token_is_identifier(r, k + 2) || token_is_char(r, k + 2, ')') ||
         token_is_char(r, k + 2, '*')))
      return 0;
    if (token_is_char(r, k - 1, '(') && token_is_char(r, k + 1, ')') &&
        (token_is_identifier(r, k + 2) || token_is_char(r, k + 2, '(')))
      return 0;
  }
  return 1;
}

/* Whether the attribute can open the declaration [first, name): not before extern "C" (gcc: "not
 * permitted in this position") nor before a [[...]] attribute (clang: an error). */
static int plain_declaration(const rewriter *r, size_t first, size_t name) {
  for (size_t k = first; k < name; k++)
    if (r->tokens[k].kind == TOKEN_LITERAL || token_is_char(r, k, '[') || token_is(r, k, "alignas"))
      return 0;
  return 1;
}

void mark_host_code(rewriter *r, const size_t *definitions, size_t count) {
  if (count == 0 || count / 3 > max_definitions) return;
  /* Only a checked build declares it; and only the program's own files can give up on it. */
  int checked = 0, user_operator = 0, using_namespace = 0;
  name_set types = {0};
  for (size_t i = 0; i < r->token_count; i++) {
    if (!token_is_identifier(r, i)) continue;
    if (r->tokens[i].system) {
      if (!checked && token_is(r, i, "cusim_host_code_is_not_checked")) checked = 1;
      continue;
    }
    if (token_is(r, i, "operator")) user_operator = 1;
    if (token_is(r, i, "using") && token_is(r, i + 1, "namespace")) {
      using_namespace = 1;
      break;
    }
    if ((token_is(r, i, "struct") || token_is(r, i, "union") || token_is(r, i, "enum")) &&
        token_is_identifier(r, i + 1) && !set_add(r, &types, i + 1))
      break;
    if (token_is(r, i, "typedef")) {
      size_t k = i + 1, last = NO_TOKEN;
      int plain = 1;
      size_t depth = 0;
      for (; k < r->token_count && k - i < RULE_WALK_LIMIT; k++) {
        if (token_is_char(r, k, '{')) depth++;
        if (token_is_char(r, k, '}') && depth > 0) depth--;
        if (depth == 0 && token_is_char(r, k, ';')) break;
        if (depth == 0 &&
            (token_is(r, k, "::") || token_is_char(r, k, '<') || token_is_char(r, k, '(')))
          plain = 0;
        if (depth == 0 && token_is_identifier(r, k)) last = k;
      }
      if (plain && last != NO_TOKEN && !set_add(r, &types, last)) break;
    }
  }
  if (!checked || user_operator || using_namespace || r->out_of_memory) {
    free(types.tokens);
    return;
  }
  host_definition *defs = calloc(count / 3, sizeof *defs);
  if (!defs) {
    r->out_of_memory = 1;
    free(types.tokens);
    return;
  }
  size_t n = 0;
  for (size_t d = 0; d + 2 < count; d += 3) {
    size_t end = body_end(r, definitions[d + 2]);
    if (end == NO_TOKEN) continue;
    defs[n++] = (host_definition){definitions[d], definitions[d + 1], definitions[d + 2], end, 0};
  }
  for (size_t d = 0; d < n; d++)
    if (plain_declaration(r, defs[d].first, defs[d].name) &&
        plain_tokens(r, defs[d].first, defs[d].end, &types, defs, n)) {
      size_t at = r->tokens[defs[d].first].start;
      r->scratch.size = 0;
      scratch_text(r, "__attribute__((no_sanitize(\"thread\"))) ");
      add_edit(r, defs[d].first, at, at);
    }
  free(defs);
  free(types.tokens);
}
