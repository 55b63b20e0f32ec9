package dev.jpto.runtime;

/** The two kinds of AICore: cube (AIC, matrix) and vector (AIV). Each has its own ready queue. */
public enum CoreType { AIC, AIV }
