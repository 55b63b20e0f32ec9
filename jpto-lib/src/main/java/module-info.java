/** Golden runner, comparators, .npy I/O, input generators, the program registry and the models. */
module dev.jpto.lib {
    requires transitive dev.jpto.compiler;
    requires java.management;
    requires jdk.management;
    requires jdk.incubator.vector;

    exports dev.jpto.lib.bench;
}
