package org.logz.bench.cli;

import picocli.CommandLine.Option;
import org.logz.cli.BackendOptions;
import org.logz.cli.OptionChecks;

/** The timing options of the sweep benchmarks ({@code bench sweep}, {@code bench peers}). */
final class SweepOptions {
    @Option(names = "--chains", defaultValue = "1000", description = "Default: ${DEFAULT-VALUE}.")
    int chains;

    @Option(names = "--sweeps", defaultValue = "10", description = "Sweeps per timed repetition. Default: ${DEFAULT-VALUE}.")
    int sweeps;

    @Option(names = "--repeats", defaultValue = "5", description = "Timed repetitions; medians are reported. Default: ${DEFAULT-VALUE}.")
    int repeats;

    @Option(names = "--runs", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "After the timed sweeps, time a default tempered-sampling (rts) run, initial rounds and MBAR "
                    + "included, against an AIS run with as many chains, per chain-sweep (--no-runs skips them; on "
                    + "784×500 they take about half a minute).")
    boolean runs;

    /** Checks the options and returns the backend threads: --threads, else every core. */
    int checkedThreads(BackendOptions backend) {
        OptionChecks.atLeast("--chains", chains, 1);
        OptionChecks.atLeast("--sweeps", sweeps, 1);
        OptionChecks.atLeast("--repeats", repeats, 1);
        return backend.threads() == null ? Runtime.getRuntime().availableProcessors() : backend.threads();
    }
}
