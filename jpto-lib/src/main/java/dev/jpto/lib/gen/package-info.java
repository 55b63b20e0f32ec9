/**
 * Seeded input generators: the same bits for a (tensor name, seed) on every machine and thread count.
 */
package dev.jpto.lib.gen;
