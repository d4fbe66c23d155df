package org.logz.model.mixture;

import java.util.Locale;
import java.util.Optional;

import org.logz.backend.ParticleBackend;
import org.logz.base.UserException;
import org.logz.estimate.AnnealedImportanceSampling.Start;
import org.logz.estimate.Method;
import org.logz.estimate.ResampleMove;
import org.logz.model.Likelihood;
import org.logz.model.PseudoMarginal;
import org.logz.path.TemperedPath;
import org.logz.problem.ModelFamily;
import org.logz.problem.Problem;

/**
 * {@code mixture:SET|FILE}: the evidence of a Gaussian mixture's means given data. rm and arm run data annealing
 * (the observations entered one at a time, Habeck §6.4); the annealing and SMC methods the likelihood-tempered path
 * {@code p(μ) p(y | μ)^β} ({@link PseudoMarginal} with the exact likelihood); both move by random-walk Metropolis
 * scaled by the cloud. Exact log Z by the sum over allocations where K^n ≤ 2^20.
 */
public record MixtureProblem(Mixture model) implements Problem {
    @Override
    public ModelFamily family() {
        return new MixtureFamily();
    }

    @Override
    public Description describe() {
        return Description.named(model.description());
    }

    @Override
    public Optional<Double> exactLogZ(boolean requested) {
        var z = MixtureExact.logEvidence(model);
        return z.isPresent() ? Optional.of(z.getAsDouble()) : Optional.empty();
    }

    @Override
    public Exact exact() {
        return new Exact(exactLogZ(true).orElseThrow(() -> new UserException(String.format(Locale.ROOT,
                "%s has no exact value: its %d^%d allocations exceed the %d logz sums (n ≤ %d for K = 2); estimate it "
                        + "with --method arm, rm or smc", model.name(), model.components(), model.points(),
                MixtureExact.MAX_ALLOCATIONS, 63 - Long.numberOfLeadingZeros(MixtureExact.MAX_ALLOCATIONS)))),
                "sum over the " + model.components() + "^" + model.points() + " allocations of the conjugate Gaussian "
                        + "evidence", null);
    }

    /** The likelihood-tempered path with the exact likelihood. */
    @Override
    public PseudoMarginal temperedModel(ParticleBackend backend, PathOptions options) {
        return new PseudoMarginal(model, new Likelihood.Exact());
    }

    /** The random-walk moves follow the whole cloud. */
    @Override
    public boolean independentChains(PathOptions options) {
        return false;
    }

    @Override
    public Optional<String> refusal(Method method) {
        return Optional.of("--method " + method + " does not run on a Gaussian mixture posterior; use rm, arm, "
                + "arm-anticipate (data annealing), smc, ais, raise, bar, cumulant or histogram");
    }

    /** Data annealing over the means, the observations entered in the given order or random:SEED. */
    @Override
    public Sequence sequence(String order, String data, ResampleMove.Variant variant, Method method) {
        return Problem.dataAnnealing(model, order, variant);
    }

    /** {@code gibbs:B}: B random-walk moves at β = 1 from prior draws (default 100). */
    @Override
    public Start reverseStart(String spec, TemperedPath path, int chains, PathOptions options) {
        String s = spec == null ? "gibbs:100" : spec.trim().toLowerCase(Locale.ROOT);
        return Problem.gibbs(s, "forward[:G] or gibbs:B (B random-walk moves at β = 1 from prior draws)");
    }
}
