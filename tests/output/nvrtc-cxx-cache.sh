#!/usr/bin/env bash
# nvrtc-cxx-cache.sh: the host compiler for the simulator's NVRTC (CUSIM_CXX) in check-width.sh,
# with a cache of its two costly steps, for that script's run only.
#
# Lesson 16 and its mutants compile their kernels at run time; on the simulator each compile is
# the host compiler's (shared/sim/runtime/nvrtc.cpp: preprocess, rewrite, compile -O2, link), a
# second a module, and check-width.sh runs every one of those programs twice: the same modules,
# compiled again and again (most of the test's time). The compile step ("... -c IN -o OUT") is
# kept by a hash of its flags and of IN with its temporary folder's name taken out, the link step
# ("-shared ... IN.o -o OUT") by a hash of its flags and of IN: the same flags and input again get
# the same file. The preprocess step, and a step that fails, run as always.
# Environment: WB_NVRTC_CACHE, the cache folder (made by check-width.sh, removed after);
# WB_NVRTC_CXX, the compiler.
set -u
real=${WB_NVRTC_CXX:-c++}
n=$#
args=("$@")
cached() { # KEY OUT COMMAND...: OUT from the cache, or made by COMMAND and kept
  local key=$1 out=$2
  shift 2
  if [ -f "$WB_NVRTC_CACHE/$key" ] && cp "$WB_NVRTC_CACHE/$key" "$out"; then exit 0; fi
  "$@" || exit
  cp "$out" "$WB_NVRTC_CACHE/$key.$$" && mv -f "$WB_NVRTC_CACHE/$key.$$" "$WB_NVRTC_CACHE/$key"
  exit 0
}
if [ -n "${WB_NVRTC_CACHE:-}" ] && [ "$n" -ge 4 ] && [ "${args[n - 2]}" = -o ]; then
  in=${args[n - 3]} out=${args[n - 1]}
  if [ "${args[n - 4]}" = -c ]; then
    key=$({ printf '%s\n' "${args[@]:0:n-4}" "--"; sed "s|${in%/*}|@DIR@|g" "$in"; } | sha256sum)
    cached "${key%% *}.o" "$out" "$real" "$@"
  elif [ "${args[0]}" = -shared ] && [ -f "$in" ]; then
    key=$({ printf '%s\n' "${args[@]:0:n-3}" "--"; cat "$in"; } | sha256sum)
    cached "${key%% *}.so" "$out" "$real" "$@"
  elif [[ " ${args[*]} " == *" -E "* ]]; then
    # The preprocess step: kept by a hash of its flags and of every file in the program's temporary
    # folder (its source and headers), with the folder's name taken out, and put back on the way out.
    dir=${out%/*}
    key=$({
      printf '%s\n' "${args[@]:0:n-2}" | sed "s|$dir|@DIR@|g"
      echo "--"
      (cd "$dir" && find . -type f ! -name "${out##*/}" ! -name log -print0 | sort -z | xargs -0 -r sha256sum)
    } | sha256sum)
    key="${key%% *}.ii"
    if [ -f "$WB_NVRTC_CACHE/$key" ] && sed "s|@DIR@|$dir|g" "$WB_NVRTC_CACHE/$key" >"$out"; then exit 0; fi
    "$real" "$@" || exit
    sed "s|$dir|@DIR@|g" "$out" >"$WB_NVRTC_CACHE/$key.$$" && mv -f "$WB_NVRTC_CACHE/$key.$$" "$WB_NVRTC_CACHE/$key"
    exit 0
  fi
fi
exec "$real" "$@"
