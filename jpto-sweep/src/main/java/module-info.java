/** jpto sweep: a cross product of program runs, executed on an embedded Hazelcast member. */
@SuppressWarnings("module") // the qualified export names dev.jpto.cli, which is built after this module
module dev.jpto.sweep {
    requires transitive dev.jpto.lib;
    requires com.fasterxml.jackson.databind;
    requires com.fasterxml.jackson.dataformat.yaml;
    requires com.hazelcast.core;
    requires java.logging;
    // Hazelcast is an automatic module: it reads only the JDK modules the graph resolves, and a member needs
    // these (jdeps --list-deps; java.desktop, java.scripting and java.net.http serve features jpto does not use)
    requires java.management;
    requires java.naming;
    requires java.sql;
    requires java.transaction.xa;
    requires java.xml;
    requires jdk.net;
    requires jdk.unsupported;

    exports dev.jpto.sweep to dev.jpto.cli;
    opens dev.jpto.sweep to com.fasterxml.jackson.databind;
}
