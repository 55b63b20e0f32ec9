package dev.jpto.compiler.l3;

/**
 * Which chip a call runs on: {@link RoundRobin} (the next chip in turn, counting the round-robin calls in
 * program order), or a fixed {@link Chip} index — relative to the run's first device, so chip 1 is device
 * {@code device_id + 1}.
 */
public sealed interface Placement {
    /** The default: call {@code k} of the round-robin calls runs on chip {@code k mod N}. */
    static Placement roundRobin() {
        return RoundRobin.INSTANCE;
    }

    /** Always chip {@code index} (0-based, relative to the run's first device); the run needs index+1 chips. */
    static Placement chip(int index) {
        return new Chip(index);
    }

    /** The chip index for a call, given how many round-robin calls came before it and how many chips run. */
    int chipIndex(int roundRobinOrdinal, int chips);

    /** Round-robin over the run's chips. */
    enum RoundRobin implements Placement {
        INSTANCE;

        @Override
        public int chipIndex(int roundRobinOrdinal, int chips) {
            return roundRobinOrdinal % chips;
        }

        @Override
        public String toString() {
            return "round_robin";
        }
    }

    /** A fixed chip. */
    record Chip(int index) implements Placement {
        public Chip {
            if (index < 0) {
                throw new IllegalArgumentException("chip index must be >= 0: chip=" + index);
            }
        }

        @Override
        public int chipIndex(int roundRobinOrdinal, int chips) {
            if (index >= chips) {
                throw new IllegalArgumentException("a call is placed on chip " + index + " but the run has " + chips
                        + " chip(s); run on at least " + (index + 1) + " chips (--chips " + (index + 1)
                        + ") or place it round-robin");
            }
            return index;
        }

        @Override
        public String toString() {
            return "chip " + index;
        }
    }
}
