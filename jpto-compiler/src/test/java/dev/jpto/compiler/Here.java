package dev.jpto.compiler;

/** The source line of the caller, for tests that expect a message to name the line of a builder call. */
final class Here {
    private Here() {
    }

    /** The line this is called on: write it on the same line as the builder call whose line is expected. */
    static int line() {
        return StackWalker.getInstance().walk(s -> s.skip(1).findFirst()).orElseThrow().getLineNumber();
    }
}
