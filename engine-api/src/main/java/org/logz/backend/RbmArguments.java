package org.logz.backend;

import org.logz.model.Rbm;

/** Argument checks that every {@link RbmOps} implementation makes, with the same messages. */
public final class RbmArguments {
    private RbmArguments() {
    }

    /** Particle states have one column per visible unit. */
    public static void checkStates(Rbm model, ParticleMatrix x) {
        x.requireColumns(model.visible(), "visible units of the RBM");
    }

    /** Pre-activations have one column per hidden unit. */
    public static void checkPreActivations(Rbm model, ParticleMatrix g) {
        g.requireColumns(model.hidden(), "pre-activations of the RBM's hidden units");
    }

    public static void checkUnit(Rbm model, int unit) {
        if (unit < 0 || unit >= model.visible()) {
            throw new IllegalArgumentException("unit " + unit + " outside [0, " + model.visible() + ")");
        }
    }

    public static void checkActive(Rbm model, int active) {
        if (active < 0 || active > model.visible()) {
            throw new IllegalArgumentException("active units " + active + " outside [0, " + model.visible() + "]");
        }
    }

    public static void checkSweeps(int sweeps) {
        if (sweeps < 0) {
            throw new IllegalArgumentException("sweeps must be non-negative, got " + sweeps);
        }
    }
}
