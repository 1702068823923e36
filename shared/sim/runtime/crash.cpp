// Crash reports: a SIGSEGV or SIGBUS raised by a kernel names the kernel, block and thread, the
// faulting address and the nearest allocation, then exits 3 (a CUDA error, as the lessons' exit
// codes say). The handler runs on an alternate stack: a fiber that overflowed its stack has none
// left. Under AddressSanitizer or ThreadSanitizer their own reports stay in charge.
#include "internal.hpp"

#include <csignal>
#include <cstdio>
#include <cstring>
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

void on_fault(int sig, siginfo_t *info, void *) {
  uintptr_t a = (uintptr_t)info->si_addr;
  running_context c;
  char msg[1024];
  if (!current_context(a, &c)) {
    // Not in a kernel: the host program's own crash. Let the default action report it.
    signal(sig, SIG_DFL);
    raise(sig);
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
#endif
}

} // namespace rt
} // namespace cusim
