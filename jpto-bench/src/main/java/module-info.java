/** JMH benchmarks. Ships nothing; nothing depends on it. */
module dev.jpto.bench {
    requires dev.jpto.cli;
    requires dev.jpto.runtime;
    requires jmh.core;

    exports dev.jpto.bench;
    // JMH's generated code reflects over benchmark state classes.
    opens dev.jpto.bench;
}
