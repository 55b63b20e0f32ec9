/** The simulated chip. API types in dev.jpto.runtime; the chip itself (the facade over the implementation packages) in dev.jpto.runtime.chip. */
module dev.jpto.runtime {
    requires transitive dev.jpto.isa;
    requires com.fasterxml.jackson.databind;

    exports dev.jpto.runtime;
    exports dev.jpto.runtime.chip;
    exports dev.jpto.runtime.device;
    exports dev.jpto.runtime.io;
}
