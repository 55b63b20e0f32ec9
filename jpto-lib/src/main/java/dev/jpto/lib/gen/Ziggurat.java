package dev.jpto.lib.gen;

/**
 * Standard normal samples by the ziggurat method of Marsaglia and Tsang (2000, "The Ziggurat Method for Generating
 * Random Variables", 128 layers, base r = 3.442619855899), specified to the bit so a seed gives the same values on
 * every platform and JDK: the tables are computed at class initialisation with {@link StrictMath}, the slow paths
 * (wedges and the tail) use {@link StrictMath}, and everything else is exact integer or IEEE double
 * arithmetic (no {@link Math} call anywhere on the path).
 *
 * <p>One draw: {@code b = nextLong()}; layer {@code i = b & 127}; signed value {@code h = (int) (b >>> 32)} (the
 * high 32 bits, independent of the layer bits, which avoids the correlation of the original's shared SHR3 word).
 * If {@code |h| < k[i]} the result is {@code h · w[i]} (about 98.8% of draws). Otherwise, with {@code x = h · w[i]}:
 * layer 0 samples the tail beyond r ({@code x = −ln(u1)/r, y = −ln(u2)} with u1, u2 = nextDoubleOC, repeated
 * while {@code 2y < x²}; result {@code ±(r + x)} by the sign of h); a wedge accepts x when
 * {@code f[i] + nextDouble()·(f[i−1] − f[i]) < exp(−x²/2)}; a rejected draw starts over with a new nextLong.
 */
public final class Ziggurat {
    /** The base strip's right edge: the tail starts here. */
    public static final double R = 3.442619855899;
    /** The common area of each of the 128 layers. */
    private static final double V = 9.91256303526217e-3;
    private static final double M1 = 2147483648.0; // 2^31
    private static final int LAYERS = 128;

    private static final long[] K = new long[LAYERS];
    private static final double[] W = new double[LAYERS];
    private static final double[] F = new double[LAYERS];

    static {
        double dn = R;
        double tn = dn;
        double q = V / StrictMath.exp(-0.5 * dn * dn);
        K[0] = (long) ((dn / q) * M1);
        K[1] = 0;
        W[0] = q / M1;
        W[LAYERS - 1] = dn / M1;
        F[0] = 1.0;
        F[LAYERS - 1] = StrictMath.exp(-0.5 * dn * dn);
        for (int i = LAYERS - 2; i >= 1; i--) {
            dn = StrictMath.sqrt(-2 * StrictMath.log(V / dn + StrictMath.exp(-0.5 * dn * dn)));
            K[i + 1] = (long) ((dn / tn) * M1);
            tn = dn;
            F[i] = StrictMath.exp(-0.5 * dn * dn);
            W[i] = dn / M1;
        }
    }

    private Ziggurat() {
    }

    /** One standard normal value from {@code rng}. */
    public static double normal(SplitMix64 rng) {
        long b = rng.nextLong();
        int i = (int) (b & (LAYERS - 1));
        long h = (int) (b >>> 32);
        if (abs(h) < K[i]) {
            return h * W[i];
        }
        return slow(rng, h, i);
    }

    /** |h| without a branch (a sign test mispredicts half the time) and without Math; |h| <= 2^31 here. */
    private static long abs(long h) {
        long m = h >> 63;
        return (h ^ m) - m;
    }

    private static double slow(SplitMix64 rng, long h, int i) {
        while (true) {
            double x = h * W[i];
            if (i == 0) {
                double y;
                do {
                    x = -StrictMath.log(rng.nextDoubleOpenClosed()) / R;
                    y = -StrictMath.log(rng.nextDoubleOpenClosed());
                } while (y + y < x * x);
                return h > 0 ? R + x : -R - x;
            }
            if (F[i] + rng.nextDouble() * (F[i - 1] - F[i]) < StrictMath.exp(-0.5 * x * x)) {
                return x;
            }
            long b = rng.nextLong();
            i = (int) (b & (LAYERS - 1));
            h = (int) (b >>> 32);
            if (abs(h) < K[i]) {
                return h * W[i];
            }
        }
    }
}
