package org.logz.model.gpc;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

import org.logz.backend.ParticleBackend;
import org.logz.base.EstimationException;
import org.logz.base.UserException;
import org.logz.estimate.AnnealedImportanceSampling.Start;
import org.logz.estimate.Method;
import org.logz.estimate.ResampleMove;
import org.logz.estimate.ep.ProbitEp;
import org.logz.kernel.HmcSettings;
import org.logz.model.GpClassification;
import org.logz.model.TemperedModel;
import org.logz.path.GpcSequence;
import org.logz.path.TemperedPath;
import org.logz.path.UnitOrder;
import org.logz.problem.ModelFamily;
import org.logz.problem.Problem;

/**
 * {@code gpc:digits35}, {@code gpc:mnist35} or {@code gpc:FILE.npz}: GP classification (ARM paper
 * §4), exact log Z in closed form for n ≤ 3 or K = 0. The sequential methods (rm, arm,
 * arm-anticipate) run on the cases; the annealing and tempered methods on the tempered likelihood
 * from the prior or from EP's q (eq. 11) with elliptical slice sampling; EP on its own.
 */
public record GpcProblem(GpClassification model) implements Problem {
    /** Transitions at β = 1 behind the default start of reverse chains. */
    public static final int REVERSE_BURN_IN = 100;

    @Override
    public ModelFamily family() {
        return new GpcFamily();
    }

    @Override
    public Description describe() {
        return new Description(model.name(), null, null, null, model.size());
    }

    @Override
    public Optional<Double> exactLogZ(boolean requested) {
        return requested || GpcExact.canSolve(model) ? Optional.of(GpcExact.logZ(model)) : Optional.empty();
    }

    /** Where the closed forms apply; empty elsewhere (a request for the exact value says why there is none). */
    @Override
    public Optional<Double> knownExactLogZ() {
        return exactLogZ(false);
    }

    /** Sheppard's orthant probability for n ≤ 3 cases, else a diagonal K: independent cases. */
    @Override
    public Exact exact() {
        return new Exact(GpcExact.logZ(model), model.size() <= 3 ? "orthant probability (Sheppard)"
                : "independent cases, 2^-n", null);
    }

    /** log Z ≤ 0. */
    @Override
    public Optional<Double> logZUpperBound() {
        return Optional.of(0.0);
    }

    @Override
    public String upperBoundReason() {
        return "the evidence of a classifier is the probability of its labels";
    }

    /**
     * The path from the prior, or from EP's q (the default); EP that does not converge is an error naming --start prior.
     * With {@code --kernel hmc[:...]} the path in whitened coordinates that HMC samples ({@link WhitenedGpc}).
     */
    @Override
    public TemperedModel temperedModel(ParticleBackend backend, PathOptions options) {
        Optional<HmcSettings> hmc = hmc(options);
        TemperedGpc path = gpcPath(options);
        return hmc.isEmpty() ? path : new WhitenedGpc(path, hmc.get());
    }

    /** With a step size adapted on the fly ({@code step=auto}) every chain's next ε follows the batch's acceptance. */
    @Override
    public boolean independentChains(PathOptions options) {
        return hmc(options).map(settings -> !settings.adapt()).orElse(true);
    }

    @Override
    public Optional<String> notResumable(PathOptions options) {
        return independentChains(options) ? Optional.empty() : Optional.of(HmcSettings.NOT_RESUMABLE);
    }

    /** The HMC settings of {@code --kernel hmc[:...]} (ARM Fig. 2's for the start, then the given keys); empty for ellipse. */
    private static Optional<HmcSettings> hmc(PathOptions options) {
        String kernel = options.kernel() == null ? "ellipse" : options.kernel().trim().toLowerCase(Locale.ROOT);
        if (kernel.equals("ellipse")) {
            return Optional.empty();
        }
        if (!kernel.equals("hmc") && !kernel.startsWith("hmc:")) {
            throw new UserException("--kernel must be ellipse or hmc[:leapfrog=L,step=E|auto[:E],accept=A,jitter=on|off], "
                    + "got '" + options.kernel() + "'");
        }
        Map<String, String> p = Problem.parameters("--kernel", kernel, "hmc");
        for (String key : p.keySet()) {
            if (!HmcSettings.KEYS.contains(key)) {
                throw new UserException("--kernel " + kernel + ": unknown parameter '" + key + "'; use "
                        + String.join(", ", new TreeSet<>(HmcSettings.KEYS)));
            }
        }
        return Optional.of(WhitenedGpc.paperSettings(start(options)).with(p));
    }

    private static TemperedGpc.Start start(PathOptions options) {
        return options.start() == null ? TemperedGpc.Start.EP : TemperedGpc.Start.parse(options.start());
    }

    private TemperedGpc gpcPath(PathOptions options) {
        if (start(options) == TemperedGpc.Start.PRIOR) {
            return TemperedGpc.fromPrior(model);
        }
        ProbitEp.Result ep;
        try {
            ep = ProbitEp.run(model, ProbitEp.Settings.defaults());
        } catch (EstimationException e) {
            throw new EstimationException(e.getMessage() + "; or anneal from the prior with --start prior");
        }
        return TemperedGpc.fromEp(model, ep.siteTau(), ep.siteNu());
    }

    /** The cases in the order of {@code order}; the shipped sets list one class after the other: a fixed random order is the default. */
    @Override
    public Sequence sequence(String order, String data, ResampleMove.Variant variant, Method method) {
        if (variant == ResampleMove.Variant.RESEED) {
            throw new UserException("arm-reseed restarts chains from data examples of the model's variables; GP "
                    + "classification has none (use arm or arm-anticipate)");
        }
        UnitOrder unitOrder = UnitOrder.parse(order == null ? "random:1" : order, model.size(), Optional.empty());
        GpcSequence gpc = new GpcSequence(model, unitOrder);
        return new Sequence(unitOrder, gpc, gpc);
    }

    @Override
    public Optional<GpClassification> classifier() {
        return Optional.of(model);
    }

    /**
     * {@code forward:G} by default (the end states of a forward run, resampled by weight, then G = {@value #REVERSE_BURN_IN}
     * transitions), or {@code gibbs:B}: B transitions of the kernel (ellipse or HMC) at β = 1 from the start. The
     * hostile review found gibbs:100 a nat above AIS, BAR and SMC on sharp likelihoods (digits35 at log ℓ = 1, log σ = 4:
     * RAISE -36.22 ± 0.21 against SMC -37.24 ± 0.11, no warning): 100 transitions from EP's q or the prior do not reach
     * the posterior; from the forward end states RAISE gave -36.94 ± 0.46 with a low-ess warning.
     */
    @Override
    public boolean reverseStartsFromForward() {
        return true;
    }

    @Override
    public Start reverseStart(String spec, TemperedPath path, int chains, PathOptions options) {
        String s = spec == null ? "forward:" + REVERSE_BURN_IN : spec.trim().toLowerCase(Locale.ROOT);
        return Problem.gibbs(s, "forward[:G] or gibbs:B (B transitions at β = 1 from the start)");
    }
}
