// The simulator's own lines ("cusim: error: ...") and how wide they are. A message is one line for
// tools and tests, and wrapped for a person: CUSIM_COLUMNS=N wraps at N columns (0: never);
// without it, a terminal on stderr gets 80 columns and a pipe or file one line per message. The
// workbook sets CUSIM_COLUMNS=76 (it quotes program output behind "  | ").
// Continuation lines are indented by two spaces. Formatting allocates nothing, so the crash
// handler can use it on its alternate stack.
#include "internal.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <unistd.h>

namespace cusim {
namespace rt {
namespace {

int read_columns() {
  const char *env = std::getenv("CUSIM_COLUMNS");
  if (env && *env) {
    char *end = nullptr;
    long n = std::strtol(env, &end, 10);
    if (end && *end == '\0' && n >= 0 && n <= 10000) return n == 0 ? 0 : (n < 40 ? 40 : (int)n);
  }
  return isatty(2) ? 80 : 0;
}

// Read once, before any kernel runs (the crash handler must not call getenv).
const int columns_at_start = read_columns();

// Counts UTF-8 characters, not bytes (a message may hold a learner's file name).
size_t width_of(const char *s, size_t n) {
  size_t w = 0;
  for (size_t i = 0; i < n; ++i)
    if (((unsigned char)s[i] & 0xC0) != 0x80) ++w;
  return w;
}

} // namespace

int message_columns() {
  return columns_at_start;
}

size_t format_message(char *out, size_t cap, const char *head, const char *text, int columns) {
  size_t used = 0;
  auto put = [&](const char *s, size_t n) {
    if (cap == 0) return;
    size_t room = cap - 1 - used;
    if (n > room) n = room;
    std::memcpy(out + used, s, n);
    used += n;
  };
  size_t head_len = std::strlen(head);
  put(head, head_len);
  size_t text_len = std::strlen(text);
  while (text_len > 0 && text[text_len - 1] == '\n') --text_len; // the caller's own newline
  if (columns <= 0) {
    put(text, text_len);
  } else {
    size_t col = width_of(head, head_len);
    bool line_has_word = false; // the first word goes after the head, however long
    size_t i = 0;
    while (i < text_len) {
      size_t spaces = i;
      while (i < text_len && text[i] == ' ') ++i;
      size_t word = i;
      while (i < text_len && text[i] != ' ' && text[i] != '\n') ++i;
      size_t word_w = width_of(text + word, i - word);
      size_t gap = word - spaces;
      if (line_has_word && col + gap + word_w > (size_t)columns) {
        put("\n  ", 3);
        col = 2;
      } else {
        put(text + spaces, gap);
        col += gap;
      }
      put(text + word, i - word);
      col += word_w;
      line_has_word = word_w > 0 || line_has_word;
      if (i < text_len && text[i] == '\n') { // a message's own line break starts a new line
        put("\n  ", 3);
        col = 2;
        line_has_word = false;
        ++i;
      }
    }
  }
  put("\n", 1);
  if (cap) out[used] = '\0';
  return used;
}

void print_message(const char *head, const char *text) {
  char buf[8192];
  size_t n = format_message(buf, sizeof buf, head, text, message_columns());
  std::fflush(stdout);
  std::fwrite(buf, 1, n, stderr);
  std::fflush(stderr);
}

} // namespace rt
} // namespace cusim

namespace cusim {
namespace rt {
// "exercise.cu" for ".../lessons/07-vectorize-ufuncs/exercise.cu": messages name the file as the
// learner knows it, and a long path would not fit a line.
const char *base_name(const char *path) {
  if (!path) return "?";
  const char *slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}
} // namespace rt
} // namespace cusim

