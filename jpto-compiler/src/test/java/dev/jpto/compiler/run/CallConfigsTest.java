package dev.jpto.compiler.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.jpto.runtime.CallConfig;
import dev.jpto.runtime.Platform;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The seed's bug was a dispatch path that dropped RunConfig fields; these tests make that a test failure. */
class CallConfigsTest {
    /** A non-default, valid value for each component type; a component of a new type must add one here. */
    private static Object sample(RecordComponent c) {
        Class<?> t = c.getType();
        if (t == Platform.class) {
            return Platform.A5SIM;
        }
        if (t == int.class) {
            return switch (RunConfigKeys.snakeCase(c.getName())) {
                case "aicpu_thread_num" -> 3;
                case "enable_chip_swimlane", "enable_dump_args", "enable_pmu", "device_id" -> 2;
                default -> 7;
            };
        }
        if (t == boolean.class) {
            return true;
        }
        if (t == String.class) {
            return "/tmp/jpto-prefix";
        }
        if (t == RingSize.class) {
            return RingSize.of(1 << 12, 1 << 13, 1 << 14, 1 << 15);
        }
        if (t == Map.class) {
            return Map.of(OsEnv.SCHEDULER_TIMEOUT_MS, "1234");
        }
        return fail("no sample value for RunConfig component " + c.getName() + " of type " + t.getName()
                + ": add one to CallConfigsTest.sample and apply the component in CallConfigs.from (or list it in "
                + "CallConfigs.HOST_ONLY)");
    }

    /** Base: a prefix set, so turning on any single DFX flag stays valid. */
    private static final RunConfig BASE = RunConfig.defaults().withOutputPrefix("/tmp/jpto-base");

    private static RunConfig withComponent(RunConfig base, RecordComponent changed, Object value) throws Exception {
        RecordComponent[] cs = RunConfig.class.getRecordComponents();
        Object[] args = new Object[cs.length];
        Class<?>[] types = new Class<?>[cs.length];
        for (int i = 0; i < cs.length; i++) {
            args[i] = cs[i].getName().equals(changed.getName()) ? value : cs[i].getAccessor().invoke(base);
            types[i] = cs[i].getType();
        }
        return RunConfig.class.getDeclaredConstructor(types).newInstance(args);
    }

    @Test
    void everyComponentReachesTheCallConfigUnlessMarkedHostOnly() throws Exception {
        CallConfig base = CallConfigs.from(BASE);
        List<String> forgotten = new ArrayList<>();
        for (RecordComponent c : RunConfig.class.getRecordComponents()) {
            String key = RunConfigKeys.snakeCase(c.getName());
            RunConfig changed = withComponent(BASE, c, sample(c));
            assertThat(changed).as(key + " sample must differ from the base").isNotEqualTo(BASE);
            boolean applied = !CallConfigs.from(changed).equals(base);
            if (CallConfigs.HOST_ONLY.containsKey(key)) {
                assertThat(applied).as(key + " is marked host-only but changes the CallConfig").isFalse();
            } else if (!applied) {
                forgotten.add(key);
            }
        }
        assertThat(forgotten).as("RunConfig components that CallConfigs.from does not apply").isEmpty();
        assertThat(RunConfigKeys.keys()).as("host-only entries must name real components")
                .containsAll(CallConfigs.HOST_ONLY.keySet());
    }

    @Test
    void ringFieldsBecomeExactlyTheirRuntimeEnvEntries() {
        RunConfig c = BASE.withRingTaskWindow(RingSize.of(64, 128, 0, 256))
                .withRingHeap(RingSize.of(1 << 20))
                .withRingDepPool(RingSize.of(0, 0, 0, 1024));
        CallConfig call = CallConfigs.from(c);
        assertThat(call.runtimeEnv().ringTaskWindow()).containsExactly(64, 128, 0, 256);
        assertThat(call.runtimeEnv().ringHeap()).containsExactly(1 << 20, 1 << 20, 1 << 20, 1 << 20);
        assertThat(call.runtimeEnv().ringDepPool()).containsExactly(0, 0, 0, 1024);
        assertThat(CallConfigs.from(RunConfig.defaults()).runtimeEnv().ringHeap()).containsExactly(0, 0, 0, 0);
    }

    /**
     * No main source except CallConfigs builds or edits a CallConfig: a second builder is how a surface drops
     * fields.
     */
    @Test
    void callConfigsIsTheOnlyCodeThatBuildsACallConfig() throws IOException {
        Path main = Path.of("src/main/java");
        assertThat(main).isDirectory();
        List<String> offenders = new ArrayList<>();
        try (Stream<Path> files = Files.walk(main)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                if (f.getFileName().toString().equals("CallConfigs.java")) {
                    continue;
                }
                String text = Files.readString(f);
                for (String forbidden : List.of("new CallConfig(", "CallConfig.defaults(", ".withRuntimeEnv(",
                        ".withAicpuThreadNum(", ".withScopeStats(", "new RuntimeEnv(", "RuntimeEnv.defaults(")) {
                    if (text.contains(forbidden) && !(forbidden.equals(".withAicpuThreadNum(")
                            && f.getFileName().toString().equals("RunConfig.java"))) {
                        offenders.add(main.relativize(f) + " uses " + forbidden);
                    }
                }
            }
        }
        assertThat(offenders).isEmpty();
    }

    /** Chips are opened and run only in Dispatch, which takes its CallConfig from CallConfigs.from. */
    @Test
    void onlyDispatchOpensAndRunsAChip() throws IOException {
        Path main = Path.of("src/main/java");
        List<String> offenders = new ArrayList<>();
        try (Stream<Path> files = Files.walk(main)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                if (f.getFileName().toString().equals("Dispatch.java")) {
                    continue;
                }
                String text = Files.readString(f);
                for (String forbidden : List.of("Chip.open(", "chip.run(", "new ProgramInterpreter(")) {
                    if (text.contains(forbidden)) {
                        offenders.add(main.relativize(f) + " uses " + forbidden);
                    }
                }
            }
        }
        assertThat(offenders).isEmpty();
        assertThat(Files.readString(main.resolve("dev/jpto/compiler/launch/Dispatch.java")))
                .contains("CallConfigs.from(config)").doesNotContain("new CallConfig(");
    }
}
