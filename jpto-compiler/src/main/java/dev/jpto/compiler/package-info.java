/** Compile a program to a work dir, load it back, and run it on the simulated chip through every dispatch surface. */
package dev.jpto.compiler;
