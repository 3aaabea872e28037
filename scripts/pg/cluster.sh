#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on a loopback port for the test suite's PostgreSQL mode and the
# benchmarks: `scripts/pg/cluster.sh start DIR PORT` (initdb as user postgres, trust auth on 127.0.0.1,
# durability off: test data only) prints the server URL; `scripts/pg/cluster.sh stop DIR`.
# Installs Debian's postgresql package when no server binaries are found.
set -euo pipefail
cmd=${1:?start|stop}; dir=${2:?cluster directory}; port=${3:-55432}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/pg_ctl" ]; then
  (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql) </dev/null >&2
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
fi
# PostgreSQL refuses to run as root: the cluster belongs to the postgres user when we are root.
as_owner() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }
case $cmd in
  start)
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then as_owner "$bin/initdb -D '$dir/data' -A trust -U postgres" >/dev/null; fi
    as_owner "$bin/pg_ctl -D '$dir/data' -l '$dir/log' -w -o \"-p $port -k '$dir' -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=500\" start" >&2
    echo "postgres://postgres@127.0.0.1:$port"
    ;;
  stop)
    as_owner "$bin/pg_ctl -D '$dir/data' -m fast stop" >&2 || true
    ;;
esac
