#!/usr/bin/env bash
# Installs PostgreSQL 15 with pgvector (built from Debian's source package: bookworm has no binary one) and starts a
# throw-away cluster on 127.0.0.1 for the tests. Prints the JDBC URL on its last line.
# Usage: .ci/postgres.sh [PORT]   (default 55432; the cluster lives in ${TMPDIR:-/tmp}/polyrag-pg)
set -euo pipefail
port="${1:-55432}"
bin=/usr/lib/postgresql/15/bin
if [ ! -x "$bin/pg_ctl" ] || { [ ! -f /usr/share/postgresql/15/extension/vector.control ] && [ ! -f /usr/include/postgresql/15/server/postgres.h ]; }; then
  apt-get update -q >&2 && apt-get install -y -q postgresql-15 postgresql-server-dev-15 build-essential dpkg-dev >&2
fi
if [ ! -f /usr/share/postgresql/15/extension/vector.control ]; then
  work="$(mktemp -d)"
  # The machine's own Debian mirror, with the next release's source packages (pgvector 0.8 is in trixie).
  mirror="$(sed -n 's/^URIs: *\(http[^ ]*debian\)\/*$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)"
  [ -n "$mirror" ] || mirror="$(sed -n 's/^deb \(http[^ ]*debian\)\/* .*/\1/p' /etc/apt/sources.list 2>/dev/null | head -n 1)"
  mkdir -p "$work/lists/partial" "$work/cache/archives/partial"
  echo "deb-src [trusted=yes] $mirror trixie main" > "$work/sources.list"
  opts=(-o Dir::Etc::SourceList="$work/sources.list" -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$work/lists" -o Dir::Cache="$work/cache" -o APT::Sandbox::User=root)
  apt-get "${opts[@]}" update -q >&2
  (cd "$work" && apt-get "${opts[@]}" source --download-only -q pgvector >&2 && dpkg-source -x --no-check pgvector_*.dsc src >&2)
  make -C "$work/src" PG_CONFIG="$bin/pg_config" >&2
  make -C "$work/src" PG_CONFIG="$bin/pg_config" install >&2
  rm -rf "$work"
fi
data="${TMPDIR:-/tmp}/polyrag-pg"
if ! runuser -u postgres -- "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
  rm -rf "$data" && mkdir -p "$data" && chown postgres "$data"
  runuser -u postgres -- "$bin/initdb" -A trust -U postgres -D "$data" >/dev/null
  runuser -u postgres -- "$bin/pg_ctl" -D "$data" -l "$data/log" -w start \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $data -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" >&2
fi
"$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'polyrag_test'" | grep -q 1 \
  || "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -qc "CREATE DATABASE polyrag_test" >&2
"$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -d polyrag_test -qc "CREATE EXTENSION IF NOT EXISTS vector" >&2
echo "jdbc:postgresql://127.0.0.1:$port/polyrag_test?user=postgres"
