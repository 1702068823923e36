// How the runtime finds a program's source files (issue 26; runtime/messages.cpp, source_path).
// The workbook's builds name the checkout's files relative to its root in __FILE__
// (-fmacro-prefix-map, cusim.cmake), so that a rewritten .cu is the same text in every copy of the
// tree and ccache serves one copy's compile to another; and an object that ccache brought from
// another copy names that copy's files in its line tables. "(task N)" must still come from this
// checkout's file in both cases.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace cusim {
namespace rt {
const char *built_in_source_root();
std::string source_path(const std::string &path);
int task_at(const std::string &path, long line);
} // namespace rt
} // namespace cusim

static int failures = 0;
static void expect(bool ok, const char *what) {
  std::printf("%s - %s\n", ok ? "ok  " : "FAIL", what);
  if (!ok) ++failures;
}

// The leak report runs at exit, after the program's static objects are destroyed: the lookups must
// work there too (a static std::string of the root once read as "/sim/leak_cases.c" there, and
// every message lost its "(task N)" when the copy that compiled the object was gone). Registered
// before the first lookup, so it runs after anything a lookup made is destroyed.
static long task_line = 0;
static void lookup_at_exit() {
  // Memory freed at exit is handed out again: fill some, as the leak report's own strings do, so a
  // lookup that read a destroyed string reads garbage (a root over 15 characters is on the heap).
  char *filled[64];
  for (int i = 0; i < 64; ++i)
    if ((filled[i] = static_cast<char *>(std::malloc(16 + i)))) std::memset(filled[i], '#', 16 + i);
  bool ok = cusim::rt::task_at("/gone/copy/of/the/tree/lessons/03-hello-copy/exercise.cu",
                               task_line) == 1;
  for (char *p : filled) std::free(p);
  std::printf("%s - at exit too, after static objects are destroyed\n", ok ? "ok  " : "FAIL");
  std::fflush(stdout);
  if (!ok) std::_Exit(1);
}

int main() {
  std::atexit(lookup_at_exit);
  const std::string root = cusim::rt::built_in_source_root();
  expect(!root.empty(), "the build knows the checkout's root");
#ifdef SOURCE_PATHS_MAPPED
  expect(std::strcmp(__FILE__, "tests/sim/source_paths.cu") == 0,
         "__FILE__ names this file relative to the root");
#endif
  // A line inside task 1 of lesson 03's exercise, found in the file itself.
  const std::string exercise = "lessons/03-hello-copy/exercise.cu";
  long in_task = 0;
  if (FILE *f = std::fopen((root + "/" + exercise).c_str(), "r")) {
    char buf[4096];
    for (long n = 1; !in_task && std::fgets(buf, sizeof buf, f); ++n)
      if (std::strstr(buf, "---- task 1")) in_task = n + 1;
    std::fclose(f);
  }
  expect(in_task > 0, "lesson 03's exercise has a task 1");
  task_line = in_task;
  expect(cusim::rt::task_at(exercise, in_task) == 1,
         "a relative path: the task from the root's file");
  expect(cusim::rt::task_at(root + "/" + exercise, in_task) == 1, "the absolute path: the same");
  expect(cusim::rt::task_at("/gone/copy/of/the/tree/" + exercise, in_task) == 1,
         "another copy's path, gone: the same file under this root");
  expect(cusim::rt::source_path("no-such-file.cu") == "no-such-file.cu",
         "a relative path with no file under the root is left as it is");
  expect(cusim::rt::source_path("/gone/no-such-file.cu") == "/gone/no-such-file.cu",
         "an absolute path with no tail under the root is left as it is");
  if (failures) return 1;
  std::puts("PASS");
  return 0;
}
