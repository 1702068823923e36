/* cusim-rewrite's nvcc rules: what nvcc rejects and the host C++ compiler would accept. Pass 1
 * (collect_functions) learns every function's execution spaces by name and scope; pass 2
 * (check_calls) checks the calls, launches and block-level constructs in each body, and asks
 * hooks.c to rewrite device code's branches, shifts and casts. On preprocessed input it then
 * registers each kernel for cudaLaunchKernel, removes __launch_bounds__ and turns the built-in
 * variables of device code into the simulator's reads (builtins.c). */
#include "rewriter_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  /* Device-only definitions (__global__, or __device__ without __host__) outside system
   * headers: the first token of each declaration and the '{' of its body. */
  size_t *device_definitions;
  size_t device_definition_count, device_definition_capacity;
  /* Template __global__ definitions with __launch_bounds__: the template's '<', name, '{' and
   * the bounds' '(' (register_template_kernels). */
  size_t *template_kernels;
  size_t template_kernel_count, template_kernel_capacity;
  /* Host-only definitions of the program's own files at namespace scope: the first token of each
   * declaration, its name and the '{' of its body (host_code.c). */
  size_t *host_definitions;
  size_t host_definition_count, host_definition_capacity;
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

/* CUDA's device library functions that nvcc declares __device__ only, so that a host function
 * calling one is rejected ("calling a __device__ function from a __host__ function"), each checked
 * against nvcc 13 by tests/rewriter/check_device_library.sh. The simulator's headers define them
 * as plain functions (so its build would take such a call) or as macros: those are found by what
 * they expand to (device_macro_name). Not here: what the host may call too (cuda_fp16's
 * conversions, __hadd; clock), and what the simulator does not have (__dp4a). */
/* clang-format off */
static const char *const device_only_functions[] = {
    "atomicAdd", "atomicSub", "atomicExch", "atomicMin", "atomicMax", "atomicInc", "atomicDec",
    "atomicCAS", "atomicAnd", "atomicOr", "atomicXor", "atomicAdd_block", "atomicAdd_system",
    "__threadfence", "__threadfence_block", "__threadfence_system", "__activemask", "__ldg",
    "__popc", "__popcll", "__clz", "__clzll", "__ffs", "__ffsll", "__brev", "__fdividef", "__expf",
    "__logf", "__sinf", "__cosf", "__powf", "__saturatef", "__float2int_rn", "__int2float_rn",
    "__mul24", "__umul24", "__mulhi", "__umulhi", "__sad", "__nanosleep", "clock64", "__fmaf_rn",
    "__fadd_rn", "__frcp_rn", "__fsqrt_rn", "__double2float_rn", "__float_as_int",
    "__int_as_float", "__uint_as_float", "__float_as_uint", "__double_as_longlong",
    "__longlong_as_double", "curand_init", "curand", "curand_uniform", "curand_uniform_double",
    "curand_normal", "curand_normal_double", "curand_normal2", "curand_uniform4", "curand_normal4",
    "curand_log_normal", "curand_poisson", NULL};
/* The simulator's macros (cusim_device.h) for device functions, by the ::cusim::dev:: function
 * they call: the CUDA name. warp_op and reduce_sync carry it as a string; syncthreads as its first
 * argument (1 _count, 2 _and, 3 _or); all_of and syncwarp_mask wrap a warp_op that names it. */
static const char *const device_macros[][2] = {
    {"shfl", "__shfl_sync"}, {"shfl_up", "__shfl_up_sync"}, {"shfl_down", "__shfl_down_sync"},
    {"shfl_xor", "__shfl_xor_sync"}, {"match_any", "__match_any_sync"},
    {"match_all", "__match_all_sync"}, {"reduce_add", "__reduce_add_sync"},
    {"reduce_min", "__reduce_min_sync"}, {"reduce_max", "__reduce_max_sync"}, {NULL, NULL}};
/* clang-format on */

/* The CUDA name of the device function whose macro made the call ::cusim::dev::NAME at token i,
 * or NULL (device_macros). */
