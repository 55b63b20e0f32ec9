/** Compile a program to a work dir and load it back: both give a verified program; {@code launch} runs it. */
package dev.jpto.compiler;
