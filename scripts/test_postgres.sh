#!/usr/bin/env bash
# Run the test suite against PostgreSQL, end to end (`make test` runs it with -m concurrency):
#   install Debian's postgresql if missing, start the cluster, create a throwaway role and
#   database, run pytest with DATABASE_URL pointing at it, drop them, and stop the cluster
#   again if this script started it.
#
#   scripts/test_postgres.sh                 # pytest -m "not browser"
#   scripts/test_postgres.sh tests/test_x.py # extra arguments go to pytest instead
#   scripts/test_postgres.sh -m concurrency  # the live-server race tests (what make test runs)
#
# Needs root (or sudo) for apt-get and to act as the postgres user.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
as_postgres() { $SUDO -u postgres "$@"; }
if [ "$(id -u)" -eq 0 ]; then as_postgres() { runuser -u postgres -- "$@"; }; fi

if ! command -v pg_lsclusters >/dev/null || [ -z "$(pg_lsclusters -h 2>/dev/null)" ]; then
    echo "test_postgres: installing Debian's postgresql" >&2
    $SUDO apt-get update
    $SUDO apt-get install -y postgresql
fi

read -r version cluster port status _ < <(pg_lsclusters -h | head -n 1)
started=""
if [ "$status" != "online" ]; then
    echo "test_postgres: starting cluster $version/$cluster on port $port" >&2
    $SUDO pg_ctlcluster "$version" "$cluster" start
    started=1
fi

suffix="$(date +%s)_$$"
role="chexuan_test_$suffix"
db="chexuan_test_$suffix"
password="$(head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')"

cleanup() {
    # pytest-django creates and drops test_<db> (test_<db>_gwN under pytest-xdist)
    # itself; drop ours (and any leftover).
    for test_db in "test_$db" "test_${db}_gw0" "test_${db}_gw1" "test_${db}_gw2" "test_${db}_gw3"; do
        as_postgres psql -q -p "$port" -c "DROP DATABASE IF EXISTS \"$test_db\"" >/dev/null 2>&1 || true
    done
    as_postgres psql -q -p "$port" -c "DROP DATABASE IF EXISTS \"$db\"" >/dev/null 2>&1 || true
    as_postgres psql -q -p "$port" -c "DROP ROLE IF EXISTS \"$role\"" >/dev/null 2>&1 || true
    if [ -n "$started" ]; then
        echo "test_postgres: stopping cluster $version/$cluster" >&2
        $SUDO pg_ctlcluster "$version" "$cluster" stop || true
    fi
}
trap cleanup EXIT

as_postgres psql -q -p "$port" -v ON_ERROR_STOP=1 \
    -c "CREATE ROLE \"$role\" LOGIN CREATEDB PASSWORD '$password'" \
    -c "CREATE DATABASE \"$db\" OWNER \"$role\""

export DATABASE_URL="postgres://$role:$password@127.0.0.1:$port/$db"
echo "test_postgres: DATABASE_URL=postgres://$role:***@127.0.0.1:$port/$db" >&2
if [ "$#" -eq 0 ]; then
    set -- -m "not browser"
fi
.venv/bin/python scripts/compilemessages.py >/dev/null
.venv/bin/pytest "$@"
