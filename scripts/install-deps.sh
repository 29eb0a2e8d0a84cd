#!/usr/bin/env bash
# Installs what Tally builds and tests with, when it is missing: OpenSSL's, SQLite's and libmicrohttpd's
# development files, pkg-config and the openssl tool (system packages), and Apple's app-store-server-library
# (Python; tests and benchmarks compare against it), and schemathesis (Python; `make test` checks the server against its
# OpenAPI description with it). The sqlite3 tool: tests read and damage sandbox databases with it.
# libpq's development files and the PostgreSQL server (initdb, pg_ctl, pgbench): `make test` runs the PostgreSQL
# store's tests against a throw-away cluster (scripts/with-postgres.sh). The dashboard: Chart.js (libjs-chart.js,
# served by `tally serve`), and for its browser test headless Chromium, chromium-driver and Selenium (Python; Linux
# only). With --bench, also the benchmark peers: wrk and nginx.
set -euo pipefail
if [[ "$(uname)" == "Darwin" ]]; then
    command -v brew >/dev/null || { echo "Homebrew is needed to install openssl@3 and pkg-config" >&2; exit 1; }
    brew list openssl@3 >/dev/null 2>&1 || brew install openssl@3
    brew list pkg-config >/dev/null 2>&1 || brew install pkg-config
    brew list libmicrohttpd >/dev/null 2>&1 || brew install libmicrohttpd
    brew list libpq >/dev/null 2>&1 || brew install libpq
    brew list postgresql@16 >/dev/null 2>&1 || brew install postgresql@16
    brew list pgbouncer >/dev/null 2>&1 || brew install pgbouncer
    if [[ "${1:-}" == "--bench" ]]; then
        brew list wrk >/dev/null 2>&1 || brew install wrk
        brew list nginx >/dev/null 2>&1 || brew install nginx
    fi
else
    missing=()
    wanted=(libssl-dev libsqlite3-dev libmicrohttpd-dev pkg-config openssl python3-pip sqlite3 libpq-dev postgresql pgbouncer
            libjs-chart.js chromium chromium-driver)
    [[ "${1:-}" == "--bench" ]] && wanted+=(wrk nginx-light)
    for pkg in "${wanted[@]}"; do
        dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
    done
    # python3-pip is only needed when no pip is on the PATH.
    if command -v pip3 >/dev/null || command -v pip >/dev/null; then
        missing=("${missing[@]/python3-pip}")
    fi
    missing=(${missing[@]+"${missing[@]}"})
    if ((${#missing[@]})); then
        sudo_cmd=""
        [[ $(id -u) -ne 0 ]] && sudo_cmd="sudo"
        $sudo_cmd apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
fi
if ! python3 -c "import appstoreserverlibrary" 2>/dev/null; then
    python3 -m pip install --quiet --disable-pip-version-check app-store-server-library \
        || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages app-store-server-library
fi
# schemathesis: `make test` checks a running `tally serve` against docs/openapi.yaml with it (scripts/schemathesis.sh).
# Version 4: scripts/schemathesis.sh uses its options.
if ! schemathesis --version 2>/dev/null | grep -q "version 4\."; then
    python3 -m pip install --quiet --disable-pip-version-check "schemathesis>=4.32,<5" \
        || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages "schemathesis>=4.32,<5"
fi
if [[ "$(uname)" != "Darwin" ]] && ! python3 -c "import selenium" 2>/dev/null; then
    python3 -m pip install --quiet --disable-pip-version-check selenium \
        || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages selenium
fi
