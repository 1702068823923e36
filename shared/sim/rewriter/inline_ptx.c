/* cusim-rewrite's inline PTX: each asm("..." : outputs : inputs : clobbers) of device code whose
 * statements are all in the subset the simulator runs becomes a call of ::cusim::ptx::run() with
 * a lambda that does what the statements do (cusim_ptx.h holds the operations, each as the PTX
 * ISA defines it). Anything else stops the build with one line naming the statement: the
 * simulator never guesses what PTX does.
 *
 * The C operands' parenthesized expressions stay where they are in the text, so the other passes
 * (shifts, casts, built-ins) still rewrite inside them; the edits replace only the asm keyword,
 * the template and the constraints around them:
 *   asm volatile("shl.b32 %0, %1, %2;" : "=r"(x) : "r"(a), "n"(3))
 *   ->  ::cusim::ptx::run([]([[maybe_unused]] auto &cusim_p0, ...) { ...; },
 *        ::cusim::ptx::out<'r'>(x), ::cusim::ptx::in<'r'>(a),
 *        ::cusim::ptx::in_n(::std::integral_constant<long long, (3)>{}))
 * rules.c's pass 2 calls rewrite_inline_ptx() in device code, on preprocessed input only. */
#include "rewriter_internal.h"

#include <stdio.h>
#include <stdlib.h>

enum { MAX_OPERANDS = 30, MAX_LOCALS = 64, MAX_TEMPLATE = 8192, MAX_PARTS = 6 };

typedef struct asm_operand {
  char letter;        /* h r l f d n */
  char mode;          /* 'i' input, '=' output, '+' read and written */
  size_t constraint;  /* the constraint's string token */
  size_t open, close; /* the parentheses of the C expression */
} asm_operand;

typedef struct local_register {
  char name[32];
  char kind; /* 'b' 'u' 's' 'f' */
  int bits, count, depth;
} local_register;

/* A PTX register in an instruction: an operand, a local, an immediate or a special register. */
typedef struct ptx_value {
  char what;     /* 'o' operand, 'v' local, 'i' immediate, 's' special register */
  char kind;     /* 'i' integer, 'f' float, 'b' either (a .b local), 'n' immediate */
  int bits;      /* 0 for immediates */
  char ref[160]; /* the C++ expression of the register (or the immediate's value) */
} ptx_value;

typedef struct ptx_state {
  rewriter *r;
  size_t at;
  char text[MAX_TEMPLATE];
  size_t length, pos;
  asm_operand ops[MAX_OPERANDS];
  int op_count;
  local_register locals[MAX_LOCALS];
  int local_count, depth;
  byte_buffer code;
  char refusal[256]; /* the first reason not to run it */
} ptx_state;

static void refuse(ptx_state *s, const char *format, const char *what) {
  if (s->refusal[0]) return;
  snprintf(s->refusal, sizeof s->refusal, format, what);
}

static void emit(ptx_state *s, const char *text) {
  if (!buffer_append_text(&s->code, text)) s->r->out_of_memory = 1;
}

/* ---- the template: C string literals, decoded -------------------------------------------------
 */

static int is_plain_string(const rewriter *r, size_t i) {
  return i < r->token_count && r->tokens[i].kind == TOKEN_LITERAL && token_text(r, i)[0] == '"';
}

/* Appends the string literal's characters (escapes decoded) to out; 0 when it will not fit. */
static int decode_string(const rewriter *r, size_t i, char *out, size_t *length, size_t limit) {
  const char *p = token_text(r, i) + 1, *end = token_text(r, i) + r->tokens[i].length - 1;
  while (p < end) {
    char c = *p++;
    if (c == '\\' && p < end) {
      char e = *p++;
      c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == '0' ? ' ' : e;
    }
    if (*length + 1 >= limit) return 0;
    out[(*length)++] = c;
  }
  out[*length] = '\0';
  return 1;
}

/* ---- the PTX tokens ----------------------------------------------------------------------- */

typedef struct ptx_token {
  char kind; /* 'w' word (opcode, name, directive, %register), 'o' operand %N, '#' number,
                'p' punctuator, 0 end */
  char text[64];
  int operand;
} ptx_token;

static int word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c == '.';
}

static void next_token(ptx_state *s, ptx_token *t) {
  const char *x = s->text;
  for (;;) {
    while (s->pos < s->length &&
           (x[s->pos] == ' ' || x[s->pos] == '\t' || x[s->pos] == '\n' || x[s->pos] == '\r'))
      s->pos++;
    if (s->pos + 1 < s->length && x[s->pos] == '/' && x[s->pos + 1] == '/') {
      while (s->pos < s->length && x[s->pos] != '\n') s->pos++;
      continue;
    }
    if (s->pos + 1 < s->length && x[s->pos] == '/' && x[s->pos + 1] == '*') {
      s->pos += 2;
      while (s->pos + 1 < s->length && !(x[s->pos] == '*' && x[s->pos + 1] == '/')) s->pos++;
      s->pos += 2;
      continue;
    }
    break;
  }
  t->kind = 0;
  t->text[0] = '\0';
  t->operand = -1;
  if (s->pos >= s->length) return;
  size_t n = 0;
  char c = x[s->pos];
  if (c == '%' && s->pos + 1 < s->length && x[s->pos + 1] >= '0' && x[s->pos + 1] <= '9') {
    /* %N: the asm's operand N */
    s->pos++;
    int v = 0;
    while (s->pos < s->length && x[s->pos] >= '0' && x[s->pos] <= '9' && v < 1000)
      v = v * 10 + (x[s->pos++] - '0');
    t->kind = 'o';
    t->operand = v;
    snprintf(t->text, sizeof t->text, "%%%d", v);
    return;
  }
  if (c == '%' || word_char(c)) {
    /* %%name (the template's escape) and %name (which nvcc passes on) are both PTX's %name */
    if (c == '%') {
      s->pos += s->pos + 1 < s->length && x[s->pos + 1] == '%' ? 2 : 1;
      t->text[n++] = '%';
    }
    int number = s->pos < s->length && x[s->pos] >= '0' && x[s->pos] <= '9' && n == 0;
    while (s->pos < s->length && word_char(x[s->pos])) {
      if (n + 1 < sizeof t->text) t->text[n++] = x[s->pos];
      s->pos++;
    }
    t->text[n] = '\0';
    t->kind = number ? '#' : 'w';
    return;
  }
  if (c == '-' && s->pos + 1 < s->length && x[s->pos + 1] >= '0' && x[s->pos + 1] <= '9') {
    t->text[n++] = '-';
    s->pos++;
    while (s->pos < s->length && word_char(x[s->pos])) {
      if (n + 1 < sizeof t->text) t->text[n++] = x[s->pos];
      s->pos++;
    }
    t->text[n] = '\0';
    t->kind = '#';
    return;
  }
  t->kind = 'p';
  t->text[0] = c;
  t->text[1] = '\0';
  s->pos++;
}

