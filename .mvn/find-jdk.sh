# Sourced by ./mvnw and ./polyrag: sets JAVA_HOME to a JDK >= 21, or explains what is missing and exits.
# Order: $JAVA_HOME, the `java` on PATH, then the usual install folders.
polyrag_java_major() {
  # The JDK's release file says it without starting a JVM (50 ms of every command); the JVM is asked otherwise.
  local v=""
  [ -f "$1/release" ] && v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" | head -n 1)
  if [ -z "$v" ]; then
    v=$("$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n 1)
  fi
  echo "$v"
}
polyrag_find_jdk() {
  local candidates=() c major
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v java >/dev/null 2>&1; then
    c=$(readlink -f "$(command -v java)" 2>/dev/null || command -v java)
    candidates+=("$(dirname "$(dirname "$c")")")
  fi
  for c in /usr/lib/jvm/* /usr/java/* /opt/java/* /opt/jdk* "${HOME:-/nonexistent}"/.sdkman/candidates/java/* \
           /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -d "$c" ] && candidates+=("$c")
  done
  for c in "${candidates[@]}"; do
    [ -x "$c/bin/java" ] || continue
    major=$(polyrag_java_major "$c")
    if [ -n "$major" ] && [ "$major" -ge 21 ] 2>/dev/null; then
      if [ "${1:-}" = "jdk" ] && [ ! -x "$c/bin/javac" ]; then continue; fi
      export JAVA_HOME="$c"
      return 0
    fi
  done
  echo "polyrag needs a Java ${1:-runtime} 21 or newer and found none (looked at JAVA_HOME, the java on PATH and /usr/lib/jvm)." >&2
  echo "Install one (e.g. 'apt install openjdk-21-jdk' or Temurin 21+ from your package manager) or set JAVA_HOME to it." >&2
  exit 1
}
