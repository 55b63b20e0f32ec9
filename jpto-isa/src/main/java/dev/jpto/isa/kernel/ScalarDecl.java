package dev.jpto.isa.kernel;

/** A scalar register: a kernel parameter ({@code param}) or a loop variable. */
public record ScalarDecl(String name, boolean param) {
}
