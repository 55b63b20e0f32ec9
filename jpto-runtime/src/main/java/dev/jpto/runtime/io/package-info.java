/**
 * How jpto writes files: atomically (temporary name, then rename), only in directories it owns, one command
 * per directory at a time.
 */
package dev.jpto.runtime.io;