/* ---- PTX types ---------------------------------------------------------------------------- */

/* ".u32" -> kind 'u', 32 bits; 0 when it is not one of the types the subset uses. */
static int parse_type(const char *text, char *kind, int *bits) {
  static const char *const types[] = {"b16", "u16", "s16", "b32", "u32", "s32",
                                      "b64", "u64", "s64", "f32", "f64", NULL};
  for (int k = 0; types[k]; k++)
    if (strcmp(text, types[k]) == 0) {
      *kind = types[k][0];
      *bits = atoi(types[k] + 1);
      return 1;
    }
  return 0;
}

/* ---- registers and immediates ------------------------------------------------------------- */

typedef struct special_register {
  const char *name;
  int bits;
} special_register;

static const special_register special_registers[] = {{"%laneid", 32},
                                                     {"%warpid", 32},
                                                     {"%nwarpid", 32},
                                                     {"%smid", 32},
                                                     {"%nsmid", 32},
                                                     {"%gridid", 64},
                                                     {"%lanemask_eq", 32},
                                                     {"%lanemask_le", 32},
                                                     {"%lanemask_lt", 32},
                                                     {"%lanemask_ge", 32},
                                                     {"%lanemask_gt", 32},
                                                     {"%clock", 32},
                                                     {"%clock_hi", 32},
                                                     {"%clock64", 64},
                                                     {"%globaltimer", 64},
                                                     {"%globaltimer_lo", 32},
                                                     {"%globaltimer_hi", 32},
                                                     {"%dynamic_smem_size", 32},
                                                     {"%tid.x", 32},
                                                     {"%tid.y", 32},
                                                     {"%tid.z", 32},
                                                     {"%ntid.x", 32},
                                                     {"%ntid.y", 32},
                                                     {"%ntid.z", 32},
                                                     {"%ctaid.x", 32},
                                                     {"%ctaid.y", 32},
                                                     {"%ctaid.z", 32},
                                                     {"%nctaid.x", 32},
                                                     {"%nctaid.y", 32},
                                                     {"%nctaid.z", 32},
                                                     {NULL, 0}};

static int find_local(const ptx_state *s, const char *name) {
  for (int k = s->local_count; k-- > 0;) {
    const local_register *l = &s->locals[k];
    size_t n = strlen(l->name);
    if (l->count == 0 && strcmp(l->name, name) == 0) return k;
    if (l->count > 0 && strncmp(l->name, name, n) == 0 && name[n] >= '0' && name[n] <= '9') {
      int index = atoi(name + n);
      if (index < l->count) return k;
    }
  }
  return -1;
}

/* An immediate as PTX writes integers (decimal, 0x, 0b, octal, optional U) or a float's bits
 * (0fXXXXXXXX, 0dXXXXXXXXXXXXXXXX); 0 when it is none of them. */
static int parse_immediate(const char *text, ptx_value *v) {
  const char *p = text;
  int negative = *p == '-';
  if (negative) p++;
  if ((p[0] == '0') && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D')) {
    size_t digits = strlen(p + 2);
    int bits = (p[1] == 'f' || p[1] == 'F') ? 32 : 64;
    if (negative || digits != (size_t)bits / 4) return 0;
    for (size_t k = 0; k < digits; k++) {
      char c = p[2 + k];
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return 0;
    }
    v->what = 'i';
    v->kind = 'f';
    v->bits = bits;
    snprintf(v->ref, sizeof v->ref, "cusim_ptx::to_reg<cusim_ptx::f%d>(0x%sULL)", bits, p + 2);
    if (bits == 32)
      snprintf(v->ref, sizeof v->ref, "cusim_ptx::to_reg<cusim_ptx::f32>(0x%su)", p + 2);
    return 1;
  }
  int base = 10;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    base = 16, p += 2;
  else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
    base = 2, p += 2;
  else if (p[0] == '0' && p[1] != '\0')
    base = 8, p += 1;
  if (*p == '\0') return 0;
  unsigned long long value = 0;
  for (; *p && *p != 'U' && *p != 'u'; p++) {
    int d = (*p >= '0' && *p <= '9')   ? *p - '0'
            : (*p >= 'a' && *p <= 'f') ? *p - 'a' + 10
            : (*p >= 'A' && *p <= 'F') ? *p - 'A' + 10
                                       : 99;
    if (d >= base) return 0;
    value = value * (unsigned)base + (unsigned)d;
  }
  if (*p && p[1] != '\0') return 0;
  v->what = 'i';
  v->kind = 'n';
  v->bits = 0;
  snprintf(v->ref, sizeof v->ref, "cusim_ptx::imm_value{%s%lluULL}", negative ? "0ULL - " : "",
           value);
  return 1;
}

