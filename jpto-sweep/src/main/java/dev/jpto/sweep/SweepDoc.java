package dev.jpto.sweep;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * The sweep file as written (YAML or JSON), before its names are checked: see docs/sweeps.md and
 * docs/schema/sweep.schema.json. Lists left out mean "the default" (the default preset, a2a3sim, seed 0).
 */
record SweepDoc(List<Located> programs, List<Located> presets,
                @JsonProperty("runtime_cfg") Map<String, List<Located>> runtimeCfg, List<Located> platforms,
                List<Long> seeds, Integer bench, Map<String, Located> expect) {
}
