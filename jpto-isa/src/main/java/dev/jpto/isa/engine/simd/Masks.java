package dev.jpto.isa.engine.simd;

import dev.jpto.isa.Tile;
import dev.jpto.isa.op.Elementwise;
import dev.jpto.isa.op.Fn;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/** Compare (→ bool bytes 0/1) and select (mask ? a : b, bit-exact for every element size). */
public final class Masks {
    private static final VectorSpecies<Float> F = Species.F;
    private static final VectorSpecies<Integer> I = Species.I;
    private static final VectorSpecies<Short> S = Species.S;
    private static final VectorSpecies<Long> L = Species.L;
    private static final VectorSpecies<Byte> B = Species.B;
    /** Bytes with as many lanes as F/I (a bool result or mask per fp32/int32 lane). */
    private static final VectorSpecies<Byte> B16 = Species.bytes(Species.V);
    /** Bytes with as many lanes as S and as L (null when narrower than any shape: masks then go lane by lane). */
    private static final VectorSpecies<Byte> B32 = Species.bytes(Species.S.length());
    private static final VectorSpecies<Byte> B8 = Species.bytes(Species.L.length());
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private Masks() {
    }

    /*
     * a fn b lane by lane. Each case names its operator as a constant: the JIT emits a vector compare only for a
     * constant operator, and a loop-invariant variable one ran the Vector API's per-lane Java fallback.
     */
    private static VectorMask<Float> test(Fn.Compare fn, FloatVector a, FloatVector b) {
        return switch (fn) {
            case EQ -> a.compare(VectorOperators.EQ, b);
            case NE -> a.compare(VectorOperators.NE, b);
            case LT -> a.compare(VectorOperators.LT, b);
            case LE -> a.compare(VectorOperators.LE, b);
            case GT -> a.compare(VectorOperators.GT, b);
            case GE -> a.compare(VectorOperators.GE, b);
        };
    }

    private static VectorMask<Integer> test(Fn.Compare fn, IntVector a, IntVector b) {
        return switch (fn) {
            case EQ -> a.compare(VectorOperators.EQ, b);
            case NE -> a.compare(VectorOperators.NE, b);
            case LT -> a.compare(VectorOperators.LT, b);
            case LE -> a.compare(VectorOperators.LE, b);
            case GT -> a.compare(VectorOperators.GT, b);
            case GE -> a.compare(VectorOperators.GE, b);
        };
    }

    /** {@code out[i] = a[i] fn b[i] ? 1 : 0} (IEEE: NaN compares false except NE). */
    public static void compare(Fn.Compare fn, float[] a, float[] b, byte[] out, int n) {
        ByteVector one = B16 == null ? null : ByteVector.broadcast(B16, (byte) 1);
        ByteVector zero = B16 == null ? null : ByteVector.zero(B16);
        int i = 0;
        for (int upper = B16 == null ? 0 : F.loopBound(n); i < upper; i += F.length()) {
            VectorMask<Float> m = test(fn, FloatVector.fromArray(F, a, i), FloatVector.fromArray(F, b, i));
            zero.blend(one, m.cast(B16)).intoArray(out, i);
        }
        for (; i < n; i++) {
            out[i] = (byte) (Elementwise.test(fn, a[i], b[i]) ? 1 : 0);
        }
    }

    /** {@code out[i] = a[i] fn s ? 1 : 0}. */
    public static void compareScalar(Fn.Compare fn, float[] a, float s, byte[] out, int n) {
        ByteVector one = B16 == null ? null : ByteVector.broadcast(B16, (byte) 1);
        ByteVector zero = B16 == null ? null : ByteVector.zero(B16);
        FloatVector b = FloatVector.broadcast(F, s);
        int i = 0;
        for (int upper = B16 == null ? 0 : F.loopBound(n); i < upper; i += F.length()) {
            VectorMask<Float> m = test(fn, FloatVector.fromArray(F, a, i), b);
            zero.blend(one, m.cast(B16)).intoArray(out, i);
        }
        for (; i < n; i++) {
            out[i] = (byte) (Elementwise.test(fn, a[i], s) ? 1 : 0);
        }
    }

