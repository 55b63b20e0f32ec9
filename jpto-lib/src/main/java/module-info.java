/** Golden runner, comparators, .npy I/O, input generators, the program registry and the models. */
module dev.jpto.lib {
    requires transitive dev.jpto.compiler;
    requires com.fasterxml.jackson.databind;
    requires java.compiler;
    requires java.management;
    requires jdk.management;
    requires jdk.incubator.vector;

    exports dev.jpto.lib;
    exports dev.jpto.lib.bench;
    exports dev.jpto.lib.compare;
    exports dev.jpto.lib.fuzz;
    exports dev.jpto.lib.gen;
    exports dev.jpto.lib.load;
    exports dev.jpto.lib.models.basic;
    exports dev.jpto.lib.models.dsv4;
    exports dev.jpto.lib.models.dsv4.kernels;
    exports dev.jpto.lib.models.l3;
    exports dev.jpto.lib.npy;
    exports dev.jpto.lib.registry;
    exports dev.jpto.lib.runner;
    // meta.json of saved tensors is read into records (TensorMeta)
    opens dev.jpto.lib.runner to com.fasterxml.jackson.databind;

    uses dev.jpto.lib.registry.ProgramProvider;
    provides dev.jpto.lib.registry.ProgramProvider with dev.jpto.lib.models.basic.BasicPrograms,
            dev.jpto.lib.models.dsv4.kernels.Dsv4Family, dev.jpto.lib.models.l3.L3Programs;
}
