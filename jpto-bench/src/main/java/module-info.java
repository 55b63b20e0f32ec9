/** JMH benchmarks. Ships nothing; nothing depends on it. */
module dev.jpto.bench {
    requires dev.jpto.cli;
    requires jmh.core;
}