static const char *device_macro_name(const rewriter *r, size_t i) {
  static const char *const named[] = {
      "__syncwarp",       "__ballot_sync",     "__all_sync", "__reduce_and_sync",
      "__reduce_or_sync", "__reduce_xor_sync", NULL};
  for (size_t m = 0; device_macros[m][0]; m++)
    if (token_is(r, i, device_macros[m][0])) return device_macros[m][1];
  if (token_is(r, i, "syncthreads") && token_is_char(r, i + 1, '(')) {
    if (token_is(r, i + 2, "1")) return "__syncthreads_count";
    if (token_is(r, i + 2, "2")) return "__syncthreads_and";
    if (token_is(r, i + 2, "3")) return "__syncthreads_or";
    return NULL;
  }
  if (!token_is(r, i, "warp_op") && !token_is(r, i, "reduce_sync")) return NULL;
  const char *name = NULL;
  size_t depth = 0;
  for (size_t k = i + 1; k < r->token_count && k - i < RULE_WALK_LIMIT; k++) {
    if (token_is_char(r, k, '(')) {
      depth++;
    } else if (token_is_char(r, k, ')')) {
      if (depth == 0 || --depth > 0) continue;
      /* __any_sync(m, p) is (__ballot_sync((m), (p)) != 0u ? 1 : 0) */
      if (name && strcmp(name, "__ballot_sync") == 0 && token_is_char(r, k + 1, ')') &&
          token_is_char(r, k + 2, '!') && token_is_char(r, k + 3, '=') &&
          token_is(r, k + 4, "0u") && token_is_char(r, k + 5, '?'))
        return "__any_sync";
      return name;
    } else if (depth == 1 && !name && r->tokens[k].kind == TOKEN_LITERAL) {
      for (const char *const *n = named; *n; n++) {
        size_t length = strlen(*n);
        if (r->tokens[k].length == length + 2 && token_text(r, k)[0] == '"' &&
            memcmp(token_text(r, k) + 1, *n, length) == 0)
          name = *n;
      }
      if (!name) return NULL;
    }
  }
  return NULL;
}

static int is_scope_boundary(const rewriter *r, size_t k) {
  return is_statement_boundary(r, k) ||
         (token_is_char(r, k, ':') && !token_is_char(r, k + 1, ':') &&
          !token_is_char(r, k - 1, ':'));
}

/* First token of the declaration statement that holds token name, or NO_TOKEN when it is too
 * far away. */
