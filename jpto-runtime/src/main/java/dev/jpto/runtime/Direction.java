package dev.jpto.runtime;

/** TEMPORARY shim (compiler branch) of the agreed runtime API; replaced by the runtime branch on merge. */
public enum Direction { INPUT, OUTPUT, INOUT, OUTPUT_EXISTING, NO_DEP }
