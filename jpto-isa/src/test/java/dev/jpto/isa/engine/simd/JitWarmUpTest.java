package dev.jpto.isa.engine.simd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jpto.isa.op.Fn;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * fp32 lane kernels give the same answers however far the JIT has warmed up. A kernel's first rows run interpreted
 * (the Vector API's Java fallbacks), later ones C2-compiled (intrinsics, with the vector math library for
 * transcendentals), and which tasks of a run fall where depends on timing: a difference between the two showed up
 * as a program whose output bits changed from run to run. Checked against a JVM that only interprets ({@code -Xint}):
 * <ul>
 *   <li>sums are bit-identical and follow {@link FloatLanes#reduce}'s documented order (a scalar model of it);
 *       {@code reduceLanes(ADD)} failed this, its fallback and its intrinsic add the lanes in different orders;</li>
 *   <li>each transcendental is within 1 ulp (the vector math library and {@code Math} may round a double apart by
 *       one ulp, rarely visible in fp32); GELU written with tanh failed this by thousands of ulps for negative
 *       inputs, where 1 + tanh cancels.</li>
 * </ul>
 */
class JitWarmUpTest {
    private static final int[] SUM_SIZES =
            {0, 1, 3, Species.V - 1, Species.V, Species.V + 3, 5 * Species.V + 2, 257, 1000};
    private static final Fn.Unary[] TRANSCENDENTALS =
            {Fn.Unary.EXP, Fn.Unary.LOG, Fn.Unary.TANH, Fn.Unary.SIGMOID, Fn.Unary.SILU, Fn.Unary.GELU};
    private static final int UNARY_INPUTS = 1 << 13;

    @Test
    void sumsAndTranscendentalsAgreeInterpretedAndCompiled(@TempDir Path dir) throws Exception {
        Path interpreted = dir.resolve("interpreted.bin");
        runInterpretedProbe(interpreted);

        List<float[]> sumData = sumData();
        for (int i = 0; i < 20_000; i++) { // C2 compiles reduce and unary long before this ends
            FloatLanes.reduce(Fn.Reduce.SUM, sumData.get(sumData.size() - 1), 1000);
            FloatLanes.unary(TRANSCENDENTALS[i % TRANSCENDENTALS.length], sumData.get(7), new float[257], 257);
        }
        try (DataInputStream in = new DataInputStream(Files.newInputStream(interpreted))) {
            List<Integer> model = new ArrayList<>();
            List<Integer> fromProbe = new ArrayList<>();
            for (float[] x : sumData) {
                model.add(Float.floatToRawIntBits(model(x, Species.V)));
                fromProbe.add(in.readInt());
            }
            if (Species.V >= 4) { // with 2 lanes, both orders are the one add
                assertThat(orderMatters(sumData, model)).as("data on which the lane order changes the sum").isTrue();
            }
            assertThat(fromProbe).as("sums in a JVM run with -Xint").isEqualTo(model);
            assertThat(sums(sumData)).as("sums after C2 compiled reduce").isEqualTo(model);

            float[] x = unaryInputs();
            float[] compiled = new float[x.length];
            for (Fn.Unary fn : TRANSCENDENTALS) {
                FloatLanes.unary(fn, input(fn, x), compiled, x.length);
                int worst = 0;
                float worstAt = 0;
                for (int i = 0; i < x.length; i++) {
                    int ulps = ulps(in.readInt(), Float.floatToRawIntBits(compiled[i]));
                    if (ulps > worst) {
                        worst = ulps;
                        worstAt = input(fn, x)[i];
                    }
                }
                assertThat(worst).as("%s: ulps between -Xint and compiled, worst at x = %s", fn, worstAt)
                        .isLessThanOrEqualTo(1);
            }
        }
    }

    /** The one-lane-at-a-time fold used for vectors wider than 512 bits (not this machine's) pairs as documented. */
    @Test
    void foldInPairsFollowsTheDocumentedOrder() {
        Random rnd = new Random(3);
        for (int v = 1; v <= 64; v *= 2) {
            float[] lanes = new float[v];
            for (int j = 0; j < v; j++) {
                lanes[j] = (float) (rnd.nextGaussian() * Math.pow(10, rnd.nextInt(7) - 3));
            }
            float want = model(lanes, v);
            assertThat(Float.floatToRawIntBits(FloatLanes.foldInPairs(lanes.clone()))).as("%d lanes", v)
                    .isEqualTo(Float.floatToRawIntBits(want));
        }
    }

    /** Gaussians of mixed magnitudes: reassociating them changes the rounding. */
    static List<float[]> sumData() {
        Random rnd = new Random(20261203);
        List<float[]> data = new ArrayList<>();
        for (int n : SUM_SIZES) {
            float[] x = new float[n];
            for (int i = 0; i < n; i++) {
                x[i] = (float) (rnd.nextGaussian() * Math.pow(10, rnd.nextInt(7) - 3));
            }
            data.add(x);
        }
        return data;
    }

    /**
     * IEEE corner values; inputs where the tanh-form GELU came out thousands of ulps apart (found by a search over a
     * million inputs on AMD EPYC with JDK 25: where the vector library's tanh and {@code Math.tanh} differ is rare and
     * machine-specific); then uniform over [−12, 12].
     */
    static float[] unaryInputs() {
        float[] fixed = {0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MIN_VALUE,
            -Float.MAX_VALUE, 100f, -100f, -5.660016f, -5.3243985f, -5.1074414f, -5.0665903f};
        Random rnd = new Random(7);
        float[] x = new float[UNARY_INPUTS];
        for (int i = 0; i < x.length; i++) {
            x[i] = i < fixed.length ? fixed[i] : (float) (rnd.nextDouble() * 24 - 12);
        }
        return x;
    }

    /** LOG's inputs are made positive, so that its results are numbers. */
    private static float[] input(Fn.Unary fn, float[] x) {
        if (fn != Fn.Unary.LOG) {
            return x;
        }
        float[] positive = new float[x.length];
        for (int i = 0; i < x.length; i++) {
            positive[i] = Math.abs(x[i]) + 1e-3f;
        }
        return positive;
    }

    static List<Integer> sums(List<float[]> data) {
        List<Integer> bits = new ArrayList<>();
        for (float[] x : data) {
            bits.add(Float.floatToRawIntBits(FloatLanes.reduce(Fn.Reduce.SUM, x, x.length)));
        }
        return bits;
    }

    /** Distance in representable fp32 values (same-signed bit patterns are ordered); NaN matches NaN. */
    private static int ulps(int a, int b) {
        if (Float.isNaN(Float.intBitsToFloat(a)) && Float.isNaN(Float.intBitsToFloat(b))) {
            return 0;
        }
        if ((a < 0) != (b < 0)) {
            return a == b || (a & 0x7fffffff) == 0 && (b & 0x7fffffff) == 0 ? 0 : Integer.MAX_VALUE;
        }
        return Math.abs(a - b);
    }

    /** The documented order, one scalar add at a time. */
    private static float model(float[] x, int v) {
        float[] lanes = lanePartials(x, v);
        for (int distance = v / 2; distance >= 1; distance /= 2) {
            float[] paired = new float[v];
            for (int j = 0; j < v; j++) {
                paired[j] = lanes[j] + lanes[j ^ distance];
            }
            lanes = paired;
        }
        return plusTail(lanes[0], x, v);
    }

    /** Whether adding the lane partials in lane order (reduceLanes' fallback) gives another sum for some data. */
    private static boolean orderMatters(List<float[]> data, List<Integer> model) {
        for (int k = 0; k < data.size(); k++) {
            float inTurn = 0;
            for (float lane : lanePartials(data.get(k), Species.V)) {
                inTurn += lane;
            }
            if (Float.floatToRawIntBits(plusTail(inTurn, data.get(k), Species.V)) != model.get(k)) {
                return true;
            }
        }
        return false;
    }

    private static float[] lanePartials(float[] x, int v) {
        float[] lanes = new float[v];
        for (int i = 0; i + v <= x.length; i += v) {
            for (int j = 0; j < v; j++) {
                lanes[j] += x[i + j];
            }
        }
        return lanes;
    }

    private static float plusTail(float acc, float[] x, int v) {
        for (int i = x.length - x.length % v; i < x.length; i++) {
            acc += x[i];
        }
        return acc;
    }

    private static void runInterpretedProbe(Path out) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process p = new ProcessBuilder(java, "-Xint", "--add-modules", "jdk.incubator.vector", "-cp",
                System.getProperty("java.class.path"), Probe.class.getName(), out.toString())
                .redirectErrorStream(true).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the -Xint probe JVM did not finish within 120 s");
        }
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("-Xint probe JVM exit; its output:%n%s", log).isZero();
    }

    /** Run in the -Xint JVM: writes each sum's bits, then each transcendental's results over the unary inputs. */
    public static final class Probe {
        public static void main(String[] args) throws IOException {
            try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(Path.of(args[0])))) {
                for (int bits : sums(sumData())) {
                    out.writeInt(bits);
                }
                float[] x = unaryInputs();
                float[] d = new float[x.length];
                for (Fn.Unary fn : TRANSCENDENTALS) {
                    FloatLanes.unary(fn, input(fn, x), d, x.length);
                    for (float v : d) {
                        out.writeInt(Float.floatToRawIntBits(v));
                    }
                }
            }
        }
    }
}
