package org.logz.estimate.aisel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.logz.backend.ParticleBackend;
import org.logz.base.ProgressListener;
import org.logz.estimate.Method;
import org.logz.estimate.smc.SmcResult;
import org.logz.estimate.smc.SmcSampler;
import org.logz.model.Likelihood;
import org.logz.model.PseudoMarginal;
import org.logz.model.latent.Glmm;
import org.logz.model.latent.GlmmEvidence;
import org.logz.model.latent.LatentFiles;
import org.logz.path.TemperedPath;
import org.logz.resample.ResamplingScheme;
import org.logz.testkit.reference.ReferenceBackend;

/**
 * AISEL on the shipped GLMMs against their quadrature evidence, on the reference backend with fixed seeds.
 */
class AiselAccuracyTest {
    private static final ParticleBackend backend = new ReferenceBackend();

    private static SmcSampler.Settings smc(int particles, long seed) {
        return new SmcSampler.Settings(particles, new SmcSampler.Steps.Adaptive(0.9, 5000), 0.5,
                ResamplingScheme.MULTINOMIAL, seed, Method.SMC);
    }

    @Test
    void aiselLandsOnTheQuadratureEvidence() {
        Glmm model = LatentFiles.glmm("sim8");
        GlmmEvidence.Result exact = GlmmEvidence.of(model);
        AiselResult r = new Aisel(new Aisel.Settings(smc(300, 3), new Aisel.Inner.Fixed(16), Likelihood.Proposal.LAPLACE,
                3)).run(backend, model, ProgressListener.NONE);
        double se = r.smc().standardError().orElse(0);
        String what = String.format(Locale.ROOT, "aisel %.4f ± %.4f (ti %.4f), quadrature %.4f ± %.1e, σ² %.3f", r.smc().logZ(),
                se, r.smc().reading(Method.POWER_POSTERIOR).logZ(), exact.logZ(), exact.quadratureError(), r.variance());
        System.out.println(what);
        assertTrue(Math.abs(r.smc().logZ() - exact.logZ()) < Math.max(4 * se, 0.2), what);
        assertTrue(Math.abs(r.smc().reading(Method.POWER_POSTERIOR).logZ() - exact.logZ()) < 0.3, what);
    }

    @Test
    void exactLikelihoodSmcLandsOnTheQuadratureEvidence() {
        Glmm model = LatentFiles.glmm("sim8");
        GlmmEvidence.Result exact = GlmmEvidence.of(model);
        SmcResult r;
        try (TemperedPath path = new TemperedPath(backend, new PseudoMarginal(model, new Likelihood.Exact()), 3)) {
            r = new SmcSampler(smc(300, 4)).run(path, ProgressListener.NONE);
        }
        double se = r.standardError().orElse(0);
        String what = String.format(Locale.ROOT, "smc %.4f ± %.4f, quadrature %.4f", r.logZ(), se, exact.logZ());
        System.out.println(what);
        assertTrue(Math.abs(r.logZ() - exact.logZ()) < Math.max(4 * se, 0.2), what);
    }

    @Test
    void autoChoosesNNearTheTargetVariance() {
        Glmm model = LatentFiles.glmm("sim8");
        AiselResult r = new Aisel(new Aisel.Settings(smc(100, 5), new Aisel.Inner.Auto(1), Likelihood.Proposal.PRIOR,
                1)).run(backend, model, ProgressListener.NONE);
        InnerChoice c = r.inner().orElseThrow();
        System.out.println(c + " variance at N " + r.variance());
        assertEquals(Math.max(1, Math.ceil(c.measuredDraws() * c.measuredVariance())), c.draws(), 1e-9);
        assertTrue(r.variance() > 0.3 && r.variance() < 3, "σ² at the chosen N: " + r.variance());
    }

    /**
     * As N grows the estimate's noise vanishes and AISEL becomes the SMC sampler on the exact likelihood: with the
     * same seed the two draw the same proposals and uniforms, so their estimates meet (within 0.05, a third of either
     * run's standard error: a move accepted on one side and rejected on the other lets the runs drift apart).
     */
    @Test
    void largeNReducesToTheExactLikelihoodSampler() {
        Glmm model = LatentFiles.glmm("sim8");
        SmcResult exact;
        try (TemperedPath path = new TemperedPath(backend, new PseudoMarginal(model, new Likelihood.Exact()), 2)) {
            exact = new SmcSampler(smc(150, 9)).run(path, ProgressListener.NONE);
        }
        AiselResult r = new Aisel(new Aisel.Settings(smc(150, 9), new Aisel.Inner.Fixed(400), Likelihood.Proposal.LAPLACE,
                2)).run(backend, model, ProgressListener.NONE);
        String what = String.format(Locale.ROOT, "aisel %.5f, exact-likelihood smc %.5f, σ² %.2e", r.smc().logZ(),
                exact.logZ(), r.variance());
        assertTrue(r.variance() < 1e-3, what);
        assertEquals(exact.logZ(), r.smc().logZ(), 0.05, what);
        assertEquals(exact.stepCount(), r.smc().stepCount(), 2, what);
    }
}
