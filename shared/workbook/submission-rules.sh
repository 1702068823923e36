#!/usr/bin/env bash
# submission-rules.sh SHIPPED SUBMITTED [NAME]
#
# What a graded exercise may contain: the shipped exercise, with only its task regions changed,
# and inside them only code that computes. Prints one line per violation, "NAME:LINE: reason"
# (NAME defaults to the submitted file's name), and exits 1 when there is any, 0 when there is
# none, 2 on bad usage. Used by `workbook grade` before anything of the submission is built.
#
#   1. The task markers are byte for byte the shipped exercise's marker lines, in their order: a
#      line that looks like a marker but is not exactly one (a CR, a `\` at its end, `/*` for
#      `//`, other text) is refused, naming the line. One reader finds the regions for every check
#      (regions_read, shared/cmake/skeleton-guard.sh); the grader uses it too.
#   2. Outside the task regions the file equals the shipped exercise (only a CR before a line's
#      end is ignored there). The grader compiles the REBUILT file: the shipped exercise with the
#      submission's region bodies put in, so nothing outside the regions reaches the compiler.
#   3. Inside a task region, a small C/C++ lexer rejects: preprocessor directives except #define,
#      #undef and #pragma omp (lessons 07 and 09 teach those); line continuations outside a
#      #define; trigraphs, digraphs, raw strings; attributes, asm, extern, namespace, operator;
#      a region that ends inside a comment or string, or closes a brace it did not open (a region
#      inside a function stays inside it); and names that end or escape the process, start or
#      signal processes, touch files or descriptors, read or change the environment, load code,
#      or reach the harness's or the simulator's internals (wb_*, cusim*).
#   4. The same names are looked for where macros cannot hide them: the rebuilt file goes through
#      the C preprocessor as the simulator build runs it (its #includes, its flags), and every
#      token on a region's line, macro expansions included (glibc's __CONCAT, a region's own
#      #define), is checked. Only the names the simulator's and harness's own macros make
#      (threadIdx is ::cusim_tls.thread_idx, CUDA_CHECK calls wb_cuda_check) are let through.
# The rules are stricter than a compiler on purpose: an honest answer never needs any of this.
set -u

# ---- The names a task region may not use -------------------------------------------------------
# Each line: a category (how the message says it), then the names.
WB_FORBIDDEN_NAMES='
ends or escapes the process:exit _exit _Exit quick_exit atexit at_quick_exit on_exit setcontext swapcontext makecontext getcontext abort terminate set_terminate longjmp setjmp _longjmp _setjmp siglongjmp sigsetjmp pthread_exit thrd_exit main
starts or signals processes:fork vfork clone clone3 daemon setsid setpgid setpgrp system popen pclose posix_spawn posix_spawnp execl execlp execle execv execvp execvpe execve fexecve kill killpg raise signal sigaction sigprocmask pthread_sigmask pthread_kill alarm ualarm setitimer timer_create ptrace prctl syscall pthread_create thrd_create pthread_atfork sigaltstack sigqueue tgkill tkill pidfd_open pidfd_send_signal execveat process_vm_readv process_vm_writev
touches files or descriptors:fopen fopen64 freopen freopen64 fdopen fclose fcloseall open open64 openat openat2 creat creat64 close dup dup2 dup3 read write pread pwrite pread64 pwrite64 readv writev preadv pwritev lseek lseek64 fcntl ioctl mmap mmap64 munmap mprotect mremap remove unlink unlinkat rename renameat renameat2 mkdir mkdirat rmdir chdir fchdir chroot chmod fchmod chown fchown lchown truncate ftruncate symlink symlinkat link linkat tmpfile tmpfile64 tmpnam mkstemp mkostemp mkdtemp opendir fdopendir readdir scandir stat lstat fstat access socket socketpair connect bind listen accept send recv sendto recvfrom sendmsg recvmsg pipe pipe2 mkfifo mknod sendfile splice tee dprintf vdprintf memfd_create inotify_init shm_open ofstream ifstream fstream wofstream wifstream wfstream basic_ofstream basic_ifstream basic_fstream basic_filebuf filebuf
reads or changes the environment:getenv secure_getenv setenv putenv unsetenv clearenv environ __environ
loads code:dlopen dlmopen dlsym dlvsym dlclose dl_iterate_phdr
'
# Prefixes: the harness's and the simulator's internals, compiler and C library internals.
WB_FORBIDDEN_PREFIXES="
wb_:the grader's harness
cusim:the simulator's internals
__builtin:compiler internals
__cxa:C++ runtime internals
__libc:C library internals
__sanitizer:sanitizer internals
__asan:sanitizer internals
_IO_:C library internals
"
# Keywords and spellings that change how code is compiled or linked rather than what it computes.
WB_FORBIDDEN_KEYWORDS='
asm:inline assembly
__asm:inline assembly
__asm__:inline assembly
__attribute__:an attribute
__attribute:an attribute
__declspec:an attribute
_Pragma:a pragma
__pragma:a pragma
extern:extern (linkage tricks)
namespace:a namespace
operator:an operator overload
'

