package dev.jpto.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jpto.compiler.dsl.KTensor;
import dev.jpto.compiler.dsl.KTile;
import dev.jpto.compiler.dsl.KernelBuilder;
import dev.jpto.compiler.dsl.KernelRef;
import dev.jpto.compiler.dsl.ProgramBuilder;
import dev.jpto.compiler.dsl.TaskArg;
import dev.jpto.compiler.dsl.TensorVar;
import dev.jpto.compiler.ir.Program;
import dev.jpto.isa.DType;
import dev.jpto.lib.compare.Comparators;
import dev.jpto.lib.gen.Init;
import dev.jpto.lib.registry.Golden;
import dev.jpto.lib.registry.InputSpec;
import dev.jpto.lib.registry.PresetProgram;
import dev.jpto.lib.registry.ProgramDef;
import dev.jpto.lib.registry.ProgramRegistry;
import dev.jpto.lib.registry.ProgramSpec;
import dev.jpto.lib.registry.Programs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RegistryTest {
    /** The smallest valid program with input x and output y, both fp32[4, 4]: one task copies x to y. */
    private static Program copyXToY() {
        KernelBuilder k = KernelBuilder.kernel("copy");
        KTensor src = k.input("src", DType.FP32, 2);
        KTensor dst = k.output("dst", DType.FP32, 2);
        KTile t = k.tile("t", DType.FP32, 4, 4);
        k.load(t, src, 0, 0).store(t, dst, 0, 0);
        ProgramBuilder p = ProgramBuilder.program("copy_x_to_y");
        TensorVar x = p.input("x", DType.FP32, 4, 4);
        TensorVar y = p.output("y", DType.FP32, 4, 4);
        KernelRef copy = p.aiv(k.build());
        p.orchestrate(o -> o.submit(copy, TaskArg.in(x), TaskArg.outExisting(y)));
        return p.build();
    }

    private static final Golden NO_OP = (in, out) -> { };

    @Test
    void theStandardRegistryHasTheBasicPrograms() {
        assertThat(Programs.registry().names()).contains("basic.vector_add", "basic.matmul", "basic.softmax",
                "basic.rmsnorm", "basic.flash_attention");
    }

    @Test
    void anUnknownProgramListsTheRegisteredOnes() {
        assertThatThrownBy(() -> Programs.registry().get("basic.matmull"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown program 'basic.matmull'")
                .hasMessageContaining("basic.matmul, basic.rmsnorm");
    }

    @Test
    void anUnknownPresetListsTheProgramsPresets() {
        assertThatThrownBy(() -> Programs.registry().get("basic.matmul").spec("huge"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown preset 'huge' for basic.matmul; valid presets: tiny, tiny_bf16, demo, demo_fp32,"
                        + " large");
    }

    @Test
    void everyPresetOfEveryProgramBuildsAConsistentSpec() {
        for (ProgramDef def : Programs.registry().all()) {
            for (String preset : def.presets()) {
                ProgramSpec s = def.spec(preset);
                assertThat(s.programName()).isEqualTo(def.name());
                assertThat(s.preset()).isEqualTo(preset);
                assertThat(s.comparatorsInOrder().keySet())
                        .containsExactlyElementsOf(s.outputs().stream().map(d -> d.name()).toList());
            }
        }
    }

    @Test
    void aSpecWhoseInputsDisagreeWithItsProgramIsRejected() {
        assertThatThrownBy(() -> new ProgramSpec("t.empty", "tiny", copyXToY(),
                List.of(InputSpec.of("x", DType.BF16, new long[] {4, 4}, new Init.Uniform(0, 1))), NO_OP,
                Map.of("y", Comparators.allclose(0, 0)), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("input 0 is declared as x: fp32[4, 4]")
                .hasMessageContaining("x: bf16[4, 4]");
    }

    @Test
    void aSpecNeedsOneComparatorPerOutput() {
        assertThatThrownBy(() -> new ProgramSpec("t.empty", "tiny", copyXToY(),
                List.of(InputSpec.of("x", DType.FP32, new long[] {4, 4}, new Init.Uniform(0, 1))), NO_OP,
                Map.of("z", Comparators.allclose(0, 0)), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outputs [y], comparators for [z]");
    }

    @Test
    void aDefaultRuntimeCfgWithAnUnknownKeyIsRejectedWhenTheSpecIsBuilt() {
        assertThatThrownBy(() -> new ProgramSpec("t.empty", "tiny", copyXToY(),
                List.of(InputSpec.of("x", DType.FP32, new long[] {4, 4}, new Init.Uniform(0, 1))), NO_OP,
                Map.of("y", Comparators.allclose(0, 0)), Map.of("ring_heep", "1GiB")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("default runtime_cfg")
                .hasMessageContaining("'ring_heep'")
                .hasMessageContaining("ring_heap");
    }

    @Test
    void aDefaultRuntimeCfgWithACallersSettingIsRejectedWhenTheSpecIsBuilt() {
        assertThatThrownBy(() -> new ProgramSpec("t.empty", "tiny", copyXToY(),
                List.of(InputSpec.of("x", DType.FP32, new long[] {4, 4}, new Init.Uniform(0, 1))), NO_OP,
                Map.of("y", Comparators.allclose(0, 0)), Map.of("output_prefix", "/tmp/elsewhere")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("t.empty preset tiny: default runtime_cfg: 'output_prefix' is the caller's "
                        + "setting")
                .hasMessageContaining("allowed: aicpu_thread_num, ring_task_window, ring_heap, ring_dep_pool");
    }

    @Test
    void presetsAndProgramsAreUnique() {
        record P(String name) {
        }
        assertThatThrownBy(() -> new PresetProgram<>("t.x", "d", List.of(new P("tiny"), new P("tiny")), P::name,
                "tiny", p -> null))
                .hasMessageContaining("preset tiny is declared twice");
        assertThatThrownBy(() -> new PresetProgram<>("t.x", "d", List.of(new P("tiny")), P::name, "demo", p -> null))
                .hasMessageContaining("default preset demo is not one of [tiny]");
        ProgramDef a = new PresetProgram<>("t.x", "d", List.of(new P("tiny")), P::name, "tiny", p -> null);
        assertThatThrownBy(() -> new ProgramRegistry(List.of(a, a))).hasMessageContaining("program 't.x' is defined twice by built-in");
    }
}
