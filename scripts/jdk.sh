# Sourced by ./jpto and ./test: exports JAVA_HOME pointing at a JDK >= 25.
# Order: JAVA_HOME if it is >= 25, else the newest JDK >= 25 under /usr/lib/jvm.

jpto_jdk_major() {
    # Prints the feature version of the JDK at $1, or nothing if $1 is not a JDK.
    local home=$1 version=""
    [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] || return 0
    if [ -f "$home/release" ]; then
        version=$(sed -n 's/^JAVA_VERSION="\([^"]*\)".*/\1/p' "$home/release")
    fi
    if [ -z "$version" ]; then
        version=$("$home/bin/java" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -n 1)
    fi
    version=${version#1.}
    echo "${version%%[.+-]*}"
}

jpto_find_jdk() {
    local major best="" best_major=0 candidate
    if [ -n "${JAVA_HOME:-}" ]; then
        major=$(jpto_jdk_major "$JAVA_HOME")
        if [ -n "$major" ] && [ "$major" -ge 25 ]; then
            return 0
        fi
    fi
    for candidate in /usr/lib/jvm/*; do
        [ -L "$candidate" ] && continue
        major=$(jpto_jdk_major "$candidate")
        if [ -n "$major" ] && [ "$major" -ge 25 ] && [ "$major" -gt "$best_major" ]; then
            best=$candidate
            best_major=$major
        fi
    done
    if [ -z "$best" ]; then
        echo "jpto: needs a JDK 25 or newer, and found none (JAVA_HOME=${JAVA_HOME:-unset}; nothing >= 25 in /usr/lib/jvm)." >&2
        echo "jpto: install one (for example Temurin 25: apt install temurin-25-jdk) or set JAVA_HOME to it." >&2
        return 1
    fi
    export JAVA_HOME=$best
}

# Maven's bundled Guava warns about sun.misc.Unsafe on JDK 24+; the warning is not ours to fix.
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
