/**
 * A user's programs: Java sources compiled in-process and cached by content hash, and jars or class
 * directories declaring providers.
 */
package dev.jpto.lib.load;
