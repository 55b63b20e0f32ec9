package dev.jpto.runtime;

/**
 * How a scope finds dependencies. AUTO: from the tensor arguments (creator edges, TensorMap lookup and
 * registration) plus any explicit ones. MANUAL: only the explicit ones ({@link Launch#deps}); the TensorMap is
 * neither read nor written. An AUTO scope cannot be opened inside a MANUAL one (code 5).
 */
public enum ScopeKind {
    AUTO, MANUAL;

    /** The name deps.json and the work-dir files use. */
    public String text() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
