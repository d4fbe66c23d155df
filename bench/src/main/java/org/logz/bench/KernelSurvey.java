package org.logz.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.logz.api.Estimation;
import org.logz.api.Logz;
import org.logz.backend.Betas;
import org.logz.backend.IndexVector;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.base.UserException;
import org.logz.estimate.ImpossibleEstimateException;
import org.logz.kernel.KernelProfiling;
import org.logz.kernel.KernelProfiling.Launch;
import org.logz.kernel.KernelProfiling.Resources;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.model.BaseRate;
import org.logz.model.GpClassification;
import org.logz.model.Rbm;
import org.logz.model.rbm.TemperedRbm;
import org.logz.resample.ResamplingScheme;

/**
 * The hot kernels of logz under the CUDA emulator's profile mode (DESIGN §7 "Kernel profiles"), run through the
 * backend the way the estimators run them: an RBM's base draw, Gibbs sweeps at one β and at a β per chain, an AIS
 * step's weights, the all-level log densities of tempered sampling; a short tempered-sampling run (the tempering
 * moves); each resampling scheme on {@link #RESAMPLED} particles; a small GP classifier's annealing with elliptical
 * slice moves, and its data annealing (rm) with the slice-sampling Gibbs sweep over the cases entered. Per kernel: its launches, the
 * coalescing and divergence over all of them, the worst bank conflict, the compulsory bytes of its largest launch,
 * ptxas's registers, spills and shared memory, and the occupancy these allow on sm_80 and sm_90 at the launch's block
 * size, against the targets {@link #MIN_COALESCING}, {@link #MAX_BANK_WAYS}, no spills and {@link #MIN_OCCUPANCY}.
 */
public final class KernelSurvey {
    /** Global sectors needed over sectors touched, at least. */
    public static final double MIN_COALESCING = 0.8;
    /** Shared-memory bank conflict degree of the worst access, at most. */
    public static final long MAX_BANK_WAYS = 2;
    /** Resident warps over the SM's maximum, at least. */
    public static final double MIN_OCCUPANCY = 0.5;

    /**
     * One kernel.
     *
     * @param workloads       where it ran
     * @param launches        profiled launches
     * @param threadsPerBlock the largest block it was launched with
     * @param coalescing      global sectors needed over touched, each summed over all its launches
     * @param worstBankWays   the worst shared access's conflict degree
     * @param divergence      warp-level basic blocks with inactive lanes, over all of them
     * @param maxLaunchBytes  compulsory bytes of its largest launch
     * @param sm80            ptxas and occupancy on sm_80, null where nvcc did not run
     * @param sm90            the same on sm_90
     * @param shortfalls      the targets it misses, empty when it meets them all
     */
    public record Kernel(String kernel, List<String> workloads, long launches, int threadsPerBlock, double coalescing,
                         long worstBankWays, double divergence, long maxLaunchBytes, Arch sm80, Arch sm90,
                         List<String> shortfalls) {
    }

    /** ptxas's account of a kernel on one architecture and the occupancy at its launch shape. */
    public record Arch(int registers, int spillBytes, int sharedPerBlock, int stack, int blocksPerSm, double occupancy) {
    }

    /**
     * @param model     the RBM's description
     * @param chains    chains (particles) of every workload
     * @param kernels   by name, in order of first launch
     * @param launches  every launch, in order, with its workload
     */
    public record Result(String model, int visible, int hidden, int chains, List<Kernel> kernels,
                         List<Profiled> launches) {
        /** The kernels that miss a target. */
        public List<Kernel> shortfalls() {
            return kernels.stream().filter(k -> !k.shortfalls().isEmpty()).toList();
        }
    }

    /** A launch and the workload that made it. */
    public record Profiled(String workload, Launch launch) {
    }

    /**
     * A Gibbs sweep of {@code chains} chains on a GPU's roofline: the two SGEMMs (U = XW, V = HWᵀ) at their
     * roofline, as cuBLAS approaches it, plus the sweep's own kernels at theirs, each kernel's compulsory bytes per
     * chain from the survey scaled to {@code chains} (their arithmetic, a Philox block and a logistic per four units,
     * is far below the bytes' time); {@code ratio} the sweep over the SGEMM pair alone.
     *
     * @param kernelSeconds the sweep's kernels on the roofline, by name (a kernel launched twice counted twice)
     */
    public record Projection(String gpu, int chains, double sgemmPairSeconds, double sweepSeconds, double ratio,
                             Map<String, Double> kernelSeconds) {
    }

    /** The workload the sweep projection reads. */
    public static final String SWEEP = "Gibbs sweep at β = 1";