/* Reads one operand of an instruction; 0 (and a refusal) when it is none the subset knows. */
static int read_value(ptx_state *s, const ptx_token *t, const char *opcode, ptx_value *v) {
  if (t->kind == 'o') {
    if (t->operand >= s->op_count) {
      refuse(s, "inline PTX '%s' names an operand the asm statement does not have", opcode);
      return 0;
    }
    int reg = t->operand;
    char letter = s->ops[reg].letter;
    v->what = letter == 'n' ? 'i' : 'o';
    v->kind = letter == 'n' ? 'n' : (letter == 'f' || letter == 'd') ? 'f' : 'i';
    v->bits = letter == 'h' ? 16 : letter == 'r' || letter == 'f' ? 32 : letter == 'n' ? 0 : 64;
    snprintf(v->ref, sizeof v->ref, "cusim_p%d", reg);
    return 1;
  }
  if (t->kind == '#') {
    if (parse_immediate(t->text, v)) return 1;
    refuse(s, "inline PTX '%s': the simulator does not read this immediate's form", opcode);
    return 0;
  }
  if (t->kind == 'w') {
    int k = find_local(s, t->text);
    if (k >= 0) {
      const local_register *l = &s->locals[k];
      v->what = 'v';
      v->kind = l->kind == 'f' ? 'f' : l->kind == 'b' ? 'b' : l->kind == 'p' ? 'p' : 'i';
      v->bits = l->bits;
      int index = l->count > 0 ? atoi(t->text + strlen(l->name)) : 0;
      snprintf(v->ref, sizeof v->ref, "cusim_v%d_%d", k, index);
      return 1;
    }
    for (int r = 0; special_registers[r].name; r++)
      if (strcmp(special_registers[r].name, t->text) == 0) {
        v->what = 's';
        v->kind = 'i';
        v->bits = special_registers[r].bits;
        snprintf(v->ref, sizeof v->ref, "cusim_ptx::sreg_%s()", t->text + 1);
        for (char *c = v->ref; *c; c++)
          if (*c == '.') *c = '_';
        return 1;
      }
    if (t->text[0] == '%')
      refuse(s, "inline PTX reads the special register '%s', which the simulator does not know",
             t->text);
    else
      refuse(s, "inline PTX names '%s', which is no register the asm statement declares", t->text);
    return 0;
  }
  refuse(s, "inline PTX '%s': the simulator does not read this operand's form", opcode);
  return 0;
}

/* The register fits the instruction's operand type (kind 'b', 'u', 's' or 'f', bits), as ptxas
 * checks it: the same size, and an integer register for .u and .s (a float one for .f). */
static int value_fits(ptx_state *s, const ptx_value *v, char kind, int bits, const char *opcode,
                      int destination) {
  if (destination && (v->what == 'i' || v->what == 's')) {
    refuse(s, "inline PTX '%s' writes to an immediate or a special register", opcode);
    return 0;
  }
  if (v->what == 's' && strncmp(opcode, "mov", 3) != 0) {
    refuse(s, "inline PTX '%s' reads a special register; the simulator reads them with mov only",
           opcode);
    return 0;
  }
  if (v->kind == 'n' && kind == 'f') {
    refuse(s, "inline PTX '%s': an integer immediate in a float operand (ptxas rejects this too)",
           opcode);
    return 0;
  }
  if (v->kind == 'n') return 1;
  if (v->bits != bits || (kind == 'f' && v->kind == 'i') ||
      ((kind == 'u' || kind == 's') && v->kind == 'f')) {
    refuse(s,
           "inline PTX '%s': an operand's register has another type or size (ptxas rejects "
           "this too)",
           opcode);
    return 0;
  }
  return 1;
}

/* ---- instructions ------------------------------------------------------------------------- */

typedef struct instruction {
  char opcode[64];
  char base[16];
  char mods[MAX_PARTS + 2][16];
  int mod_count;
  char kind; /* the type's kind, or 0 where the opcode has no type */
  int bits;
  ptx_value values[6];
  ptx_value vector[4]; /* mov's {a, b} or {a, b, c, d}: the operand marked 'V' */
  int vector_count;
  int value_count;
} instruction;

static int has_mods(const instruction *in, const char *a, const char *b) {
  if (a == NULL) return in->mod_count == 0;
  if (b == NULL) return in->mod_count == 1 && strcmp(in->mods[0], a) == 0;
  return in->mod_count == 2 && strcmp(in->mods[0], a) == 0 && strcmp(in->mods[1], b) == 0;
}

/* "cusim_ptx::u32" for the instruction's type, or another kind/size */
static const char *type_name(char kind, int bits) {
  static char name[32];
  snprintf(name, sizeof name, "cusim_ptx::%c%d", kind, bits);
  return name;
}

/* get<T>(value) in the code */
static void emit_get(ptx_state *s, const ptx_value *v, char kind, int bits) {
  emit(s, "cusim_ptx::get<");
  emit(s, type_name(kind, bits));
  emit(s, ">(");
  emit(s, v->ref);
  emit(s, ")");
}

typedef struct shape {
  const char *base;
  const char *types; /* the types it takes, each "k32 " */
  int operands;      /* destination first */
} shape;

/* The instructions of the subset and their operand counts (destination first). */
static const shape shapes[] = {{"mov", "b16 u16 s16 b32 u32 s32 b64 u64 s64 f32 f64 ", 2},
                               {"add", "u16 s16 u32 s32 u64 s64 ", 3},
                               {"sub", "u16 s16 u32 s32 u64 s64 ", 3},
                               {"mul", "u16 s16 u32 s32 u64 s64 ", 3},
                               {"mad", "u16 s16 u32 s32 u64 s64 ", 4},
                               {"min", "u16 s16 u32 s32 u64 s64 ", 3},
                               {"max", "u16 s16 u32 s32 u64 s64 ", 3},
                               {"neg", "s16 s32 s64 ", 2},
                               {"abs", "s16 s32 s64 ", 2},
                               {"and", "b16 b32 b64 ", 3},
                               {"or", "b16 b32 b64 ", 3},
                               {"xor", "b16 b32 b64 ", 3},
                               {"not", "b16 b32 b64 ", 2},
                               {"shl", "b16 b32 b64 ", 3},
                               {"shr", "b16 u16 s16 b32 u32 s32 b64 u64 s64 ", 3},
                               {"bfe", "u32 s32 u64 s64 ", 4},
                               {"bfi", "b32 b64 ", 5},
                               {"brev", "b32 b64 ", 2},
                               {"popc", "b32 b64 ", 2},
                               {"clz", "b32 b64 ", 2},
                               {"prmt", "b32 ", 4},
                               {"lop3", "b32 ", 5},
                               {"nanosleep", "u32 ", 1},
                               {"membar", "", 0},
                               {"fence", "", 0},
                               {"setp", "b16 u16 s16 b32 u32 s32 b64 u64 s64 ", 3},
                               {"selp", "b16 u16 s16 b32 u32 s32 b64 u64 s64 f32 f64 ", 4},
                               {"trap", "", 0},
                               {NULL, NULL, 0}};

