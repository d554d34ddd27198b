#!/usr/bin/env bash
# Production start: compile translations, collectstatic, migrate, then gunicorn on
# 127.0.0.1 (put a TLS-terminating reverse proxy in front).  `make serve-prod` runs this.
#
# Environment (see README "Production"):
#   SECRET_KEY        required (the settings refuse to start without it when DEBUG=0)
#   DEBUG             forced to 0 here
#   PORT              default 8000          BIND  default 127.0.0.1:$PORT
#   WEB_CONCURRENCY   gunicorn workers, default 2 × CPU cores + 1
#   GUNICORN_THREADS  threads per worker, default 1
#   GUNICORN_TIMEOUT  seconds, default 30
#   TASK_WORKERS      task workers started beside gunicorn (manage.py worker: reviews,
#                     prices, expert moves), default 1; 0 when workers run elsewhere
#                     (any machine reaching the database: README "Task queue")
#   DATABASE_CREATE   1 to let migrate create a missing SQLite file (first deployment only)
#   DATABASE_URL, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS, SECURE_* … as in the settings.
# Extra arguments are passed to gunicorn (e.g. --access-logfile -).
set -euo pipefail

cd "$(dirname "$0")/.."
PY="${PYTHON:-.venv/bin/python}"
GUNICORN="${GUNICORN:-.venv/bin/gunicorn}"
if [ ! -x "$PY" ] || [ ! -x "$GUNICORN" ]; then
    echo "serve_prod: $PY or $GUNICORN missing: run 'make run' once (or set PYTHON/GUNICORN)" >&2
    exit 1
fi

export DEBUG=0
export DJANGO_SETTINGS_MODULE=chexuan_site.settings
if [ -z "${SECRET_KEY:-}" ]; then
    echo "serve_prod: SECRET_KEY is not set (generate one: $PY -c 'import secrets; print(secrets.token_urlsafe(50))')" >&2
    exit 1
fi

cores="$(nproc 2>/dev/null || echo 1)"
workers="${WEB_CONCURRENCY:-$((2 * cores + 1))}"
bind="${BIND:-127.0.0.1:${PORT:-8000}}"

# Several servers may start from one checkout at once (the concurrency tests run side by
# side): one at a time writes the compiled catalogs and the static files, and each step
# writes only what changed (collectstatic rewrites every hashed file, pulling them from
# under a server already booting: scripts/collectstatic.py skips it when nothing changed).
exec 9>.serve_prod.lock
flock 9
"$PY" scripts/compilemessages.py
"$PY" scripts/collectstatic.py
flock -u 9
exec 9>&-
"$PY" manage.py migrate --noinput --verbosity 1
unset DATABASE_CREATE  # the server itself never creates an empty SQLite database
"$PY" manage.py clearsessions

# The task workers run beside gunicorn, in its process group: stopping the group (systemd,
# Ctrl-C, scripts/prodserver.py) stops them too.
for _ in $(seq 1 "${TASK_WORKERS:-1}"); do
    "$PY" manage.py worker --verbosity 0 &
done

echo "serve_prod: gunicorn on http://$bind with $workers worker(s), ${TASK_WORKERS:-1} task worker(s)" >&2
exec "$GUNICORN" chexuan_site.wsgi:application \
    --bind "$bind" \
    --workers "$workers" \
    --threads "${GUNICORN_THREADS:-1}" \
    --timeout "${GUNICORN_TIMEOUT:-30}" \
    --graceful-timeout 10 \
    --forwarded-allow-ips "${FORWARDED_ALLOW_IPS:-127.0.0.1}" \
    --no-control-socket \
    "$@"
