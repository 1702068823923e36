// The simulator's own lines ("cusim: error: ...") and how wide they are. A message is one line for
// tools and tests, and wrapped for a person: CUSIM_COLUMNS=N wraps at N columns (0: never);
// without it, a terminal on stderr gets 80 columns and a pipe or file one line per message. The
// workbook sets CUSIM_COLUMNS=80, so what a learner reads through it fits 80 columns too.
// Continuation lines are indented by two spaces. Formatting allocates nothing, so the crash
// handler can use it on its alternate stack.
#include "internal.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
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
