/** Tools around the library, not part of the program author's API: the program fuzzer and the benchmarks. */
// qualified exports name modules built after this one, which javac cannot see yet
@SuppressWarnings("module")
module dev.jpto.tools {
    requires transitive dev.jpto.lib;
    requires java.management;
    requires jdk.management;
    requires jdk.incubator.vector;

    exports dev.jpto.tools.bench to dev.jpto.cli, dev.jpto.bench;
    exports dev.jpto.tools.fuzz to dev.jpto.cli;
}
