/** The Java DSL, IR, verifier and passes, work-dir compile/load, RunConfig and the one RunConfig to CallConfig path. */
module dev.jpto.compiler {
    requires transitive dev.jpto.runtime;
    requires com.fasterxml.jackson.databind;

    exports dev.jpto.compiler;
    exports dev.jpto.compiler.dsl;
    exports dev.jpto.compiler.ir;
    exports dev.jpto.compiler.l3;
    exports dev.jpto.compiler.launch;
    exports dev.jpto.compiler.plan;
    exports dev.jpto.compiler.run;
    exports dev.jpto.compiler.text;
}