static size_t declaration_start(const rewriter *r, size_t name) {
  size_t k = name;
  while (k > 0) {
    if (name - k > RULE_WALK_LIMIT) return NO_TOKEN;
    size_t group = attribute_group_start(r, k - 1); /* its ':' (N < 512 ? N : 512) is no label */
    if (group != NO_TOKEN) {
      k = group;
      continue;
    }
    if (is_scope_boundary(r, k - 1)) break;
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
      /* The header's parenthesized parts (template <int N = (3 > 2)>) hold no angle of it. */
      size_t close = NO_TOKEN, depth = 0, parens = 0;
      for (size_t j = k + 1; j < name; j++) {
        if (token_is_char(r, j, '(')) parens++;
        if (token_is_char(r, j, ')') && parens > 0) parens--;
        if (parens > 0) continue;
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
    if (token_in_list(r, k, attribute_words) ||
        (token_is_char(r, k, '[') && token_is_char(r, k + 1, '['))) {
      size_t close = attribute_group_end(r, k);
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

/* Records a __global__ definition for registration, unless it is qualified, or has default
 * arguments or an ellipsis (those a function pointer type cannot spell). A template is recorded
 * apart, and only with __launch_bounds__: each instance registers itself with its own bounds. */
static void note_kernel(rewriter *r, function_table *table, size_t first, size_t name,
                        size_t body) {
  if (token_is(r, name - 1, "::")) return;
  size_t template_at = NO_TOKEN, bounds_at = NO_TOKEN;
  for (size_t k = first; k < name; k++) {
    if (token_is(r, k, "template") && template_at == NO_TOKEN) template_at = k;
    if (token_is(r, k, "__launch_bounds__") && token_is_char(r, k + 1, '(')) bounds_at = k + 1;
  }
  if (template_at != NO_TOKEN) {
    if (bounds_at == NO_TOKEN || !token_is_char(r, template_at + 1, '<')) return;
    if (!reserve((void **)&table->template_kernels, &table->template_kernel_capacity,
                 table->template_kernel_count + 4, sizeof(size_t))) {
      r->out_of_memory = 1;
      return;
    }
    table->template_kernels[table->template_kernel_count++] = template_at + 1;
    table->template_kernels[table->template_kernel_count++] = name;
    table->template_kernels[table->template_kernel_count++] = body;
    table->template_kernels[table->template_kernel_count++] = bounds_at;
    return;
  }
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

/* The closing '>' of a template parameter list opened at open ('>>' closes two), or NO_TOKEN. */
static size_t template_close(const rewriter *r, size_t open, size_t limit) {
  size_t angle = 0, nested = 0;
  for (size_t k = open; k < limit; k++) {
    if (token_is_char(r, k, '(') || token_is_char(r, k, '[') || token_is_char(r, k, '{')) nested++;
    if ((token_is_char(r, k, ')') || token_is_char(r, k, ']') || token_is_char(r, k, '}')) &&
        nested > 0)
      nested--;
    if (nested > 0) continue;
    if (token_is_char(r, k, '<')) angle++;
    if (token_is_char(r, k, '>') && --angle == 0) return k;
    if (token_is(r, k, ">>")) {
      if (angle <= 2) return angle == 2 ? NO_TOKEN : k; /* a '>>' that closes this list and more */
      angle -= 2;
    }
  }
  return NO_TOKEN;
}

/* For a template kernel with __launch_bounds__, each instance registers itself with its own
 * bounds, as a GPU honours them (an H100: add_n<4> with __launch_bounds__(N) refuses a block of
 * 5 threads, and cudaFuncGetAttributes says 4). Before the template, on its line:
 *   namespace { template <P> struct cusim_kernel_bounds_ID; }
 * at the start of its body, which instantiates the registration with each instance:
 *   (void)&cusim_kernel_bounds_ID<A>::registration;
 * and after its body:
 *   namespace { template <P> struct cusim_kernel_bounds_ID { static const
 *   ::cusim::kernel_registration registration; }; template <P> const ::cusim::kernel_registration
 *   cusim_kernel_bounds_ID<A>::registration{static_cast<void (*)(PARAMS)>(&name<A>), "name",
 *   ::cusim::launch_bounds(B)}; }
 * where P is the template's parameters less their defaults and A their names (T... for a pack).
 * The unnamed namespace keeps ID (a token's index) to this file: two files of one program may
 * give two templates the same one.
 * A parameter without a name leaves the template unregistered (its launches are checked by
 * name, as before). */
static void register_template_kernels(rewriter *r, const function_table *table) {
  static const char *const unnamed[] = {"typename", "class",  "int",  "unsigned", "signed",
                                        "long",     "short",  "char", "bool",     "auto",
                                        "float",    "double", NULL};
  for (size_t e = 0; e + 3 < table->template_kernel_count && !r->out_of_memory; e += 4) {
    size_t open = table->template_kernels[e], name = table->template_kernels[e + 1];
    size_t body = table->template_kernels[e + 2], bounds = table->template_kernels[e + 3];
    size_t close = template_close(r, open, name);
    size_t bounds_close = skip_group_forward(r, bounds, '(', ')');
    size_t end = NO_TOKEN, depth = 0;
    for (size_t k = body; k < r->token_count; k++) {
      if (token_is_char(r, k, '{')) depth++;
      if (token_is_char(r, k, '}') && --depth == 0) {
        end = k;
        break;
      }
    }
    if (close == NO_TOKEN || close == open + 1 || bounds_close == NO_TOKEN ||
        bounds_close == bounds + 1 || end == NO_TOKEN)
      continue;
    byte_buffer params = {0}, args = {0};
    int ok = 1;
    for (size_t start = open + 1; start < close && ok;) {
      size_t stop = start, cut = NO_TOKEN, nested = 0, angle = 0;
      for (; stop < close; stop++) {
        if (token_is_char(r, stop, '(') || token_is_char(r, stop, '[')) nested++;
        if ((token_is_char(r, stop, ')') || token_is_char(r, stop, ']')) && nested > 0) nested--;
        if (token_is_char(r, stop, '<')) angle++;
        if (token_is_char(r, stop, '>') && angle > 0) angle--;
        if (nested > 0 || angle > 0) continue;
        if (token_is_char(r, stop, ',')) break;
        if (token_is_char(r, stop, '=') && cut == NO_TOKEN) cut = stop;
      }
      if (cut == NO_TOKEN) cut = stop;
      size_t last = cut - 1;
      int pack = 0;
      for (size_t k = start; k < last; k++)
        if (token_is_char(r, k, '.')) pack = 1; /* class... Ts: the lexer gives three dots */
      ok = cut >= start + 2 && token_is_identifier(r, last) && !token_in_list(r, last, unnamed) &&
           !token_is(r, last - 1, "::");
      if (ok)
        ok = (params.size == 0 || buffer_append_text(&params, ", ")) &&
             append_tokens(r, &params, start, cut, NULL, NULL) &&
             (args.size == 0 || buffer_append_text(&args, ", ")) &&
             buffer_append(&args, token_text(r, last), r->tokens[last].length) &&
             (!pack || buffer_append_text(&args, "..."));
      start = stop + 1;
    }
    if (ok) {
      char id[48];
      snprintf(id, sizeof id, "cusim_kernel_bounds_%zu", name);
      r->scratch.size = 0; /* before the template, on its line */
      scratch_text(r, "namespace { template <");
      scratch_buffer(r, &params);
      scratch_text(r, "> struct ");
      scratch_text(r, id);
      scratch_text(r, "; } ");
      add_edit(r, open - 1, r->tokens[open - 1].start, r->tokens[open - 1].start);
      r->scratch.size = 0; /* at the start of the body */
      scratch_text(r, " (void)&");
      scratch_text(r, id);
      scratch_text(r, "<");
      scratch_buffer(r, &args);
      scratch_text(r, ">::registration;");
      add_edit(r, body, r->tokens[body].start + 1, r->tokens[body].start + 1);
      r->scratch.size = 0; /* after the body: the struct, then its member's definition */
      for (int part = 0; part < 2; part++) {
        scratch_text(r, part == 0 ? " namespace { template <" : " template <");
        scratch_buffer(r, &params);
        scratch_text(r, part == 0 ? "> struct " : "> const ::cusim::kernel_registration ");
        scratch_text(r, id);
        if (part == 0)
          scratch_text(r, " { static const ::cusim::kernel_registration registration; };");
      }
      scratch_text(r, "<");
      scratch_buffer(r, &args);
      /* cast to the kernel's type where its parameters can spell one: an overload of the same
         name would make &name<A> ambiguous */
      size_t params_close = skip_group_forward(r, name + 1, '(', ')');
      int castable = params_close != NO_TOKEN;
      for (size_t k = name + 2; castable && k < params_close; k++)
        if (token_is_char(r, k, '=')) castable = 0; /* a default argument */
      scratch_text(r, castable ? ">::registration{static_cast<void (*)(" : ">::registration{&");
      if (castable) {
        scratch_tokens(r, name + 2, params_close, NULL, NULL);
        scratch_text(r, ")>(&");
      }
      scratch_token(r, name);
      scratch_text(r, "<");
      scratch_buffer(r, &args);
      scratch_text(r, castable ? ">), \"" : ">, \"");
      scratch_token(r, name);
      scratch_text(r, "\", ::cusim::launch_bounds(");
      scratch_tokens(r, bounds + 1, bounds_close, NULL, NULL);
      scratch_text(r, ")}; }");
      add_edit(r, end, r->tokens[end].start + 1, r->tokens[end].start + 1);
    }
    free(params.data);
    free(args.data);
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

/* With device_warnings set: each device-only definition between _Pragma("GCC diagnostic push")
 * and "pop", on its own lines (the lines stay). Inside, every listed -W option is first made a
 * warning (gcc: its group's members too) and then ignored (clang, where an option that
 * -Werror=NAME made an error stays one as a warning); -Wpragmas and -Wunknown-warning-option
 * quiet the options one compiler does not know. Runs after register_kernels: the pop follows a
 * kernel's registration, inserted after the same '}'. */
static void relax_device_warnings(rewriter *r, const function_table *table) {
  if (!device_warnings) return;
  for (size_t e = 0; e + 1 < table->device_definition_count && !r->out_of_memory; e += 2) {
    size_t first = table->device_definitions[e], body = table->device_definitions[e + 1];
    size_t depth = 0, end = NO_TOKEN;
    for (size_t k = body; k < r->token_count; k++) {
      if (token_is_char(r, k, '{')) depth++;
      if (token_is_char(r, k, '}') && --depth == 0) {
        end = k;
        break;
      }
    }
    if (end == NO_TOKEN) continue;
    r->scratch.size = 0;
    scratch_text(r, "_Pragma(\"GCC diagnostic push\") "
                    "_Pragma(\"GCC diagnostic ignored \\\"-Wpragmas\\\"\") "
                    "_Pragma(\"GCC diagnostic ignored \\\"-Wunknown-warning-option\\\"\") ");
    for (int pass = 0; pass < 2; pass++) {
      const char *option = device_warnings;
      while (*option) {
        size_t length = strcspn(option, ",");
        scratch_text(r, pass == 0 ? "_Pragma(\"GCC diagnostic warning \\\""
                                  : "_Pragma(\"GCC diagnostic ignored \\\"");
        if (!buffer_append(&r->scratch, option, length)) r->out_of_memory = 1;
        scratch_text(r, "\\\"\") ");
        option += length + (option[length] == ',');
      }
    }
    size_t at = r->tokens[first].start;
    add_edit(r, first, at, at);
    r->scratch.size = 0;
    scratch_text(r, " _Pragma(\"GCC diagnostic pop\")");
    size_t after = r->tokens[end].start + 1;
    add_edit(r, end, after, after);
  }
}

/* Appends n token indices to a growable list; 0 (out of memory noted) when it cannot. */
static int append_tokens_of(rewriter *r, size_t **list, size_t *count, size_t *capacity,
                            const size_t *tokens, size_t n) {
  if (!reserve((void **)list, capacity, *count + n, sizeof(size_t))) {
    r->out_of_memory = 1;
    return 0;
  }
  for (size_t k = 0; k < n; k++) (*list)[(*count)++] = tokens[k];
  return 1;
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
    /* void __launch_bounds__(256) name( and void [[nodiscard]] name(: the attributes */
    for (size_t group; (group = attribute_group_start(r, before)) != NO_TOKEN && group > 0;)
      before = group - 1;
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
      /* a template's default arguments (template <int B = 128>) are not an initializer */
      if (token_is(r, k, "template") && token_is_char(r, k + 1, '<')) {
        size_t close = template_close(r, k + 1, i);
        if (close != NO_TOKEN) k = close;
        continue;
      }
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
        if ((spaces == SPACE_GLOBAL || spaces == SPACE_DEVICE) && !r->tokens[i].system) {
          const size_t where[] = {first, k};
          if (!append_tokens_of(r, &table->device_definitions, &table->device_definition_count,
                                &table->device_definition_capacity, where, 2))
            break;
        }
        if (spaces == SPACE_HOST && !is_constexpr && !r->tokens[i].system &&
            !token_is(r, i - 1, "::") &&
            (scope == NO_TOKEN || (scope > 0 && token_is(r, scope - 1, "namespace")))) {
          const size_t where[] = {first, i, k};
          if (!append_tokens_of(r, &table->host_definitions, &table->host_definition_count,
                                &table->host_definition_capacity, where, 3))
            break;
        }
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
    size_t attribute_end = attribute_group_end(r, i);
    if (attribute_end != NO_TOKEN) { /* alignas(1 << 4): a constant, no shift or call to hook */
      i = attribute_end;
      continue;
    }
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
    if (r->marker_count > 0 && (space & (SPACE_DEVICE | SPACE_GLOBAL)) &&
        !(space & SPACE_CONSTEXPR) &&
        (token_is(r, i, "asm") || token_is(r, i, "__asm__") || token_is(r, i, "__asm"))) {
      i = rewrite_inline_ptx(r, i);
      continue;
    }
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
      else if (device_only)
        /* nvcc builds it only with -rdc=true; the simulator has no device-side launch. */
        report_rule(r, name, "the kernel '", name,
                    "' is launched from device code: dynamic parallelism, which nvcc builds only "
                    "with -rdc=true and the simulator does not run");
      i += 2;
      continue;
    }
    if (!is_name(r, i) || !token_is_char(r, i + 1, '(')) continue;
    if (token_is_char(r, i - 1, '.') || token_is(r, i - 1, "->") || token_is_char(r, i - 1, '~'))
      continue;
    if (host_only && i > 4 && token_is(r, i - 1, "::") && token_is(r, i - 2, "dev") &&
        token_is(r, i - 3, "::") && token_is(r, i - 4, "cusim")) {
      const char *cuda_name = device_macro_name(r, i);
      if (cuda_name) {
        char after[96];
        snprintf(after, sizeof after, "%s'; only device code can call it", cuda_name);
        report_rule(r, i, "host code calls the __device__ function '", NO_TOKEN, after);
      }
      continue;
    }
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
    } else if (host_only &&
               (user_callee == SPACE_DEVICE ||
                (!(entry && entry->user) && token_in_list(r, i, device_only_functions)))) {
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

void check_rules(rewriter *r) {
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
    register_template_kernels(r, &table);
    relax_device_warnings(r, &table);
    mark_host_code(r, table.host_definitions, table.host_definition_count);
    strip_launch_bounds(r);
    rewrite_builtins(r, device_body);
  }
  free(table.slots);
  free(table.kernels);
  free(table.template_kernels);
  free(table.device_definitions);
  free(table.host_definitions);
  free(table.aliases);
  free(body_space);
  free(device_body);
}
