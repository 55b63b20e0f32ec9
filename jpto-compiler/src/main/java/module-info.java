/** The Java DSL, IR, verifier and passes, work-dir compile/load, RunConfig and the one RunConfig to CallConfig path. */
// qualified exports name modules built after this one, which javac cannot see yet
@SuppressWarnings("module")
module dev.jpto.compiler {
    requires transitive dev.jpto.runtime;
    requires com.fasterxml.jackson.databind;

    exports dev.jpto.compiler.dsl;
    exports dev.jpto.compiler.ir;
    exports dev.jpto.compiler.l3;
    exports dev.jpto.compiler.launch;
    exports dev.jpto.compiler.plan;
    exports dev.jpto.compiler.run;
    // BenchmarkResult, which a RunResult carries, lives here until the run surfaces move to their own package;
    // then the compiler and work dirs are exported only to jpto's own modules (lib, tools, sweep, cli)
    exports dev.jpto.compiler;
    exports dev.jpto.compiler.text to dev.jpto.lib, dev.jpto.tools, dev.jpto.sweep, dev.jpto.cli;
}
