# shellcheck shell=bash
# lock.sh: one workbook command at a time per build folder (sourced by workbook, not run).
#
# Two commands at once (a check in one terminal, a hint or another check in a second, an editor
# plug-in) would race on the progress file and on the build. wb_lock takes an exclusive flock(1)
# on $BUILD/workbook.lock; a second command waits for it, and says so after a moment. The lock is
# tied to the open file, so it is released when the command ends, even when it is killed (a
# child that outlives it would keep it: `run` lets go before it starts the program). The holder's
# pid is kept next to the lock (only for the waiting message). Where flock(1) is absent
# (util-linux), commands run unguarded, and say so.

WB_LOCK_FD=''
wb_lock() {
  [ -z "$WB_LOCK_FD" ] || return 0 # held already
  mkdir -p "$BUILD" || fatal "cannot create the build folder $BUILD"
  if ! command -v flock >/dev/null; then
    echo "$WB_NAME: flock not found (util-linux): commands run at once may lose progress" >&2
    WB_LOCK_FD=none
    return 0
  fi
  exec {WB_LOCK_FD}>>"$BUILD/workbook.lock" || fatal "cannot open the lock $BUILD/workbook.lock"
  if ! flock -w 1 "$WB_LOCK_FD"; then
    local holder
    holder=$(cat "$BUILD/workbook.lock.pid" 2>/dev/null)
    echo "waiting for another workbook command (pid ${holder:-unknown}) ..." >&2
    flock "$WB_LOCK_FD" || fatal "could not lock $BUILD/workbook.lock"
  fi
  local tmp
  tmp=$(mktemp "$BUILD/workbook.lock.pid.XXXXXX") && echo $$ >"$tmp" && mv -f "$tmp" "$BUILD/workbook.lock.pid"
}
wb_unlock() { # let another command in (before a long run, or while watch waits for a save)
  [ -n "$WB_LOCK_FD" ] || return 0
  if [ "$WB_LOCK_FD" != none ]; then
    flock -u "$WB_LOCK_FD"
    exec {WB_LOCK_FD}>&-
  fi
  WB_LOCK_FD=''
}
