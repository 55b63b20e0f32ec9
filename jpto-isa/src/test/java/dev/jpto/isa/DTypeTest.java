package dev.jpto.isa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DTypeTest {
    private final MemorySegment seg = Arena.ofAuto().allocate(16, 8);

    private float loadBits(DType t, int bits) {
        seg.set(ValueLayout.JAVA_SHORT_UNALIGNED, 0, (short) bits);
        return t.loadFloat(seg, 0);
    }

    private int storeBits(DType t, float v) {
        t.storeFloat(seg, 0, v);
        return seg.get(ValueLayout.JAVA_SHORT_UNALIGNED, 0) & 0xFFFF;
    }

    private int storeDoubleBits(DType t, double v) {
        t.storeDouble(seg, 0, v);
        return seg.get(ValueLayout.JAVA_SHORT_UNALIGNED, 0) & 0xFFFF;
    }

    private int storeLongBits(DType t, long v) {
        t.storeLong(seg, 0, v);
        return seg.get(ValueLayout.JAVA_SHORT_UNALIGNED, 0) & 0xFFFF;
    }

    @Test
    void fp16AllBitPatternsMatchJdk() {
        for (int bits = 0; bits < 0x10000; bits++) {
            float f = loadBits(DType.FP16, bits);
            float jdk = Float.float16ToFloat((short) bits);
            assertThat(Float.floatToRawIntBits(f)).as("fp16 %04x", bits).isEqualTo(Float.floatToRawIntBits(jdk));
            assertThat(storeBits(DType.FP16, f)).as("fp16 store %04x", bits)
                    .isEqualTo(Float.floatToFloat16(f) & 0xFFFF);
            if (!Float.isNaN(f)) {
                assertThat(storeBits(DType.FP16, f)).isEqualTo(bits);
                assertThat(storeDoubleBits(DType.FP16, f)).isEqualTo(bits);
                assertThat(DType.FP16.round(f)).isEqualTo(f);
                // exact decoding against the independent bit-layout reference
                if (!Float.isInfinite(f)) {
                    assertThat(new BigDecimal(f).abs()).isEqualByComparingTo(ExactRounding.FP16.value(bits & 0x7FFF));
                }
            } else {
                assertThat(Float.isNaN(Float.float16ToFloat((short) storeBits(DType.FP16, f)))).isTrue();
            }
        }
    }

    @Test
    void bf16AllBitPatternsRoundTrip() {
        for (int bits = 0; bits < 0x10000; bits++) {
            float f = loadBits(DType.BF16, bits);
            assertThat(Float.floatToRawIntBits(f)).as("bf16 %04x", bits).isEqualTo(bits << 16);
            int back = storeBits(DType.BF16, f);
            boolean nan = (bits & 0x7FFF) > 0x7F80;
            if (nan) {
                assertThat(Float.isNaN(f)).isTrue();
                assertThat((back & 0x7FFF) > 0x7F80).as("bf16 NaN %04x stays NaN, got %04x", bits, back).isTrue();
                assertThat(back & 0x8000).isEqualTo(bits & 0x8000);
                assertThat(back & 0x0040).as("quiet bit").isEqualTo(0x0040);
            } else {
                assertThat(back).as("bf16 %04x", bits).isEqualTo(bits);
                assertThat(storeDoubleBits(DType.BF16, f)).isEqualTo(bits);
                assertThat(DType.BF16.round(f)).isEqualTo(f);
                if ((bits & 0x7FFF) < 0x7F80) {
                    assertThat(new BigDecimal(f).abs()).isEqualByComparingTo(ExactRounding.BF16.value(bits & 0x7FFF));
                }
            }
        }
    }

    private void checkFloatRounding(float f) {
        if (Float.isNaN(f)) {
            assertThat(Float.isNaN(DType.bf16ToFloat(DType.floatToBf16(f)))).isTrue();
            assertThat(Float.isNaN(DType.BF16.round(f))).isTrue();
            return;
        }
        int expectBf16 = Float.isInfinite(f) ? (f > 0 ? 0x7F80 : 0xFF80) : ExactRounding.BF16.round(f) & 0xFFFF;
        assertThat(DType.floatToBf16(f) & 0xFFFF).as("bf16(%s) bits %08x", f, Float.floatToRawIntBits(f))
                .isEqualTo(expectBf16);
        assertThat(storeBits(DType.BF16, f)).isEqualTo(expectBf16);
        int expectFp16 = Float.isInfinite(f) ? (f > 0 ? 0x7C00 : 0xFC00) : ExactRounding.FP16.round(f) & 0xFFFF;
        assertThat(storeBits(DType.FP16, f)).as("fp16(%s)", f).isEqualTo(expectFp16);
    }

    @Test
    void fp32ToBf16AndFp16RoundToNearestEvenEdgeCases() {
        int[] patterns = {
            0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x00007FFF, 0x00008000, 0x00008001, 0x00018000,
            0x007FFFFF, 0x00800000, 0x3F808000, 0x3F818000, 0x3F807FFF, 0x3F808001, 0x3F800000, 0xBF808000,
            0x7F7F0000, 0x7F7F7FFF, 0x7F7F8000, 0x7F7FFFFF, 0xFF7F8000, 0xFF7F7FFF, 0x7F800000, 0xFF800000,
            0x477FE000, 0x477FEFFF, 0x477FF000, 0x477FF001, 0x33000000, 0x33000001, 0x337FFFFF, 0x32FFFFFF,
            0x387FC000, 0x38800000, 0x38000000, 0x3C001000, 0x3C003000, 0x3C001001, 0x7FC00000, 0x7F800001,
            0xFFFFFFFF, 0x7FBFFFFF,
        };
        for (int p : patterns) {
            checkFloatRounding(Float.intBitsToFloat(p));
        }
    }

    @Test
    void fp32ToBf16AndFp16RandomIncludingTies() {
        SplittableRandom rnd = new SplittableRandom(0xB16);
        for (int i = 0; i < 100_000; i++) {
            int bits = rnd.nextInt();
            switch (i % 5) {
                case 1 -> bits = (bits & 0xFFFF0000) | 0x8000; // exact bf16 tie
                case 2 -> bits = (bits & 0xFFFFE000) | 0x1000; // exact fp16 tie (normal range)
                case 3 -> bits &= 0x807FFFFF; // fp32 subnormal
                case 4 -> bits = (bits & 0x83FFFFFF) | 0x38000000; // around the fp16 range
                default -> { }
            }
            checkFloatRounding(Float.intBitsToFloat(bits));
        }
    }

    @Test
    void doubleStoresRoundOnce() {
        // 1 + 2^-8 + 2^-30: above the bf16 tie, but double -> float -> bf16 would see an exact tie and round to 1.
        double d = 1 + 0x1p-8 + 0x1p-30;
        assertThat(storeDoubleBits(DType.BF16, d)).isEqualTo(0x3F81);
        assertThat(DType.floatToBf16((float) d) & 0xFFFF).isEqualTo(0x3F80); // the double rounding avoided
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < 50_000; i++) {
            double x = Double.longBitsToDouble(rnd.nextLong());
            if (Double.isNaN(x)) {
                assertThat(Float.isNaN(DType.bf16ToFloat((short) storeDoubleBits(DType.BF16, x)))).isTrue();
                continue;
            }
            if (i % 2 == 0) {
                x = Math.scalb(1 + rnd.nextDouble(), rnd.nextInt(-160, 130)) * (rnd.nextBoolean() ? 1 : -1);
            }
            if (Double.isInfinite(x)) {
                continue;
            }
            assertThat(storeDoubleBits(DType.BF16, x)).as("bf16(%s)", x).isEqualTo(ExactRounding.BF16.round(x) & 0xFFFF);
            assertThat(storeDoubleBits(DType.FP16, x)).as("fp16(%s)", x).isEqualTo(ExactRounding.FP16.round(x) & 0xFFFF);
        }
    }

    @Test
    void longStoresToHalfFormatsRoundOnce() {
        // 2^24 + 2^16 + 1 is just above the bf16 tie between 2^24 and 2^24 + 2^17.
        assertThat(storeLongBits(DType.BF16, (1L << 24) + (1L << 16) + 1)).isEqualTo(0x4B81);
        long[] edge = {0, 1, -1, 65504, 65519, 65520, 2049, 2051, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1,
            (1L << 53) + 1, -((1L << 60) + (1L << 52) + 1)};
        SplittableRandom rnd = new SplittableRandom(11);
        for (int i = 0; i < 20_000 + edge.length; i++) {
            long v = i < edge.length ? edge[i] : rnd.nextLong() >> rnd.nextInt(64);
            BigDecimal x = new BigDecimal(v);
            assertThat(storeLongBits(DType.BF16, v)).as("bf16(%d)", v).isEqualTo(ExactRounding.BF16.round(x, v < 0) & 0xFFFF);
            assertThat(storeLongBits(DType.FP16, v)).as("fp16(%d)", v).isEqualTo(ExactRounding.FP16.round(x, v < 0) & 0xFFFF);
            DType.FP32.storeLong(seg, 0, v);
            assertThat(seg.get(ValueLayout.JAVA_FLOAT_UNALIGNED, 0)).isEqualTo((float) v);
        }
    }

    private static final DType[] INTS = {DType.INT8, DType.UINT8, DType.INT16, DType.INT32, DType.INT64};

    /** Independent reference: BigDecimal rounding, then clamp. */
    private static long referenceSaturate(DType t, double v, RoundingMode mode) {
        if (Double.isNaN(v)) {
            return 0;
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? t.maxValue() : t.minValue();
        }
        java.math.RoundingMode m = switch (mode) {
            case RINT -> java.math.RoundingMode.HALF_EVEN;
            case ROUND -> java.math.RoundingMode.HALF_UP;
            case FLOOR -> java.math.RoundingMode.FLOOR;
            case CEIL -> java.math.RoundingMode.CEILING;
            case TRUNC -> java.math.RoundingMode.DOWN;
        };
        BigDecimal r = new BigDecimal(v).setScale(0, m);
        if (r.compareTo(BigDecimal.valueOf(t.maxValue())) > 0) {
            return t.maxValue();
        }
        if (r.compareTo(BigDecimal.valueOf(t.minValue())) < 0) {
            return t.minValue();
        }
        return r.longValueExact();
    }

    @Test
    void saturatingIntegerCastsInEveryMode() {
        double[] edge = {0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
            127.5, 128.0, -128.5, -129, 255.5, 256, 32767.5, -32768.5, 2147483647.5, -2147483648.5, 0x1p52 + 1,
            0x1p53, 0x1p63, -0x1p63, 0x1p64, 1e30, -1e30, Double.MIN_VALUE, -Double.MIN_VALUE, Double.NaN,
            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 9.223372036854775E18, -9.223372036854775E18};
        SplittableRandom rnd = new SplittableRandom(3);
        for (DType t : INTS) {
            for (RoundingMode mode : RoundingMode.values()) {
                for (int i = 0; i < edge.length + 2000; i++) {
                    double v = i < edge.length ? edge[i]
                            : (rnd.nextBoolean() ? rnd.nextInt(-70000, 70000) + 0.5 * rnd.nextInt(3)
                            : Math.scalb(rnd.nextDouble() - 0.5, rnd.nextInt(70)));
                    assertThat(t.saturate(v, mode)).as("%s %s(%s)", t, mode, v).isEqualTo(referenceSaturate(t, v, mode));
                }
            }
        }
    }

    @Test
    void specialValuesThroughStores() {
        for (DType t : INTS) {
            t.storeFloat(seg, 0, Float.NaN);
            assertThat(t.loadLong(seg, 0)).isZero();
            t.storeFloat(seg, 0, Float.POSITIVE_INFINITY);
            assertThat(t.loadLong(seg, 0)).isEqualTo(t.maxValue());
            t.storeFloat(seg, 0, Float.NEGATIVE_INFINITY);
            assertThat(t.loadLong(seg, 0)).isEqualTo(t.minValue());
            t.storeLong(seg, 0, Long.MAX_VALUE);
            assertThat(t.loadLong(seg, 0)).isEqualTo(t.maxValue());
            t.storeLong(seg, 0, Long.MIN_VALUE);
            assertThat(t.loadLong(seg, 0)).isEqualTo(t.minValue());
            t.storeFloat(seg, 0, 2.5f);
            assertThat(t.loadLong(seg, 0)).as("store rounds to nearest even").isEqualTo(2);
        }
        DType.UINT8.storeLong(seg, 0, 200);
        assertThat(DType.UINT8.loadLong(seg, 0)).isEqualTo(200);
        assertThat(DType.UINT8.loadFloat(seg, 0)).isEqualTo(200f);
        DType.BOOL.storeLong(seg, 0, -7);
        assertThat(DType.BOOL.loadLong(seg, 0)).isEqualTo(1);
        DType.BOOL.storeFloat(seg, 0, Float.NaN);
        assertThat(DType.BOOL.loadLong(seg, 0)).isZero();
        DType.FP32.storeFloat(seg, 0, -3.75f);
        assertThat(DType.FP32.loadLong(seg, 0)).as("float to long truncates").isEqualTo(-3);
        DType.BF16.storeFloat(seg, 0, Float.NaN);
        assertThat(DType.BF16.loadFloat(seg, 0)).isNaN();
        DType.FP16.storeDouble(seg, 0, Double.POSITIVE_INFINITY);
        assertThat(DType.FP16.loadFloat(seg, 0)).isEqualTo(Float.POSITIVE_INFINITY);
        DType.FP16.storeDouble(seg, 0, 1e6);
        assertThat(DType.FP16.loadFloat(seg, 0)).as("overflow to Inf").isEqualTo(Float.POSITIVE_INFINITY);
    }

    @Test
    void textNamesAndErrors() {
        for (DType t : DType.values()) {
            assertThat(DType.fromText(t.text())).isSameAs(t);
        }
        assertThatThrownBy(() -> DType.fromText("float32")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("float32").hasMessageContaining("bf16");
        assertThatThrownBy(DType.FP32::maxValue).isInstanceOf(IllegalStateException.class);
    }
}
