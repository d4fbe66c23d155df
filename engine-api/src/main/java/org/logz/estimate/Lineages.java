package org.logz.estimate;

import java.util.OptionalDouble;

import org.logz.backend.IndexVector;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleVector;

/**
 * The Eve indices of a population of R particles under multinomial resampling (the particle of the
 * first generation each one descends from) and the single-run variance estimate of Lee &amp; Whiteley
 * (2018) that they give, in the adaptive-resampling form of Du &amp; Guyader (2021). Shared by every
 * estimator that resamples a fixed population (Resample-Move, the SMC sampler). Owns two index vectors
 * on the backend.
 */
public final class Lineages implements AutoCloseable {
    private final ParticleBackend backend;
    private final int particles;
    private IndexVector eve;
    private IndexVector next;
    private int resamplings;

    public Lineages(ParticleBackend backend, int particles) {
        this.backend = backend;
        this.particles = particles;
        this.eve = backend.indices(particles);
        this.next = backend.indices(particles);
        backend.sequence(eve, 0, particles, 0);
    }

    /** Each particle's first-generation ancestor, and how many resamplings made them: what a checkpoint keeps. */
    public int[] eves() {
        return backend.download(eve, particles);
    }

    public int resamplings() {
        return resamplings;
    }

    /** The lineages a checkpoint kept: {@code eves} from {@link #eves()} after {@code resamplings} resamplings. */
    public void restore(int[] eves, int resamplings) {
        if (eves.length != particles) {
            throw new IllegalArgumentException(eves.length + " lineages for " + particles + " particles");
        }
        backend.upload(eves, eve);
        this.resamplings = resamplings;
    }

    /** After a multinomial resampling of the population: particle i now descends from {@code ancestors[i]}. */
    public void resampled(IndexVector ancestors) {
        backend.gather(eve, ancestors, particles, next, 0);
        IndexVector t = eve;
        eve = next;
        next = t;
        resamplings++;
    }

    /**
     * The estimate of the relative standard error of Ẑ (so of log Ẑ, by the delta method) from the final
     * log weights: with normalized weights w̃, lineage masses {@code W_e = Σ_{i: Eve(i) = e} w̃_i} and m
     * resampling events, {@code v = 1 - (R/(R-1))^{m+1} (1 - Σ_e W_e²)} and the error {@code sqrt(v)}.
     * The estimator of Var(Ẑ)/Z² is unbiased but can come out negative (many resamplings, few particles):
     * then this run has no usable error, rather than an error of zero. Reads R weights and lineages once.
     */
    public OptionalDouble relativeStdErr(ParticleVector logW) {
        double[] lw = backend.download(logW, particles);
        int[] lineage = backend.download(eve, particles);
        double max = Double.NEGATIVE_INFINITY;
        for (double v : lw) {
            max = Math.max(max, v);
        }
        double[] mass = new double[particles];
        double total = 0;
        for (int i = 0; i < particles; i++) {
            double w = Math.exp(lw[i] - max);
            mass[lineage[i]] += w;
            total += w;
        }
        double sumSquares = 0;
        for (double m : mass) {
            sumSquares += (m / total) * (m / total);
        }
        double v = 1.0 - Math.pow((double) particles / (particles - 1), resamplings + 1) * (1.0 - sumSquares);
        // one surviving lineage makes v exactly 1: a formula's artefact, not an error estimate
        return v > 0 && survivors() > 1 ? OptionalDouble.of(Math.sqrt(v)) : OptionalDouble.empty();
    }

    /**
     * How many particles of the first generation still have descendants. When few do (path degeneracy), the
     * Lee-Whiteley estimate rests on those few lineages and says little.
     */
    public int survivors() {
        return (int) java.util.Arrays.stream(backend.download(eve, particles)).distinct().count();
    }

    @Override
    public void close() {
        eve.close();
        next.close();
    }
}
