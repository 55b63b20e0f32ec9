package dev.jpto.compiler.l3;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.isa.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * An L3 program: a host-level orchestration of chip calls over host tensors (pypto's {@code @pl.jit.host}
 * program with {@code next_levels/} chip programs). Inputs and outputs are supplied by the caller; scratch
 * tensors are host intermediates the runner allocates (zero-filled) for each run. Each call binds every
 * parameter of a chip program to a host view and is placed on a chip (round-robin by default).
 *
 * <p>Host-level dependencies are derived like the chip's TensorMap, from what each call reads and writes: call
 * {@code j} waits for every earlier call {@code i} whose views overlap one of {@code j}'s where at least one of
 * the two writes (read-after-write, write-after-read, write-after-write), plus any explicit {@code after} calls.
 * Calls without a path between them may run at the same time on different chips.
 *
 * <pre>{@code
 * // C = A·B with A split into two row halves, one chip call each (matmul: a [M/2,K], b [K,N] -> c [M/2,N]),
 * // then a third call reading both halves (sum: x, y -> z).
 * L3Program.Builder l3 = L3Program.builder("split_matmul").chips(2);
 * HostTensor a = l3.input("a", BF16, M, K);
 * HostTensor b = l3.input("b", BF16, K, N);
 * HostTensor c = l3.output("c", FP32, M, N);
 * HostTensor t = l3.scratch("t", FP32, M / 2, N);
 * ChipCall top = l3.call("top", matmul, Map.of("a", a.rows(0, M / 2), "b", b, "c", c.rows(0, M / 2)));
 * l3.call("bottom", matmul, Map.of("a", a.rows(M / 2, M / 2), "b", b, "c", c.rows(M / 2, M / 2)));
 * l3.call("sum", sum, Map.of("x", c.rows(0, M / 2), "y", c.rows(M / 2, M / 2), "z", t)); // waits for both
 * L3Program program = l3.build();
 * // DistributedRunner.run(program, args, runConfig, 2) runs it on devices device_id and device_id + 1
 * }</pre>
 */
public final class L3Program {
    /**
     * The most chips one L3 run may use. Every simulated chip is a set of rings and scheduler threads in this one
     * process, so the bound keeps a slip ({@code --chips 2000000}, {@code "chips": 2147483647}) from exhausting the
     * host; a real L3 host drives a handful of devices.
     */
    public static final int MAX_CHIPS = 64;

    private final String name;
    private final int chips;
    private final List<HostTensor> tensors;
    private final List<ChipCall> calls;
    private final List<List<Integer>> predecessors;

    private L3Program(String name, int chips, List<HostTensor> tensors, List<ChipCall> calls) {
        this.name = name;
        this.chips = chips;
        this.tensors = List.copyOf(tensors);
        this.calls = List.copyOf(calls);
        this.predecessors = Dependencies.derive(this.calls);
    }

    /** Starts an L3 program called {@code name} (one chip by default; see {@link Builder#chips}). */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    public String name() {
        return name;
    }

    /** The number of chips a run uses unless the caller says otherwise (pypto's {@code device_ids} count). */
    public int chips() {
        return chips;
    }

    /** Every host tensor: inputs, outputs and scratch, in declaration order. */
    public List<HostTensor> tensors() {
        return tensors;
    }

    public List<HostTensor> inputs() {
        return tensors.stream().filter(t -> t.kind() == HostTensor.Kind.INPUT).toList();
    }

    public List<HostTensor> outputs() {
        return tensors.stream().filter(t -> t.kind() == HostTensor.Kind.OUTPUT).toList();
    }

    public List<HostTensor> scratch() {
        return tensors.stream().filter(t -> t.kind() == HostTensor.Kind.SCRATCH).toList();
    }

    /** The caller's tensors as declarations (inputs then outputs), the way a chip program's signature reads. */
    public List<TensorDecl> signature() {
        return tensors.stream().filter(t -> t.kind() != HostTensor.Kind.SCRATCH)
                .sorted((x, y) -> Integer.compare(x.kind().ordinal(), y.kind().ordinal()))
                .map(t -> new TensorDecl(t.name(), t.dtype(), t.shape())).toList();
    }

    public List<ChipCall> calls() {
        return calls;
    }

    /** The calls {@code call} waits for (indices, ascending): derived conflicts plus its explicit {@code after}. */
    public List<Integer> predecessors(int call) {
        return predecessors.get(call);
    }

    /** The distinct chip programs, by name, in order of first use. */
    public Map<String, Program> chipPrograms() {
        Map<String, Program> m = new LinkedHashMap<>();
        for (ChipCall c : calls) {
            m.putIfAbsent(c.program().name(), c.program());
        }
        return Collections.unmodifiableMap(m);
    }

    /** Chip index of every call on {@code chipCount} chips (round-robin calls counted in program order). */
    public int[] placement(int chipCount) {
        if (chipCount < 1) {
            throw new IllegalArgumentException("an L3 run needs at least one chip: chips=" + chipCount);
        }
        int[] chip = new int[calls.size()];
        int roundRobin = 0;
        for (ChipCall c : calls) {
            try {
                chip[c.index()] = c.placement().chipIndex(roundRobin, chipCount);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("L3 program " + name + ", " + c + ": " + e.getMessage(), e);
            }
            if (c.placement() instanceof Placement.RoundRobin) {
                roundRobin++;
            }
        }
        return chip;
    }

    @Override
    public String toString() {
        return "L3 program " + name + " (" + calls.size() + " chip call(s), " + chipPrograms().size()
                + " chip program(s))";
    }

