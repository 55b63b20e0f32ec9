/** JMH benchmarks. Ships nothing; nothing depends on it. */
module dev.jpto.bench {
    requires dev.jpto.cli;
    requires dev.jpto.lib;
    requires dev.jpto.tools;
    requires dev.jpto.isa;
    requires dev.jpto.runtime;
    requires jmh.core;
    requires jdk.management;

    // JMH instantiates the benchmarks and the classes it generates reflectively. Opened, not exported:
    // nothing compiles against them, and exporting would make -Xlint:exports flag every JMH type they use.
    opens dev.jpto.bench;
    opens dev.jpto.bench.jmh_generated;
}
