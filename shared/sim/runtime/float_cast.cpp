// Out-of-range float-to-integer conversions that the rewriter does not see (issue 27).
//
// C++ leaves the conversion of a floating value outside the integer type's range (or NaN)
// undefined; x86's cvttss2si gives the "integer indefinite" (INT_MIN), and PTX's cvt.rzi, which
// nvcc emits for every such conversion, saturates (NaN gives 0). The rewriter gives the GPU's
// answer for the explicit casts it sees (cusim_shift.h: gpu_cast). An implicit conversion
// (int i = f; i += f; return f; an int parameter) needs the types, which only the compiler knows,
// so the checked build compiles device code with -fsanitize=float-cast-overflow, and this file is
// the handler that the compiler's check calls (no libubsan is linked). In a simulated CUDA thread,
// with the memory checker on, it stops the launch as the checker's other errors do, in one line
// with the file and line, the value and both answers: the simulator cannot give the GPU's answer
// there, so it does not give a wrong one silently. In host code it does nothing: a real machine
// runs host code on the CPU and gets x86's answer too.
//
// The data the compiler passes (GCC 12 and Clang: libsanitizer's ubsan_handlers.h,
// FloatCastOverflowDataV2): the source location, then the two type descriptors. Older GCCs passed
// no location (V1, told apart as libubsan does). A type descriptor is {u16 kind, u16 info, name}:
// kind 0 integer (info: log2(bits) << 1 | signed), 1 float (info: bits). The value comes in the
// pointer-sized handle itself when it fits (float, double), else by address (long double).
#include "internal.hpp"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#if !defined(CUSIM_NO_FLOAT_CAST_HANDLER)
namespace {

struct source_location {
  const char *file;
  uint32_t line;
  uint32_t column;
};
struct type_descriptor {
  uint16_t kind; // 0: integer, 1: float
  uint16_t info;
  char name[1];
};
struct float_cast_data_v1 {
  const type_descriptor *from, *to;
};
struct float_cast_data_v2 {
  source_location location;
  const type_descriptor *from, *to;
};

// libubsan's test: a V1 record starts with a type descriptor, whose kind (0, 1 or 0xffff) makes
// two bytes no file name starts with.
bool looks_like_v1(const void *data) {
  const unsigned char *first;
  std::memcpy(&first, data, sizeof first);
  return first[0] + first[1] < 2 || first[0] == 0xff || first[1] == 0xff;
}

// The converted value; false for a width this does not read (_Float16, a target it cannot name).
bool value_of(const type_descriptor *t, uintptr_t handle, long double *out) {
  if (t->kind != 1) return false;
  if (t->info == 32) {
    uint32_t bits = (uint32_t)handle;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    *out = f;
    return true;
  }
  if (t->info == 64) {
    double d;
    std::memcpy(&d, &handle, sizeof d);
    *out = d;
    return true;
  }
  if (t->info != 80 && t->info != 128) return false;
  if (std::strstr(t->name, "128") && !std::strstr(t->name, "long double"))
    *out = (long double)*(const __float128 *)handle;
  else
    *out = *(const long double *)handle; // 80 (Clang) or 128 (GCC's x86 long double)
  return true;
}

// The type's name as C spells it (the compilers quote it: "'int'").
void type_name(const type_descriptor *t, char *out, size_t cap) {
  const char *n = t->name;
  size_t len = std::strlen(n);
  if (len >= 2 && n[0] == '\'' && n[len - 1] == '\'') {
    ++n;
    len -= 2;
  }
  if (len >= cap) len = cap - 1;
  std::memcpy(out, n, len);
  out[len] = 0;
}

// The value of `bits` bits as the target type holds it: the low bits, sign-extended if signed.
uint64_t as_target(uint64_t u, unsigned bits, bool is_signed) {
  if (bits >= 64) return u;
  u &= ((uint64_t)1 << bits) - 1;
  if (is_signed && (u >> (bits - 1)) & 1) u |= ~(uint64_t)0 << bits;
  return u;
}

void report(const source_location *where, const type_descriptor *from, const type_descriptor *to,
            uintptr_t handle) {
  if (cusim_tls.blk == nullptr || !cusim::rt::checker_on()) return; // host code, or unchecked
  long double v;
  if (to->kind != 0 || (to->info >> 1) > 6 || !value_of(from, handle, &v)) return; // __int128
  unsigned bits = 1u << (to->info >> 1);
  bool is_signed = to->info & 1;
  // PTX: cvt.rzi to the 32-bit type of the same signedness for 8- and 16-bit targets (then
  // truncated), else to the target's own width; NaN gives 0, out of range the nearest end.
  unsigned w = bits < 32 ? 32 : bits;
  long double lo = is_signed ? -__builtin_ldexpl(1.0L, (int)w - 1) : 0.0L;
  long double hi = is_signed ? __builtin_ldexpl(1.0L, (int)w - 1) : __builtin_ldexpl(1.0L, (int)w);
  uint64_t gpu = v != v      ? 0
                 : v < lo    ? (is_signed ? (uint64_t)1 << (w - 1) : 0)
                 : v >= hi   ? (is_signed ? ((uint64_t)1 << (w - 1)) - 1
                                : w == 64 ? ~(uint64_t)0
                                          : ((uint64_t)1 << w) - 1)
                 : is_signed ? (uint64_t)(int64_t)v
                             : (uint64_t)v;
  gpu = as_target(gpu, bits, is_signed);
  // x86-64's cvttss2si/cvttsd2si, 32-bit for int and narrower types (whose low bits are then
  // stored), 64-bit for long long, give the lowest value of their width for NaN and values out
  // of their range. Unsigned int and unsigned long long go through sequences that differ between
  // compilers: not predicted.
  bool x86_known = bits < 32 || is_signed;
  uint64_t x86 = 0;
  if (bits == 64 && is_signed)
    x86 = (uint64_t)INT64_MIN;
  else if (x86_known)
    x86 = as_target((uint64_t)(int64_t)(v == v && v >= -2147483648.0L && v < 2147483648.0L
                                            ? (int32_t)v
                                            : INT32_MIN),
                    bits, is_signed);
  char gpu_text[32], x86_text[48], from_name[48], to_name[48];
  std::snprintf(gpu_text, sizeof gpu_text, is_signed ? "%" PRId64 : "%" PRIu64, gpu);
  x86_text[0] = 0;
  if (x86_known)
    std::snprintf(x86_text, sizeof x86_text, is_signed ? ", x86 %" PRId64 : ", x86 %" PRIu64, x86);
  type_name(from, from_name, sizeof from_name);
  type_name(to, to_name, sizeof to_name);
  std::string at = where ? cusim::rt::place(where->file, (int)where->line) : "";
  char text[640];
  // 8- and 16-bit targets: cvt.rzi to 32 bits, then the low bits are kept (300 as a char: 44)
  const char *how = bits < 32 ? "cvt to 32 bits keeps the low ones" : "cvt saturates";
  if (x86_known && x86 == gpu) {
    // x86 gives the GPU's answer here (-3e10 as an int: both the lowest int): said once a line
    static std::mutex mu;
    static std::set<std::pair<const char *, uint32_t>> said;
    {
      std::lock_guard<std::mutex> lock(mu);
      if (!where || said.size() > 1000 || !said.insert({where->file, where->line}).second) return;
    }
    std::snprintf(text, sizeof text,
                  "%s: the %s %Lg converted to %s: C++ leaves a value out of the type's range "
                  "undefined; a GPU gives %s (%s), and so does x86 here (said once per line)",
                  at.c_str(), from_name, v, to_name, gpu_text, how);
    cusim::rt::print_message("cusim: note: ", text);
    return;
  }
  uint3 t = cusim_tls.thread_idx;
  std::snprintf(text, sizeof text,
                "out-of-range conversion%s%s: thread (%u,%u,%u) converts the %s %Lg to %s, which "
                "C++ leaves undefined (a GPU gives %s, %s%s); the simulator gives the "
                "GPU's answer for a cast it sees, as static_cast<%s>(...), and stops here",
                where ? " at " : "", at.c_str(), t.x, t.y, t.z, from_name, v, to_name, gpu_text,
                how, x86_text, to_name);
  cusim::rt::race_failed(text);
}

void handle(void *data, void *value) {
  if (looks_like_v1(data)) {
    const float_cast_data_v1 *d = static_cast<const float_cast_data_v1 *>(data);
    report(nullptr, d->from, d->to, (uintptr_t)value);
  } else {
    const float_cast_data_v2 *d = static_cast<const float_cast_data_v2 *>(data);
    report(&d->location, d->from, d->to, (uintptr_t)value);
  }
}

} // namespace

extern "C" {
// -fsanitize=float-cast-overflow's callbacks. The _abort one (-fno-sanitize-recover, asked for by
// the program's own flags) must not return: where nothing was reported it says so and aborts.
__attribute__((visibility("default"))) void __ubsan_handle_float_cast_overflow(void *data,
                                                                               void *value) {
  handle(data, value);
}
__attribute__((visibility("default"), noreturn)) void
__ubsan_handle_float_cast_overflow_abort(void *data, void *value) {
  handle(data, value);
  std::fprintf(stderr, "cusim: error: an out-of-range float-to-integer conversion "
                       "(-fno-sanitize-recover=float-cast-overflow)\n");
  std::abort();
}
}
#endif