/* Splits "mul.lo.u32" into base, modifiers and type; 0 when it is not in the subset. */
static const shape *split_opcode(const char *opcode, instruction *in) {
  memset(in, 0, sizeof *in);
  snprintf(in->opcode, sizeof in->opcode, "%s", opcode);
  char parts[MAX_PARTS + 2][16];
  int n = 0;
  const char *p = opcode;
  while (*p && n < MAX_PARTS + 2) {
    size_t k = 0;
    while (*p && *p != '.') {
      if (k + 1 >= sizeof parts[n]) return NULL;
      parts[n][k++] = *p++;
    }
    parts[n++][k] = '\0';
    if (*p == '.') p++;
  }
  if (*p || n == 0) return NULL;
  const shape *sh = NULL;
  for (int k = 0; shapes[k].base; k++)
    if (strcmp(shapes[k].base, parts[0]) == 0) sh = &shapes[k];
  if (!sh) return NULL;
  snprintf(in->base, sizeof in->base, "%s", parts[0]);
  int last = n;
  if (sh->types[0] != '\0') {
    if (n < 2 || !parse_type(parts[n - 1], &in->kind, &in->bits)) return NULL;
    char want[8];
    snprintf(want, sizeof want, "%s ", parts[n - 1]);
    if (!strstr(sh->types, want)) return NULL;
    last = n - 1;
  }
  for (int k = 1; k < last; k++) snprintf(in->mods[in->mod_count++], 16, "%s", parts[k]);
  return sh;
}

/* mov.b64 d, {a, b} packs (a the low half); mov.b64 {a, b}, d unpacks; also 4 parts, and .b32. */
static int emit_vector_mov(ptx_state *s, const instruction *in) {
  const char *op = in->opcode;
  int pack = in->values[1].what == 'V', w = in->bits, ew = in->bits / in->vector_count;
  if (in->mod_count || in->kind != 'b' || ew < 16) return 0;
  const ptx_value *whole = &in->values[pack ? 0 : 1];
  if (!value_fits(s, whole, 'b', w, op, pack)) return 1;
  for (int n = 0; n < in->vector_count; n++)
    if (!value_fits(s, &in->vector[n], 'b', ew, op, !pack)) return 1;
  char text[256];
  if (pack) {
    snprintf(text, sizeof text, "cusim_ptx::set(%s, cusim_ptx::pack<%s>(", whole->ref,
             type_name('b', w));
    emit(s, text);
    for (int n = 0; n < in->vector_count; n++) {
      if (n) emit(s, ", ");
      emit_get(s, &in->vector[n], 'b', ew);
    }
    emit(s, "));");
    return 1;
  }
  for (int n = 0; n < in->vector_count; n++) {
    emit(s, "cusim_ptx::set(");
    emit(s, in->vector[n].ref);
    emit(s, ", cusim_ptx::part<");
    emit(s, type_name('b', ew));
    emit(s, ">(");
    emit_get(s, whole, 'b', w);
    snprintf(text, sizeof text, ", %d));", n);
    emit(s, text);
  }
  return 1;
}

/* setp.CmpOp.type p, a, b (integer types; no .BoolOp, no |q): p = a CmpOp b, signed or unsigned
 * by the type (lo, ls, hi, hs always unsigned; .b types only eq and ne); selp.type d, a, b, c:
 * d = c ? a : b. */
static int emit_predicate_op(ptx_state *s, const instruction *in) {
  const char *op = in->opcode;
  const ptx_value *d = &in->values[0], *a = &in->values[1], *b = &in->values[2],
                  *c = &in->values[3];
  char k = in->kind, text[400];
  int w = in->bits;
  if (strcmp(in->base, "selp") == 0) {
    if (in->mod_count) return 0;
    if (c->kind != 'p') {
      refuse(s, "inline PTX '%s': its last operand must be a predicate", op);
      return 1;
    }
    if (!value_fits(s, d, k, w, op, 1) || !value_fits(s, a, k, w, op, 0) ||
        !value_fits(s, b, k, w, op, 0))
      return 1;
    snprintf(text, sizeof text, "cusim_ptx::set(%s, %s ? ", d->ref, c->ref);
    emit(s, text);
    emit_get(s, a, k, w);
    emit(s, " : ");
    emit_get(s, b, k, w);
    emit(s, ");");
    return 1;
  }
  static const char *const compares[][2] = {{"eq", "=="}, {"ne", "!="}, {"lt", "<"}, {"le", "<="},
                                            {"gt", ">"},  {"ge", ">="}, {"lo", "<"}, {"ls", "<="},
                                            {"hi", ">"},  {"hs", ">="}};
  int which = -1;
  for (int n = 0; n < 10; n++)
    if (in->mod_count == 1 && strcmp(in->mods[0], compares[n][0]) == 0) which = n;
  if (which < 0 || (k == 'b' && which > 1) || (k == 's' && which >= 6)) return 0;
  if (d->what != 'v' || d->kind != 'p') {
    refuse(s, "inline PTX '%s' writes to a register that is not a predicate", op);
    return 1;
  }
  if (!value_fits(s, a, k, w, op, 0) || !value_fits(s, b, k, w, op, 0)) return 1;
  char ck = which >= 6 || k == 'b' ? 'u' : k;
  snprintf(text, sizeof text, "%s = (", d->ref);
  emit(s, text);
  emit_get(s, a, ck, w);
  emit(s, " ");
  emit(s, compares[which][1]);
  emit(s, " ");
  emit_get(s, b, ck, w);
  emit(s, ");");
  return 1;
}