// ---- where in the learner's code ----------------------------------------------------------------
namespace cusim {
namespace rt {
// A path as a program names it, as one to open (internal.hpp).
std::string source_path(const std::string &path) {
  // A string made here each time, not a static one: the leak report runs at exit, after static
  // objects are destroyed (a static std::string read there gave "/sim/leak_cases.c" for the root).
  const std::string root = built_in_source_root();
  if (root.empty() || path.empty()) return path;
  // Relative: the checkout's file where there is one (a program of another build, nvcc-sim's
  // `nvcc-sim x.cu`, names its files relative to where it was compiled: left as it is).
  if (path[0] != '/') {
    std::string under_root = root + "/" + path;
    return access(under_root.c_str(), F_OK) == 0 ? under_root : path;
  }
  if (access(path.c_str(), F_OK) == 0) return path;
  // Absolute but not here: another copy of the checkout compiled this code (ccache brought its
  // object, whose line tables name that copy) and is gone. The same file under this root: the
  // longest tail of the path that names one.
  for (size_t slash = path.find('/', 1); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    std::string candidate = root + path.substr(slash);
    if (access(candidate.c_str(), F_OK) == 0) return candidate;
  }
  return path;
}

// The task of the workbook's exercise that holds line `line` of `given` ("// ---- task N" opens a
// task, "// ---- end of task N" closes it), or 0.
int task_at(const std::string &given, long line) {
  std::string path = source_path(given);
  FILE *f = std::fopen(path.c_str(), "r");
  if (!f) return 0;
  char buf[4096];
  int task = 0;
  for (long n = 1; n <= line && std::fgets(buf, sizeof buf, f); ++n) {
    const char *p = std::strstr(buf, "---- ");
    if (!p) continue;
    int k = 0;
    if (std::sscanf(p, "---- end of task %d", &k) == 1)
      task = 0;
    else if (std::sscanf(p, "---- task %d", &k) == 1)
      task = k;
  }
  std::fclose(f);
  return task;
}

// "exercise.cu:42 (task 3)": a place in the learner's code as messages name it.
std::string place(const char *file, int line) {
  std::string text = std::string(base_name(file)) + ":" + std::to_string(line);
  if (int task = task_at(file ? file : "", line)) text += " (task " + std::to_string(task) + ")";
  return text;
}

// The source line of a code address in the program: PATH as the line tables name it, and LINE
// (addr2line, error paths and the leak checks only). Outside the simulator: the first place not in
// its own headers (the cudaMalloc template, inlined into the learner's code, then names the
// learner's line). False when there is no line table for it.
bool resolve_site(const void *pc, bool outside_simulator, std::string *path, long *line) {
  Dl_info info;
  if (!pc || !dladdr(pc, &info) || !info.dli_fname) return false;
  uintptr_t rel = (uintptr_t)pc - 1 - (uintptr_t)info.dli_fbase; // the call, not the return
  char cmd[1024];
  std::snprintf(cmd, sizeof cmd, "addr2line -i -e '%s' 0x%" PRIxPTR " 2>/dev/null", info.dli_fname,
                rel);
  // With -i the innermost inlined place comes first, the function it was inlined into last.
  std::string out;
  if (FILE *f = popen(cmd, "r")) {
    char buf[1024];
    while (std::fgets(buf, sizeof buf, f)) {
      if (out.empty()) out = buf;
      if (!outside_simulator) break;
      if (!std::strstr(buf, "/sim/include/")) {
        out = buf;
        break;
      }
    }
    pclose(f);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  size_t paren = out.find(" (discriminator");
  if (paren != std::string::npos) out.resize(paren);
  size_t colon = out.rfind(':');
  if (out.empty() || out[0] == '?' || colon == std::string::npos) return false;
  long n = std::strtol(out.c_str() + colon + 1, nullptr, 10);
  if (n <= 0) return false;
  *path = source_path(out.substr(0, colon));
  *line = n;
  // binutils' addr2line (2.40) names DWARF 5's file 0 where the line program keeps its default
  // file 1: the rewritten .cpp, for code of the .cu it came from (the line is the .cu's). That
  // .cpp starts with "#line 1 ..." and the preprocessor's "# 0 "FILE.cu"": name FILE.cu.
  if (path->size() > 4 && path->compare(path->size() - 4, 4, ".cpp") == 0) {
    if (FILE *f = std::fopen(path->c_str(), "r")) {
      char first[4096], second[4096];
      if (std::fgets(first, sizeof first, f) && std::strncmp(first, "#line 1 ", 8) == 0 &&
          std::fgets(second, sizeof second, f) && std::strncmp(second, "# 0 \"", 5) == 0) {
        char *end = std::strchr(second + 5, '"');
        if (end) *path = std::string(second + 5, end);
      }
      std::fclose(f);
    } else if (path->size() > 7 && path->compare(path->size() - 7, 7, ".cu.cpp") == 0) {
      // nvcc-sim's rewritten file ("N-NAME.cu.cpp" in a work folder it removes): NAME.cu.
      size_t slash = path->rfind('/');
      std::string base = path->substr(slash == std::string::npos ? 0 : slash + 1);
      size_t dash = base.find('-');
      if (dash != std::string::npos && dash > 0 && base.find_first_not_of("0123456789") == dash)
        base.erase(0, dash + 1);
      *path = base.substr(0, base.size() - 4);
    }
  }
  return true;
}

// " at file:line (task N)" for a code address in the program, or "" (addr2line, error path only).
std::string source_line(const void *pc, bool outside_simulator) {
  std::string path;
  long line = 0;
  if (!resolve_site(pc, outside_simulator, &path, &line)) return "";
  return " at " + place(path.c_str(), (int)line);
}

// The source a rewritten file came from (".../NAME.cusim/x_cu.cpp": its first linemarker names
// it), or `path` itself. addr2line names the rewritten file for some host functions though their
// lines are the source's (a DWARF 5 file-table quirk of binutils 2.40).
static std::string original_source(const std::string &path) {
  if (path.find(".cusim/") == std::string::npos) return path;
  std::string source = path;
  if (FILE *f = std::fopen(path.c_str(), "r")) {
    char buf[4096];
    for (int n = 0; n < 4 && std::fgets(buf, sizeof buf, f); ++n) {
      const char *quote = std::strchr(buf, '"');
      const char *end = quote ? std::strrchr(buf, '"') : nullptr;
      if (buf[0] == '#' && buf[1] == ' ' && quote && end > quote + 1) {
        source.assign(quote + 1, end);
        break;
      }
    }
    std::fclose(f);
  }
  return source;
}

// " in FUNCTION at exercise.cu:18 (task 1)" for a code address of the program's own code (not the
// simulator's headers or runtime), or "" (addr2line: the crash handler only). `exact`: pc is the
// faulting instruction itself, not a return address.
std::string function_place(const void *pc, bool exact) {
  Dl_info info;
  if (!pc || !dladdr(pc, &info) || !info.dli_fname) return "";
  uintptr_t rel = (uintptr_t)pc - (exact ? 0 : 1) - (uintptr_t)info.dli_fbase;
  char cmd[1024];
  std::snprintf(cmd, sizeof cmd, "addr2line -f -C -i -e '%s' 0x%" PRIxPTR " 2>/dev/null",
                info.dli_fname, rel);
  std::string result;
  if (FILE *f = popen(cmd, "r")) {
    char function[512], where[1024];
    // Pairs of lines, the innermost inlined place first: the first in the program's own code.
    while (result.empty() && std::fgets(function, sizeof function, f) &&
           std::fgets(where, sizeof where, f)) {
      std::string name = function, at = where;
      while (!name.empty() && (name.back() == '\n' || name.back() == ' ')) name.pop_back();
      while (!at.empty() && (at.back() == '\n' || at.back() == ' ')) at.pop_back();
      size_t paren = at.find(" (discriminator");
      if (paren != std::string::npos) at.resize(paren);
      size_t colon = at.rfind(':');
      if (at.empty() || at[0] == '?' || colon == std::string::npos) continue;
      if (at.find("/sim/include/") != std::string::npos ||
          at.find("/sim/runtime/") != std::string::npos)
        continue;
      long line = std::strtol(at.c_str() + colon + 1, nullptr, 10);
      if (line <= 0) continue;
      std::string path = original_source(source_path(at.substr(0, colon)));
      size_t open = name.find('(');
      if (open != std::string::npos) name.resize(open); // "f(int, int)" -> "f"
      if (!name.empty() && name[0] != '?') result = " in " + name;
      result += " at " + std::string(base_name(path.c_str())) + ":" + std::to_string(line);
      if (int task = task_at(path, line)) result += " (task " + std::to_string(task) + ")";
    }
    pclose(f);
  }
  return result;
}
} // namespace rt
} // namespace cusim
