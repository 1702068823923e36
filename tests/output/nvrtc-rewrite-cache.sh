#!/usr/bin/env bash
# nvrtc-rewrite-cache.sh: the rewriter of the simulator's NVRTC (CUSIM_REWRITER) in check-width.sh,
# with a cache, for that script's run only (issue 26).
#
# Each run-time compile of lesson 16 and its mutants rewrites its preprocessed text ("cusim-rewrite
# [OPTIONS] IN.ii OUT.cpp", shared/sim/runtime/nvrtc.cpp), and check-width.sh runs every one of
# those programs twice: the same texts, rewritten again and again (a quarter of lesson 16's CPU
# there). The rewriter reads IN alone (and the options name no file), so its output, its messages
# and its status are a function of the options and of IN: kept by a hash of the options and of IN
# with its temporary folder's name taken out (put back on the way out), as nvrtc-cxx-cache.sh keeps
# the compiles. A rewrite that fails runs as always, and is not kept.
# Environment: WB_NVRTC_CACHE, the cache folder (made by check-width.sh, removed after);
# WB_NVRTC_REWRITER, the rewriter.
set -u
real=${WB_NVRTC_REWRITER:?the real rewriter}
n=$#
args=("$@")
if [ -n "${WB_NVRTC_CACHE:-}" ] && [ "$n" -ge 2 ] && [ -f "${args[n - 2]}" ]; then
  in=${args[n - 2]} out=${args[n - 1]}
  dir=${in%/*}
  # (only the shape nvrtc.cpp uses: IN and OUT in one temporary folder, options without a path)
  if [ "${out%/*}" = "$dir" ] && [[ $dir == /* ]] && [[ " ${args[*]:0:n-2} " != *"/"* ]]; then
    key=$({ printf '%s\n' "${args[@]:0:n-2}" "--"; sed "s|$dir|@DIR@|g" "$in"; } | sha256sum)
    entry=$WB_NVRTC_CACHE/${key%% *}.rewrite
    if [ -f "$entry.cpp" ] && [ -f "$entry.log" ] && sed "s|@DIR@|$dir|g" "$entry.cpp" >"$out"; then
      sed "s|@DIR@|$dir|g" "$entry.log"
      exit 0
    fi
    "$real" "$@" >"$out.log.$$" 2>&1
    status=$?
    cat "$out.log.$$"
    if [ $status -eq 0 ]; then
      sed "s|$dir|@DIR@|g" "$out.log.$$" >"$entry.log.$$" && sed "s|$dir|@DIR@|g" "$out" >"$entry.cpp.$$" &&
        mv -f "$entry.log.$$" "$entry.log" && mv -f "$entry.cpp.$$" "$entry.cpp"
    fi
    rm -f "$out.log.$$" "$entry.log.$$" "$entry.cpp.$$"
    exit $status
  fi
fi
exec "$real" "$@"