/* Writes the C++ of one instruction; 0 (with a refusal) when it is not in the subset. */
static int emit_instruction(ptx_state *s, instruction *in) {
  const ptx_value *d = &in->values[0], *a = &in->values[1], *b = &in->values[2],
                  *c = &in->values[3];
  const char *op = in->opcode;
  char k = in->kind;
  int w = in->bits;
  char line[256];
  if (strcmp(in->base, "membar") == 0 || strcmp(in->base, "fence") == 0) {
    int ok =
        strcmp(in->base, "membar") == 0
            ? (has_mods(in, "gl", NULL) || has_mods(in, "cta", NULL) || has_mods(in, "sys", NULL))
            : (in->mod_count == 1 || in->mod_count == 2);
    if (ok && strcmp(in->base, "fence") == 0) {
      const char *scope = in->mods[in->mod_count - 1];
      ok = strcmp(scope, "cta") == 0 || strcmp(scope, "gpu") == 0 || strcmp(scope, "sys") == 0 ||
           strcmp(scope, "cluster") == 0;
      if (in->mod_count == 2)
        ok = ok && (strcmp(in->mods[0], "sc") == 0 || strcmp(in->mods[0], "acq_rel") == 0);
    }
    if (!ok) return 0;
    emit(s, "cusim_ptx::fence();");
    return 1;
  }
  if (strcmp(in->base, "trap") == 0) {
    if (in->mod_count != 0) return 0;
    emit(s, "::cusim::dev::trap(__FILE__, __LINE__);");
    return 1;
  }
  if (strcmp(in->base, "nanosleep") == 0) {
    if (in->mod_count != 0 || !value_fits(s, d, 'u', 32, op, 0)) return in->mod_count == 0;
    emit(s, "cusim_ptx::nanosleep(");
    emit_get(s, d, 'u', 32);
    emit(s, ");");
    return 1;
  }
  if (in->vector_count > 0 && strcmp(in->base, "mov") != 0) {
    refuse(s, "inline PTX '%s': the simulator reads vector operands of mov only", op);
    return 1;
  }
  if (strcmp(in->base, "mov") == 0 && in->vector_count > 0) return emit_vector_mov(s, in);
  if (strcmp(in->base, "setp") == 0 || strcmp(in->base, "selp") == 0)
    return emit_predicate_op(s, in);
  /* the destination's type: the instruction's, but mul.wide and mad.wide double it, popc and
   * clz give a .u32 */
  char dk = k;
  int dw = w;
  int wide = has_mods(in, "wide", NULL);
  if (wide) {
    if (w == 64) return 0;
    dw = 2 * w;
  }
  if (strcmp(in->base, "popc") == 0 || strcmp(in->base, "clz") == 0) dk = 'u', dw = 32;
  if (!value_fits(s, d, dk, dw, op, 1)) return 1;
  const char *fn = NULL;
  int sources = 0;
  if (strcmp(in->base, "mov") == 0) {
    if (in->mod_count) return 0;
    if (!value_fits(s, a, k, w, op, 0)) return 1;
    emit(s, "cusim_ptx::set(");
    emit(s, d->ref);
    emit(s, ", ");
    emit_get(s, a, k, w);
    emit(s, ");");
    return 1;
  }
  if (strcmp(in->base, "add") == 0 || strcmp(in->base, "sub") == 0 ||
      strcmp(in->base, "min") == 0 || strcmp(in->base, "max") == 0 ||
      strcmp(in->base, "and") == 0 || strcmp(in->base, "or") == 0 || strcmp(in->base, "xor") == 0) {
    if (in->mod_count) return 0;
    static const char *const names[][2] = {{"add", "add"}, {"sub", "sub"},  {"min", "min"},
                                           {"max", "max"}, {"and", "and_"}, {"or", "or_"},
                                           {"xor", "xor_"}};
    for (size_t n = 0; n < sizeof names / sizeof names[0]; n++)
      if (strcmp(in->base, names[n][0]) == 0) fn = names[n][1];
    sources = 2;
  } else if (strcmp(in->base, "neg") == 0 || strcmp(in->base, "abs") == 0 ||
             strcmp(in->base, "not") == 0 || strcmp(in->base, "brev") == 0 ||
             strcmp(in->base, "popc") == 0 || strcmp(in->base, "clz") == 0) {
    if (in->mod_count) return 0;
    fn = strcmp(in->base, "not") == 0 ? "not_" : in->base;
    sources = 1;
  } else if (strcmp(in->base, "mul") == 0 || strcmp(in->base, "mad") == 0) {
    int mad = strcmp(in->base, "mad") == 0;
    if (has_mods(in, "lo", NULL))
      fn = mad ? "mad_lo" : "mul_lo";
    else if (has_mods(in, "hi", NULL))
      fn = mad ? "mad_hi" : "mul_hi";
    else if (wide)
      fn = mad ? "mad_wide" : "mul_wide";
    else
      return 0;
    sources = mad ? 3 : 2;
    if (!value_fits(s, a, k, w, op, 0) || !value_fits(s, b, k, w, op, 0)) return 1;
    if (mad && !value_fits(s, c, k, dw, op, 0)) return 1;
    snprintf(line, sizeof line, "cusim_ptx::set(%s, cusim_ptx::%s(", d->ref, fn);
    emit(s, line);
    emit_get(s, a, k, w);
    emit(s, ", ");
    emit_get(s, b, k, w);
    if (mad) {
      emit(s, ", ");
      emit_get(s, c, k, dw);
    }
    emit(s, "));");
    return 1;
  } else if (strcmp(in->base, "shl") == 0 || strcmp(in->base, "shr") == 0) {
    if (in->mod_count) return 0;
    if (!value_fits(s, a, k, w, op, 0) || !value_fits(s, b, 'u', 32, op, 0)) return 1;
    /* shr.b shifts in zeros, as shr.u */
    char sk = k == 's' ? 's' : 'u';
    snprintf(line, sizeof line, "cusim_ptx::set(%s, cusim_ptx::%s(", d->ref, in->base);
    emit(s, line);
    emit_get(s, a, sk, w);
    emit(s, ", ");
    emit_get(s, b, 'u', 32);
    emit(s, "));");
    return 1;
  } else if (strcmp(in->base, "bfe") == 0 || strcmp(in->base, "bfi") == 0) {
    if (in->mod_count) return 0;
    int bfi = strcmp(in->base, "bfi") == 0;
    const ptx_value *e = &in->values[4];
    if (!value_fits(s, a, k, w, op, 0) || !value_fits(s, b, bfi ? k : 'u', bfi ? w : 32, op, 0) ||
        !value_fits(s, c, 'u', 32, op, 0) || (bfi && !value_fits(s, e, 'u', 32, op, 0)))
      return 1;
    snprintf(line, sizeof line, "cusim_ptx::set(%s, cusim_ptx::%s(", d->ref, in->base);
    emit(s, line);
    emit_get(s, a, k, w);
    emit(s, ", ");
    emit_get(s, b, bfi ? k : 'u', bfi ? w : 32);
    emit(s, ", ");
    emit_get(s, c, 'u', 32);
    if (bfi) {
      emit(s, ", ");
      emit_get(s, e, 'u', 32);
    }
    emit(s, "));");
    return 1;
  } else if (strcmp(in->base, "prmt") == 0 || strcmp(in->base, "lop3") == 0) {
    /* prmt's modes (.f4e, .b4e, .rc8, ...) are not in the subset; lop3's table is an immediate */
    if (in->mod_count) return 0;
    int lop3 = strcmp(in->base, "lop3") == 0;
    const ptx_value *e = &in->values[4];
    if (lop3 && e->kind != 'n') {
      refuse(s, "inline PTX '%s': the lookup table must be an immediate", op);
      return 1;
    }
    if (!value_fits(s, a, k, w, op, 0) || !value_fits(s, b, k, w, op, 0) ||
        !value_fits(s, c, k, w, op, 0))
      return 1;
    snprintf(line, sizeof line, "cusim_ptx::set(%s, cusim_ptx::%s(", d->ref, in->base);
    emit(s, line);
    emit_get(s, a, k, w);
    emit(s, ", ");
    emit_get(s, b, k, w);
    emit(s, ", ");
    emit_get(s, c, k, w);
    if (lop3) {
      emit(s, ", ");
      emit_get(s, e, 'u', 32);
    }
    emit(s, "));");
    return 1;
  }
  if (!fn) return 0;
  for (int n = 1; n <= sources; n++)
    if (!value_fits(s, &in->values[n], k, w, op, 0)) return 1;
  snprintf(line, sizeof line, "cusim_ptx::set(%s, cusim_ptx::%s(", d->ref, fn);
  emit(s, line);
  for (int n = 1; n <= sources; n++) {
    if (n > 1) emit(s, ", ");
    /* brev, popc, clz and not work on the bits: unsigned */
    emit_get(s, &in->values[n], k == 'b' ? 'u' : k, w);
  }
  emit(s, "));");
  return 1;
}

