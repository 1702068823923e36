// NVRTC for the CPU simulator: a CUDA C string compiled at run time, as the simulator's build
// compiles a .cu file (docs/architecture.md, "NVRTC and the driver API"):
//
//   c++ -E -DCUSIM_PREPROCESS -isystem INCLUDE -include cusim_prelude.h SRC -o k.ii
//   cusim-rewrite k.ii k.cpp
//   c++ -O2 -fPIC [the checker's or sanitizer's flags] -c k.cpp -o k.so.o
//   c++ -shared -Wl,-Bsymbolic k.so.o -o k.so
//
// in a fresh temporary folder. The shared object, as base64 text behind a "// cusim module"
// header, is what nvrtcGetPTX and nvrtcGetCUBIN return; cuModuleLoadData (driver.cpp) loads it.
// Its undefined symbols (the scheduler's) bind to the program itself, which the simulator's
// builds link with --export-dynamic. The compiler's messages are turned into NVRTC's log format,
// "NAME(LINE): error: MESSAGE", at the string's own line numbers, with the line and a caret.
#include "internal.hpp"
#include "nvrtc_module.hpp"

#include <nvrtc.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

#if !defined(CUSIM_NO_FLOAT_CAST_HANDLER)
// A module compiled with the checker's flags calls -fsanitize=float-cast-overflow's handler
// (float_cast.cpp), which it finds in the program: kept linked into every program that uses NVRTC.
extern "C" void __ubsan_handle_float_cast_overflow(void *, void *);
__attribute__((used)) static void (*const cusim_keep_float_cast_handler)(void *, void *) =
    &__ubsan_handle_float_cast_overflow;
#endif

struct _nvrtcProgram {
  std::string source;
  std::string name;                                         // as given (default_program)
  std::vector<std::pair<std::string, std::string>> headers; // include name, text
  std::string log;
  std::string image; // the module text, empty until a compile succeeded
  std::string cubin; // the same, marked as a CUBIN for its architecture (-arch=sm_NN only)
  bool real_arch = false;
  std::vector<std::string> name_expressions;
  std::map<std::string, std::string> lowered;
  bool compiled = false;
};

