package dev.jpto.isa.engine.simd;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector species every kernel uses, all derived from the machine's preferred shape: {@link #F} and
 * {@link #I} have {@link #V} lanes (16 with AVX-512, 8 with AVX2); the narrower species pair up with them for
 * conversions (V shorts for bf16, V bytes for masks, V/2 floats widened to V/2 doubles).
 */
final class Species {
    static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    /** fp32/int32 lanes per vector. */
    static final int V = F.length();
    static final VectorSpecies<Integer> I = IntVector.SPECIES_PREFERRED;
    static final VectorSpecies<Long> L = LongVector.SPECIES_PREFERRED;
    static final VectorSpecies<Short> S = ShortVector.SPECIES_PREFERRED;
    static final VectorSpecies<Byte> B = ByteVector.SPECIES_PREFERRED;
    /** V shorts: the bf16 bits of one fp32 vector. */
    static final VectorSpecies<Short> SHORTS_V = VectorSpecies.of(short.class, VectorShape.forBitSize(V * 16));
    /** V/2 floats, widened to {@link #D}. */
    static final VectorSpecies<Float> F_HALF = VectorSpecies.of(float.class, VectorShape.forBitSize(V * 16));
    static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    /** The preferred fp32 species if it is at least 512 bits, else the 512-bit one: the AVX-512 register blocks. */
    static final VectorSpecies<Float> F_512_UP = F.vectorBitSize() >= 512 ? F : FloatVector.SPECIES_512;

    private Species() {
    }

    /** Bytes with the given lane count (a mask source), or null when no shape is that narrow (under 64 bits). */
    static VectorSpecies<Byte> bytes(int lanes) {
        return lanes * 8 < 64 ? null : VectorSpecies.of(byte.class, VectorShape.forBitSize(lanes * 8));
    }
}
