package dev.jpto.lib.registry;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.l3.HostTensor;
import dev.jpto.compiler.l3.L3Program;
import dev.jpto.compiler.run.RunConfigKeys;
import dev.jpto.lib.compare.GoldenComparator;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One registered program at one preset: everything the golden runner needs. Checked on construction, so a
 * registry entry that disagrees with its own program fails when it is built, not half-way through a run.
 *
 * <p>The program is a chip program ({@link Body.Chip}, run on one chip) or an L3 program ({@link Body.L3}: chip
 * calls over host tensors, run on several chips by {@code DistributedRunner}); inputs, outputs, golden and
 * comparators work the same for both. Build an L3 spec with the constructors taking an {@link L3Program}.
 *
 * @param programName the registry name, e.g. {@code basic.matmul}
 * @param preset      the preset this spec was built for
 * @param body        the DSL program (IR, not yet compiled): a chip program or an L3 program
 * @param inputs      one entry per program input, in the program's order, same dtype and shape
 * @param golden      the plain-Java reference
 * @param comparators one comparator per program output ({@link NotValidated} for a scratch output)
 * @param runtimeCfg  default {@code --runtime-cfg} entries in RunConfig's own key vocabulary (e.g. a ring size
 *                    the program is known to need); the caller's entries override them
 * @param outputFills initial contents of outputs the program updates in place (an in/out tensor such as a cache);
 *                    every other output starts zeroed. The golden's output tensors start with the same contents.
 * @param memoryExemption kernels exempt from the on-chip memory check, with the reason ({@link MemoryExemption#NONE}
 *                    unless set with {@link #withMemoryExemption})
 */
public record ProgramSpec(String programName, String preset, Body body, List<InputSpec> inputs, Golden golden,
                          Map<String, GoldenComparator> comparators, Map<String, String> runtimeCfg,
                          Map<String, InputFill> outputFills, MemoryExemption memoryExemption) {
    /** What runs: one chip program, or an L3 program over several chips. */
    public sealed interface Body {
        String name();

        List<TensorDecl> inputs();

        List<TensorDecl> outputs();

        /** A chip program (L2), run on one chip. */
        record Chip(Program program) implements Body {
            public Chip {
                Objects.requireNonNull(program, "program");
            }

            @Override
            public String name() {
                return program.name();
            }

            @Override
            public List<TensorDecl> inputs() {
                return program.inputs();
            }

            @Override
            public List<TensorDecl> outputs() {
                return program.outputs();
            }
        }

        /** An L3 program: chip calls over host tensors, run on several chips. */
        record L3(L3Program program) implements Body {
            public L3 {
                Objects.requireNonNull(program, "program");
            }

            @Override
            public String name() {
                return program.name();
            }

            @Override
            public List<TensorDecl> inputs() {
                return decls(program.inputs());
            }

            @Override
            public List<TensorDecl> outputs() {
                return decls(program.outputs());
            }

            private static List<TensorDecl> decls(List<HostTensor> tensors) {
                return tensors.stream().map(t -> new TensorDecl(t.name(), t.dtype(), t.shape())).toList();
            }
        }
    }

    /** A spec without memory exemption. */
    public ProgramSpec(String programName, String preset, Body body, List<InputSpec> inputs, Golden golden,
                       Map<String, GoldenComparator> comparators, Map<String, String> runtimeCfg,
                       Map<String, InputFill> outputFills) {
        this(programName, preset, body, inputs, golden, comparators, runtimeCfg, outputFills, MemoryExemption.NONE);
    }

    /** A chip-program spec. */
    public ProgramSpec(String programName, String preset, Program program, List<InputSpec> inputs, Golden golden,
                       Map<String, GoldenComparator> comparators, Map<String, String> runtimeCfg,
                       Map<String, InputFill> outputFills) {
        this(programName, preset, new Body.Chip(program), inputs, golden, comparators, runtimeCfg, outputFills);
    }

    /** A chip-program spec whose outputs all start zeroed. */
    public ProgramSpec(String programName, String preset, Program program, List<InputSpec> inputs, Golden golden,
                       Map<String, GoldenComparator> comparators, Map<String, String> runtimeCfg) {
        this(programName, preset, new Body.Chip(program), inputs, golden, comparators, runtimeCfg, Map.of());
    }

    /** An L3-program spec. */
    public ProgramSpec(String programName, String preset, L3Program program, List<InputSpec> inputs, Golden golden,
                       Map<String, GoldenComparator> comparators, Map<String, String> runtimeCfg,
                       Map<String, InputFill> outputFills) {
        this(programName, preset, new Body.L3(program), inputs, golden, comparators, runtimeCfg, outputFills);
    }

    /** An L3-program spec whose outputs all start zeroed. */
    public ProgramSpec(String programName, String preset, L3Program program, List<InputSpec> inputs, Golden golden,
                       Map<String, GoldenComparator> comparators, Map<String, String> runtimeCfg) {
        this(programName, preset, new Body.L3(program), inputs, golden, comparators, runtimeCfg, Map.of());
    }

    public ProgramSpec {
        Objects.requireNonNull(programName, "programName");
        Objects.requireNonNull(preset, "preset");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(golden, "golden");
        Objects.requireNonNull(memoryExemption, "memoryExemption");
        inputs = List.copyOf(inputs);
        comparators = Map.copyOf(comparators);
        runtimeCfg = Map.copyOf(new TreeMap<>(runtimeCfg));
        checkInputs(programName, body, inputs);
        outputFills = Map.copyOf(outputFills);
        checkOutputs(programName, body, comparators);
        for (String name : outputFills.keySet()) {
            if (!comparators.containsKey(name)) {
                throw new IllegalArgumentException(programName + ": an initial fill is given for '" + name
                        + "', which is not an output of the program");
            }
        }
        for (String key : runtimeCfg.keySet()) {
            try {
                RunConfigKeys.component(key);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(programName + " preset " + preset + ": default runtime_cfg: "
                        + e.getMessage(), e);
            }
            // saved with the work dir, which may only carry the program's needs (DefaultRuntimeCfg.read)
            if (!RunConfigKeys.programNeedKeys().contains(key)) {
                throw new IllegalArgumentException(programName + " preset " + preset + ": default runtime_cfg: '"
                        + key + "' is the caller's setting, not what the program needs; allowed: "
                        + String.join(", ", RunConfigKeys.programNeedKeys()));
            }
        }
    }

    /**
     * This spec with {@code exemption}: kernels of its program that the on-chip memory check skips, each a kernel
     * of the program.
     *
     * @throws IllegalArgumentException naming an exempt kernel the program does not have
     */
    public ProgramSpec withMemoryExemption(MemoryExemption exemption) {
        Set<String> known = new TreeSet<>();
        chipPrograms().forEach(p -> p.kernels().forEach(k -> known.add(k.name())));
        for (String k : exemption.kernels()) {
            if (!known.contains(k)) {
                throw new IllegalArgumentException(programName + " preset " + preset + ": memory exemption names "
                        + "kernel '" + k + "', which the program does not have; its kernels: " + known);
            }
        }
        return new ProgramSpec(programName, preset, body, inputs, golden, comparators, runtimeCfg, outputFills,
                exemption);
    }

    /**
     * The chip program of a chip-program spec.
     *
     * @throws IllegalStateException for an L3 spec (use {@link #l3()} or {@link #chipPrograms()})
     */
    public Program program() {
        return switch (body) {
            case Body.Chip c -> c.program();
            case Body.L3 l -> throw new IllegalStateException(programName + " is an L3 program over "
                    + l.program().chipPrograms().size() + " chip program(s), not one chip program; use l3()");
        };
    }

    /** The L3 program of an L3 spec; empty for a chip-program spec. */
    public Optional<L3Program> l3() {
        return body instanceof Body.L3 l ? Optional.of(l.program()) : Optional.empty();
    }

    /** Every chip program this spec runs: the one of a chip-program spec, each distinct one of an L3 spec. */
    public List<Program> chipPrograms() {
        return switch (body) {
            case Body.Chip c -> List.of(c.program());
            case Body.L3 l -> List.copyOf(l.program().chipPrograms().values());
        };
    }

    /** The program's outputs, in declaration order. */
    public List<TensorDecl> outputs() {
        return body.outputs();
    }

    /** Comparators in output order. */
    public Map<String, GoldenComparator> comparatorsInOrder() {
        Map<String, GoldenComparator> ordered = new LinkedHashMap<>();
        for (TensorDecl d : body.outputs()) {
            ordered.put(d.name(), comparators.get(d.name()));
        }
        return ordered;
    }

    private static void checkInputs(String name, Body program, List<InputSpec> inputs) {
        List<TensorDecl> declared = program.inputs();
        if (declared.size() != inputs.size()) {
            throw new IllegalArgumentException(name + ": the program declares inputs " + declared
                    + " but the spec generates " + inputs);
        }
        for (int i = 0; i < inputs.size(); i++) {
            TensorDecl d = declared.get(i);
            InputSpec s = inputs.get(i);
            if (!d.name().equals(s.name()) || d.dtype() != s.dtype() || !Arrays.equals(d.shape(), s.shape())) {
                throw new IllegalArgumentException(name + ": input " + i + " is declared as " + d
                        + " but the spec generates " + s);
            }
        }
    }

    private static void checkOutputs(String name, Body program, Map<String, GoldenComparator> comparators) {
        Set<String> outs = new TreeSet<>();
        for (TensorDecl d : program.outputs()) {
            outs.add(d.name());
        }
        if (!outs.equals(new TreeSet<>(comparators.keySet()))) {
            throw new IllegalArgumentException(name + ": one comparator per output is needed: outputs " + outs
                    + ", comparators for " + new TreeSet<>(comparators.keySet()));
        }
    }
}