# shellcheck source=../cmake/skeleton-guard.sh
source "$(dirname "${BASH_SOURCE[0]}")/../cmake/skeleton-guard.sh"

# The awk program shared by the lexer (mode=regions) and the expansion check (mode=expanded).
rules_awk_lib='
function load_rules(   lines, i, parts, names, j, n, k, kv) {
  n = split(shadowed_names, lines, " ")
  for (i = 1; i <= n; i++) shadowed[lines[i]] = 1
  n = split(forbidden_names, lines, "\n")
  for (i = 1; i <= n; i++) {
    if (lines[i] == "") continue
    split(lines[i], parts, ":")
    k = split(parts[2], names, " ")
    for (j = 1; j <= k; j++) banned[names[j]] = parts[1]
  }
  n = split(forbidden_prefixes, lines, "\n")
  for (i = 1; i <= n; i++) if (lines[i] != "") { k = index(lines[i], ":"); prefix[substr(lines[i], 1, k - 1)] = substr(lines[i], k + 1) }
  n = split(forbidden_keywords, lines, "\n")
  for (i = 1; i <= n; i++) if (lines[i] != "") { k = index(lines[i], ":"); keyword[substr(lines[i], 1, k - 1)] = substr(lines[i], k + 1) }
}
# Why an identifier is refused, or "".
function why(id,   p) {
  if (id in keyword) return "uses " keyword[id] " (" id ")"
  if (id in banned) return "uses " id ", which " banned[id]
  for (p in prefix) if (index(id, p) == 1) return "uses " id " (" prefix[p] ")"
  return ""
}
'

