/**
 * Comparators that decide whether an output matches its golden: allclose, the ratio checks of pypto-lib, the
 * mapped pool, top-k pairs and valid prefixes.
 */
package dev.jpto.lib.compare;