    /** Declares host tensors and chip calls; {@link #build} checks every binding against its chip program. */
    public static final class Builder {
        private final String name;
        private int chips = 1;
        private final Map<String, HostTensor> tensors = new LinkedHashMap<>();
        private final List<ChipCall> calls = new ArrayList<>();
        private final Map<String, Program> programs = new LinkedHashMap<>();

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        /** The default number of chips a run uses (the caller may override it). */
        public Builder chips(int n) {
            if (n < 1 || n > MAX_CHIPS) {
                throw new IllegalArgumentException("L3 program " + name + ": chips must be in 1.." + MAX_CHIPS
                        + ": chips=" + n);
            }
            this.chips = n;
            return this;
        }

        /** A tensor the caller supplies and the calls only read. */
        public HostTensor input(String tensorName, DType dtype, long... shape) {
            return declare(new HostTensor(tensorName, HostTensor.Kind.INPUT, dtype, shape));
        }

        /** A tensor the caller supplies and the calls write. */
        public HostTensor output(String tensorName, DType dtype, long... shape) {
            return declare(new HostTensor(tensorName, HostTensor.Kind.OUTPUT, dtype, shape));
        }

        /** A host intermediate: allocated zero-filled by the runner for each run, never seen by the caller. */
        public HostTensor scratch(String tensorName, DType dtype, long... shape) {
            return declare(new HostTensor(tensorName, HostTensor.Kind.SCRATCH, dtype, shape));
        }

        private HostTensor declare(HostTensor t) {
            if (tensors.putIfAbsent(t.name(), t) != null) {
                throw new IllegalArgumentException("L3 program " + name + ": host tensor '" + t.name()
                        + "' is declared twice");
            }
            return t;
        }

        /** A call placed round-robin, ordered only by its data. */
        public ChipCall call(String label, Program program, Map<String, ? extends HostView> bindings) {
            return call(label, program, bindings, Placement.roundRobin());
        }

        /**
         * A chip call: {@code bindings} maps every input and output of {@code program} to a host view of the same
         * dtype and shape; the call also waits for the calls in {@code after} (explicit ordering, for effects the
         * data does not show).
         */
        public ChipCall call(String label, Program program, Map<String, ? extends HostView> bindings,
                             Placement placement, ChipCall... after) {
            Objects.requireNonNull(label, "label");
            String where = "L3 program " + name + ", call '" + label + "'";
            if (calls.stream().anyMatch(c -> c.label().equals(label))) {
                throw new IllegalArgumentException(where + ": the label is used twice; labels name calls in reports");
            }
            Program known = programs.putIfAbsent(program.name(), program);
            if (known != null && !known.equals(program)) {
                throw new IllegalArgumentException(where + ": two different chip programs are both named '"
                        + program.name() + "'; give them distinct names (the work dir keeps one per name)");
            }
            Map<String, HostView> ordered = new LinkedHashMap<>();
            for (TensorDecl d : program.signature()) {
                HostView v = bindings.get(d.name());
                if (v == null) {
                    throw new IllegalArgumentException(where + ": chip program " + program.name()
                            + " parameter '" + d.name() + "' (" + d + ") is not bound; bind every one of "
                            + names(program));
                }
                check(where, program, d, v);
                ordered.put(d.name(), v);
            }
            for (String param : bindings.keySet()) {
                if (!ordered.containsKey(param)) {
                    throw new IllegalArgumentException(where + ": chip program " + program.name()
                            + " has no parameter '" + param + "'; its parameters are " + names(program));
                }
            }
            List<Integer> afterIdx = new ArrayList<>();
            for (ChipCall a : after) {
                if (a.index() >= calls.size() || calls.get(a.index()) != a) {
                    throw new IllegalArgumentException(where + ": 'after' names " + a + ", which is not an earlier "
                            + "call of this program");
                }
                afterIdx.add(a.index());
            }
            ChipCall call = new ChipCall(calls.size(), label, program, ordered, placement, afterIdx);
            for (HostView w : call.writes()) {
                if (w.tensor().kind() == HostTensor.Kind.INPUT) {
                    throw new IllegalArgumentException(where + ": writes host input '" + w.tensor().name()
                            + "' (as " + w.text() + "); inputs are read-only: declare it as an output or scratch");
                }
            }
            calls.add(call);
            return call;
        }

        private void check(String where, Program program, TensorDecl d, HostView v) {
            HostTensor t = tensors.get(v.tensor().name());
            if (t == null || !t.equals(v.tensor())) {
                throw new IllegalArgumentException(where + ": parameter '" + d.name() + "' is bound to "
                        + v.tensor() + ", which is not a host tensor of this program; declare it with input(), "
                        + "output() or scratch()");
            }
            if (v.dtype() != d.dtype() || !Arrays.equals(v.shape(), d.shape())) {
                throw new IllegalArgumentException(where + ": parameter '" + d.name() + "' of chip program "
                        + program.name() + " is " + d.dtype().text() + Arrays.toString(d.shape())
                        + " but is bound to " + v.text() + ", which is " + v.dtype().text()
                        + Arrays.toString(v.shape()));
            }
        }

        private static String names(Program program) {
            return new TreeSet<>(program.signature().stream().map(TensorDecl::name).toList()).toString();
        }

        /** The program; it needs at least one call. */
        public L3Program build() {
            if (calls.isEmpty()) {
                throw new IllegalArgumentException("L3 program " + name + " has no chip calls; add one with call()");
            }
            return new L3Program(name, chips, new ArrayList<>(tensors.values()), calls);
        }
    }
}