    /** Integer compare on widened int32 lanes (exact). */
    public static void compare(Fn.Compare fn, int[] a, int[] b, byte[] out, int n) {
        ByteVector one = B16 == null ? null : ByteVector.broadcast(B16, (byte) 1);
        ByteVector zero = B16 == null ? null : ByteVector.zero(B16);
        int i = 0;
        for (int upper = B16 == null ? 0 : I.loopBound(n); i < upper; i += I.length()) {
            VectorMask<Integer> m = test(fn, IntVector.fromArray(I, a, i), IntVector.fromArray(I, b, i));
            zero.blend(one, m.cast(B16)).intoArray(out, i);
        }
        for (; i < n; i++) {
            out[i] = (byte) (Elementwise.test(fn, a[i], b[i]) ? 1 : 0);
        }
    }

    /** Integer compare with an integer scalar that fits int32 (exact). */
    public static void compareScalar(Fn.Compare fn, int[] a, int s, byte[] out, int n) {
        ByteVector one = B16 == null ? null : ByteVector.broadcast(B16, (byte) 1);
        ByteVector zero = B16 == null ? null : ByteVector.zero(B16);
        IntVector b = IntVector.broadcast(I, s);
        int i = 0;
        for (int upper = B16 == null ? 0 : I.loopBound(n); i < upper; i += I.length()) {
            VectorMask<Integer> m = test(fn, IntVector.fromArray(I, a, i), b);
            zero.blend(one, m.cast(B16)).intoArray(out, i);
        }
        for (; i < n; i++) {
            out[i] = (byte) (Elementwise.test(fn, a[i], (long) s) ? 1 : 0);
        }
    }

    /** Row {@code r} of dst = mask ? a : b, columns {@code 0 .. n}; any non-zero mask byte selects a. */
    public static void selectRow(Tile dst, Tile mask, Tile a, Tile b, int r, int n) {
        MemorySegment ms = mask.data();
        long mo = mask.byteOffset(r, 0);
        MemorySegment as = a.data();
        MemorySegment bs = b.data();
        MemorySegment ds = dst.data();
        long ao = a.byteOffset(r, 0);
        long bo = b.byteOffset(r, 0);
        long d0 = dst.byteOffset(r, 0);
        int size = a.dtype().byteSize();
        int i = 0;
        switch (size) {
            case 1 -> {
                for (int upper = B.loopBound(n); i < upper; i += B.length()) {
                    VectorMask<Byte> m = ByteVector.fromMemorySegment(B, ms, mo + i, NATIVE).compare(VectorOperators.NE, 0);
                    ByteVector.fromMemorySegment(B, bs, bo + i, NATIVE)
                            .blend(ByteVector.fromMemorySegment(B, as, ao + i, NATIVE), m)
                            .intoMemorySegment(ds, d0 + i, NATIVE);
                }
            }
            case 2 -> {
                for (int upper = S.loopBound(n); i < upper; i += S.length()) {
                    VectorMask<Short> m = ByteVector.fromMemorySegment(B32, ms, mo + i, NATIVE)
                            .compare(VectorOperators.NE, 0).cast(S);
                    ShortVector.fromMemorySegment(S, bs, bo + 2L * i, NATIVE)
                            .blend(ShortVector.fromMemorySegment(S, as, ao + 2L * i, NATIVE), m)
                            .intoMemorySegment(ds, d0 + 2L * i, NATIVE);
                }
            }
            case 4 -> {
                for (int upper = B16 == null ? 0 : I.loopBound(n); i < upper; i += I.length()) {
                    VectorMask<Integer> m = ByteVector.fromMemorySegment(B16, ms, mo + i, NATIVE)
                            .compare(VectorOperators.NE, 0).cast(I);
                    IntVector.fromMemorySegment(I, bs, bo + 4L * i, NATIVE)
                            .blend(IntVector.fromMemorySegment(I, as, ao + 4L * i, NATIVE), m)
                            .intoMemorySegment(ds, d0 + 4L * i, NATIVE);
                }
            }
            default -> {
                for (int upper = B8 == null ? 0 : L.loopBound(n); i < upper; i += L.length()) {
                    VectorMask<Long> m = ByteVector.fromMemorySegment(B8, ms, mo + i, NATIVE)
                            .compare(VectorOperators.NE, 0).cast(L);
                    LongVector.fromMemorySegment(L, bs, bo + 8L * i, NATIVE)
                            .blend(LongVector.fromMemorySegment(L, as, ao + 8L * i, NATIVE), m)
                            .intoMemorySegment(ds, d0 + 8L * i, NATIVE);
                }
            }
        }
        for (; i < n; i++) {
            boolean pick = ms.get(java.lang.foreign.ValueLayout.JAVA_BYTE, mo + i) != 0;
            MemorySegment.copy(pick ? as : bs, (pick ? ao : bo) + (long) size * i, ds, d0 + (long) size * i, size);
        }
    }
}
