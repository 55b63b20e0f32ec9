package dev.jpto.lib.registry;

import dev.jpto.compiler.ir.Program;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.run.RunConfigKeys;
import dev.jpto.lib.compare.GoldenComparator;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One registered program at one preset: everything the golden runner needs. Checked on construction, so a
 * registry entry that disagrees with its own program fails when it is built, not half-way through a run.
 *
 * @param programName the registry name, e.g. {@code basic.matmul}
 * @param preset      the preset this spec was built for
 * @param program     the DSL program (IR, not yet compiled)
 * @param inputs      one entry per program input, in the program's order, same dtype and shape
 * @param golden      the plain-Java reference
 * @param comparators one comparator per program output ({@link NotValidated} for a scratch output)
 * @param runtimeCfg  default {@code --runtime-cfg} entries in RunConfig's own key vocabulary (e.g. a ring size
 *                    the program is known to need); the caller's entries override them
 * @param outputFills initial contents of outputs the program updates in place (an in/out tensor such as a cache);
 *                    every other output starts zeroed. The golden's output tensors start with the same contents.
 */
public record ProgramSpec(String programName, String preset, Program program, List<InputSpec> inputs, Golden golden,
                          Map<String, GoldenComparator> comparators, Map<String, String> runtimeCfg,
                          Map<String, InputFill> outputFills) {
    /** A spec whose outputs all start zeroed. */
    public ProgramSpec(String programName, String preset, Program program, List<InputSpec> inputs, Golden golden,
                       Map<String, GoldenComparator> comparators, Map<String, String> runtimeCfg) {
        this(programName, preset, program, inputs, golden, comparators, runtimeCfg, Map.of());
    }

    public ProgramSpec {
        Objects.requireNonNull(programName, "programName");
        Objects.requireNonNull(preset, "preset");
        Objects.requireNonNull(program, "program");
        Objects.requireNonNull(golden, "golden");
        inputs = List.copyOf(inputs);
        comparators = Map.copyOf(comparators);
        runtimeCfg = Map.copyOf(new TreeMap<>(runtimeCfg));
        checkInputs(programName, program, inputs);
        outputFills = Map.copyOf(outputFills);
        checkOutputs(programName, program, comparators);
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
        }
    }

    /** The program's outputs, in declaration order. */
    public List<TensorDecl> outputs() {
        return program.outputs();
    }

    /** Comparators in output order. */
    public Map<String, GoldenComparator> comparatorsInOrder() {
        Map<String, GoldenComparator> ordered = new LinkedHashMap<>();
        for (TensorDecl d : program.outputs()) {
            ordered.put(d.name(), comparators.get(d.name()));
        }
        return ordered;
    }

    private static void checkInputs(String name, Program program, List<InputSpec> inputs) {
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

    private static void checkOutputs(String name, Program program, Map<String, GoldenComparator> comparators) {
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
