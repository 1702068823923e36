#!/usr/bin/env bash
# nvcc-sim takes every option nvcc 13 takes (issue 27, item 3): usage:
# nvcc_sim_options_test.sh NVCC_SIM OPTIONS_TABLE PROGRAM_CU WORK_DIR [NVCC]
# (CUSIM_BUILD_DIR names the CMake build whose simulator nvcc-sim uses). Every option of nvcc's
# own table (shared/sim/nvcc-options.txt, from its --help) is honoured or ignored with a note,
# never refused without a reason; an option nvcc does not know is refused as nvcc refuses it
# (unless -forward-unknown-to-host-compiler sends it on); the options that change what is built
# (-M, -MD, -E, -odir, -lib, --optimize, -noeh, -pg, -v) do what nvcc's do. With NVCC (CI), the
# table is made again from nvcc's --help and must be the same, and nvcc must refuse what nvcc-sim
# refuses as unknown.
set -uo pipefail

nvcc_sim=$1 table=$2 program=$3 work=$4 nvcc=${5:-}
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
cp "$program" k.cu

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# A value each option that takes one accepts (the rest take "1").
sample_value() {
  case "$1" in
  --output-file | -o) echo out ;;
  --pre-include | -include | --dependency-output | -MF | --time | -time | \
    --fdevice-time-trace | -fdevice-time-trace) echo "$work/file.txt" ;;
  --library | -l) echo m ;;
  --define-macro | -D | --undefine-macro | -U | --dependency-target-name | -MT) echo NAME ;;
  --include-path | -I | --system-include | -isystem | --library-path | -L | \
    --output-directory | -odir | --keep-dir | -keep-dir | --libdevice-directory | -ldir | \
    --target-directory | -target-dir) echo . ;;
  --compiler-bindir | -ccbin) echo "${CXX:-c++}" ;;
  --archiver-binary | -arbin) echo ar ;;
  --cudart | -cudart) echo static ;;
  --cudadevrt | -cudadevrt) echo static ;;
  --optimize | -O) echo 2 ;;
  --x | -x) echo cu ;;
  --std | -std) echo c++17 ;;
  --machine | -m) echo 64 ;;
  --gpu-architecture | -arch) echo sm_90 ;;
  --gpu-code | -code) echo sm_90 ;;
  --generate-code | -gencode) echo arch=compute_90,code=sm_90 ;;
  --relocatable-device-code | -rdc | --ftz | -ftz | --prec-div | -prec-div | --prec-sqrt | \
    -prec-sqrt | --fmad | -fmad | --static-global-template-stub | -static-global-template-stub | \
    --device-entity-has-hidden-visibility | -device-entity-has-hidden-visibility | \
    --brief-diagnostics | -brief-diag | --device-stack-protector | -device-stack-protector) echo true ;;
  --default-stream | -default-stream) echo per-thread ;;
  --Werror | -Werror) echo all-warnings ;;
  --host-linker-script | -hls) echo use-lcs ;;
  --compress-mode | -compress-mode) echo default ;;
  --sanitize | -sanitize) echo memcheck ;;
  --dopt | -dopt) echo on ;;
  --optimization-info | -opt-info) echo inline ;;
  --Ofast-compile | -Ofc) echo max ;;
  *) echo 1 ;;
  esac
}
# Options nvcc-sim refuses, each with its reason (what the simulator does not make).
refused_reason() {
  case "$1" in
  --cubin | -cubin | --fatbin | -fatbin | --ptx | -ptx | --optix-ir | -optix-ir) echo 'asks for GPU code' ;;
  --ltoir | -ltoir) echo 'asks for GPU code' ;;
  --shared | -shared) echo 'builds no shared libraries' ;;
  *) return 1 ;;
  esac
}
: >"$work/file.txt"
checked=0
while read -r long short takes; do
  [[ -z "$long" || "$long" == \#* ]] && continue
  for name in "$long" "$short"; do
    [[ "$name" == - ]] && continue
    case "$name" in
    # They answer and stop (as nvcc's do), or need their own files: tried below or not at all.
    --help | -h | --version | -V | --options-file | -optf | --list-gpu-code | -code-ls | \
      --list-gpu-arch | -arch-ls | --run | -run | --qpp-config | -qpp-config) continue ;;
    esac
    args=("$name")
    # (-MF takes a file, though nvcc's --help shows no value for it)
    [[ $takes == 1 || $long == --dependency-output ]] && args+=("$(sample_value "$long")")
    [[ "$name" == -code || "$name" == --gpu-code ]] && args+=(-arch=compute_90)
    out=$("$nvcc_sim" --dryrun "${args[@]}" k.cu 2>&1)
    status=$?
    checked=$((checked + 1))
    if reason=$(refused_reason "$name"); then
      [[ $status -ne 0 ]] && grep -q -F "$reason" <<<"$out" ||
        fail "${args[*]}: expected a refusal saying it $reason; got ($status): $out"
    elif [[ $status -ne 0 ]]; then
      fail "${args[*]}: nvcc takes it, nvcc-sim refused it: $out"
    elif grep -q 'note: ignored' <<<"$out" && ! grep 'note: ignored' <<<"$out" | grep -q -F -- "$name"; then
      fail "${args[*]}: a note says something is ignored without naming it: $out"
    fi
  done
done <"$table"
[[ $checked -gt 200 ]] && echo "ok: $checked names of nvcc's options taken (honoured, or ignored with a note)" ||
  fail "only $checked of nvcc's option names tried (is $table whole?)"

# Options nvcc does not know: refused as nvcc refuses them, or sent on when asked.
failures_before=$failures unknown_checked=0
for option in -Wall -Wextra -fopenmp -fPIC -pthread -march=native -mavx2 --frobnicate; do
  out=$("$nvcc_sim" --dryrun "$option" k.cu 2>&1) && fail "$option: nvcc refuses it, nvcc-sim took it"
  grep -q -F "unknown option $option: nvcc 13 refuses it too" <<<"$out" ||
    fail "$option: the refusal does not say why: $out"
  if [[ -n "$nvcc" ]] && "$nvcc" --dryrun "$option" -c k.cu -o nvcc.o >/dev/null 2>&1; then
    fail "$option: nvcc takes it, so nvcc-sim must not refuse it"
  fi
  unknown_checked=$((unknown_checked + 1))
done
[[ $failures -eq $failures_before ]] && echo "ok: $unknown_checked options nvcc does not know are refused with why"
# A value given to an option of nvcc's that takes none: refused, as nvcc refuses it.
for option in --keep=1 -err-no=1; do
  out=$("$nvcc_sim" --dryrun "$option" k.cu 2>&1) && fail "$option: nvcc refuses it, nvcc-sim took it"
  grep -q -F "takes no value; nvcc refuses $option too" <<<"$out" || fail "$option: the refusal does not say why: $out"
  if [[ -n "$nvcc" ]] && "$nvcc" --dryrun "$option" -c k.cu -o nvcc.o >/dev/null 2>&1; then
    fail "$option: nvcc takes it, so nvcc-sim must not refuse it"
  fi
done
if "$nvcc_sim" -forward-unknown-to-host-compiler -Wall -c k.cu -o forwarded.o 2>forward.log &&
  [[ -s forwarded.o ]]; then
  echo "ok: -forward-unknown-to-host-compiler sends -Wall on"
else
  fail "-forward-unknown-to-host-compiler -Wall: $(cat forward.log)"
fi

# What the options that change the build do, as nvcc's do.
deps=$("$nvcc_sim" -M k.cu 2>&1)
grep -q '^k\.o: k\.cu' <<<"$deps" && echo "ok: -M: k.o: k.cu ..." || fail "-M printed: $deps"
if "$nvcc_sim" -MD -c k.cu -o sub.o 2>md.log && grep -q '^sub\.o: k\.cu' sub.d && [[ -s sub.o ]]; then
  echo "ok: -MD -c -o sub.o writes sub.d (target sub.o) and the object"
else
  fail "-MD: $(cat md.log; cat sub.d 2>/dev/null)"
fi
if "$nvcc_sim" -MMD -MT custom -MF custom.d -c k.cu -o mmd.o 2>mmd.log && grep -q '^custom: k\.cu' custom.d; then
  echo "ok: -MMD -MT -MF"
else
  fail "-MMD -MT -MF: $(cat mmd.log; cat custom.d 2>/dev/null)"
fi
if "$nvcc_sim" -E k.cu -o pre.ii 2>e.log && grep -q '__global__ void hello\|void hello' pre.ii && [[ ! -e a.out ]]; then
  echo "ok: -E -o pre.ii: the preprocessed text, nothing built"
else
  fail "-E: $(cat e.log)"
fi
mkdir -p objdir
if "$nvcc_sim" -c k.cu -odir objdir 2>odir.log && [[ -s objdir/k.o ]]; then
  echo "ok: -odir objdir -c: objdir/k.o"
else
  fail "-odir: $(cat odir.log)"
fi
if "$nvcc_sim" -lib k.cu -o libk.a 2>lib.log && ar t libk.a | grep -q '\.o$' &&
  "$nvcc_sim" -o fromlib libk.a 2>link.log && ./fromlib >/dev/null; then
  echo "ok: -lib makes an archive a program links and runs"
else
  fail "-lib: $(cat lib.log link.log 2>/dev/null)"
fi
for pair in "--optimize 2:-O2" "-noeh:-fno-exceptions" "-pg:-pg" "-ftemplate-depth 64:-ftemplate-depth=64"; do
  read -r -a option <<<"${pair%%:*}"
  if "$nvcc_sim" -v "${option[@]}" -c k.cu -o verbose.o 2>verbose.log && grep -q -- " ${pair#*:} " verbose.log; then
    echo "ok: ${pair%%:*} gives the host compiler ${pair#*:} (-v shows the commands)"
  else
    fail "${pair%%:*}: $(tail -n 3 verbose.log)"
  fi
done

# The table is nvcc's own (made again from the installed nvcc's --help).
if [[ -n "$nvcc" ]]; then
  "$nvcc" --help | grep -E '^--' | sed -E 's/  +/\t/g' | awk -F'\t' '
    { n = split($1, w, " "); short = $2; gsub(/[()]/, "", short)
      if (short == "" || short == w[1]) short = "-"
      print w[1], short, (n > 1) ? 1 : 0 }' >from-nvcc.txt
  if diff <(grep -v '^#' "$table") from-nvcc.txt >table.diff; then
    echo "ok: the table is nvcc's --help ($(wc -l <from-nvcc.txt) options)"
  else
    fail "$table differs from this nvcc's --help (make it again as this test does): $(head -n 5 table.diff)"
  fi
else
  echo "note: no nvcc here: the table was not compared with nvcc's --help"
fi

if [[ $failures -eq 0 ]]; then
  echo "PASS nvcc_sim_options"
else
  echo "FAIL nvcc_sim_options: $failures"
  exit 1
fi
