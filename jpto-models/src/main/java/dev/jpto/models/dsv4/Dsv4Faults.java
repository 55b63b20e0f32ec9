package dev.jpto.models.dsv4;

/**
 * Deliberate defects the golden can inject, to show that a validation catches a broken kernel (issue 7):
 * attention output scaled, the sink term dropped from the softmax denominator, or the inverse RoPE skipped.
 */
public record Dsv4Faults(double attentionScale, boolean dropSink, boolean skipInverseRope) {

    /** The faithful computation. */
    public static final Dsv4Faults NONE = new Dsv4Faults(1.0, false, false);

    public static Dsv4Faults scaled(double factor) {
        return new Dsv4Faults(factor, false, false);
    }

    public static Dsv4Faults noSink() {
        return new Dsv4Faults(1.0, true, false);
    }

    public static Dsv4Faults noInverseRope() {
        return new Dsv4Faults(1.0, false, true);
    }
}
