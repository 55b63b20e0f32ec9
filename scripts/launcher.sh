# Sourced by ./jpto: what to rebuild, and the JDK AOT start-up cache kept in step with the built jars.
# Every function takes the checkout root as $1 so a test can run it on a scratch tree.

# The modules the CLI is built from, in the root pom's order (jpto-bench is not part of the CLI).
jpto_cli_modules() {
    sed -n 's:.*<module>\(.*\)</module>.*:\1:p' "$1/pom.xml" | grep -vx 'jpto-bench'
}

# Prints the modules whose pom.xml or main sources are newer than the stamp $2; every module when the stamp or
# the root pom is newer (a changed parent pom changes every module's build).
jpto_changed_modules() {
    local root=$1 stamp=$2 module
    if [ ! -f "$stamp" ] || [ "$root/pom.xml" -nt "$stamp" ]; then
        jpto_cli_modules "$root"
        return 0
    fi
    for module in $(jpto_cli_modules "$root"); do
        if [ -n "$(find "$root/$module/pom.xml" "$root/$module/src/main" -type f -newer "$stamp" -print -quit \
            2>/dev/null)" ]; then
            echo "$module"
        fi
    done
}

# Builds jpto-cli and the modules it needs into their target/ dirs, output to the log $2. Unchanged modules cost
# only Maven's up-to-date checks: the compiler recompiles a module only when one of its sources changed.
jpto_build() {
    (cd "$1" && mvn -B -q -Dmaven.test.skip=true -pl jpto-cli -am package) >"$2" 2>&1
}

# The error lines of a failed build's log $1 up to Maven's help footer, without colour codes, each once (Maven
# repeats the compiler's); the whole log when it has none.
jpto_build_errors() {
    local errors
    errors=$(sed 's/\x1b\[[0-9;]*m//g' "$1" | sed -n '/-> \[Help 1\]/q; /\[ERROR\]/p' | awk '!seen[$0]++' \
        | head -n 30)
    if [ -n "$errors" ]; then
        echo "$errors"
    else
        cat "$1"
    fi
}

# The modules a failed build names in its log $1, comma-separated.
jpto_failed_modules() {
    sed -n 's/.*Failed to execute goal .* on project \([A-Za-z0-9_.-]*\).*/\1/p' "$1" | sort -u | paste -sd, -
}

# A fingerprint of what an AOT cache depends on: the JDK, the jar and every jar on the module path (size and
# modification time, which the JVM checks too) and the extra JVM options.
jpto_aot_key() {
    local jar=$1 lib=$2
    {
        echo "$JAVA_HOME"
        cat "$JAVA_HOME/release" 2>/dev/null
        echo "${JPTO_JAVA_OPTS:-}"
        stat -c '%n %s %.9Y' "$jar" "$lib"/*.jar 2>&1
    } | cksum | cut -d' ' -f1
}

# Prints the JVM options that use the cache $1 when its key file matches the current key $2; nothing otherwise
# (missing, stale, or a build whose training run failed). The JVM checks the cache too and starts without it on a
# mismatch: the logs stay off so that costs nothing but time, and VerifySharedSpaces checks its CRC first, because
# a damaged cache file crashes the JVM instead of being refused.
jpto_aot_flags() {
    local aot=$1 key=$2
    if [ -f "$aot" ] && [ "$(cat "$aot.key" 2>/dev/null)" = "$key" ]; then
        echo "-XX:AOTCache=$aot -XX:+VerifySharedSpaces -Xlog:aot=off -Xlog:cds=off"
    fi
}

# True when no cache attempt has been made for the key $2 yet (a failed attempt is remembered, not retried).
jpto_aot_missing() {
    local aot=$1 key=$2 recorded
    recorded=$(cat "$aot.key" 2>/dev/null || true)
    [ "$recorded" != "$key" ] && [ "$recorded" != "$key failed" ]
}

# Makes the cache $1 for key $2 from a training run of the java command "$@" in a scratch directory (the output
# option goes in through JDK_JAVA_OPTIONS, which the java launcher puts before the command's own options). Written
# under temporary names and moved into place, so a concurrent launcher sees either the old pair or the new one.
jpto_aot_make() {
    local aot=$1 key=$2 scratch tmp
    shift 2
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/jpto-aot.XXXXXX") || return 0
    tmp="$aot.$$.tmp"
    if (cd "$scratch" && JDK_JAVA_OPTIONS="-XX:AOTCacheOutput=$tmp" "$@") >"$scratch/training.log" 2>&1 && [ -s "$tmp" ]; then
        mv -f "$tmp" "$aot"
        echo "$key" >"$aot.key.$$" && mv -f "$aot.key.$$" "$aot.key"
    else
        rm -f "$tmp" "$aot"
        echo "$key failed" >"$aot.key.$$" && mv -f "$aot.key.$$" "$aot.key"
    fi
    rm -rf "$scratch"
}
