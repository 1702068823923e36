#!/usr/bin/env bash
# nvrtc-cxx-cache.sh: the host compiler for the simulator's NVRTC (CUSIM_CXX) in check-width.sh,
# with a cache of the one costly step, for that script's run only.
#
# Lesson 16 and its mutants compile their kernels at run time; on the simulator each compile is
# the host compiler's (shared/sim/runtime/nvrtc.cpp: preprocess, rewrite, compile -O2, link), a
# second a module, and check-width.sh runs every one of those programs twice: the same modules,
# compiled again and again (most of the test's time). The compile step ("... -c IN -o OUT") is
# kept by a hash of its flags and of IN with its temporary folder's name taken out; the same
# flags and text again get the same object. The other steps, and a compile that fails, run as
# always. Environment: WB_NVRTC_CACHE, the cache folder (made by check-width.sh, removed after).
set -u
real=${WB_NVRTC_CXX:-c++}
n=$#
args=("$@")
if [ -n "${WB_NVRTC_CACHE:-}" ] && [ "$n" -ge 4 ] && [ "${args[n - 4]}" = -c ] && [ "${args[n - 2]}" = -o ]; then
  in=${args[n - 3]} out=${args[n - 1]}
  dir=${in%/*}
  key=$({ printf '%s\n' "${args[@]:0:n-4}" "--"; sed "s|$dir|@DIR@|g" "$in"; } | sha256sum)
  key=${key%% *}
  if [ -f "$WB_NVRTC_CACHE/$key.o" ] && cp "$WB_NVRTC_CACHE/$key.o" "$out"; then exit 0; fi
  "$real" "$@" || exit
  cp "$out" "$WB_NVRTC_CACHE/$key.o.$$" && mv -f "$WB_NVRTC_CACHE/$key.o.$$" "$WB_NVRTC_CACHE/$key.o"
  exit 0
fi
exec "$real" "$@"
