package org.logz.model.latent;

import java.util.Locale;
import java.util.Optional;

import org.logz.backend.ParticleBackend;
import org.logz.base.UserException;
import org.logz.estimate.AnnealedImportanceSampling.Start;
import org.logz.estimate.Method;
import org.logz.estimate.ResampleMove;
import org.logz.model.LatentModel;
import org.logz.model.Likelihood;
import org.logz.model.PointwiseLikelihood;
import org.logz.model.PseudoMarginal;
import org.logz.path.TemperedPath;
import org.logz.problem.ModelFamily;
import org.logz.problem.Problem;

/**
 * {@code glmm:SET|FILE} (the logistic random-intercept GLMM) or {@code sv:SET|FILE} (stochastic volatility): the
 * evidence of a latent-variable model, over its parameters θ. AISEL and the annealing and SMC methods run on
 * the {@link PseudoMarginal} path with the likelihood exact (the GLMM, by quadrature) or estimated; the GLMM
 * with p ≤ 2 has a quadrature evidence.
 */
public record LatentProblem(LatentModel model) implements Problem {
    @Override
    public ModelFamily family() {
        return new LatentFamily();
    }

    @Override
    public Description describe() {
        return Description.named(model.description());
    }

    @Override
    public Optional<Double> exactLogZ(boolean requested) {
        return quadrature().flatMap(r -> converged(r, requested));
    }

    /** The quadrature evidence where it converged; empty otherwise (a reference may stand in for it). */
    @Override
    public Optional<Double> knownExactLogZ() {
        return exactLogZ(false);
    }

    /** The quadrature evidence, or a one-line error where the model has none. */
    @Override
    public Exact exact() {
        GlmmEvidence.Result r = quadrature().orElseThrow(() -> new UserException(describe().model()
                + " has no exact evidence (" + (model instanceof Glmm ? "quadrature over θ needs a GLMM with p ≤ 2 "
                + "covariates" : "its likelihood has no closed form to integrate") + "); estimate it with --method aisel"));
        return new Exact(converged(r, true).orElseThrow(), "adaptive Gauss-Hermite quadrature over θ (24 nodes per "
                + "dimension) of the exact group likelihoods (Gauss-Hermite, or Gauss-Legendre panels where that does "
                + "not converge)", r.quadratureError());
    }

    /** The quadrature evidence over θ of a GLMM with p ≤ 2 (a few seconds); empty for other models. */
    private Optional<GlmmEvidence.Result> quadrature() {
        return model instanceof Glmm glmm && glmm.parameters() <= GlmmEvidence.MAX_DIMENSION
                ? Optional.of(GlmmEvidence.of(glmm)) : Optional.empty();
    }

    /**
     * The quadrature's log Z when its two rules agree within {@link GlmmEvidence#TOLERANCE}. An unconverged quadrature
     * is no exact value: refused with the numbers when {@code requested}, empty (nothing to compare with) otherwise.
     */
    private Optional<Double> converged(GlmmEvidence.Result r, boolean requested) {
        if (r.quadratureError() <= GlmmEvidence.TOLERANCE) {
            return Optional.of(r.logZ());
        }
        if (requested) {
            throw new UserException(model.description() + ": the quadrature evidence did not converge (the "
                    + GlmmEvidence.COARSE + "- and " + GlmmEvidence.FINE + "-node rules give "
                    + String.format(Locale.ROOT, "%.4f", r.logZ()) + " and differ by "
                    + String.format(Locale.ROOT, "%.3g", r.quadratureError()) + " > " + GlmmEvidence.TOLERANCE
                    + "; the posterior of θ is far from Gaussian); estimate it with --method aisel or smc");
        }
        return Optional.empty();
    }

    /** A GLMM's log Z ≤ 0. */
    @Override
    public Optional<Double> logZUpperBound() {
        return model instanceof Glmm ? Optional.of(0.0) : Optional.empty();
    }

    @Override
    public String upperBoundReason() {
        return "the evidence of a GLMM is the probability of its binary responses";
    }

    /** The likelihood of the options: exact where the model has one unless an estimate is asked for. */
    @Override
    public PseudoMarginal temperedModel(ParticleBackend backend, PathOptions options) {
        Likelihood likelihood = options.likelihood() != null ? options.likelihood() : model.hasExactLikelihood()
                ? new Likelihood.Exact() : new Likelihood.Estimated(Likelihood.Estimated.DEFAULT_DRAWS, model.defaultProposal());
        return new PseudoMarginal(model, likelihood);
    }

    /** An estimated likelihood (given, or the model's without an exact one) whose sweeps would take hours. */
    @Override
    public void checkCost(PathOptions options, long particles) {
        Likelihood likelihood = options.likelihood() != null ? options.likelihood()
                : temperedModel(null, options).likelihood();
        if (likelihood instanceof Likelihood.Estimated estimated) {
            Likelihood.checkCost(particles, estimated.draws(), model);
        }
    }

    /** The pseudo-marginal moves follow the whole cloud. */
    @Override
    public boolean independentChains(PathOptions options) {
        return false;
    }

    /** The tempered and EP methods have no latent-variable path: refused with the methods that do. */
    @Override
    public Optional<String> refusal(Method method) {
        return Optional.of("--method " + method + " does not run on latent-variable models; use aisel, smc, ais, "
                + "raise, bar, cumulant, histogram, or on a GLMM rm, arm or arm-anticipate (data annealing)");
    }

    /**
     * Data annealing over θ, a GLMM's groups entered one at a time (each group's exact likelihood, its intercept
     * integrated out by quadrature); refused for stochastic volatility, whose likelihood does not factor over points.
     */
    @Override
    public Sequence sequence(String order, String data, ResampleMove.Variant variant, Method method) {
        if (!(model instanceof PointwiseLikelihood pointwise)) {
            throw new UserException("--method " + method + " anneals the data point by point; the likelihood of "
                    + model.description() + " does not factor over points: use aisel, smc, ais, raise, bar, cumulant or "
                    + "histogram");
        }
        return Problem.dataAnnealing(pointwise, order, variant);
    }

    @Override
    public Optional<LatentModel> latentModel() {
        return Optional.of(model);
    }

    /** {@code gibbs:B}: B pseudo-marginal moves at β = 1 from prior draws (default 100). */
    @Override
    public Start reverseStart(String spec, TemperedPath path, int chains, PathOptions options) {
        String s = spec == null ? "gibbs:100" : spec.trim().toLowerCase(Locale.ROOT);
        return Problem.gibbs(s, "forward[:G] or gibbs:B (B pseudo-marginal moves at β = 1 from prior draws)");
    }
}
