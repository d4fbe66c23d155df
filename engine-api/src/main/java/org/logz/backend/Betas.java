package org.logz.backend;

/** Inverse temperatures of a batched transition: one for every particle, or one each. */
public sealed interface Betas {
    /** Every particle at β. */
    record Uniform(double beta) implements Betas {
    }

    /** Particle r at {@code betas[r]} (a backend vector, e.g. the temperatures of simulated tempering). */
    record PerParticle(ParticleVector betas) implements Betas {
    }

    static Betas of(double beta) {
        return new Uniform(beta);
    }

    static Betas of(ParticleVector betas) {
        return new PerParticle(betas);
    }
}
