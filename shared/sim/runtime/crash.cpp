// Crash reports: a SIGSEGV or SIGBUS raised by a kernel names the kernel, block and thread, the
// faulting address and the nearest allocation, then exits 3 (a CUDA error, as the lessons' exit
// codes say); a SIGFPE, SIGILL or SIGABRT in a kernel names the kernel and the source line, and
// exits 3 too. A crash in host code (any of the five) prints one line naming the signal, the
// function, the source line and its task, then dies of the signal as it would have. The handler
// runs on an alternate stack: a fiber that overflowed its stack has none left. It is installed
// when the program starts. Under AddressSanitizer or ThreadSanitizer their own reports stay in
// charge.
#include "internal.hpp"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <execinfo.h>
#include <string>
#include <ucontext.h>
#include <unistd.h>

#if defined(CUSIM_ASAN) || defined(CUSIM_TSAN) || defined(__SANITIZE_THREAD__)
#define CUSIM_SANITIZER_SIGNALS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CUSIM_SANITIZER_SIGNALS 1
#endif
#endif

namespace cusim {
namespace rt {
namespace {

#if !defined(CUSIM_SANITIZER_SIGNALS)
void say(const char *text) {
  size_t n = std::strlen(text);
  while (n > 0) {
    ssize_t k = write(2, text, n);
    if (k <= 0) return;
    text += k;
    n -= (size_t)k;
  }
}

// How an address relates to an allocation, e.g. "1200000000 bytes past the end of".
void relation(char *buf, size_t n, uintptr_t a, const lookup &l) {
  uintptr_t end = l.base + l.size;
  if (a < l.base)
    std::snprintf(buf, n, "%zu bytes before the start of", (size_t)(l.base - a));
  else if (a >= end)
    std::snprintf(buf, n, "%zu bytes past the end of", (size_t)(a - end));
  else
    std::snprintf(buf, n, "%zu bytes into", (size_t)(a - l.base));
}

const char *signal_words(int sig, int code) {
  switch (sig) {
  case SIGFPE:
    return code == FPE_INTDIV   ? "integer division by zero (SIGFPE)"
           : code == FPE_INTOVF ? "integer overflow (SIGFPE)"
                                : "arithmetic exception (SIGFPE)";
  case SIGSEGV:
    return "segmentation fault (SIGSEGV)";
  case SIGBUS:
    return "bus error (SIGBUS)";
  case SIGILL:
    return "illegal instruction (SIGILL)";
  default:
    return "abort (SIGABRT)";
  }
}

const void *faulting_pc(void *context) {
#if defined(__x86_64__)
  return (const void *)((ucontext_t *)context)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
  return (const void *)((ucontext_t *)context)->uc_mcontext.pc;
#else
  (void)context;
  return nullptr;
#endif
}

// " in FUNCTION at file:line (task N)": the faulting instruction's place in the program's own
// code, else its nearest caller there (an abort raised inside the C library, a fault inside the
// simulator called from the learner's code).
std::string crash_place(int sig, void *context) {
  std::string at;
  if (sig != SIGABRT) at = function_place(faulting_pc(context), true);
  if (!at.empty()) return at;
  void *frames[48];
  int n = backtrace(frames, 48);
  for (int i = 1; i < n && at.empty(); ++i) at = function_place(frames[i], false);
  return at;
}

// A crash outside any kernel: one line, then the signal's own default action.
void host_crash(int sig, siginfo_t *info, void *context) {
  alarm(10); // the look-up runs addr2line: should it hang (a crash inside malloc), do not wait
  std::fflush(stdout);
  std::string at = crash_place(sig, context);
  char msg[1024];
  std::snprintf(msg, sizeof msg, "%s%s%s\n", signal_words(sig, info->si_code),
                at.empty() ? " in the host program" : "", at.c_str());
  static char wrapped[2048];
  format_message(wrapped, sizeof wrapped, "cusim: error: ", msg, message_columns());
  say(wrapped);
  signal(sig, SIG_DFL);
  raise(sig);
}

// A SIGFPE, SIGILL or SIGABRT inside a kernel: the kernel, block, thread and line; exit 3.
[[noreturn]] void kernel_trap(int sig, siginfo_t *info, void *context, const running_context &c) {
  std::fflush(stdout);
  std::string at = crash_place(sig, context);
  char msg[1024];
  std::snprintf(msg, sizeof msg,
                "%s in kernel '%s' (launched at %s:%d), block (%u,%u,%u), thread (%u,%u,%u)%s%s\n",
                signal_words(sig, info->si_code), c.kernel, base_name(c.file), c.line, c.block.x,
                c.block.y, c.block.z, c.thread.x, c.thread.y, c.thread.z, at.c_str(),
                sig == SIGFPE ? "; a GPU does not trap here, its result is undefined: the "
                                "simulator stops, stricter"
                              : "");
  static char wrapped[2048];
  format_message(wrapped, sizeof wrapped, "cusim: error: ", msg, message_columns());
  say(wrapped);
  say("cusim: error: cudaErrorLaunchFailure: unspecified launch failure\n");
  _exit(3);
}

void on_fault(int sig, siginfo_t *info, void *context) {
  uintptr_t a = (uintptr_t)info->si_addr;
  running_context c;
  char msg[1024];
  if (!current_context(a, &c)) {
    // Not in a kernel: the host program's own crash.
    host_crash(sig, info, context);
    return;
  }
  if (sig == SIGFPE || sig == SIGILL) kernel_trap(sig, info, context, c);
  if (sig == SIGABRT) { // the simulator's own "cannot happen" stops too: die of it as before
    host_crash(sig, info, context);
    return;
  }
  std::fflush(stdout);
  int len =
      std::snprintf(msg, sizeof msg,
                    "%s in kernel '%s' (launched at %s:%d), "
                    "block (%u,%u,%u), thread (%u,%u,%u): ",
                    sig == SIGBUS ? "bus error" : "segmentation fault", c.kernel, base_name(c.file),
                    c.line, c.block.x, c.block.y, c.block.z, c.thread.x, c.thread.y, c.thread.z);
  if (len < 0 || (size_t)len >= sizeof msg) len = 0;
  if (c.in_guard) {
    std::snprintf(msg + len, sizeof msg - len,
                  "the CUDA thread overflowed its stack of %zu KiB (local arrays too large?); "
                  "set CUSIM_STACK_KB to raise it\n",
                  c.stack_size >> 10);
  } else {
    lookup l = nearest_allocation(info->si_addr);
    if (l.live) {
      char rel[128];
      relation(rel, sizeof rel, a, l);
      std::snprintf(msg + len, sizeof msg - len,
                    "illegal address %p, %s the nearest allocation (%s memory at 0x%zx, %zu "
                    "bytes)\n",
                    info->si_addr, rel, kind_name(l.kind), (size_t)l.base, l.size);
    } else if (l.freed) {
      std::snprintf(msg + len, sizeof msg - len,
                    "illegal address %p, inside %s memory that was freed (%zu bytes at 0x%zx)\n",
                    info->si_addr, kind_name(l.kind), l.size, (size_t)l.base);
    } else {
      std::snprintf(msg + len, sizeof msg - len, "illegal address %p (no allocation near it)\n",
                    info->si_addr);
    }
  }
  static char wrapped[2048]; // the alternate stack is small; one fault at a time ends the process
  format_message(wrapped, sizeof wrapped, "cusim: error: ", msg, message_columns());
  say(wrapped);
  say("cusim: error: cudaErrorIllegalAddress: an illegal memory access was encountered\n");
  _exit(3);
}
#endif

} // namespace

void install_crash_handler() {
#if !defined(CUSIM_SANITIZER_SIGNALS)
  static thread_local bool installed = false;
  if (installed) return;
  installed = true;
  static const size_t alt_size = 64 * 1024;
  stack_t ss{};
  ss.ss_sp = new char[alt_size]; // lives as long as the thread: never freed on purpose
  ss.ss_size = alt_size;
  sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, nullptr);
  sigaction(SIGBUS, &sa, nullptr);
  sigaction(SIGFPE, &sa, nullptr);
  sigaction(SIGILL, &sa, nullptr);
  sigaction(SIGABRT, &sa, nullptr);
#endif
}

namespace {
// From the start, so that a crash in host code before the first launch is reported too.
__attribute__((constructor)) void install_at_start() {
  install_crash_handler();
}
} // namespace

} // namespace rt
} // namespace cusim
