package dev.jpto.compiler.dsl;

/**
 * Where the user wrote a DSL call: the file and line of the first stack frame outside this package, e.g.
 * {@code ReluDense.java:87}. Errors found when a kernel or program is built name it, as a compiler would.
 *
 * @param file the source file name, or the class name when the class has no source file attribute
 * @param line the line, or a negative number when unknown
 */
record SourceLine(String file, int line) {
    private static final String DSL_PACKAGE = SourceLine.class.getPackageName() + ".";
    // No RETAIN_CLASS_REFERENCE: the class name is enough, and the walk stops at the first user frame.
    private static final StackWalker WALKER = StackWalker.getInstance();

    /** The caller of the DSL, or null when every frame is inside the DSL (no user code on the stack). */
    static SourceLine ofCaller() {
        return WALKER.walk(frames -> frames.filter(f -> !f.getClassName().startsWith(DSL_PACKAGE))
                .findFirst()
                .map(f -> new SourceLine(f.getFileName() != null ? f.getFileName() : f.getClassName(),
                        f.getLineNumber()))
                .orElse(null));
    }

    /** "ReluDense.java:87", or "ReluDense.java" when the line is unknown. */
    @Override
    public String toString() {
        return line >= 0 ? file + ":" + line : file;
    }
}
