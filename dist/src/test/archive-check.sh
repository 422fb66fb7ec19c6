#!/usr/bin/env bash
# The release archive, unpacked into an empty folder and run as a user with only a JDK would run it: no Maven, no
# Node, no checkout, no network, an empty environment but JAVA_HOME and PATH. Each step says what it checks.
set -euo pipefail
tarball="$1"
version="$2"
work="$(mktemp -d "${TMPDIR:-/tmp}/polyrag-archive.XXXXXX")"
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
step() { echo "archive-check: $*"; }
fail() { echo "archive-check: FAILED: $*" >&2; [ -f "$work/serve.log" ] && tail -n 40 "$work/serve.log" >&2; exit 1; }

step "unpacking $(basename "$tarball") ($(du -h "$tarball" | cut -f1))"
tar -xzf "$tarball" -C "$work"
home="$work/polyrag-$version"
for f in bin/polyrag bin/find-jdk.sh LICENSE NOTICE README.md VERSION; do
  [ -s "$home/$f" ] || fail "$f missing from the archive"
done
[ -x "$home/bin/polyrag" ] || fail "bin/polyrag is not executable"
jars=$(ls "$home/lib" | wc -l)
own=$(ls "$home/lib" | grep -c '^polyrag-' || true)
listed=$(grep -cE '^[a-zA-Z0-9_.-]+:[a-zA-Z0-9_.-]+:[^ ]+ — ' "$home/NOTICE" || true)
step "lib/ holds $jars jars ($own of them polyrag's own); NOTICE lists $listed libraries with their licences"
[ "$listed" -eq $((jars - own)) ] || fail "NOTICE lists $listed libraries for $((jars - own)) bundled jars"

jdk="${JAVA_HOME:?JAVA_HOME must name the JDK to run the archive with}"
run() {
  env -i PATH=/usr/bin:/bin HOME="$work/home" JAVA_HOME="$jdk" POLYRAG_DATA_DIR="$work/data" "$home/bin/polyrag" "$@"
}
v="$(run --version)"
step "--version: $v"
echo "$v" | grep -q "polyrag $version" || fail "--version does not name $version"
echo "$v" | grep -Eq "commit [0-9a-f]{7,}|commit unknown" || fail "--version does not name the commit"

mkdir -p "$work/docs"
printf '# Lighthouses\n\nThe Pharos of Alexandria was built in the third century BC on the island of Pharos.\n' \
  > "$work/docs/pharos.md"
printf 'A pulsar is a rotating neutron star that emits beams of radiation.\n' > "$work/docs/stars.txt"
run ingest "$work/docs" > "$work/ingest.log" 2>&1 || fail "ingest: $(tail -n 5 "$work/ingest.log")"
step "ingest: $(grep -m1 'documents:' "$work/ingest.log" || tail -n 1 "$work/ingest.log")"
run search --top-k 1 rotating neutron star > "$work/search.log" 2>&1 || fail "search: $(cat "$work/search.log")"
grep -q "pulsar" "$work/search.log" || fail "search did not find the pulsar: $(cat "$work/search.log")"
step "search: $(grep -m1 -i pulsar "$work/search.log")"
# The class-data archive is named by the JDK's version too: one made by the JDK before an update in place is refused
# by the JVM, silently, and every command then started at half speed.
jdkv="$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"$/\1/p' "$jdk/release" 2>/dev/null | tr -c 'A-Za-z0-9.+_\n-' '_')"
if [ -n "$jdkv" ]; then
  ls "$work/home/.cache/polyrag/cds/" | grep -qF -- "-$jdkv.jsa" \
    || fail "no class-data archive named for JDK $jdkv: $(ls "$work/home/.cache/polyrag/cds/" 2>&1)"
  step "class-data archive: $(ls "$work/home/.cache/polyrag/cds/")"
fi
# A JDK without a release file (the java found on PATH, JAVA_HOME=/usr): the launcher still runs.
mkdir -p "$work/bare-jdk"
ln -s "$jdk/bin" "$work/bare-jdk/bin"
bare="$(env -i PATH=/usr/bin:/bin HOME="$work/home" JAVA_HOME="$work/bare-jdk" POLYRAG_DATA_DIR="$work/data" \
    "$home/bin/polyrag" --version 2>&1)" || fail "--version with a JDK without a release file: $bare"
step "a JDK without a release file: $bare"

( exec env -i PATH=/usr/bin:/bin HOME="$work/home" JAVA_HOME="$jdk" POLYRAG_DATA_DIR="$work/data" \
    "$home/bin/polyrag" serve --port 0 > "$work/serve.log" 2>&1 ) &
server=$!
for _ in $(seq 1 240); do
  [ -s "$work/data/served-url" ] && break
  kill -0 "$server" 2>/dev/null || fail "serve exited"
  sleep 0.5
done
[ -s "$work/data/served-url" ] || fail "serve wrote no address within 120 s"
url="$(head -n 1 "$work/data/served-url")"
step "serve: listening at $url"
run smoke --url "$url" > "$work/smoke.log" 2>&1 || fail "smoke: $(cat "$work/smoke.log")"
sed 's/^/archive-check: smoke: /' "$work/smoke.log"
step "the archive runs with only a JDK"
