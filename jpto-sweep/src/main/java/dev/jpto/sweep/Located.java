package dev.jpto.sweep;

/** A scalar of the sweep file with the line it stands on, so that a refused value can be pointed at. */
record Located(String value, int line) {
}