# Lexes the whole file, checks the task regions; prints "LINE<TAB>reason" lines.
lex_regions() { # REBUILT MAP
  awk -v forbidden_names="$WB_FORBIDDEN_NAMES" -v forbidden_prefixes="$WB_FORBIDDEN_PREFIXES" \
    -v forbidden_keywords="$WB_FORBIDDEN_KEYWORDS" -v shadowed_names="${WB_RULES_SHADOWED:-}" "$rules_awk_lib"'
    function report(msg) { if (inside && !(ln SUBSEP msg in seen)) { seen[ln, msg] = 1; print ln "\t" msg } }
    function flush(   w) {
      if (tok == "") return
      if (inside && tok !~ /^[0-9]/) {
        w = why(tok)
        # A name the shipped code declares (`float *signal` in lesson 15) is refused only when it is
        # called: the next character decides.
        if (w != "" && (tok in shadowed)) pending = w
        else if (w != "") report(w)
      }
      # The first name after "#" on a directive line is the directive, after "pragma" its kind.
      if (directive == "?") directive = tok
      else if (directive == "pragma" && pragma_kind == "") pragma_kind = tok
      last_tok = tok
      tok = ""
    }
    function end_directive() {
      if (directive == "") return
      if (inside && directive != "define" && directive != "undef" && !(directive == "pragma" && pragma_kind == "omp"))
        report("a preprocessor directive (#" (directive == "?" ? "" : directive) (directive == "pragma" ? " " pragma_kind : "") ")")
      directive = ""; pragma_kind = ""
    }
    BEGIN { load_rules(); state = "code"; depth = 0; inside = 0; directive = ""; line_start = 1 }
    # The map (regions_read ... map): which lines of the rebuilt file are markers, which are the
    # bodies and from which line of the submission each came. Nothing else says where regions are.
    FNR == 1 { file++ }
    file == 1 { if ($1 == "B") orig[$2] = $3; else if ($1 == "S") start[$2] = $3; else if ($1 == "E") stop[$2] = $3; next }
    {
      ln = FNR in orig ? orig[FNR] : FNR
      line = $0
      if ((FNR in start) && !continued) {
        inside = 1; region_depth = depth; region_paren = paren; task = start[FNR]
        line_start = 1
        next
      }
      if (FNR in stop) {
        if (inside) {
          if (continued) report("a line continuation runs into the end of task " task)
          else if (state == "block") report("task " task " ends inside a /* comment */")
          else if (state != "code") report("task " task " ends inside a string")
          else if (depth != region_depth) report("task " task " leaves a { block } open")
          else if (paren != region_paren) report("task " task " leaves a parenthesis open")
        }
        inside = 0; state = "code"; continued = 0; directive = ""; depth = region_depth; paren = region_paren
        next
      }
      # GCC joins a line that ends in \ then spaces or a CR to the next one, as a plain \.
      continues = line ~ /\\[ \t\f\v\r]*$/
      if (continues) sub(/\\[ \t\f\v\r]*$/, "", line)
      else sub(/\r$/, "", line)
      if (inside && line ~ /\?\?[=\/\047()!<>-]/) report("a trigraph (??)")
      n = length(line)
      for (i = 1; i <= n; i++) {
        c = substr(line, i, 1); c2 = substr(line, i, 2)
        if (state == "block") { if (c2 == "*/") { state = "code"; i++ } continue }
        if (state == "line") break
        if (state == "string" || state == "char") {
          if (c == "\\") { i++; continue }
          if ((state == "string" && c == "\"") || (state == "char" && c == "\047")) state = "code"
          continue
        }
        # code
        if (c ~ /[A-Za-z0-9_$]/ || (c == "\047" && tok ~ /^[0-9]/)) { tok = tok c; continue }
        if (c == "\"" && tok ~ /^(R|LR|uR|UR|u8R)$/) report("a raw string literal")
        flush()
        if (c == " " || c == "\t" || c == "\f" || c == "\v" || c == "\r") continue
        if (pending != "") { if (c == "(") report(pending); pending = "" }
        if (c2 == "//") { state = "line"; break }
        if (c2 == "/*") { state = "block"; i++; continue }
        if (line_start && (c == "#" || c2 == "%:")) {
          directive = "?"; line_start = 0
          if (c2 == "%:") { report("a digraph (%:)"); i++ }
          continue
        }
        line_start = 0
        if (c == "\"") { state = "string"; continue }
        if (c == "\047") { state = "char"; continue }
        if (c2 == "<%" || c2 == "%>" || c2 == "%:" || c2 == ":>" || (c2 == "<:" && substr(line, i, 3) != "<::"))
          report("a digraph (" c2 ")")
        if (c2 == "[[") report("an attribute ([[...]])")
        if (c == "{") depth++
        else if (c == "}") { depth--; if (inside && depth < region_depth) report("a } that closes a block the task region did not open") }
        else if (c == "(") paren++
        else if (c == ")") { paren--; if (inside && paren < region_paren) report("a ) that closes a parenthesis the task region did not open") }
      }
      if (continues) {
        if (inside && directive != "define") report("a line continuation (\\ at the end of a line)")
        continued = 1
        if (state == "line") state = "line" # a continued // comment goes on
        next
      }
      continued = 0
      flush()
      end_directive()
      if (state == "line") state = "code"
      if (state == "string" || state == "char") { report("a string or character literal that does not end on its line"); state = "code" }
      line_start = 1
    }
    ' FS='\t' "$2" FS=' ' "$1"
}

