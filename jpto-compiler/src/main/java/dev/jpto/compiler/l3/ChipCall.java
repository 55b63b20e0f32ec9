package dev.jpto.compiler.l3;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.TensorDecl;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One chip call of an L3 program: chip program {@code program} with every parameter (its inputs and outputs)
 * bound to a host view, on the chip {@code placement} picks, after the calls listed in {@code after} (explicit
 * ordering, by index) and after every earlier call whose host tensors it conflicts with (derived by
 * {@link L3Program}).
 *
 * @param index     position in the program (0-based); calls are numbered in the order they were added
 * @param label     unique within the program; names the call in reports and errors
 * @param bindings  parameter name → host view, in the program's signature order
 */
public record ChipCall(int index, String label, Program program, Map<String, HostView> bindings,
                       Placement placement, List<Integer> after) {
    public ChipCall {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(program, "program");
        Objects.requireNonNull(placement, "placement");
        bindings = Collections.unmodifiableMap(new LinkedHashMap<>(bindings));
        after = List.copyOf(after);
    }

    /** The views this call reads: those bound to the chip program's inputs. */
    public List<HostView> reads() {
        return program.inputs().stream().map(d -> bindings.get(d.name())).toList();
    }

    /**
     * The views this call writes: those bound to the chip program's outputs (which a program may also read, e.g.
     * a cache updated in place; dependencies treat them as read and written).
     */
    public List<HostView> writes() {
        return program.outputs().stream().map(d -> bindings.get(d.name())).toList();
    }

    /** Whether {@code param} is one of the chip program's outputs. */
    public boolean writes(String param) {
        return program.outputs().stream().map(TensorDecl::name).anyMatch(param::equals);
    }

    @Override
    public String toString() {
        return "call " + index + " '" + label + "' (" + program.name() + ")";
    }
}