/* ---- statements ---------------------------------------------------------------------------- */

/* .reg .type a, b<4>; */
static void declare_registers(ptx_state *s) {
  ptx_token t;
  next_token(s, &t);
  char kind = 0;
  int bits = 0;
  int pred = t.kind == 'w' && strcmp(t.text, ".pred") == 0;
  if (pred) kind = 'p', bits = 1;
  if (t.kind != 'w' || t.text[0] != '.' || (!pred && !parse_type(t.text + 1, &kind, &bits))) {
    refuse(s, "inline PTX declares a register of type '%s', which the simulator does not run",
           t.text);
    return;
  }
  for (;;) {
    next_token(s, &t);
    if (t.kind != 'w' || s->local_count >= MAX_LOCALS || strlen(t.text) >= 32) {
      refuse(s, "inline PTX: the simulator does not read this .reg declaration%s", "");
      return;
    }
    local_register *l = &s->locals[s->local_count];
    snprintf(l->name, sizeof l->name, "%.31s", t.text); /* shorter: checked above */
    l->kind = kind;
    l->bits = bits;
    l->count = 0;
    l->depth = s->depth;
    next_token(s, &t);
    if (t.kind == 'p' && t.text[0] == '<') {
      ptx_token count;
      next_token(s, &count);
      next_token(s, &t);
      l->count = count.kind == '#' ? atoi(count.text) : 0;
      if (l->count <= 0 || l->count > 64 || t.kind != 'p' || t.text[0] != '>') {
        refuse(s, "inline PTX: the simulator does not read this .reg declaration%s", "");
        return;
      }
      next_token(s, &t);
    }
    int index = s->local_count++;
    int count = l->count > 0 ? l->count : 1;
    for (int n = 0; n < count; n++) {
      char decl[128];
      snprintf(decl, sizeof decl, "[[maybe_unused]] %s cusim_v%d_%d{};", type_name(kind, bits),
               index, n);
      emit(s, decl);
    }
    if (t.kind == 'p' && t.text[0] == ',') continue;
    if (t.kind == 'p' && t.text[0] == ';') return;
    refuse(s, "inline PTX: the simulator does not read this .reg declaration%s", "");
    return;
  }
}

