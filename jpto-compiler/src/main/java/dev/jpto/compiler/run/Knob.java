package dev.jpto.compiler.run;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The description of a {@link RunConfig} component, for help text ({@link RunConfigKeys#help()}). The key and
 * the default come from the component itself; this is the only other thing said about it. A ring size
 * ({@link RingSize}) has none: its help is its {@code dev.jpto.runtime.RingField}'s.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface Knob {
    String value() default "";

    /**
     * Whether the setting describes what the program needs (ring sizes, threads), so that a work dir may carry
     * it in its default runtime_cfg; the others (DFX output, device, platform) are the caller's to choose.
     */
    boolean programNeed() default false;
}
