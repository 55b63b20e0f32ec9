/**
 * The library a program author builds on: the program registry API, the golden runner, comparators, {@code .npy}
 * I/O, input generators and loading a user's programs. The models live in {@code dev.jpto.models}, the fuzzer and
 * benchmarks in {@code dev.jpto.tools}.
 */
// qualified exports name modules built after this one, which javac cannot see yet
@SuppressWarnings("module")
module dev.jpto.lib {
    requires transitive dev.jpto.compiler;
    requires com.fasterxml.jackson.databind;
    requires java.compiler;
    requires java.management;
    requires jdk.management;
    requires jdk.incubator.vector;

    exports dev.jpto.lib.compare;
    exports dev.jpto.lib.gen;
    // jpto run FILE.java, --program-path; the built-in kernels exempt from the memory check (tested in models)
    exports dev.jpto.lib.load to dev.jpto.models, dev.jpto.tools, dev.jpto.sweep, dev.jpto.cli;
    exports dev.jpto.lib.npy;
    exports dev.jpto.lib.registry;
    exports dev.jpto.lib.runner;
    // meta.json of saved tensors is read into records (TensorMeta)
    opens dev.jpto.lib.runner to com.fasterxml.jackson.databind;

    uses dev.jpto.lib.registry.ProgramProvider;
}