/* A vector operand after its '{': two or four registers, then '}'. */
static int read_vector(ptx_state *s, const char *opcode, instruction *in) {
  ptx_token t;
  if (in->vector_count > 0) {
    refuse(s, "inline PTX '%s': the simulator reads one vector operand", opcode);
    return 0;
  }
  for (;;) {
    next_token(s, &t);
    if (in->vector_count >= 4 || !read_value(s, &t, opcode, &in->vector[in->vector_count])) {
      refuse(s, "inline PTX '%s': the simulator does not read this vector", opcode);
      return 0;
    }
    in->vector_count++;
    next_token(s, &t);
    if (t.kind == 'p' && t.text[0] == '}') break;
    if (!(t.kind == 'p' && t.text[0] == ',')) {
      refuse(s, "inline PTX '%s': the simulator does not read this vector", opcode);
      return 0;
    }
  }
  if (in->vector_count != 2 && in->vector_count != 4) {
    refuse(s, "inline PTX '%s': a vector has 2 or 4 elements", opcode);
    return 0;
  }
  return 1;
}

/* One instruction: opcode operands... ; */
static void translate_instruction(ptx_state *s, const ptx_token *first) {
  instruction in;
  const shape *sh = split_opcode(first->text, &in);
  if (!sh) {
    refuse(s,
           "inline PTX '%s': the simulator does not run this PTX instruction (its subset: "
           "docs/other-programs.md)",
           first->text);
    return;
  }
  ptx_token t;
  next_token(s, &t);
  int count = 0;
  while (!(t.kind == 'p' && t.text[0] == ';')) {
    if (t.kind == 0 || count >= 6) {
      refuse(s, "inline PTX '%s': the simulator cannot read this statement", first->text);
      return;
    }
    if (t.kind == 'p' && t.text[0] == '{') {
      if (!read_vector(s, first->text, &in)) return;
      in.values[count].what = 'V';
    } else if (!read_value(s, &t, first->text, &in.values[count])) {
      return;
    }
    count++;
    next_token(s, &t);
    if (t.kind == 'p' && t.text[0] == ',')
      next_token(s, &t);
    else if (!(t.kind == 'p' && t.text[0] == ';')) {
      refuse(s, "inline PTX '%s': the simulator does not read this operand's form", first->text);
      return;
    }
  }
  in.value_count = count;
  if (count != sh->operands) {
    refuse(s, "inline PTX '%s' has another number of operands than the PTX ISA gives it",
           first->text);
    return;
  }
  if (!emit_instruction(s, &in))
    refuse(s,
           "inline PTX '%s': the simulator does not run this PTX instruction (its subset: "
           "docs/other-programs.md)",
           first->text);
}

static void translate(ptx_state *s) {
  ptx_token t;
  for (;;) {
    if (s->refusal[0] || s->r->out_of_memory) return;
    next_token(s, &t);
    if (t.kind == 0) break;
    if (t.kind == 'p' && t.text[0] == ';') continue;
    if (t.kind == 'p' && t.text[0] == '{') {
      s->depth++;
      emit(s, "{");
      continue;
    }
    if (t.kind == 'p' && t.text[0] == '}') {
      if (s->depth == 0) {
        refuse(s, "inline PTX: a '}' without its '{'%s", "");
        return;
      }
      while (s->local_count > 0 && s->locals[s->local_count - 1].depth == s->depth)
        s->local_count--;
      s->depth--;
      emit(s, "}");
      continue;
    }
    if (t.kind == 'w' && strcmp(t.text, ".reg") == 0) {
      declare_registers(s);
      continue;
    }
    if (t.kind == 'p' && t.text[0] == '@') { /* @p or @!p: runs where p is true (false) */
      ptx_token guard;
      ptx_value p;
      next_token(s, &guard);
      int negated = guard.kind == 'p' && guard.text[0] == '!';
      if (negated) next_token(s, &guard);
      if (guard.kind != 'w' || !read_value(s, &guard, "@", &p) || p.kind != 'p') {
        refuse(s, "inline PTX: a guard names no predicate register the asm declares%s", "");
        return;
      }
      next_token(s, &t);
      if (t.kind != 'w' || t.text[0] == '.' || t.text[0] == '%') {
        refuse(s, "inline PTX: the simulator does not run this guarded statement%s", "");
        return;
      }
      emit(s, negated ? "if (!" : "if (");
      emit(s, p.ref);
      emit(s, ") {");
      translate_instruction(s, &t);
      emit(s, "}");
      continue;
    }
    if (t.kind != 'w' || t.text[0] == '.' || t.text[0] == '%') {
      refuse(s, "inline PTX '%s': the simulator does not run this PTX statement", t.text);
      return;
    }
    translate_instruction(s, &t);
  }
  if (s->depth != 0) refuse(s, "inline PTX: a '{' without its '}'%s", "");
}

/* ---- the asm statement ---------------------------------------------------------------------- */

static int is_asm_keyword(const rewriter *r, size_t i) {
  return token_is(r, i, "asm") || token_is(r, i, "__asm__") || token_is(r, i, "__asm");
}

/* Reads "constraint"(expression) at k; the index after it, or NO_TOKEN. */
static size_t read_operand(const rewriter *r, size_t k, asm_operand *o) {
  if (!is_plain_string(r, k) || !token_is_char(r, k + 1, '(')) return NO_TOKEN;
  o->constraint = k;
  o->open = k + 1;
  size_t depth = 0;
  for (size_t j = k + 1; j < r->token_count && j - k < RULE_WALK_LIMIT; j++) {
    if (token_is_directive(r, j)) return NO_TOKEN;
    if (token_is_char(r, j, '(') || token_is_char(r, j, '[') || token_is_char(r, j, '{'))
      depth++;
    else if (token_is_char(r, j, ')') || token_is_char(r, j, ']') || token_is_char(r, j, '}')) {
      if (--depth == 0) {
        o->close = j;
        return j + 1;
      }
    }
  }
  return NO_TOKEN;
}

/* The constraint's letter and mode: "=r", "+l", "f", "n"; 0 for any other (nvcc takes no
 * other but "C", and no matching "0": "asm operand type size(4) does not match ... '0'"). */