    /**
     * {@link Projection} of the survey's sweep; null when the sweep ran logz's tiled GEMM kernels (a device without
     * cuBLAS), whose products are not the SGEMM pair's.
     */
    public static Projection project(Result survey, Roofline gpu, int chains) {
        long n = survey.visible();
        long h = survey.hidden();
        Map<String, Double> seconds = new LinkedHashMap<>();
        double own = 0;
        for (Profiled p : survey.launches()) {
            if (!p.workload().equals(SWEEP)) {
                continue;
            }
            if (p.launch().kernel().startsWith("logz_gemm")) {
                return null;
            }
            double t = gpu.seconds((double) p.launch().compulsoryBytes() / survey.chains() * chains, 0);
            seconds.merge(p.launch().kernel(), t, Double::sum);
            own += t;
        }
        double sgemm = gpu.sgemmSeconds(chains, h, n) + gpu.sgemmSeconds(chains, n, h);
        return new Projection(gpu.label, chains, sgemm, sgemm + own, (sgemm + own) / sgemm, seconds);
    }

    private KernelSurvey() {
    }

    /** The backend's {@link KernelProfiling}, or why it has none. */
    public static KernelProfiling profiling(ParticleBackend backend) {
        return backend.capability(KernelProfiling.class).orElseThrow(() -> new UserException(
                "kernel profiles need --backend cuda-emulated in its profile mode, which --project turns on unless "
                        + "LOGZ_EMULATOR_CHECKS or -Dlogz.emulator.checks names other checks (this is " + backend.name()
                        + ": " + backend.description() + ")"));
    }

    public static Result run(ParticleBackend backend, Rbm rbm, String model, int chains) {
        KernelProfiling profiling = profiling(backend);
        profiling.take();
        List<Profiled> launches = new ArrayList<>();
        rbmKernels(backend, rbm, chains, profiling, launches);
        if (launches.stream().noneMatch(p -> p.launch().kernel().startsWith("logz_gemm"))) {
            // the rest do not depend on the GEMM path: on the tiled one (minutes under the profiler) only the products
            // are new
            estimatorKernels(backend, rbm, chains, profiling, launches);
        }
        return new Result(model, rbm.visible(), rbm.hidden(), chains, kernels(launches, profiling), launches);
    }

    private static void estimatorKernels(ParticleBackend backend, Rbm rbm, int chains, KernelProfiling profiling,
                                         List<Profiled> launches) {
        // the visible-bias base rate: the default's fit samples 200 chains for 1000 sweeps, which under instrumentation
        // took most of the survey's time and mixed 200-chain launches into the run's; the moves are the same kernels
        run(Logz.rbm(rbm).rts().baseRate("visible-bias").backend(backend).chains(chains).levels(20).initialZ("one")
                .roundSweeps(2).rounds(1).sweeps(4).mbarSamples(0).seed(1));
        collect("rts run (tempering moves)", profiling, launches);
        resampling(backend, profiling, launches);
        GpClassification gp = classifier(CASES);
        run(Logz.gpc(gp).ais().backend(backend).chains(chains).steps(2).seed(1));
        collect("GP classifier ais (elliptical slice)", profiling, launches);
        run(Logz.gpc(gp).method("rm").backend(backend).particles(chains).islands(1).gibbsSteps(1).seed(1));
        collect("GP classifier rm (slice Gibbs over the cases)", profiling, launches);
    }

    /** Runs an estimation for its launches: a run this short may miss the mass, which its own checks refuse. */
    private static void run(Estimation estimation) {
        try {
            estimation.run();
        } catch (ImpossibleEstimateException e) {
            // the kernels ran all the same, and they are what is surveyed
        }
    }

        /** Cases of the survey's GP classifier: its kernels' shapes are per particle and case, not per data set. */
    static final int CASES = 64;

    /** A GP classifier of {@code n} cases on a circle, labelled by half-plane (squared-exponential, ℓ = σ = 1). */
    static GpClassification classifier(int n) {
        double[][] x = new double[n][];
        int[] labels = new int[n];
        for (int i = 0; i < n; i++) {
            x[i] = new double[] {Math.cos(i), Math.sin(i)};
            labels[i] = Math.sin(i) >= 0 ? 1 : -1;
        }
        return GpClassification.squaredExponential(x, labels, 0, 0, "survey circle of " + n + " cases");
    }

    private static void rbmKernels(ParticleBackend backend, Rbm rbm, int chains, KernelProfiling profiling,
                                   List<Profiled> launches) {
        double[] ladder = new double[SweepBenchmark.LEVELS];
        double[] chainBetas = new double[chains];
        for (int k = 0; k < ladder.length; k++) {
            ladder[k] = k / (ladder.length - 1.0);
        }
        for (int r = 0; r < chains; r++) {
            chainBetas[r] = ladder[r % ladder.length];
        }
        try (TemperedKernel ops = Kernels.tempered(backend, new TemperedRbm(rbm, BaseRate.uniform(rbm.visible())));
             ParticleMatrix x = backend.matrix(chains, rbm.visible()); ParticleVector lw = backend.vector(chains);
             ParticleVector levelBetas = backend.vector(ladder.length); ParticleVector betas = backend.vector(chains);
             ParticleVector logF = backend.vector(chains * ladder.length);
             ParticleVector slope = backend.vector(chains * ladder.length)) {
            backend.upload(ladder, levelBetas);
            backend.upload(chainBetas, betas);
            profiling.take();
            ops.sampleBase(x, chains, 1, 0);
            collect("base draw", profiling, launches);
            ops.transition(x, chains, Betas.of(1.0), 1, 1, 1);
            collect("Gibbs sweep at β = 1", profiling, launches);
            ops.anneal(x, chains, 0.5, 0.51, lw, 1, 1, 2);
            collect("AIS step", profiling, launches);
            ops.levels(x, chains, levelBetas, ladder.length, logF, slope);
            collect("all-level log f (" + ladder.length + " levels)", profiling, launches);
            ops.transition(x, chains, Betas.of(betas), 1, 1, 3);
            collect("Gibbs sweep, a β per chain", profiling, launches);
        }
    }

