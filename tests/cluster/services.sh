#!/usr/bin/env bash
# Throwaway PostgreSQL and Redis on loopback for the store and cluster tests.
#   eval "$(tests/cluster/services.sh start DIR)"   prints the two exports the tests read
#   tests/cluster/services.sh stop DIR
# PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user.
# A start that fails says why on stderr and prints `false` for the eval, so that
# `eval "$(… start DIR)" || exit` stops instead of going on with nothing exported.
set -euo pipefail
action=${1:?start or stop}
dir=${2:?a scratch directory}
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
fail() { echo "services.sh: $*" >&2; echo false; exit 1; }

case $action in
start)
  trap 'fail "start failed (see the logs in $dir)"' ERR
  if [ -e "$dir/pg" ]; then
    fail "$dir already holds services (started before?): stop them with" \
      "'$0 stop $dir' and remove $dir, or give another directory"
  fi
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
  free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
  pg_port=${PG_PORT:-$(free_port)}
  redis_port=${REDIS_PORT:-$(free_port)}
  as_owner "$pg_bin/initdb" -D "$dir/pg" -U hearts --auth=trust >"$dir/initdb.log" 2>&1
  # fsync off: a test database need not survive a power cut, and the disk is shared
  as_owner "$pg_bin/pg_ctl" -D "$dir/pg" -l "$dir/pg.log" -w start -o \
    "-c listen_addresses=127.0.0.1 -p $pg_port -k $dir -c fsync=off -c max_connections=200" \
    >/dev/null
  redis-server --bind 127.0.0.1 --port "$redis_port" --save '' --appendonly no \
    --daemonize yes --dir "$dir" --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
  for _ in $(seq 50); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  redis-cli -p "$redis_port" ping >/dev/null 2>&1 || fail "Redis did not answer (see $dir/redis.log)"
  echo "export HEARTS_TEST_POSTGRES=postgresql://hearts@127.0.0.1:$pg_port/postgres"
  echo "export HEARTS_TEST_REDIS=redis://127.0.0.1:$redis_port/0"
  ;;
stop)
  [ -f "$dir/redis.pid" ] && kill "$(cat "$dir/redis.pid")" 2>/dev/null || true
  [ -d "$dir/pg" ] && as_owner "$pg_bin/pg_ctl" -D "$dir/pg" -m fast -w stop >/dev/null || true
  ;;
*) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