static int read_constraint(const rewriter *r, asm_operand *o, int output) {
  char text[16];
  size_t length = 0;
  if (r->tokens[o->constraint].length > 12) return 0;
  if (!decode_string(r, o->constraint, text, &length, sizeof text)) return 0;
  const char *p = text;
  o->mode = 'i';
  if (output) {
    if (*p != '=' && *p != '+') return 0;
    o->mode = *p++;
  }
  if (p[1] != '\0' || !strchr(output ? "hrlfd" : "hrlfdn", p[0]) || p[0] == '\0') return 0;
  o->letter = p[0];
  return 1;
}

size_t rewrite_inline_ptx(rewriter *r, size_t at) {
  if (!is_asm_keyword(r, at)) return at;
  size_t k = at + 1;
  while (token_is(r, k, "volatile") || token_is(r, k, "__volatile__") ||
         token_is(r, k, "__volatile") || token_is(r, k, "inline") || token_is(r, k, "goto"))
    k++;
  if (!token_is_char(r, k, '(') || !is_plain_string(r, k + 1)) return at;
  ptx_state *s = calloc(1, sizeof *s);
  if (!s) {
    r->out_of_memory = 1;
    return at;
  }
  s->r = r;
  s->at = at;
  int too_long = 0;
  for (k = k + 1; is_plain_string(r, k); k++)
    if (!decode_string(r, k, s->text, &s->length, sizeof s->text)) too_long = 1;
  if (too_long) refuse(s, "inline PTX: the simulator does not read a template this long%s", "");
  for (size_t g = at + 1; !token_is_char(r, g, '('); g++)
    if (token_is(r, g, "goto")) refuse(s, "inline PTX: the simulator does not run asm goto%s", "");
  /* the sections: outputs, inputs, clobbers ('::' when the outputs are empty) */
  int section = 0, memory_clobber = 0;
  for (;;) {
    if (token_is_char(r, k, ')')) break;
    if (token_is(r, k, "::")) {
      section += 2;
      k++;
    } else if (token_is_char(r, k, ':')) {
      section++;
      k++;
    } else if (token_is_char(r, k, ',') && section > 0) {
      k++;
    } else {
      refuse(s, "inline PTX: the simulator cannot read this asm statement%s", "");
      break;
    }
    while (section <= 2 && is_plain_string(r, k) && token_is_char(r, k + 1, '(')) {
      if (s->op_count >= MAX_OPERANDS) break;
      asm_operand *o = &s->ops[s->op_count];
      size_t next = read_operand(r, k, o);
      if (next == NO_TOKEN) break;
      if (!read_constraint(r, o, section == 1)) {
        char constraint[32];
        size_t length = 0;
        if (!decode_string(r, k, constraint, &length, 24)) snprintf(constraint, 24, "...");
        refuse(s, "inline PTX: the simulator does not take the constraint \"%s\"", constraint);
      }
      s->op_count++;
      k = next;
      if (!token_is_char(r, k, ',')) break;
      k++;
    }
    while (section == 3 && is_plain_string(r, k)) {
      char clobber[32];
      size_t length = 0;
      if (decode_string(r, k, clobber, &length, sizeof clobber) && strcmp(clobber, "memory") == 0)
        memory_clobber = 1;
      else
        refuse(s, "inline PTX: the simulator does not take the clobber \"%s\"", clobber);
      k++;
      if (!token_is_char(r, k, ',')) break;
      k++;
    }
    if (section > 3 || k >= r->token_count) {
      refuse(s, "inline PTX: the simulator cannot read this asm statement%s", "");
      break;
    }
  }
  (void)memory_clobber; /* "memory" is taken: no statement of the subset reads or writes memory
                           behind C's back */
  if (!s->refusal[0]) translate(s);
  size_t close = k;
  if (s->refusal[0] || r->out_of_memory) {
    if (!r->ptx_refused && !r->out_of_memory) report(r, at, s->refusal, NO_TOKEN, NULL);
    r->ptx_refused = 1;
    free(s->code.data);
    free(s);
    return close;
  }
  /* the edits: the head (keyword, template, first constraint), each constraint between two
   * expressions, and the tail */
  r->scratch.size = 0;
  scratch_text(r, "::cusim::ptx::run([](");
  for (int n = 0; n < s->op_count; n++) {
    char param[64];
    snprintf(param, sizeof param, "%s[[maybe_unused]] auto &cusim_p%d", n ? ", " : "", n);
    scratch_text(r, param);
  }
  scratch_text(r, ") { namespace cusim_ptx = ::cusim::ptx; ");
  if (s->code.size && !buffer_append(&r->scratch, s->code.data, s->code.size)) r->out_of_memory = 1;
  scratch_text(r, " }");
  size_t from = r->tokens[at].start;
  for (int n = 0; n < s->op_count; n++) {
    const asm_operand *o = &s->ops[n];
    if (n > 0) {
      r->scratch.size = 0;
      if (s->ops[n - 1].letter == 'n')
        scratch_text(r, ">{})");
      else
        scratch_text(r, ")");
    }
    char open[96];
    if (o->letter == 'n')
      snprintf(open, sizeof open, ", ::cusim::ptx::in_n(::std::integral_constant<long long, ");
    else
      snprintf(open, sizeof open, ", ::cusim::ptx::%s<'%c'>(",
               o->mode == '='   ? "out"
               : o->mode == '+' ? "inout"
                                : "in",
               o->letter);
    scratch_text(r, open);
    add_edit(r, at, from, r->tokens[o->constraint].start + r->tokens[o->constraint].length);
    from = r->tokens[o->close].start + r->tokens[o->close].length;
  }
  if (s->op_count > 0) r->scratch.size = 0; /* else the tail follows the lambda */
  if (s->op_count > 0)
    scratch_text(r, s->ops[s->op_count - 1].letter == 'n' ? ">{}))" : "))");
  else
    scratch_text(r, ")");
  add_edit(r, at, from, r->tokens[close].start + 1);
  size_t resume = s->op_count > 0 ? s->ops[0].constraint : close;
  free(s->code.data);
  free(s);
  /* the scan goes on inside the C operands (shifts, casts, built-ins there are rewritten) */
  return resume;
}
