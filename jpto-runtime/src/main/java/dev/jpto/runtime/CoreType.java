package dev.jpto.runtime;

/** TEMPORARY shim (compiler branch) of the agreed runtime API; replaced by the runtime branch on merge. */
public enum CoreType { AIC, AIV }
