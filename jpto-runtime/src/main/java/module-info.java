/** The simulated chip. API types in dev.jpto.runtime; the chip itself (the facade over the implementation packages) in dev.jpto.runtime.chip. */
// qualified exports name modules built after this one, which javac cannot see yet
@SuppressWarnings("module")
module dev.jpto.runtime {
    requires transitive dev.jpto.isa;
    requires com.fasterxml.jackson.databind;
    requires java.management;

    exports dev.jpto.runtime;
    // the chip and its files, for jpto's own modules: a program author runs programs through dev.jpto.lib.runner
    exports dev.jpto.runtime.chip to dev.jpto.compiler, dev.jpto.lib, dev.jpto.models, dev.jpto.tools,
            dev.jpto.sweep, dev.jpto.cli, dev.jpto.bench;
    exports dev.jpto.runtime.device to dev.jpto.compiler, dev.jpto.lib, dev.jpto.models, dev.jpto.tools,
            dev.jpto.sweep, dev.jpto.cli, dev.jpto.bench;
    exports dev.jpto.runtime.io to dev.jpto.compiler, dev.jpto.lib, dev.jpto.models, dev.jpto.tools,
            dev.jpto.sweep, dev.jpto.cli, dev.jpto.bench;
}
