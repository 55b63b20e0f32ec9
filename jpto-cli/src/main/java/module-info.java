/** The jpto command. */
@SuppressWarnings("module") // the qualified export names dev.jpto.bench, which is built after this module
module dev.jpto.cli {
    requires dev.jpto.lib;
    requires dev.jpto.models; // the built-in programs, found through ServiceLoader
    requires dev.jpto.tools;
    requires dev.jpto.sweep;
    requires info.picocli;
    requires com.fasterxml.jackson.databind;
    requires java.management; // jpto bench loop: this JVM's options for its child runs

    exports dev.jpto.cli to dev.jpto.bench;
    opens dev.jpto.cli to info.picocli;
}
