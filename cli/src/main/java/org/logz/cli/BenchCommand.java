package org.logz.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.logz.backend.ParticleBackend;
import org.logz.bench.SweepBenchmark;
import org.logz.model.BaseRate;
import org.logz.model.Rbm;
import org.logz.model.RandomRbm;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code logz bench}: speed measurements reported as ratios measured in one run. */
@Command(name = "bench", mixinStandardHelpOptions = true, subcommands = BenchCommand.Sweep.class,
        description = "Benchmarks; speed is reported as ratios to the matrix products measured in the same run.")
final class BenchCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "sweep", mixinStandardHelpOptions = true,
            description = "Gibbs sweeps and AIS steps per second, and their time over the time of their two matrix products alone.")
    static final class Sweep implements Runnable {
        @Spec
        CommandSpec spec;

        @Option(names = "--model", paramLabel = "FILE", description = "RBM .npz. Default: a random 784×500 RBM (seed 1).")
        Path model;

        @Option(names = "--chains", defaultValue = "1000", description = "Default: ${DEFAULT-VALUE}.")
        int chains;

        @Option(names = "--sweeps", defaultValue = "10", description = "Sweeps per timed repetition. Default: ${DEFAULT-VALUE}.")
        int sweeps;

        @Option(names = "--repeats", defaultValue = "5", description = "Timed repetitions; medians are reported. Default: ${DEFAULT-VALUE}.")
        int repeats;

        @Mixin
        BackendOptions backendOptions;

        @Override
        public void run() {
            Rbm rbm = model == null ? RandomRbm.create(784, 500, 0.05, 1) : ModelSource.resolve(model).rbm();
            int threads = backendOptions.threads == null ? Runtime.getRuntime().availableProcessors() : backendOptions.threads;
            SweepBenchmark.Result r;
            try (ParticleBackend backend = backendOptions.open()) {
                r = SweepBenchmark.run(backend, rbm, BaseRate.uniform(rbm.visible()),
                        new SweepBenchmark.Settings(chains, sweeps, repeats, threads));
            }
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("model", model == null ? "random 784×500" : model.toString());
            o.put("backend", r.backend());
            o.put("visible", r.visible());
            o.put("hidden", r.hidden());
            o.put("chains", r.chains());
            o.put("threads", r.threads());
            o.put("sweepsPerSecond", r.sweepsPerSecond());
            o.put("chainSweepsPerSecond", r.sweepsPerSecond() * r.chains());
            o.put("sweepOverGemm", r.sweepOverGemm());
            o.put("aisStepOverGemm", r.annealOverGemm());
            o.put("gemmGflops", r.gemmGflops());
            o.put("sweepSeconds", r.sweepSeconds());
            o.put("aisStepSeconds", r.annealStepSeconds());
            o.put("gemmSeconds", r.gemmSeconds());
            Json.print(spec.commandLine().getOut(), o);
        }
    }
}
