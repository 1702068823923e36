#!/usr/bin/env bash
# unit.workbook.nvcc-thin: nvcc-check.sh's thin_tables (a smaller front-end pass). Between each
# preprocessing step and its front end, the lines of numbers in the initializer of a toolkit array
# that is neither const nor constexpr, with every bound written out, become blank lines; nothing
# else changes (the learner's own tables, const tables, unbounded ones, the line count), and a
# rejection that names a thinned file is asked of nvcc as it stands. A stand-in toolkit (nvcc with
# a --dryrun plan, gcc -E, cudafe++, cicc, ptxas) keeps what each front end was given, so this
# runs without the CUDA toolkit (no build). The real toolkit's curand_precalc.h is thinned in
# lesson 12's verdict and in unit.nocompile.curand_in_host_code.nvcc (against nvcc's own run).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

toolkit=$SCRATCH/cuda
mkdir -p "$toolkit/bin" "$toolkit/nvvm/bin" "$toolkit/include" "$SCRATCH/lesson"
# nvcc: with --dryrun, the plan of a `-cuda` compile as nvcc 13 prints it (its steps' shapes, in
# the -keep-dir folder); without, it compiles the file itself (counted: the plain run).
cat >"$toolkit/bin/nvcc" <<'NVCC'
#!/usr/bin/env bash
here=$(cd "${0%/*}" && pwd)
[ "${1:-}" = --version ] && { echo "stand-in nvcc, release 13.0"; exit 0; }
keep=. src='' dryrun=0
while [ $# -gt 0 ]; do
  case $1 in -keep-dir) keep=$2; shift ;; --dryrun) dryrun=1 ;; *.cu) src=$1 ;; esac
  shift
done
if [ $dryrun = 0 ]; then
  echo plain >>"$here/../calls"
  "$here/gcc" -E "$src" -o "$here/../plain.ii" && "$here/cudafe++" "$here/../plain.ii"
  exit
fi
cat <<PLAN
#\$ TOP=$here/..
#\$ CICC_PATH=$here/../nvvm/bin
#\$ PATH=$here/../nvvm/bin:$here:$PATH
#\$ gcc -D__CUDA_ARCH_LIST__=900 -E -x c++ "$src" -o "$keep/x.cpp4.ii"
#\$ cudafe++ --c++17 --module_id_file_name "$keep/x.module_id" "$keep/x.cpp4.ii"
#\$ gcc -D__CUDA_ARCH__=900 -D__CUDA_ARCH_LIST__=900 -E -x c++ "$src" -o "$keep/x.cpp1.ii"
#\$ "\$CICC_PATH/cicc" --c++17 --module_id_file_name "$keep/x.module_id" "$keep/x.cpp1.ii" -o "$keep/x.ptx"
#\$ ptxas -arch=sm_90 -m64 "$keep/x.ptx" -o "$keep/x.cubin"
PLAN
NVCC
# gcc -E: the source, after a toolkit header (under TOP) with its tables, and a table of the
# learner's own in the source's region (line markers as gcc writes them).
cat >"$toolkit/bin/gcc" <<'GCC'
#!/usr/bin/env bash
here=$(cd "${0%/*}" && pwd)
out='' src=''
while [ $# -gt 0 ]; do
  case $1 in -o) out=$2; shift ;; *.cu | *.ii) src=$1 ;; esac
  shift
done
header="$here/../include/tables.h"
{
  echo "# 0 \"$src\""
  echo "# 1 \"$header\" 1"
  cat "$header"
  echo "# 2 \"$src\" 2"
  cat "$src"
} >"$out"
GCC
# cudafe++ and cicc keep what they were given; each rejects a file with REJECT in it (at the
# source's line) or with BREAK in the toolkit's table (at the header's line), as a front end would.
for front in "$toolkit/bin/cudafe++" "$toolkit/nvvm/bin/cicc"; do
  cat >"$front" <<'FRONT'
#!/usr/bin/env bash
for a in "$@"; do [[ $a == *.ii ]] && input=$a; done
cp "$input" "$input.seen"
if grep -q '^BREAK' "$input"; then echo "${TOP:-.}/include/tables.h(3): error: BREAK is undefined" >&2; exit 1; fi
if grep -q REJECT "$input"; then echo "exercise.cu(2): error: identifier \"REJECT\" is undefined" >&2; exit 1; fi
for a in "$@"; do [ "$a" = -o ] && next=1 && continue; [ -n "${next:-}" ] && : >"$a" && next=''; done
exit 0
FRONT
  chmod +x "$front"
done
printf '#!/usr/bin/env bash\nexit 0\n' >"$toolkit/bin/ptxas"
chmod +x "$toolkit/bin/nvcc" "$toolkit/bin/gcc" "$toolkit/bin/ptxas"

