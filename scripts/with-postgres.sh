#!/usr/bin/env bash
# Runs a command beside a throw-away PostgreSQL cluster: initdb + pg_ctl as an unprivileged user (PostgreSQL
# refuses root; as root the cluster runs as `nobody`), listening only on a Unix socket in a temporary
# directory, stopped and deleted when the command ends (also on failure or Ctrl-C).
#
# The command sees:
#   TALLY_TEST_POSTGRES_URL   a libpq URL of the cluster's `postgres` database (trust auth, superuser)
#   TALLY_TEST_POSTGRES_CTL   a script that runs pg_ctl on the cluster as its owner (`… restart -m fast`)
#   TALLY_TEST_POSTGRES_BIN   the directory with pg_ctl, pgbench, psql
# With --replica, also a streaming replica of it (`pg_basebackup -R`, hot standby, its own socket directory):
#   TALLY_TEST_POSTGRES_REPLICA_URL   the replica's `postgres` database (read only; the same databases as the primary)
#   TALLY_TEST_POSTGRES_REPLICA_CTL   pg_ctl on the replica as its owner
# Usage: scripts/with-postgres.sh [--replica] swift test
#        scripts/with-postgres.sh --start   (starts a cluster, prints the three variables as NAME=value lines and
#        exits; the caller stops it with `$TALLY_TEST_POSTGRES_CTL stop` and removes its directory: the tests that
#        stop and restart PostgreSQL use a cluster of their own this way; `--start --replica` prints the replica's
#        two as well, and the caller stops both)
set -euo pipefail
keep=false
replica=false
while [[ "${1:-}" == "--start" || "${1:-}" == "--replica" ]]; do
    [[ "$1" == "--start" ]] && keep=true
    [[ "$1" == "--replica" ]] && replica=true
    shift
done
bin="${TALLY_POSTGRES_BIN:-}"
if [[ -z "$bin" ]]; then
    if command -v pg_config >/dev/null && [[ -x "$(pg_config --bindir)/initdb" ]]; then
        bin="$(pg_config --bindir)"
    else
        bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
    fi
fi
if [[ -z "$bin" || ! -x "$bin/initdb" ]]; then
    echo "with-postgres: no PostgreSQL server binaries (initdb) found; install postgresql (scripts/install-deps.sh)" >&2
    exit 1
fi
root="$(mktemp -d /tmp/tally-pg.XXXXXX)"
chmod 755 "$root"
owner="$(id -un)"
run_as=()
if [[ $(id -u) -eq 0 ]]; then
    owner=nobody
    chown "$owner" "$root"
    run_as=(runuser -u "$owner" --)
fi
"${run_as[@]}" "$bin/initdb" -D "$root/data" -U "$owner" -A trust -E UTF8 --no-locale >"$root/initdb.log" 2>&1 || {
    cat "$root/initdb.log" >&2; exit 1; }
cat >"$root/pgctl" <<SCRIPT
#!/usr/bin/env bash
exec ${run_as[*]} "$bin/pg_ctl" -D "$root/data" -l "$root/server.log" -w "\$@"
SCRIPT
chmod 755 "$root/pgctl"
stop() {
    [[ -x "$root/replica-ctl" ]] && { "$root/replica-ctl" stop -m immediate >/dev/null 2>&1 || true; }
    "$root/pgctl" stop -m immediate >/dev/null 2>&1 || true
    rm -rf "$root"
}
$keep || trap stop EXIT
# In the cluster's own configuration, so a later `pgctl start` (a test stopping and starting it) keeps them.
cat >>"$root/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$root'
max_connections = 200
fsync = on
CONF
"$root/pgctl" start >/dev/null
export TALLY_TEST_POSTGRES_URL="postgresql:///postgres?host=$root&user=$owner"
export TALLY_TEST_POSTGRES_CTL="$root/pgctl"
export TALLY_TEST_POSTGRES_BIN="$bin"
if $replica; then
    # A copy of the running primary that streams its WAL (initdb's trust rules allow local replication), with a
    # socket directory of its own; `-R` writes primary_conninfo and standby.signal.
    mkdir -p "$root/replica-socket"
    [[ ${#run_as[@]} -gt 0 ]] && chown "$owner" "$root/replica-socket"
    "${run_as[@]}" "$bin/pg_basebackup" -D "$root/replica" -R -X stream -h "$root" -U "$owner" >"$root/basebackup.log" 2>&1 || {
        cat "$root/basebackup.log" >&2; exit 1; }
    cat >>"$root/replica/postgresql.conf" <<CONF
unix_socket_directories = '$root/replica-socket'
hot_standby = on
hot_standby_feedback = on
CONF
    cat >"$root/replica-ctl" <<SCRIPT
#!/usr/bin/env bash
exec ${run_as[*]} "$bin/pg_ctl" -D "$root/replica" -l "$root/replica.log" -w "\$@"
SCRIPT
    chmod 755 "$root/replica-ctl"
    "$root/replica-ctl" start >/dev/null
    export TALLY_TEST_POSTGRES_REPLICA_URL="postgresql:///postgres?host=$root/replica-socket&user=$owner"
    export TALLY_TEST_POSTGRES_REPLICA_CTL="$root/replica-ctl"
fi
if $keep; then
    echo "TALLY_TEST_POSTGRES_URL=$TALLY_TEST_POSTGRES_URL"
    echo "TALLY_TEST_POSTGRES_CTL=$TALLY_TEST_POSTGRES_CTL"
    echo "TALLY_TEST_POSTGRES_BIN=$TALLY_TEST_POSTGRES_BIN"
    if $replica; then
        echo "TALLY_TEST_POSTGRES_REPLICA_URL=$TALLY_TEST_POSTGRES_REPLICA_URL"
        echo "TALLY_TEST_POSTGRES_REPLICA_CTL=$TALLY_TEST_POSTGRES_REPLICA_CTL"
    fi
    exit 0
fi
echo "with-postgres: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on $root (TALLY_TEST_POSTGRES_URL)" \
    "$($replica && echo "and a streaming replica (TALLY_TEST_POSTGRES_REPLICA_URL)")"
"$@"
