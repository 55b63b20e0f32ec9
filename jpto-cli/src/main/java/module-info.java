/** The jpto command. */
module dev.jpto.cli {
    requires dev.jpto.lib;
    requires dev.jpto.models; // the built-in programs, found through ServiceLoader
    requires dev.jpto.tools;
    requires dev.jpto.sweep;
    requires info.picocli;
    requires com.fasterxml.jackson.databind;

    exports dev.jpto.cli;
    opens dev.jpto.cli to info.picocli;
}
