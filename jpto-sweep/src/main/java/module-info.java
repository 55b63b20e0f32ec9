/** jpto sweep: a cross product of program runs, executed on an embedded Hazelcast member. */
module dev.jpto.sweep {
    requires transitive dev.jpto.lib;
    requires com.fasterxml.jackson.databind;
    requires com.fasterxml.jackson.dataformat.yaml;
    requires com.hazelcast.core;
    requires java.logging;

    exports dev.jpto.sweep;
    opens dev.jpto.sweep to com.fasterxml.jackson.databind;
}
