package dev.jpto.compiler.run;

import dev.jpto.compiler.text.DidYouMean;
import dev.jpto.runtime.Platform;
import dev.jpto.runtime.RingField;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The string vocabulary of {@link RunConfig}, derived from its record components: the key of a component is
 * its name in snake_case ({@code ringHeap} → {@code ring_heap}), and its value is parsed according to the
 * component's type. Adding a component adds its key; there is no hand-kept list.
 */
public final class RunConfigKeys {
    private static final RecordComponent[] COMPONENTS = RunConfig.class.getRecordComponents();
    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");

    private RunConfigKeys() {
    }

    /** Every valid key, in component order. */
    public static List<String> keys() {
        List<String> keys = new ArrayList<>();
        for (RecordComponent c : COMPONENTS) {
            keys.add(snakeCase(c.getName()));
        }
        return List.copyOf(keys);
    }

    /**
     * The keys of the settings that describe what a program needs ({@link Knob#programNeed()}): the only ones a
     * work dir's default runtime_cfg may carry.
     */
    public static List<String> programNeedKeys() {
        List<String> keys = new ArrayList<>();
        for (RecordComponent c : COMPONENTS) {
            Knob knob = c.getAnnotation(Knob.class);
            if (knob != null && knob.programNeed()) {
                keys.add(snakeCase(c.getName()));
            }
        }
        return List.copyOf(keys);
    }

    /**
     * One line per key: {@code key=default  description}, from the components' {@link Knob} descriptions and
     * {@link RunConfig#defaults()}; what {@code --runtime-cfg} help prints.
     */
    public static List<String> help() {
        RunConfig d = RunConfig.defaults();
        List<String> lines = new ArrayList<>();
        for (RecordComponent c : COMPONENTS) {
            Knob knob = c.getAnnotation(Knob.class);
            if (knob == null) {
                throw new IllegalStateException("RunConfig component " + c.getName() + " has no @Knob description");
            }
            String key = snakeCase(c.getName());
            String def = asMap(d).getOrDefault(key, "");
            String text = c.getType() == RingSize.class ? RingField.byKey(key).help() + "; auto = the ring plan's"
                    : knob.value();
            if (text.isEmpty()) {
                throw new IllegalStateException("RunConfig component " + c.getName() + " has an empty @Knob");
            }
            lines.add(String.format(Locale.ROOT, "%-22s %-10s %s", key, def.isEmpty() ? "(unset)" : def, text));
        }
        return List.copyOf(lines);
    }

    /** {@code ringTaskWindow} → {@code ring_task_window}. */
    public static String snakeCase(String camel) {
        StringBuilder sb = new StringBuilder();
        for (char ch : camel.toCharArray()) {
            if (Character.isUpperCase(ch)) {
                sb.append('_').append(Character.toLowerCase(ch));
            } else {
                sb.append(ch);
            }
        }
        return sb.toString();
    }

    /** The record component a key names, or an error listing the valid keys. */
    public static RecordComponent component(String key) {
        for (RecordComponent c : COMPONENTS) {
            if (snakeCase(c.getName()).equals(key)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown run config key '" + key + "'; valid keys: "
                + String.join(", ", keys()) + DidYouMean.hint(key, keys()));
    }

    static RunConfig apply(RunConfig base, Map<String, String> values) {
        Object[] args = new Object[COMPONENTS.length];
        for (int i = 0; i < COMPONENTS.length; i++) {
            args[i] = get(base, COMPONENTS[i]);
        }
        for (Map.Entry<String, String> e : new TreeMap<>(values).entrySet()) {
            RecordComponent c = component(e.getKey());
            int i = List.of(COMPONENTS).indexOf(c);
            args[i] = parse(e.getKey(), c.getType(), e.getValue());
        }
        Class<?>[] types = new Class<?>[COMPONENTS.length];
        for (int i = 0; i < COMPONENTS.length; i++) {
            types[i] = COMPONENTS[i].getType();
        }
        try {
            return RunConfig.class.getDeclaredConstructor(types).newInstance(args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("RunConfig's canonical constructor is not accessible", e);
        }
    }

    static Map<String, String> asMap(RunConfig config) {
        Map<String, String> out = new LinkedHashMap<>();
        for (RecordComponent c : COMPONENTS) {
            Object v = get(config, c);
            String text = switch (v) {
                case Platform p -> p.text();
                case RingSize r -> r.text();
                case Map<?, ?> m -> {
                    List<String> pairs = new ArrayList<>();
                    m.forEach((k, val) -> pairs.add(k + "=" + val));
                    yield String.join(",", pairs);
                }
                default -> String.valueOf(v);
            };
            if (!text.isEmpty()) {
                out.put(snakeCase(c.getName()), text);
            }
        }
        return out;
    }

    static Object get(RunConfig config, RecordComponent c) {
        try {
            return c.getAccessor().invoke(config);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read RunConfig." + c.getName(), e);
        }
    }

    /**
     * The message for an integer beyond the int range: the field's own rule, checked at the nearest int (so each
     * range is stated once, where it is checked), with the value as given; a field whose rule allows every int
     * says so.
     */
    private static String outOfIntRange(String key, String digits) {
        boolean negative = digits.startsWith("-");
        String nearest = Integer.toString(negative ? Integer.MIN_VALUE : Integer.MAX_VALUE);
        String shown = key + "=" + nearest;
        try {
            // an output_prefix, so that a DFX level is checked against its range, not against a missing directory
            apply(RunConfig.defaults().withOutputPrefix("dfx"), Map.of(key, nearest)).validate();
        } catch (IllegalArgumentException e) {
            String rule = e.getMessage();
            if (rule != null && rule.startsWith(key + " ") && rule.contains(shown)) {
                return rule.replace(shown, key + "=" + digits);
            }
        }
        return key + (negative ? " must be >= " : " must be <= ") + nearest + ": " + key + "=" + digits;
    }

    private static Object parse(String key, Class<?> type, String text) {
        String t = text.trim();
        if (type == Platform.class) {
            try {
                return Platform.parse(t);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(key + "=" + text + ": " + e.getMessage(), e);
            }
        }
        if (type == int.class) {
            try {
                return Integer.parseInt(t);
            } catch (NumberFormatException e) {
                if (INTEGER.matcher(t).matches()) {
                    throw new IllegalArgumentException(outOfIntRange(key, t), e);
                }
                throw new IllegalArgumentException(key + " must be an integer: " + key + "=" + text, e);
            }
        }
        if (type == boolean.class) {
            return switch (t.toLowerCase(Locale.ROOT)) {
                case "true", "1" -> true;
                case "false", "0" -> false;
                default -> throw new IllegalArgumentException(key + " must be true/false (or 1/0): " + key + "=" + text);
            };
        }
        if (type == String.class) {
            return text;
        }
        if (type == RingSize.class) {
            return RingSize.parse(key, t);
        }
        if (type == Map.class) {
            Map<String, String> env = new TreeMap<>();
            if (t.isEmpty()) {
                return env;
            }
            for (String pair : t.split(",", -1)) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException(key + " takes NAME=value pairs separated by commas: " + key
                            + "=" + text + " has '" + pair + "'");
                }
                env.put(pair.substring(0, eq).trim(), pair.substring(eq + 1));
            }
            return env;
        }
        throw new IllegalStateException("RunConfig component " + key + " has type " + type.getName()
                + ", which RunConfigKeys cannot parse: add it here");
    }
}
