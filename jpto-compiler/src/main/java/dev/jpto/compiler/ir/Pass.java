package dev.jpto.compiler.ir;

import java.util.function.UnaryOperator;

/** A named step of the compiler pipeline: checks or rewrites the program. */
public record Pass(String name, UnaryOperator<Program> apply) {
}
