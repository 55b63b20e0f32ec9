package dev.jpto.compiler.ir;

/** One verifier finding: where in the program ({@code where}, e.g. "main/for i/submit #2 add_tile") and what is wrong. */
public record IrError(String where, String what) {
    @Override
    public String toString() {
        return where + ": " + what;
    }
}
