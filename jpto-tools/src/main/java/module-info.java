/** Tools around the library, not part of the program author's API: the program fuzzer and the benchmarks. */
module dev.jpto.tools {
    requires transitive dev.jpto.lib;
    requires java.management;
    requires jdk.management;
    requires jdk.incubator.vector;

    exports dev.jpto.tools.bench;
    exports dev.jpto.tools.fuzz;
}
