package dev.jpto.runtime.ring;

import dev.jpto.runtime.TaskBody;
import java.util.Arrays;

/**
 * The kernels (body and name) submitted to one ring in the current run, each under a small id that a task's slot
 * holds instead of two references. A reference store into the long-lived slot arrays costs G1's post-write barrier a
 * StoreLoad fence (JDK 25) on every submit whose kernel differs from its slot's previous occupant's, which is most of
 * them; an entry here is stored once per kernel per run.
 *
 * <p>Entries are only appended during a run, never replaced, since a task in flight may hold any id: the scheduler
 * threads read an entry after the task was published to them, with everything the orchestrator wrote before. A run
 * with more distinct kernels than {@value #CAPACITY} keeps the rest in the slots, and once the table has missed
 * {@value #CAPACITY} kernels for want of room (a run submitting a fresh capturing lambda per task) it is no longer
 * searched, only its last find compared. Cleared at the end of the run, so that no user object outlives it.
 */
final class KernelTable {
    static final int NONE = -1;
    static final int CAPACITY = 64;
    private final TaskBody[] bodies = new TaskBody[CAPACITY];
    private final String[] names = new String[CAPACITY];
    private int size;
    /** The id the previous lookup found: loops submit the same kernel again and again. */
    private int last = NONE;
    /** Kernels that found the table full. */
    private int missesWhileFull;

    /** Orchestrator: the id of ({@code body}, {@code name}), added if there is room; {@link #NONE} if not held. */
    int idOf(TaskBody body, String name) {
        int l = last;
        return l != NONE && bodies[l] == body && names[l] == name ? l : find(body, name);
    }

    private int find(TaskBody body, String name) {
        if (missesWhileFull < CAPACITY) {
            for (int i = 0; i < size; i++) {
                if (bodies[i] == body && names[i] == name) {
                    last = i;
                    return i;
                }
            }
        }
        if (size == CAPACITY) {
            missesWhileFull++;
            return NONE;
        }
        bodies[size] = body;
        names[size] = name;
        last = size;
        return size++;
    }

    TaskBody body(int id) {
        return bodies[id];
    }

    String name(int id) {
        return names[id];
    }

    /** Forgets every kernel (no task of the run is in flight any more). */
    void clear() {
        Arrays.fill(bodies, 0, size, null);
        Arrays.fill(names, 0, size, null);
        size = 0;
        last = NONE;
        missesWhileFull = 0;
    }
}
