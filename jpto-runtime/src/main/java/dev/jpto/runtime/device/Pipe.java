package dev.jpto.runtime.device;

/**
 * The AICore pipes a tile op occupies: GM loads (MTE2), the cube, the vector unit, GM stores (MTE3 / fixpipe), and
 * the scalar unit that issues every op into its pipe's queue in program order.
 */
public enum Pipe { MTE_IN, CUBE, VECTOR, MTE_OUT, SCALAR }
