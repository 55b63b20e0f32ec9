/** The jpto command. */
module dev.jpto.cli {
    requires dev.jpto.lib;
    requires dev.jpto.sweep;
    requires info.picocli;

    exports dev.jpto.cli;
    opens dev.jpto.cli to info.picocli;
}