    /**
     * Particles of the resampling workload, whatever the survey's chains: SMC and ARM resample thousands, and a
     * population within one warp or one scan chunk would hide how the scans and searches read at that size.
     */
    static final int RESAMPLED = 4096;

    /** Every resampling scheme once, from uneven weights, as SMC and ARM call them. */
    private static void resampling(ParticleBackend backend, KernelProfiling profiling, List<Profiled> launches) {
        double[] logW = new double[RESAMPLED];
        for (int i = 0; i < RESAMPLED; i++) {
            logW[i] = -0.05 * (i % 64) * (i % 7);
        }
        try (ParticleVector w = backend.vector(RESAMPLED); IndexVector out = backend.indices(RESAMPLED)) {
            backend.upload(logW, w);
            for (ResamplingScheme scheme : ResamplingScheme.values()) {
                profiling.take();
                backend.resampler(scheme).ancestors(w, RESAMPLED, RESAMPLED, 1, 1, out);
                collect(scheme.name().toLowerCase(Locale.ROOT) + " resampling", profiling, launches);
            }
        }
    }

    private static void collect(String workload, KernelProfiling profiling, List<Profiled> launches) {
        for (Launch l : profiling.take()) {
            launches.add(new Profiled(workload, l));
        }
    }

    private static List<Kernel> kernels(List<Profiled> launches, KernelProfiling profiling) {
        Map<String, List<Profiled>> byKernel = new LinkedHashMap<>();
        for (Profiled p : launches) {
            byKernel.computeIfAbsent(p.launch().kernel(), k -> new ArrayList<>()).add(p);
        }
        Map<String, Resources> sm80 = profiling.resources("sm_80");
        Map<String, Resources> sm90 = profiling.resources("sm_90");
        List<Kernel> out = new ArrayList<>();
        for (Map.Entry<String, List<Profiled>> e : byKernel.entrySet()) {
            long needed = 0;
            long touched = 0;
            long ways = 1;
            long blocks = 0;
            long divergent = 0;
            long bytes = 0;
            int threads = 0;
            long dynamicShared = 0;
            List<String> workloads = new ArrayList<>();
            for (Profiled p : e.getValue()) {
                Launch l = p.launch();
                needed += l.globalMinSectors();
                touched += l.globalSectors();
                ways = Math.max(ways, l.sharedMaxWay());
                blocks += l.basicBlocks();
                divergent += l.divergentBlocks();
                bytes = Math.max(bytes, l.compulsoryBytes());
                if (l.threadsPerBlock() > threads) {
                    threads = l.threadsPerBlock();
                    dynamicShared = l.dynamicShared();
                }
                if (!workloads.contains(p.workload())) {
                    workloads.add(p.workload());
                }
            }
            double coalescing = touched == 0 ? 1 : (double) needed / touched;
            Arch a80 = arch(sm80.get(e.getKey()), Occupancy.SM_80, threads, dynamicShared);
            Arch a90 = arch(sm90.get(e.getKey()), Occupancy.SM_90, threads, dynamicShared);
            List<String> shortfalls = new ArrayList<>();
            if (coalescing < MIN_COALESCING) {
                shortfalls.add(String.format("coalescing %.2f < %.2f", coalescing, MIN_COALESCING));
            }
            if (ways > MAX_BANK_WAYS) {
                shortfalls.add(ways + "-way bank conflicts > " + MAX_BANK_WAYS);
            }
            for (Arch a : new Arch[] {a80, a90}) {
                String name = a == a80 ? "sm_80" : "sm_90";
                if (a != null && a.spillBytes() > 0) {
                    shortfalls.add(a.spillBytes() + " bytes of spills on " + name);
                }
                if (a != null && a.occupancy() < MIN_OCCUPANCY) {
                    shortfalls.add(String.format("occupancy %.2f < %.2f on %s", a.occupancy(), MIN_OCCUPANCY, name));
                }
            }
            out.add(new Kernel(e.getKey(), List.copyOf(workloads), e.getValue().size(), threads, coalescing, ways,
                    blocks == 0 ? 0 : (double) divergent / blocks, bytes, a80, a90,
                    List.copyOf(shortfalls)));
        }
        return out;
    }

    private static Arch arch(Resources r, Occupancy limits, int threads, long dynamicShared) {
        if (r == null) {
            return null;
        }
        int shared = (int) (r.staticShared() + dynamicShared);
        int blocks = limits.blocksPerSm(threads, r.registers(), shared);
        return new Arch(r.registers(), r.spillStores() + r.spillLoads(), shared, r.stack(), blocks,
                limits.occupancy(threads, blocks));
    }
}
