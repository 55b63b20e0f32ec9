package dev.jpto.models.dsv4;

/**
 * The three prefill attention programs. Each carries what differs between them in the original: the compress
 * ratio (which selects the compressed-KV source and the RoPE profile) and the hyper-connection fixture constants
 * taken there from real layers 0 (SWA), 8 (CSA) and 9 (HCA).
 */
public enum Dsv4Program {
    SWA("dsv4.prefill_attention_swa", "prefill_attention_swa_test", 0, 0.039,
            new double[] {2.076026, 0.018729, 0.245936},
            new double[] {3.9083, -2.0399, -2.2033, -2.017, -2.4443, -10.3158, -8.9943, -6.3581, 9.8577, -9.5177,
                    -24.8724, -22.8929, -21.545, 0.7791, -3.386, 1.1948, -20.9605, -0.7702, 1.4218, -4.8994, 1.5177,
                    -29.7663, -30.1413, -1.2413}),
    CSA("dsv4.prefill_attention_csa", "prefill_attention_csa_test", 4, 0.0519,
            new double[] {0.076099, 0.032597, 0.226994},
            new double[] {5.9166, -3.6223, -2.9324, -3.3124, -3.9100, -0.9384, -3.3256, -2.5240, 2.0706, -2.5728,
                    0.1424, -3.9453, -3.8859, 3.4634, -3.3799, -2.6077, -2.7191, -2.4846, 2.0395, -0.5010, -3.5992,
                    -2.7520, -3.3493, 3.1587}),
    HCA("dsv4.prefill_attention_hca", "prefill_attention_hca_test", 128, 0.0495,
            new double[] {0.079046, 0.04213, 0.121901},
            new double[] {-3.3004, 2.5553, -2.2787, -3.4925, -3.8197, -3.4161, -2.7144, -2.9181, 2.362, -2.4746,
                    -2.1352, -3.2216, -4.474, 2.2488, -2.1053, -3.1675, -2.8362, -1.9042, 2.0432, -3.062, -2.7902,
                    -3.0908, -3.002, 3.1161});

    private final String programName;
    private final String originalName;
    private final int compressRatio;
    private final double hcFnStd;
    private final double[] hcScale;
    private final double[] hcBase;

    Dsv4Program(String programName, String originalName, int compressRatio, double hcFnStd, double[] hcScale,
                double[] hcBase) {
        this.programName = programName;
        this.originalName = originalName;
        this.compressRatio = compressRatio;
        this.hcFnStd = hcFnStd;
        this.hcScale = hcScale;
        this.hcBase = hcBase;
    }

    /** The registry name, e.g. {@code dsv4.prefill_attention_swa}. */
    public String programName() {
        return programName;
    }

    /** The original's {@code @pl.jit} program name. */
    public String originalName() {
        return originalName;
    }

    /** 0 (SWA), 4 (CSA) or 128 (HCA). */
    public int compressRatio() {
        return compressRatio;
    }

    /** σ of {@code hc_attn_fn = N·σ}. */
    public double hcFnStd() {
        return hcFnStd;
    }

    /** {@code hc_attn_scale}, 3 values. */
    public double[] hcScale() {
        return hcScale.clone();
    }

    /** {@code hc_attn_base}, MIX_HC = 24 values (only defined for HC_MULT = 4). */
    public double[] hcBase() {
        return hcBase.clone();
    }

    /** Finds a program by registry name ({@code dsv4.prefill_attention_csa}) or short name ({@code csa}). */
    public static Dsv4Program byName(String name) {
        for (Dsv4Program p : values()) {
            if (p.programName.equals(name) || p.name().equalsIgnoreCase(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown dsv4 program '" + name + "'; valid: "
                + "dsv4.prefill_attention_swa, dsv4.prefill_attention_csa, dsv4.prefill_attention_hca");
    }
}