cat >"$toolkit/include/tables.h" <<'H'
static __attribute__((device)) unsigned int thinned_table[2][3] = {
{
11UL, 12UL, 13UL,
},
{
0x15, 16,
17u
},
};
const unsigned int const_table[2] = {
21, 22,
};
static unsigned int unbounded_table[] = {
31, 32,
};
static unsigned int unclosed_table[2] = {
H
src=$SCRATCH/lesson/exercise.cu
cat >"$src" <<'CU'
unsigned char learner_table[2] = {
41, 42,
};
CU
lacks_numbers() { ! grep -q -E "^(11UL|0x15|17u)" "$1"; } # FILE: none of the thinned table's lines
# What thin_tables makes of the first table (the header's lines 1-9; lines 3-11 of the text).
awk 'NR <= 9 { print (NR == 3 || NR == 6 || NR == 7) ? "" : $0 }' "$toolkit/include/tables.h" >"$SCRATCH/thinned-table.txt"
calls() { cat "$toolkit/calls" 2>/dev/null | wc -l; }
nvcc_check() { # OUT [SCRATCH-FOLDER]: nvcc-check.sh on the exercise; returns its status
  TMPDIR=$SCRATCH/tmp bash "$SOURCE_ROOT/shared/cmake/nvcc-check.sh" "$toolkit/bin/nvcc" "$src" >"$1" 2>&1
}
mkdir -p "$SCRATCH/tmp"
# The front ends' inputs, kept by the stand-ins in nvcc-check.sh's scratch folder: kept here by
# keeping the scratch folder (its trap removes it) through a copy of the script that does not.
sed 's/^trap .*EXIT$/: kept/' "$SOURCE_ROOT/shared/cmake/nvcc-check.sh" >"$SCRATCH/nvcc-check.sh"
seen() { # SIDE(host|device): the text that side's front end was given, in the last scratch folder
  local dir
  dir=$(ls -dt "$SCRATCH"/tmp/nvcc-check.* | head -n 1)
  case $1 in host) cat "$dir/host/x.cpp4.ii.seen" ;; device) cat "$dir/device/x.cpp1.ii.seen" ;; esac
}
nvcc_check_kept() { # OUT
  TMPDIR=$SCRATCH/tmp bash "$SCRATCH/nvcc-check.sh" "$toolkit/bin/nvcc" "$src" >"$1" 2>&1
}

nvcc_check_kept "$SCRATCH/1.txt"
check "accepted (exit 0)" status_is $? 0
check "the verdict says so" contains "$SCRATCH/1.txt" "nvcc accepts exercise.cu"
check "nvcc's steps ran side by side (no plain run)" status_is "$(calls)" 0
for side in host device; do
  seen $side >"$SCRATCH/$side.ii"
  "$toolkit/bin/gcc" -E "$src" -o "$SCRATCH/unthinned.ii"
  check "$side: as many lines as the preprocessor wrote" \
    status_is "$(wc -l <"$SCRATCH/$side.ii")" "$(wc -l <"$SCRATCH/unthinned.ii")"
  check "$side: the toolkit's non-const bounded table has no numbers left" \
    lacks_numbers "$SCRATCH/$side.ii"
  check "$side: its declaration and braces are kept, its lines of numbers blank" \
    cmp -s <(sed -n 3,11p "$SCRATCH/$side.ii") "$SCRATCH/thinned-table.txt"
  check "$side: a const table is kept" contains "$SCRATCH/$side.ii" "21, 22,"
  check "$side: a table without a bound is kept" contains "$SCRATCH/$side.ii" "31, 32,"
  check "$side: the learner's own table is kept" contains "$SCRATCH/$side.ii" "41, 42,"
  # (the header ends inside unclosed_table's initializer: the file changes, the thinning ends)
done

# WB_NVCC_THIN=0: the front ends get the text as it is.
WB_NVCC_THIN=0 nvcc_check_kept "$SCRATCH/2.txt"
check "WB_NVCC_THIN=0: accepted" status_is $? 0
seen host >"$SCRATCH/host0.ii"
check "WB_NVCC_THIN=0: the table's numbers are there" contains "$SCRATCH/host0.ii" "11UL, 12UL, 13UL,"

# A rejection in the learner's file: the split run's verdict, nvcc not asked again.
printf 'unsigned char learner_table[2] = {\nREJECT\n};\n' >"$src"
nvcc_check "$SCRATCH/3.txt"
check "a learner's error: rejected (exit 1)" status_is $? 1
check "a learner's error: the error line" contains "$SCRATCH/3.txt" "exercise.cu:2: error:"
check "a learner's error: nvcc not run again as it stands" status_is "$(calls)" 0

# A rejection that names a thinned header: asked of nvcc as it stands (the plain run), whose
# verdict is the one given.
printf 'BREAK\n' >>"$toolkit/include/tables.h"
printf 'int ok;\n' >"$src"
nvcc_check "$SCRATCH/4.txt"
check "an error in a thinned header: rejected (exit 1)" status_is $? 1
check "an error in a thinned header: nvcc run as it stands" status_is "$(calls)" 1
check "an error in a thinned header: its error line" contains "$SCRATCH/4.txt" "tables.h:3: error: BREAK"
finish
