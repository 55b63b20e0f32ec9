package dev.jpto.compiler.launch;

import dev.jpto.compiler.l3.HostSlice;
import dev.jpto.compiler.l3.HostTensor;
import dev.jpto.compiler.l3.HostView;
import dev.jpto.compiler.l3.L3Program;
import dev.jpto.isa.Tensor;
import java.lang.foreign.Arena;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Host tensors of one L3 run: the caller's inputs and outputs (checked against the program), scratch allocated
 * zero-filled, and every view a chip call binds as a {@link Tensor} over the same memory — chips read and write
 * host memory in place, as pypto's L3 workers do through shared memory, so outputs need no gathering copy.
 */
final class HostViews {
    private HostViews() {
    }

    /** The caller's tensors plus fresh scratch, by name. */
    static Map<String, Tensor> bind(L3Program program, Map<String, Tensor> args, Arena arena) {
        Map<String, Tensor> host = new LinkedHashMap<>();
        Set<String> expected = new TreeSet<>();
        for (HostTensor t : program.tensors()) {
            if (t.kind() == HostTensor.Kind.SCRATCH) {
                host.put(t.name(), Tensor.allocate(arena, t.dtype(), t.shape()));
                continue;
            }
            expected.add(t.name());
            Tensor a = args.get(t.name());
            if (a == null) {
                throw new IllegalArgumentException("L3 program " + program.name() + ": missing tensor '" + t.name()
                        + "' (" + t + "); the program takes " + program.signature());
            }
            if (a.dtype() != t.dtype() || !Arrays.equals(a.shape(), t.shape())) {
                throw new IllegalArgumentException("L3 program " + program.name() + ": tensor '" + t.name()
                        + "' must be " + t.dtype().text() + Arrays.toString(t.shape()) + ", got " + a);
            }
            host.put(t.name(), a);
        }
        for (String name : args.keySet()) {
            if (!expected.contains(name)) {
                throw new IllegalArgumentException("L3 program " + program.name() + ": unexpected tensor '" + name
                        + "'; the program takes " + program.signature());
            }
        }
        return host;
    }

    /** {@code view} over {@code host} (the tensor it is a view of), sharing memory. */
    static Tensor view(Tensor host, HostView view) {
        return switch (view) {
            case HostTensor t -> host;
            case HostSlice s -> {
                Tensor box = host.slice(s.starts(), s.extents());
                long[] shape = s.shape();
                if (shape.length == box.rank()) {
                    yield box;
                }
                long[] strides = new long[shape.length];
                int k = 0;
                for (int d = 0; d < box.rank(); d++) {
                    if (!s.dropped(d)) {
                        strides[k++] = box.stride(d);
                    }
                }
                yield Tensor.of(box.buffer(), box.dtype(), shape, strides, box.offset());
            }
        };
    }
}
