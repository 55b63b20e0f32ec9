/** The Java DSL, IR, verifier and passes, work-dir compile/load, RunConfig and the one RunConfig to CallConfig path. */
// qualified exports name modules built after this one, which javac cannot see yet
@SuppressWarnings("module")
module dev.jpto.compiler {
    requires transitive dev.jpto.runtime;
    requires com.fasterxml.jackson.databind;

    exports dev.jpto.compiler.dsl;
    exports dev.jpto.compiler.ir;
    exports dev.jpto.compiler.l3;
    exports dev.jpto.compiler.launch to dev.jpto.lib, dev.jpto.models, dev.jpto.tools, dev.jpto.sweep, dev.jpto.cli;
    exports dev.jpto.compiler.plan;
    exports dev.jpto.compiler.run;
    // the compiler and work dirs, and the run surfaces (launch): jpto's own modules run programs through them
    exports dev.jpto.compiler to dev.jpto.lib, dev.jpto.models, dev.jpto.tools, dev.jpto.sweep, dev.jpto.cli;
    exports dev.jpto.compiler.text to dev.jpto.lib, dev.jpto.tools, dev.jpto.sweep, dev.jpto.cli;
}
