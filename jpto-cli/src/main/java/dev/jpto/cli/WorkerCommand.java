package dev.jpto.cli;

import dev.jpto.sweep.Concurrency;
import dev.jpto.sweep.Sweep;
import dev.jpto.sweep.Worker;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code jpto worker}: a member of a sweep cluster that runs cases (docs/sweeps.md). */
@Command(name = "worker", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run sweep cases for 'jpto sweep FILE --join …' as a member of a cluster: start one (no "
                + "--join) or join one; runs until Ctrl-C.",
            "Exit 0 stopped, 2 bad options or refused by the cluster (another secret or cluster name)."})
final class WorkerCommand implements Callable<Integer> {
    @ParentCommand
    JptoCommand top;

    @Mixin
    ClusterOptions cluster;

    @Option(names = "--slots", paramLabel = "N",
            description = "the most cases run at once, each with an even share of the memory budget; fewer when "
                    + "half the processors or the available memory / 256MiB per case allow fewer (default: as many "
                    + "as they allow)")
    Integer slots;

    @Option(names = "--verbose", description = "show stack traces of errors")
    boolean verbose;

    @Override
    public Integer call() {
        return Outcome.of("worker", top.err, verbose, () -> {
            if (slots != null && slots < 1) {
                throw new UsageException("--slots must be >= 1: --slots " + slots + " (try "
                        + Sweep.defaultParallel() + ")");
            }
            Concurrency rule = Concurrency.forWorker(slots);
            top.out.println("[WORKER] " + rule.slots() + " slot(s): " + rule.reason());
            Worker worker = new Worker(top.out, cluster.spec("jpto worker"), rule.slots(), top.env);
            try {
                worker.serve();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                top.out.println("[WORKER] stopped");
            }
            return 0;
        });
    }
}
