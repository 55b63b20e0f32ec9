package dev.jpto.isa.engine.simd;

/**
 * Per-thread scratch of the vector engine: row buffers (grown to the widest row seen, never shrunk) and the
 * matmul packers. Reused across ops, so steady-state ops allocate nothing.
 */
public final class Workspace {
    private static final ThreadLocal<Workspace> CURRENT = ThreadLocal.withInitial(Workspace::new);

    public final FloatGemm floatGemm = new FloatGemm();
    public float[] fa = new float[0];
    public float[] fb = new float[0];
    public float[] fc = new float[0];
    public float[] fd = new float[0];
    public int[] ia = new int[0];
    public int[] ib = new int[0];
    public int[] ic = new int[0];
    public int[] id = new int[0];
    public byte[] bytes = new byte[0];

    private Workspace() {
    }

    /** This thread's workspace with every row buffer at least {@code cols} long. */
    public static Workspace forRows(int cols) {
        Workspace w = CURRENT.get();
        if (w.fa.length < cols) {
            w.grow(cols);
        }
        return w;
    }

    private void grow(int cols) {
        int n = Math.max(cols, 2 * fa.length);
        fa = new float[n];
        fb = new float[n];
        fc = new float[n];
        fd = new float[n];
        ia = new int[n];
        ib = new int[n];
        ic = new int[n];
        id = new int[n];
        bytes = new byte[n];
    }
}
