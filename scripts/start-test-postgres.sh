#!/usr/bin/env bash
# Start a throwaway PostgreSQL cluster for the web tests and print its URL (the only line on
# stdout), e.g.:
#   url=$(bash scripts/start-test-postgres.sh)
#   OUDLER_TEST_DATABASE_URL="$url" .venv/bin/pytest tests/test_web_*.py
#   bash scripts/start-test-postgres.sh --stop
# Installs nothing: it needs Debian's postgresql package (apt-get install postgresql). As root it
# runs the server as the postgres user (runuser); otherwise as the current user. The cluster lives
# in a temporary directory on a loopback port, with trust authentication and fsync off: for tests
# only. --stop stops it and removes the directory. OUDLER_PG_PORT picks the port (default: a free
# one). OUDLER_PG_STATE names the file that remembers the cluster (default: one per TMPDIR), so
# that two runs on one machine can each have their own.
set -euo pipefail

state="${OUDLER_PG_STATE:-${TMPDIR:-/tmp}/oudler-test-postgres.state}"

as_db_user() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

find_bindir() {
    if [ -n "${PG_BINDIR:-}" ]; then
        echo "$PG_BINDIR"
        return
    fi
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -z "$dir" ] || [ ! -x "$dir/initdb" ]; then
        echo "start-test-postgres: no PostgreSQL found in /usr/lib/postgresql (apt-get install postgresql)" >&2
        exit 1
    fi
    echo "$dir"
}

if [ "${1:-}" = "--stop" ]; then
    if [ ! -f "$state" ]; then
        echo "start-test-postgres: no test cluster is running" >&2
        exit 0
    fi
    dir=$(cat "$state")
    bindir=$(find_bindir)
    as_db_user "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
    rm -rf -- "$dir" "$state"
    echo "start-test-postgres: stopped and removed $dir" >&2
    exit 0
fi

if [ -f "$state" ] && [ -d "$(cat "$state")" ]; then
    echo "start-test-postgres: a test cluster is already running in $(cat "$state"); --stop it first" >&2
    exit 1
fi

bindir=$(find_bindir)
port="${OUDLER_PG_PORT:-}"
if [ -z "$port" ]; then
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/oudler-pg.XXXXXX")
chmod 700 "$dir"
if [ "$(id -u)" = 0 ]; then
    chown postgres: "$dir"
fi
echo "$dir" > "$state"

fail() {
    echo "start-test-postgres: $1; server log:" >&2
    cat "$dir/log" >&2 2>/dev/null || true
    exit 1
}

as_db_user "$bindir/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 \
    --no-sync >/dev/null 2>&1 || fail "initdb failed"
as_db_user "$bindir/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c full_page_writes=off -c synchronous_commit=off -c max_connections=200" \
    start >/dev/null || fail "the server did not start"
as_db_user "$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres oudler_test \
    || fail "createdb failed"

echo "start-test-postgres: running in $dir on 127.0.0.1:$port" >&2
echo "postgresql+psycopg://postgres@127.0.0.1:${port}/oudler_test"