namespace cusim {
namespace nvrtc {

namespace {

std::mutex programs_mu;
std::set<nvrtcProgram> &programs() {
  static std::set<nvrtcProgram> p;
  return p;
}
bool live(nvrtcProgram p) {
  std::lock_guard<std::mutex> lock(programs_mu);
  return programs().count(p) != 0;
}

std::string setting(const char *env, const char *built_in) {
  const char *v = std::getenv(env);
  return v && *v ? v : built_in;
}

bool write_file(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return bool(out);
}

bool read_file(const std::string &path, std::string *text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  *text = s.str();
  return true;
}

// Runs argv with stdout and stderr into log_path; returns the exit status (-1: did not start).
int run(const std::vector<std::string> &argv, const std::string &log_path) {
  std::vector<char *> args;
  for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                   0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  // The compiler in the C locale: plain ASCII quotes in its messages, as in NVRTC's log.
  std::vector<char *> env{const_cast<char *>("LC_ALL=C")};
  for (char **e = environ; *e; ++e)
    if (std::strncmp(*e, "LC_ALL=", 7) != 0) env.push_back(*e);
  env.push_back(nullptr);
  pid_t pid;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

void remove_tree(const std::string &dir) {
  std::vector<std::string> argv{"rm", "-rf", dir};
  run(argv, "/dev/null");
}

const char base64_digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string base64(const std::string &bytes) {
  std::string out;
  size_t line = 0;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t v = (uint32_t)(unsigned char)bytes[i] << 16;
    size_t n = bytes.size() - i;
    if (n > 1) v |= (uint32_t)(unsigned char)bytes[i + 1] << 8;
    if (n > 2) v |= (uint32_t)(unsigned char)bytes[i + 2];
    out += base64_digits[(v >> 18) & 63];
    out += base64_digits[(v >> 12) & 63];
    out += n > 1 ? base64_digits[(v >> 6) & 63] : '=';
    out += n > 2 ? base64_digits[v & 63] : '=';
    if (++line == 19) { // 76 characters a line
      out += '\n';
      line = 0;
    }
  }
  if (line) out += '\n';
  return out;
}

// "NAME:LINE:COL: error: MESSAGE" (gcc, clang, cusim-rewrite) -> "NAME(LINE): error: MESSAGE",
// the program's own source line and a caret. Notes and context lines are left out.
std::string nvrtc_log(const std::string &raw, const std::string &path, const std::string &name,
                      const std::string &source, int *errors) {
  std::vector<std::string> lines;
  {
    std::istringstream s(source);
    std::string l;
    while (std::getline(s, l)) lines.push_back(l);
  }
  std::string out;
  std::istringstream in(raw);
  std::string l;
  *errors = 0;
  while (std::getline(in, l)) {
    // the file: the program's path, or a header's
    size_t colon = l.find(':');
    if (colon == std::string::npos || colon == 0) continue;
    std::string file = l.substr(0, colon);
    char *end = nullptr;
    long line = std::strtol(l.c_str() + colon + 1, &end, 10);
    if (end == l.c_str() + colon + 1 || *end != ':') continue;
    long column = std::strtol(end + 1, &end, 10);
    if (*end != ':') continue;
    std::string rest = end + 1;
    while (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
    std::string kind;
    for (const char *k : {"fatal error: ", "error: ", "warning: "}) {
      if (rest.compare(0, std::strlen(k), k) == 0) {
        kind = k;
        rest.erase(0, std::strlen(k));
        break;
      }
    }
    if (kind.empty()) continue; // notes
    bool error = kind != "warning: ";
    if (error) ++*errors;
    bool own = file == path;
    std::string shown = own ? name : file.substr(file.rfind('/') + 1);
    out += shown + "(" + std::to_string(line) + "): " + (error ? "error" : "warning") + ": " +
           rest + "\n";
    if (own && line >= 1 && (size_t)line <= lines.size()) {
      out += "  " + lines[line - 1] + "\n";
      out += "  " + std::string(column > 1 ? column - 1 : 0, ' ') + "^\n";
    }
    out += "\n";
  }
  return out;
}

bool safe_include_name(const std::string &n) {
  if (n.empty() || n[0] == '/') return false;
  size_t start = 0;
  while (start <= n.size()) {
    size_t slash = n.find('/', start);
    std::string part =
        n.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part.empty() || part == "..") return false;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return true;
}

// An architecture option's value, as NVRTC 13.0 takes it (its own answers, asked on the CPU):
// compute_NN or sm_NN for NN in 75 80 86 87 88 89 90 100 103 110 120 121 is accepted; an `a`
// suffix only for 90 and up, an `f` suffix only for 100 and up; any other NN (compute_70,
// compute_999) or word is NVRTC_ERROR_INVALID_OPTION, and a suffix the architecture lacks
// (compute_86a, compute_90f) is NVRTC_ERROR_COMPILATION.
enum arch_verdict { arch_ok, arch_unknown, arch_no_variant };
arch_verdict check_arch(const std::string &v, int *number, char *suffix, bool *real) {
  std::string digits;
  if (v.compare(0, 8, "compute_") == 0) {
    digits = v.substr(8);
    *real = false;
  } else if (v.compare(0, 3, "sm_") == 0) {
    digits = v.substr(3);
    *real = true;
  } else {
    return arch_unknown;
  }
  *suffix = '\0';
  if (!digits.empty() && (digits.back() == 'a' || digits.back() == 'f')) {
    *suffix = digits.back();
    digits.pop_back();
  }
  if (digits.size() < 2 || digits.size() > 3) return arch_unknown;
  for (char c : digits)
    if (c < '0' || c > '9') return arch_unknown;
  static const int known[] = {75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121};
  *number = std::atoi(digits.c_str());
  bool found = false;
  for (int k : known) found = found || k == *number;
  if (!found) return arch_unknown;
  if ((*suffix == 'a' && *number < 90) || (*suffix == 'f' && *number < 100)) return arch_no_variant;
  return arch_ok;
}

struct options {
  std::vector<std::string> preprocessor; // -D, -U, -I, -include
  std::string standard = "c++17";
  bool real_arch = false;
  int arch = 75;      // NVRTC 13's default: compute_75
  char suffix = '\0'; // 'a' (arch-specific) or 'f' (family-specific)
  std::string warnings;
  bool no_variant = false;
};

// NVRTC's options, as one string each ("--gpu-architecture=compute_90", "-DN=4") or as an
// option and its value in two ("--gpu-architecture", "compute_90"). Unknown ones are an error.
bool parse_options(int count, const char *const *given, options *o, std::string *log) {
  std::vector<std::string> v;
  for (int i = 0; i < count; ++i) {
    if (given[i] == nullptr) {
      *log += "nvrtc: error: option " + std::to_string(i) + " is a null pointer\n";
      return false;
    }
    v.push_back(given[i]);
  }
  // options that take a value; what they mean here
  enum what { arch, define, undefine, include, pre_include, std_, ignored };
  const std::map<std::string, what> with_value{
      {"-arch", arch},
      {"--gpu-architecture", arch},
      {"-D", define},
      {"--define-macro", define},
      {"-U", undefine},
      {"--undefine-macro", undefine},
      {"-I", include},
      {"--include-path", include},
      {"-include", pre_include},
      {"--pre-include", pre_include},
      {"-std", std_},
      {"--std", std_},
      {"-ftz", ignored},
      {"--ftz", ignored},
      {"-prec-sqrt", ignored},
      {"--prec-sqrt", ignored},
      {"-prec-div", ignored},
      {"--prec-div", ignored},
      {"-fmad", ignored},
      {"--fmad", ignored},
      {"-rdc", ignored},
      {"--relocatable-device-code", ignored},
      {"-maxrregcount", ignored},
      {"--maxrregcount", ignored},
      {"-dopt", ignored},
      {"--dopt", ignored},
      {"-Xptxas", ignored},
      {"--ptxas-options", ignored},
      {"-split-compile", ignored},
      {"--split-compile", ignored},
      {"-time", ignored},
      {"--time", ignored},
  };
  const std::set<std::string> flags{"-G",
                                    "--device-debug",
                                    "-lineinfo",
                                    "--generate-line-info",
                                    "-use_fast_math",
                                    "--use_fast_math",
                                    "-default-device",
                                    "--device-as-default-execution-space",
                                    "-w",
                                    "--disable-warnings",
                                    "-restrict",
                                    "--restrict",
                                    "-expt-relaxed-constexpr",
                                    "--expt-relaxed-constexpr",
                                    "-expt-extended-lambda",
                                    "--expt-extended-lambda",
                                    "-extended-lambda",
                                    "--extended-lambda",
                                    "-extra-device-vectorization",
                                    "--extra-device-vectorization",
                                    "-dlto",
                                    "--dlink-time-opt",
                                    "-no-source-include",
                                    "--no-source-include",
                                    "-dc",
                                    "--device-c",
                                    "-dw",
                                    "--device-w"};
  bool seen_arch = false;
  for (size_t i = 0; i < v.size(); ++i) {
    std::string opt = v[i], value;
    bool has_value = false;
    size_t eq = opt.find('=');
    if (opt.size() > 2 &&
        (opt.compare(0, 2, "-D") == 0 || opt.compare(0, 2, "-U") == 0 ||
         opt.compare(0, 2, "-I") == 0) &&
        opt[2] != '-') {
      value = opt.substr(2);
      opt = opt.substr(0, 2);
      has_value = true;
    } else if (eq != std::string::npos && with_value.count(opt.substr(0, eq))) {
      value = opt.substr(eq + 1);
      opt = opt.substr(0, eq);
      has_value = true;
    }
    if (flags.count(opt)) continue;
    auto w = with_value.find(opt);
    if (w == with_value.end()) {
      *log += "nvrtc: error: unrecognized option '" + v[i] + "'\n";
      return false;
    }
    if (!has_value) {
      if (i + 1 >= v.size()) {
        *log += "nvrtc: error: option '" + opt + "' needs a value\n";
        return false;
      }
      value = v[++i];
    }
    switch (w->second) {
    case arch: {
      int number = 0;
      char suffix = '\0';
      bool real = false;
      arch_verdict verdict = check_arch(value, &number, &suffix, &real);
      if (verdict == arch_unknown) {
        *log += "nvrtc: error: invalid value for --gpu-architecture (-arch)\n"; // NVRTC's words
        return false;
      }
      if (seen_arch && number != o->arch) // the last one counts, as in NVRTC, with its warning
        o->warnings += "nvrtc: warning: \"--gpu-architecture(-arch)=" + std::to_string(o->arch) +
                       "\" followed by \"--gpu-architecture(-arch)=" + std::to_string(number) +
                       "\"\n";
      seen_arch = true;
      o->arch = number;
      o->suffix = suffix;
      o->real_arch = real;
      o->no_variant = verdict == arch_no_variant;
      break;
    }
    case define:
      o->preprocessor.push_back("-D" + value);
      break;
    case undefine:
      o->preprocessor.push_back("-U" + value);
      break;
    case include:
      o->preprocessor.push_back("-I" + value);
      break;
    case pre_include:
      o->preprocessor.push_back("-include");
      o->preprocessor.push_back(value);
      break;
    case std_:
      if (value == "c++03" || value == "c++11" || value == "c++14" || value == "c++17") {
        o->standard = "c++17"; // the simulator's headers need C++17
      } else if (value == "c++20") {
        o->standard = value;
      } else {
        *log += "nvrtc: error: invalid value '" + value + "' for option -std\n";
        return false;
      }
      break;
    case ignored:
      break;
    }
  }
  return true;
}

// ---- the module cache (CUSIM_NVRTC_CACHE) --------------------------------------------------
// A module is a function of its rewritten text, the compile and link commands and the compiler
// itself, so a program that compiles the same kernel string again (every run of a lesson's test
// does) may take the module that an earlier compile of the same input made. Where
// CUSIM_NVRTC_CACHE names a folder (the workbook's builds set it to BUILD/nvrtc-cache for their
// tests), modules are kept there under the hash of all of that; unset, "0" or "off", nothing is
// kept. The temporary folder's name, the one part of the text that differs between two compiles
// of the same input, is replaced by a fixed one before hashing and compiling (reports name files
// by their last part; the compiler's messages get the real folder back).
const char *const kFixedDir = "/cusim-nvrtc";

std::string module_cache_dir() {
  const char *v = std::getenv("CUSIM_NVRTC_CACHE");
  if (v == nullptr || *v == '\0' || std::strcmp(v, "0") == 0 || std::strcmp(v, "off") == 0)
    return "";
  return v;
}

void replace_all(std::string *text, const std::string &from, const std::string &to) {
  if (from.empty()) return;
  std::string out;
  out.reserve(text->size());
  size_t start = 0;
  for (size_t at; (at = text->find(from, start)) != std::string::npos; start = at + from.size())
    out.append(*text, start, at - start).append(to);
  out.append(*text, start, std::string::npos);
  text->swap(out);
}

// Two independent 64-bit FNV-1a hashes (different offsets): 128 bits name an entry.
struct module_key {
  uint64_t a = 1469598103934665603ull, b = 0x84222325cbf29ce4ull;
  void add(const void *data, size_t n) {
    const unsigned char *c = static_cast<const unsigned char *>(data);
    for (size_t i = 0; i < n; ++i) {
      a = (a ^ c[i]) * 1099511628211ull;
      b = (b ^ c[i]) * 0x100000001b3ull;
      b ^= b >> 29;
    }
  }
  void add(const std::string &text) {
    add(text.data(), text.size());
    add("", 1); // a separator: "ab","c" and "a","bc" hash apart
  }
  std::string hex() const {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
    return buf;
  }
};

// The compiler as a file: its path, size and time (an upgraded compiler makes new entries).
void add_compiler(module_key *key, const std::string &cxx) {
  key->add(cxx);
  std::string found = cxx;
  if (cxx.find('/') == std::string::npos) {
    const char *path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    for (std::string d; std::getline(dirs, d, ':');) {
      if (!d.empty() && access((d + "/" + cxx).c_str(), X_OK) == 0) {
        found = d + "/" + cxx;
        break;
      }
    }
  }
  struct stat st {};
  if (stat(found.c_str(), &st) == 0) {
    key->add(std::to_string((long long)st.st_size) + ":" + std::to_string((long long)st.st_mtime));
  }
}

// Copies FROM to TO through a temporary name in TO's folder, so a reader never sees half a file.
bool copy_file_atomically(const std::string &from, const std::string &to) {
  std::string bytes;
  if (!read_file(from, &bytes)) return false;
  std::string temp = to + ".tmp." + std::to_string((long long)getpid());
  if (!write_file(temp, bytes)) {
    unlink(temp.c_str());
    return false;
  }
  if (rename(temp.c_str(), to.c_str()) != 0) {
    unlink(temp.c_str());
    return false;
  }
  return true;
}

void make_folders(const std::string &dir) {
  for (size_t s = dir.find('/', 1); s != std::string::npos; s = dir.find('/', s + 1))
    mkdir(dir.substr(0, s).c_str(), 0755);
  mkdir(dir.c_str(), 0755);
}

std::string temp_root() {
  const char *t = std::getenv("TMPDIR");
  return t && *t ? t : "/tmp";
}

nvrtcResult compile(nvrtcProgram prog, int count, const char *const *given) {
  prog->log.clear();
  prog->image.clear();
  prog->cubin.clear();
  prog->lowered.clear();
  prog->compiled = false;
  options o;
  if (!parse_options(count, given, &o, &prog->log)) return NVRTC_ERROR_INVALID_OPTION;
  if (o.no_variant) { // NVRTC's front end refuses it, in these words
    prog->log = o.warnings +
                "Command-line error: invalid or no value specified with --nv_arch flag\n\n"
                "1 catastrophic error detected in this compilation.\nCompilation terminated.\n";
    return NVRTC_ERROR_COMPILATION;
  }

  std::string dir_template = temp_root() + "/cusim-nvrtc.XXXXXX";
  std::vector<char> dir_buf(dir_template.begin(), dir_template.end());
  dir_buf.push_back('\0');
  if (mkdtemp(dir_buf.data()) == nullptr) {
    prog->log = "nvrtc: error: cannot make a temporary folder in " + temp_root() + "\n";
    return NVRTC_ERROR_BUILTIN_OPERATION_FAILURE;
  }
  std::string dir = dir_buf.data();
  struct cleanup {
    std::string dir;
    ~cleanup() {
      if (!std::getenv("CUSIM_NVRTC_KEEP")) remove_tree(dir);
    }
  } remove_later{dir};

  // The program as a file named after it (a name with a folder in it keeps its last part).
  std::string base = prog->name.substr(prog->name.rfind('/') + 1);
  if (base.empty() || base == "." || base == "..") base = "program.cu";
  std::string src_dir = dir + "/src";
  mkdir(src_dir.c_str(), 0700);
  std::string path = src_dir + "/" + base;
  bool written = write_file(path, prog->source);
  for (const auto &h : prog->headers) {
    std::string header_path = src_dir + "/" + h.first;
    for (size_t s = header_path.find('/', src_dir.size() + 1); s != std::string::npos;
         s = header_path.find('/', s + 1))
      mkdir(header_path.substr(0, s).c_str(), 0700);
    written = written && write_file(header_path, h.second);
  }
  if (!written) {
    prog->log = "nvrtc: error: cannot write the program into " + dir + "\n";
    return NVRTC_ERROR_BUILTIN_OPERATION_FAILURE;
  }

  std::string cxx = setting("CUSIM_CXX", built_in_cxx());
  std::string rewriter = setting("CUSIM_REWRITER", built_in_rewriter());
  std::string include = setting("CUSIM_INCLUDE_DIR", built_in_include());
  std::string log_path = dir + "/log";
  std::string preprocessed = dir + "/k.ii", rewritten = dir + "/k.cpp", object = dir + "/k.so";

  std::vector<std::string> step{cxx,
                                "-std=" + o.standard,
                                "-x",
                                "c++",
                                "-E",
                                "-DCUSIM_PREPROCESS",
                                "-D__CUDACC_RTC__",
                                "-I" + src_dir};
  // NVRTC compiles device code only: __CUDA_ARCH__ and __CUDA_ARCH_LIST__ are the architecture
  // asked for (compute_75 by default: 750); an 'a' or 'f' one adds __CUDA_ARCH_FAMILY_SPECIFIC__,
  // an 'a' one __CUDA_ARCH_SPECIFIC__ too, as NVRTC 13.0 defines them (asked on the CPU; test:
  // unit.sim.nvrtc.arch_macro).
  std::string arch = std::to_string(o.arch * 10);
  step.insert(step.end(), {"-D__CUDA_ARCH__=" + arch, "-D__CUDA_ARCH_LIST__=" + arch});
  if (o.suffix == 'a' || o.suffix == 'f') step.push_back("-D__CUDA_ARCH_FAMILY_SPECIFIC__=" + arch);
  if (o.suffix == 'a') step.push_back("-D__CUDA_ARCH_SPECIFIC__=" + arch);
  step.insert(step.end(), o.preprocessor.begin(), o.preprocessor.end());
  step.insert(step.end(), {"-isystem", include, "-isystem", include + "/unsupported", "-include",
                           "cusim_prelude.h", path, "-o", preprocessed});
  int rc = run(step, log_path);
  // No branch sites: the wrapping would move the columns the log puts its caret at.
  if (rc == 0) rc = run({rewriter, "--no-branch-sites", preprocessed, rewritten}, log_path);
  if (rc == 0 && !prog->name_expressions.empty()) {
    // Each name expression registers what it names (a template instance too) and keeps its
    // address where nvrtcGetLoweredName finds it.
    std::string extra = "\n";
    for (size_t i = 0; i < prog->name_expressions.size(); ++i) {
      const std::string &e = prog->name_expressions[i];
      extra += "static const ::cusim::kernel_registration cusim_nvrtc_registration_" +
               std::to_string(i) + "(" + e + ", \"" + e + "\");\n";
      extra += "extern \"C\" const void *const cusim_nvrtc_name_" + std::to_string(i) +
               " = (const void *)(" + e + ");\n";
    }
    std::ofstream out(rewritten, std::ios::app);
    out << extra;
  }
  std::string cache = module_cache_dir(), cached;
  bool from_cache = false;
  if (rc == 0) {
    // Compiled as the program's .cu files are (CUSIM_NVRTC_FLAGS: the memory checker's
    // instrumentation, or the build's sanitizer), then linked without them: the callbacks they
    // call are the program's own.
    std::vector<std::string> compile_step{cxx,
                                          "-std=" + o.standard,
                                          "-O2",
                                          "-fPIC",
                                          "-w",
                                          "-D__global__=",
                                          "-D__device__=",
                                          "-D__host__=",
                                          "-fno-diagnostics-show-caret",
                                          "-fdiagnostics-color=never"};
    std::istringstream flags(setting("CUSIM_NVRTC_FLAGS", built_in_flags()));
    for (std::string f; flags >> f;) compile_step.push_back(f);
    compile_step.insert(compile_step.end(), {"-c", rewritten, "-o", object + ".o"});
    std::string text;
    if (!cache.empty() && read_file(rewritten, &text)) {
      replace_all(&text, dir, kFixedDir);
      module_key key;
      key.add(text);
      for (size_t i = 0; i + 4 < compile_step.size(); ++i) key.add(compile_step[i]); // less -c, -o
      key.add("-shared -Wl,-Bsymbolic");
      add_compiler(&key, cxx);
      cached = cache + "/" + key.hex() + ".so";
      std::string entry;
      // (an entry is used only if it is a whole shared object: anything else is compiled again)
      if (write_file(rewritten, text) && read_file(cached, &entry) && entry.size() > 64 &&
          entry.compare(0, 4,
                        "\x7f"
                        "ELF") == 0 &&
          write_file(object, entry))
        from_cache = true;
    }
    if (!from_cache) rc = run(compile_step, log_path);
  }
  if (rc == 0 && !from_cache) {
    rc = run({cxx, "-shared", "-Wl,-Bsymbolic", object + ".o", "-o", object}, log_path);
    if (rc == 0 && !cached.empty()) { // kept for the next compile of the same input (best effort)
      make_folders(cache);
      copy_file_atomically(object, cached);
    }
  }
  std::string raw;
  read_file(log_path, &raw);
  replace_all(&raw, kFixedDir + std::string("/"), dir + "/"); // the compiler saw the fixed folder
  if (rc < 0) {
    prog->log = "nvrtc: error: cannot run the simulator's compiler (" + cxx + ", " + rewriter +
                "): set CUSIM_CXX or CUSIM_REWRITER\n";
    return NVRTC_ERROR_BUILTIN_OPERATION_FAILURE;
  }
  int errors = 0;
  prog->log = o.warnings + nvrtc_log(raw, path, prog->name, prog->source, &errors);
  if (rc != 0) {
    if (errors == 0) prog->log += raw; // a message in no known form: as it came
    prog->log += std::to_string(errors ? errors : 1) + (errors > 1 ? " errors" : " error") +
                 " detected in the compilation of \"" + prog->name + "\".\n";
    return NVRTC_ERROR_COMPILATION;
  }
  std::string bytes;
  if (!read_file(object, &bytes)) {
    prog->log = "nvrtc: error: the compiler wrote no module\n";
    return NVRTC_ERROR_BUILTIN_OPERATION_FAILURE;
  }
  if (!prog->name_expressions.empty()) {
    void *handle = dlopen(object.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      prog->log += std::string("nvrtc: error: ") + dlerror() + "\n";
      return NVRTC_ERROR_BUILTIN_OPERATION_FAILURE;
    }
    for (size_t i = 0; i < prog->name_expressions.size(); ++i) {
      auto slot =
          (const void *const *)dlsym(handle, ("cusim_nvrtc_name_" + std::to_string(i)).c_str());
      Dl_info info{};
      if (slot && dladdr(*slot, &info) && info.dli_sname)
        prog->lowered[prog->name_expressions[i]] = info.dli_sname;
    }
    cusim::rt::unregister_kernels_of(handle); // its constructors registered its kernels
    dlclose(handle);
  }
  // The target leads the program's line: the driver API loads the module only where a GPU of the
  // simulated device's architecture would (driver.cpp). A CUBIN says so in the same place.
  std::string target = std::to_string(o.arch) + (o.suffix ? std::string(1, o.suffix) : "");
  std::string rest =
      "program \"" + prog->name +
      "\": compiled for the CPU simulator; this is not PTX and no GPU can load it\n" +
      base64(bytes);
  std::string head =
      std::string(module_header) + " " + std::to_string(bytes.size()) + "\n// " + module_abi();
  prog->image = head + "\n// .target sm_" + target + ", " + rest;
  prog->cubin = head + "\n// cubin sm_" + target + ", " + rest;
  prog->real_arch = o.real_arch;
  prog->compiled = true;
  return NVRTC_SUCCESS;
}

} // namespace
} // namespace nvrtc
} // namespace cusim

using namespace cusim::nvrtc;

extern "C" {

const char *nvrtcGetErrorString(nvrtcResult result) {
  switch (result) {
  case NVRTC_SUCCESS:
    return "NVRTC_SUCCESS";
  case NVRTC_ERROR_OUT_OF_MEMORY:
    return "NVRTC_ERROR_OUT_OF_MEMORY";
  case NVRTC_ERROR_PROGRAM_CREATION_FAILURE:
    return "NVRTC_ERROR_PROGRAM_CREATION_FAILURE";
  case NVRTC_ERROR_INVALID_INPUT:
    return "NVRTC_ERROR_INVALID_INPUT";
  case NVRTC_ERROR_INVALID_PROGRAM:
    return "NVRTC_ERROR_INVALID_PROGRAM";
  case NVRTC_ERROR_INVALID_OPTION:
    return "NVRTC_ERROR_INVALID_OPTION";
  case NVRTC_ERROR_COMPILATION:
    return "NVRTC_ERROR_COMPILATION";
  case NVRTC_ERROR_BUILTIN_OPERATION_FAILURE:
    return "NVRTC_ERROR_BUILTIN_OPERATION_FAILURE";
  case NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION:
    return "NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION";
  case NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION:
    return "NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION";
  case NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID:
    return "NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID";
  case NVRTC_ERROR_INTERNAL_ERROR:
    return "NVRTC_ERROR_INTERNAL_ERROR";
  }
  return "NVRTC_ERROR unknown";
}

nvrtcResult nvrtcVersion(int *major, int *minor) {
  if (major == nullptr || minor == nullptr) return NVRTC_ERROR_INVALID_INPUT;
  *major = 13;
  *minor = 0;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcCreateProgram(nvrtcProgram *prog, const char *src, const char *name,
                               int numHeaders, const char *const *headers,
                               const char *const *includeNames) {
  cusim::rt::creation_site here(__builtin_return_address(0));
  if (prog == nullptr || src == nullptr || numHeaders < 0 ||
      (numHeaders > 0 && (headers == nullptr || includeNames == nullptr)))
    return NVRTC_ERROR_INVALID_INPUT;
  for (int i = 0; i < numHeaders; ++i) {
    if (headers[i] == nullptr || includeNames[i] == nullptr || !safe_include_name(includeNames[i]))
      return NVRTC_ERROR_INVALID_INPUT;
  }
  nvrtcProgram p = new _nvrtcProgram;
  p->source = src;
  p->name = name && *name ? name : "default_program";
  for (int i = 0; i < numHeaders; ++i) p->headers.emplace_back(includeNames[i], headers[i]);
  std::lock_guard<std::mutex> lock(programs_mu);
  programs().insert(p);
  cusim::rt::resource_created(cusim::rt::resource::nvrtc_program, p);
  *prog = p;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcDestroyProgram(nvrtcProgram *prog) {
  if (prog == nullptr) return NVRTC_ERROR_INVALID_INPUT;
  {
    std::lock_guard<std::mutex> lock(programs_mu);
    if (!programs().erase(*prog)) return NVRTC_ERROR_INVALID_PROGRAM;
  }
  cusim::rt::resource_released(*prog);
  delete *prog;
  *prog = nullptr;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int numOptions, const char *const *options) {
  if (!live(prog)) return NVRTC_ERROR_INVALID_PROGRAM;
  if (numOptions < 0 || (numOptions > 0 && options == nullptr)) return NVRTC_ERROR_INVALID_INPUT;
  return compile(prog, numOptions, options);
}

nvrtcResult nvrtcGetPTXSize(nvrtcProgram prog, size_t *ptxSizeRet) {
  if (!live(prog)) return NVRTC_ERROR_INVALID_PROGRAM;
  if (ptxSizeRet == nullptr) return NVRTC_ERROR_INVALID_INPUT;
  if (!prog->compiled) return NVRTC_ERROR_INVALID_PROGRAM;
  *ptxSizeRet = prog->image.size() + 1;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetPTX(nvrtcProgram prog, char *ptx) {
  if (!live(prog)) return NVRTC_ERROR_INVALID_PROGRAM;
  if (ptx == nullptr) return NVRTC_ERROR_INVALID_INPUT;
  if (!prog->compiled) return NVRTC_ERROR_INVALID_PROGRAM;
  std::memcpy(ptx, prog->image.c_str(), prog->image.size() + 1);
  return NVRTC_SUCCESS;
}

// As NVRTC: a CUBIN exists only for a real architecture (-arch=sm_NN); otherwise its size is 0.
nvrtcResult nvrtcGetCUBINSize(nvrtcProgram prog, size_t *cubinSizeRet) {
  if (!live(prog)) return NVRTC_ERROR_INVALID_PROGRAM;
  if (cubinSizeRet == nullptr) return NVRTC_ERROR_INVALID_INPUT;
  if (!prog->compiled) return NVRTC_ERROR_INVALID_PROGRAM;
  *cubinSizeRet = prog->real_arch ? prog->cubin.size() + 1 : 0;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char *cubin) {
  if (!live(prog)) return NVRTC_ERROR_INVALID_PROGRAM;
  if (cubin == nullptr) return NVRTC_ERROR_INVALID_INPUT;
  if (!prog->compiled || !prog->real_arch) return NVRTC_ERROR_INVALID_PROGRAM;
  std::memcpy(cubin, prog->cubin.c_str(), prog->cubin.size() + 1);
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram prog, size_t *logSizeRet) {
  if (!live(prog)) return NVRTC_ERROR_INVALID_PROGRAM;
  if (logSizeRet == nullptr) return NVRTC_ERROR_INVALID_INPUT;
  *logSizeRet = prog->log.size() + 1;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetProgramLog(nvrtcProgram prog, char *log) {
  if (!live(prog)) return NVRTC_ERROR_INVALID_PROGRAM;
  if (log == nullptr) return NVRTC_ERROR_INVALID_INPUT;
  std::memcpy(log, prog->log.c_str(), prog->log.size() + 1);
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcAddNameExpression(nvrtcProgram prog, const char *const name_expression) {
  if (!live(prog)) return NVRTC_ERROR_INVALID_PROGRAM;
  if (name_expression == nullptr || !*name_expression) return NVRTC_ERROR_INVALID_INPUT;
  if (prog->compiled) return NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION;
  if (std::strchr(name_expression, '"') || std::strchr(name_expression, '\n'))
    return NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID;
  prog->name_expressions.push_back(name_expression);
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetLoweredName(nvrtcProgram prog, const char *const name_expression,
                                const char **lowered_name) {
  if (!live(prog)) return NVRTC_ERROR_INVALID_PROGRAM;
  if (name_expression == nullptr || lowered_name == nullptr) return NVRTC_ERROR_INVALID_INPUT;
  if (!prog->compiled) return NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION;
  auto found = prog->lowered.find(name_expression);
  if (found == prog->lowered.end()) return NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID;
  *lowered_name = found->second.c_str();
  return NVRTC_SUCCESS;
}

} // extern "C"
