#!/usr/bin/env bash
# An overnight search: start it, resume it after a reboot, export in the morning.
#
#   scripts/overnight.sh start     # begin an 8-hour random search of the standard deck
#   scripts/overnight.sh resume    # after a reboot or a kill: continue where it stopped
#   scripts/overnight.sh export    # in the morning: CSV files of the results
#
# To resume by itself after a reboot, add to your crontab (crontab -e):
#   @reboot cd /path/to/results && /path/to/scripts/overnight.sh resume
#
# The search runs in the background (nohup), so this script's own status is not the search's.
# A search exits 0 when its run is done, 130/143/129 when Ctrl-C, SIGTERM or SIGHUP stopped it
# first (resume continues it), 2 on an error (docs/search.md, "Exit status").
set -euo pipefail
DB=${DB:-overnight.sqlite}
HOURS=${HOURS:-8}
LOG=${LOG:-overnight.log}
BIN=${BEGGAR_SEARCH:-beggar-search}

case "${1:-}" in
  start)
    nohup "$BIN" search random --hours "$HOURS" --db "$DB" --quiet >>"$LOG" 2>&1 &
    echo "searching in the background (pid $!); log: $LOG, results: $DB"
    ;;
  resume)
    nohup "$BIN" search resume --db "$DB" --quiet >>"$LOG" 2>&1 &
    echo "resumed in the background (pid $!)"
    ;;
  export)
    "$BIN" show --db "$DB"
    for what in longest loops cycles histogram; do
      "$BIN" export --db "$DB" --what "$what" --out "$what.csv"
    done
    ;;
  *)
    echo "usage: $0 start|resume|export" >&2
    exit 2
    ;;
esac
