/** The simulated chip: platforms, rings, TensorMap, scheduler, CallConfig and error codes. */
module dev.jpto.runtime {
    requires transitive dev.jpto.isa;
    requires com.fasterxml.jackson.databind;

    exports dev.jpto.runtime;
}
