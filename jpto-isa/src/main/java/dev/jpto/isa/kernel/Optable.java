package dev.jpto.isa.kernel;

import dev.jpto.isa.op.Fn;
import java.util.HashMap;
import java.util.Map;

/** Mnemonic → op family, derived from the enums so the parser's table matches {@link Mnemonics} exactly. */
final class Optable {
    private Optable() {
    }

    enum BinForm { TILE, SCALAR, ROW, COL }

    sealed interface Entry {
        record Fixed(String name) implements Entry {
        }

        record Bin(Fn.Binary fn, BinForm form) implements Entry {
        }

        record Un(Fn.Unary fn) implements Entry {
        }

        record Red(Fn.Reduce fn, Fn.Axis axis) implements Entry {
        }

        record Cmp(Fn.Compare fn, boolean scalar) implements Entry {
        }

        record Mm(boolean transposeB, boolean accumulate) implements Entry {
        }
    }

    static final Map<String, Entry> BY_NAME = build();

    private static Map<String, Entry> build() {
        Map<String, Entry> m = new HashMap<>();
        for (String f : new String[] {"load", "load_rows", "store", "fill", "copy", "cast", "transpose", "select",
            "gather_rows", "topk", "cumsum", "quantize", "dequantize", "iota"}) {
            put(m, f, new Entry.Fixed(f));
        }
        for (Fn.Binary fn : Fn.Binary.values()) {
            String n = Mnemonics.lower(fn);
            put(m, n, new Entry.Bin(fn, BinForm.TILE));
            put(m, n + "s", new Entry.Bin(fn, BinForm.SCALAR));
            put(m, n + "_rb", new Entry.Bin(fn, BinForm.ROW));
            put(m, n + "_cb", new Entry.Bin(fn, BinForm.COL));
        }
        for (Fn.Unary fn : Fn.Unary.values()) {
            put(m, Mnemonics.lower(fn), new Entry.Un(fn));
        }
        for (Fn.Reduce fn : Fn.Reduce.values()) {
            for (Fn.Axis axis : Fn.Axis.values()) {
                put(m, Mnemonics.lower(fn) + "_" + Mnemonics.lower(axis), new Entry.Red(fn, axis));
            }
        }
        for (Fn.Compare fn : Fn.Compare.values()) {
            put(m, "cmp_" + Mnemonics.lower(fn), new Entry.Cmp(fn, false));
            put(m, "cmp_" + Mnemonics.lower(fn) + "s", new Entry.Cmp(fn, true));
        }
        for (boolean t : new boolean[] {false, true}) {
            for (boolean acc : new boolean[] {false, true}) {
                put(m, "matmul" + (t ? "_bt" : "") + (acc ? "_acc" : ""), new Entry.Mm(t, acc));
            }
        }
        return Map.copyOf(m);
    }

    private static void put(Map<String, Entry> m, String name, Entry e) {
        if (m.put(name, e) != null) {
            throw new IllegalStateException("two ops share the mnemonic " + name);
        }
    }
}