# The banned names that the simulator's and the harness's own macros expand to (threadIdx is
# ::cusim_tls.thread_idx, CUDA_CHECK calls wb_cuda_check): allowed where a macro makes them, never
# spelt (the lexer sees the spelling).
simulator_macro_names() { # ROOT: the cusim and wb_ names in the #define lines of those headers
  grep -r -h -E '^[ \t]*#[ \t]*define[ \t]' "$1/shared/sim/include" "$1/shared/harness" 2>/dev/null |
    grep -o -E '\b(cusim|wb_)[A-Za-z0-9_]*' | sort -u | tr '\n' ' '
}
# The banned names among the tokens the compiler gets: FILE run through the C preprocessor as the
# simulator build runs it (its #includes and flags, so a macro of a system header such as glibc's
# __CONCAT expands as it would), each line of the output put back on its source line by the
# preprocessor's line markers: a macro's expansion is on the line that uses it. Prints
# "LINE<TAB>NAME<TAB>reason" for every line of FILE. Run only on a file whose regions the lexer
# passed (no #include, no _Pragma in them), with a time limit.
compiled_names() { # FILE LESSON-DIR LANGUAGE(c or c++)
  local file=$1 dir=$2 language=$3 root=${WB_RULES_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
  local -a cpp
  if [ "$language" = c ]; then
    cpp=("${CC:-cc}" -std=c11 -fopenmp -x c)
  else
    cpp=("${CXX:-c++}" -std=c++17 -x c++ -DCUSIM_PREPROCESS -include "$root/shared/sim/include/cusim_prelude.h")
  fi
  cpp+=(-E -UNDEBUG -w -iquote "$dir" -I"$root/shared/sim/include" -I"$root/shared/sim/include/unsupported" -I"$dir"
    -I"$root/shared/harness" -isystem "$root/shared/sim/include")
  # At most 60 s and 4 GiB (a region's macros can multiply tokens); a preprocessor that fails or
  # is stopped gives a last line "FAILED", and the file is refused (never passed unread).
  { (ulimit -v 4194304 2>/dev/null; timeout 60 "${cpp[@]}" "$file" 2>/dev/null) || echo "# 0 \"FAILED\""; } | WB_MAIN=$file awk -v forbidden_names="$WB_FORBIDDEN_NAMES" \
    -v forbidden_prefixes="$WB_FORBIDDEN_PREFIXES" -v forbidden_keywords="$WB_FORBIDDEN_KEYWORDS" \
    -v shadowed_names="${WB_RULES_SHADOWED:-}" -v simulator_names="$(simulator_macro_names "$root")" "$rules_awk_lib"'
    BEGIN { load_rules(); main = "\"" ENVIRON["WB_MAIN"] "\""; n = split(simulator_names, l, " "); for (i = 1; i <= n; i++) sim[l[i]] = 1 }
    /^# 0 "FAILED"$/ { print "0\t-\tthe C preprocessor could not read the file (it failed, or ran past 60 s or 4 GiB)"; next }
    /^# [0-9]+ "/ { line = $2; ours = ($3 == main); next }
    ours && length($0) > 20000 { print line "\t-\ta line the preprocessor made " length($0) " characters long (a macro that multiplies tokens)"; line++; next }
    ours {
      text = $0
      if (text ~ /^[ \t]*#[ \t]*pragma/ && text !~ /^[ \t]*#[ \t]*pragma[ \t]+omp/) print line "\t_Pragma\ta pragma"
      gsub(/"([^"\\]|\\.)*"/, " ", text); gsub(/\047([^\047\\]|\\.)*\047/, " ", text)
      while (match(text, /[A-Za-z_$][A-Za-z0-9_$]*/)) {
        id = substr(text, RSTART, RLENGTH); text = substr(text, RSTART + RLENGTH)
        if (id in sim) continue # what the simulator macros (threadIdx, __syncthreads) become
        w = why(id)
        if (w == "" || ((id in shadowed) && text !~ /^[ \t]*\(/) || ((id, line) in seen)) continue
        seen[id, line] = 1
        print line "\t" id "\t" w
      }
    }
    { line++ }'
}
# The compiler's view of a rebuilt submission against the shipped exercise's: every banned name on
# a region's line is refused; on a shipped line, one the shipped line does not have itself (a
# region's #define changed what the shipped code after it means). "LINE<TAB>reason", LINE the
# submission's.
compiled_violations() { # SHIPPED REBUILT MAP LESSON-DIR LANGUAGE
  awk -F'\t' '
    FILENAME == ARGV[1] { if ($1 == "B") body[$2] = $3; else if ($1 == "O") { shipped[$2] = $3; sub_line[$2] = $4 } next }
    FILENAME == ARGV[2] { if ($1 == 0) print "0\tthe shipped exercise: " $3 " (the grader\047s problem)"; else has[$1, $2] = 1; next }
    $1 == 0 { print "0\t" $3; next }
    ($1 in body) { print body[$1] "\t" $3 " (as the compiler sees it)"; next }
    ($1 in shipped) && !((shipped[$1], $2) in has) {
      print sub_line[$1] "\t" $3 " (in shipped code, through a macro of a task region)"
    }' "$3" <(compiled_names "$1" "$4" "$5") <(compiled_names "$2" "$4" "$5")
}

rules_check() { # SHIPPED SUBMITTED NAME: prints violations, returns 1 when there is any
  local shipped=$1 submitted=$2 name=$3 errors line reason diff_line work lesson dir language=c++
  local root=${WB_RULES_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
  local -a violations=()
  skeleton "$shipped" 0 >/dev/null 2>&1 || {
    echo "$name: the shipped exercise $shipped has broken task markers"
    return 1
  }
  # 1. The task markers: byte for byte the shipped lines, in their order (regions_read, the one
  #    reader every check uses).
  errors=$(regions_read "$shipped" "$submitted" errors)
  if [ -n "$errors" ]; then
    while IFS=$'\t' read -r line reason; do echo "$name:$line: task markers: $reason"; done <<<"$errors"
    return 1
  fi
  # 2. Outside the task regions: the shipped exercise, line for line (a CR before a line's end
  #    is not counted: the compiler never sees these lines, the rebuilt file has the shipped ones).
  diff_line=$(awk -F'\t' 'NR == FNR { want[FNR] = substr($0, index($0, "\t") + 1); count = FNR; next }
      { got = substr($0, index($0, "\t") + 1); sub(/\r$/, "", got)
        if (FNR > count || got != want[FNR]) { print $1; found = 1; exit } last = $1 }
      END { if (!found && FNR < count) print (last == "" ? 1 : last + 1) }' \
    <(regions_read "$shipped" "$shipped" outside) <(regions_read "$shipped" "$submitted" outside))
  if [ -n "$diff_line" ]; then
    echo "$name:$diff_line: changed outside the task regions (only the code between '// ---- task N' and '// ---- end of task N' may change)"
    return 1
  fi
  # 3. What the compiler will get: the shipped file with the submission's region bodies (the
  #    grader compiles exactly this), and inside its regions the lexer's rules.
  work=$(mktemp -d) || return 2
  [ "${submitted##*.}" = c ] && language=c
  regions_read "$shipped" "$submitted" rebuild >"$work/${shipped##*/}"
  regions_read "$shipped" "$submitted" map >"$work/map"
  # Names the shipped code declares itself (`float *signal`): refused in a region only as a call.
  export WB_RULES_SHADOWED
  WB_RULES_SHADOWED=$(regions_read "$shipped" "$shipped" outside | cut -f2- |
    grep -o -E '([*&]|\b(int|float|double|unsigned|char|long|size_t|bool))[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*[,);=[]' |
    grep -o -E '[A-Za-z_][A-Za-z0-9_]*[ \t]*[,);=[]$' | grep -o -E '^[A-Za-z_][A-Za-z0-9_]*' | sort -u | tr '\n' ' ')
  while IFS=$'\t' read -r line reason; do
    [ "$line" = 0 ] && continue
    violations+=("$name:$line: $reason")
  done < <(lex_regions "$work/${shipped##*/}" "$work/map")
  # 4. The names as the compiler sees them, after every macro (the file's own, the system
  #    headers' such as __CONCAT): only for a file the lexer passed (no #include in a region).
  if [ ${#violations[@]} -eq 0 ]; then
    lesson=$(basename "$(dirname "$shipped")")
    dir=$root/lessons/$lesson
    [ -d "$dir" ] || dir=$(cd "$(dirname "$shipped")" && pwd)
    while IFS=$'\t' read -r line reason; do
      violations+=("$name:$line: $reason")
    done < <(WB_RULES_ROOT=$root compiled_violations "$shipped" "$work/${shipped##*/}" "$work/map" "$dir" "$language")
  fi
  rm -rf "$work"
  [ ${#violations[@]} -eq 0 ] && return 0
  printf '%s\n' "${violations[@]}" | sort -t: -k2,2n -s | uniq | head -n 20
  return 1
}

# Sourced (by the grader): the functions only.
(return 0 2>/dev/null) && return 0

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: submission-rules.sh SHIPPED SUBMITTED [NAME]" >&2
  exit 2
fi
for f in "$1" "$2"; do
  [ -f "$f" ] || { echo "submission-rules.sh: $f is not a file" >&2; exit 2; }
done
rules_check "$1" "$2" "${3:-${2##*/}}"
