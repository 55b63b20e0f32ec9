package dev.jpto.lib.runner;

/**
 * The run was refused before anything ran on the chip: an unknown or invalid runtime_cfg key, a platform without
 * a device, arguments that do not fit the program. The message names the key or value and what is allowed.
 */
public final class JitConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public JitConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
