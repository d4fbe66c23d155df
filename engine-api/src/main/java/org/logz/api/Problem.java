package org.logz.api;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import org.logz.UserException;
import org.logz.backend.ParticleBackend;
import org.logz.estimate.AnnealedImportanceSampling.Start;
import org.logz.estimate.EstimationException;
import org.logz.estimate.ep.ProbitEp;
import org.logz.exact.GlmmEvidence;
import org.logz.exact.GpcExact;
import org.logz.exact.IsingExact;
import org.logz.exact.RbmEnumeration;
import org.logz.model.BaseRate;
import org.logz.io.GpcFiles;
import org.logz.io.LatentFiles;
import org.logz.io.UserPaths;
import org.logz.model.GaussianToy;
import org.logz.model.Glmm;
import org.logz.model.LatentModel;
import org.logz.model.Likelihood;
import org.logz.model.PseudoMarginal;
import org.logz.model.GpClassification;
import org.logz.model.Ising;
import org.logz.model.TemperedGpc;
import org.logz.model.TemperedModel;
import org.logz.model.TemperedRbm;
import org.logz.data.BinaryDataset;
import org.logz.numeric.Decimal;
import org.logz.random.Philox;
import org.logz.random.StreamTag;
import org.logz.resample.Resampling;
import org.logz.path.TemperedPath;

/**
 * What {@code --model} names: an RBM file (or the embedded demo), {@code ising:L=N} (the 2D Ising
 * torus, exact log Z by Kaufman's formula), {@code gauss-toy[:key=value,...]} (Habeck's Gaussian
 * toy, exact log Z in closed form) or {@code gpc:SET|FILE} (GP classification).
 */
public sealed interface Problem {
    /**
     * Path options: the RBM's base rate and data set, the transitions (sweeps) per step of every model,
     * the seed the model base rate's Gibbs run derives its key from, and a GP classifier's start (prior or
     * ep; null for the default, ep).
     */
    public record PathOptions(String baseRate, String data, int sweepsPerStep, long seed, String start, Likelihood likelihood) {
        public PathOptions(String baseRate, String data, int sweepsPerStep, long seed) {
            this(baseRate, data, sweepsPerStep, seed, null, null);
        }

        /** These options with another seed (a replicate's, for what it draws). */
        public PathOptions withSeed(long other) {
            return new PathOptions(baseRate, data, sweepsPerStep, other, start, likelihood);
        }
    }

    static Problem parse(String spec) {
        return parse(spec, OptionalDouble.empty(), OptionalDouble.empty());
    }

    /** {@link #parse(String)} with the GP hyperparameters of {@code --log-ell} and {@code --log-sigma}. */
    static Problem parse(String spec, OptionalDouble logEll, OptionalDouble logSigma) {
        boolean gpc = spec != null && spec.trim().toLowerCase(Locale.ROOT).startsWith("gpc:");
        if (!gpc && (logEll.isPresent() || logSigma.isPresent())) {
            throw new UserException("--log-ell and --log-sigma apply to GP classification (--model gpc:...) only");
        }
        if (gpc) {
            return new GpcProblem(GpcFiles.read(spec.trim().substring(4), logEll, logSigma));
        }
        String trimmed = spec == null ? "" : spec.trim();
        if (trimmed.toLowerCase(Locale.ROOT).startsWith("glmm:")) {
            return new LatentProblem(LatentFiles.glmm(trimmed.substring(5)));
        }
        if (trimmed.toLowerCase(Locale.ROOT).startsWith("sv:")) {
            return new LatentProblem(LatentFiles.stochasticVolatility(trimmed.substring(3)));
        }
        if (spec == null) {
            return new RbmProblem(RbmSource.resolve(null));
        }
        String s = spec.trim();
        if (s.isEmpty()) {
            throw new UserException("--model is empty; give an RBM .npz file, ising:L=N or gauss-toy[:key=value,...]");
        }
        String lower = s.toLowerCase(Locale.ROOT);
        if (lower.equals("ising") || lower.startsWith("ising:")) {
            return IsingProblem.parse(s);
        }
        if (lower.equals("gauss-toy") || lower.startsWith("gauss-toy:")) {
            return ToyProblem.parse(s);
        }
        return new RbmProblem(RbmSource.resolve(UserPaths.of(s)));
    }

    /** What the report says about the problem. */
    Description describe();

    /**
     * The model's name and size, written unwrapped into a report: an RBM's {@code visible} and
     * {@code hidden} units, an Ising model's {@code sites} (null where they do not apply).
     */
    public record Description(String model, Integer visible, Integer hidden, Integer sites, Integer cases) {
        public static Description named(String model) {
            return new Description(model, null, null, null, null);
        }
    }

    /** Exact log Z when it is known or cheap; for RBMs only when {@code requested} or for the demo. */
    Optional<Double> exactLogZ(boolean requested);

    /** Exact log Z for a benchmark against it, or a one-line error saying {@code what} needs one. */
    default double requireExactLogZ(String what) {
        return exactLogZ(true).orElseThrow(() -> new UserException(what + " needs a model with an exact log Z; "
                + describe().model() + " has none"));
    }

    /** An upper bound of log Z the model guarantees, where it has one. */
    default Optional<Double> logZUpperBound() {
        return Optional.empty();
    }

    /** Why {@link #logZUpperBound()} holds, for the warning. */
    default String upperBoundReason() {
        return "";
    }

    /** The model on its tempered path, with what it needs from the options (an RBM's base rate). */
    TemperedModel temperedModel(ParticleBackend backend, PathOptions options);

    /** The tempered path for annealing methods: the model's kernel on the backend, with the options' sweeps per step. */
    default TemperedPath annealingPath(ParticleBackend backend, PathOptions options) {
        return new TemperedPath(backend, temperedModel(backend, options), options.sweepsPerStep());
    }

    /** The path for the tempered estimators, whose chains sit at different temperatures. */
    default TemperedPath temperingPath(ParticleBackend backend, PathOptions options) {
        return annealingPath(backend, options);
    }

    /**
     * How reverse chains start: {@code spec} as given on the command line, or null for the model's default; the path
     * options name the data an RBM's chains may start from.
     */
    Start reverseStart(String spec, TemperedPath path, int chains, PathOptions options);

    /** {@link #reverseStart(String, TemperedPath, int, PathOptions)} without data. */
    default Start reverseStart(String spec, TemperedPath path, int chains) {
        return reverseStart(spec, path, chains, null);
    }

    /** Transitions at β = 1 after a data or forward start when the spec names none (Habeck §6.3 runs 100). */
    int START_SWEEPS = 100;

    /**
     * {@code gibbs:B} (B transitions at β = 1 from the base), {@code forward[:G]} (the forward run's end states
     * resampled by weight, then G transitions; default {@value #START_SWEEPS}), or a one-line error naming the
     * accepted forms.
     */
    static Start gibbs(String s, String accepted) {
        if (s.startsWith("gibbs:")) {
            return new Start.Gibbs(burnIn(s.substring(6), s));
        }
        if (s.equals("forward") || s.startsWith("forward:")) {
            return new Start.Forward(s.equals("forward") ? START_SWEEPS : sweeps(s.substring(8), s));
        }
        throw new UserException("--reverse-start must be " + accepted + ", got " + s);
    }

    /** G of {@code data:G} or {@code forward:G}. */
    static int sweeps(String value, String spec) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new UserException("--reverse-start " + spec + ": G must be an integer");
        }
    }

    static int burnIn(String value, String spec) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new UserException("--reverse-start " + spec + ": B must be an integer");
        }
    }

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
        public Description describe() {
            return new Description(model.name(), null, null, null, model.size());
        }

        @Override
        public Optional<Double> exactLogZ(boolean requested) {
            return requested || GpcExact.canSolve(model) ? Optional.of(GpcExact.logZ(model)) : Optional.empty();
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

        /** The path from the prior, or from EP's q (the default); EP that does not converge is an error naming --start prior. */
        @Override
        public TemperedGpc temperedModel(ParticleBackend backend, PathOptions options) {
            TemperedGpc.Start start = options.start() == null ? TemperedGpc.Start.EP : TemperedGpc.Start.parse(options.start());
            if (start == TemperedGpc.Start.PRIOR) {
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

        /** {@code gibbs:B}: B elliptical slice transitions at β = 1 from the start (default {@value #REVERSE_BURN_IN}). */
        @Override
        public Start reverseStart(String spec, TemperedPath path, int chains, PathOptions options) {
            String s = spec == null ? "gibbs:" + REVERSE_BURN_IN : spec.trim().toLowerCase(Locale.ROOT);
            return Problem.gibbs(s, "forward[:G] or gibbs:B (B elliptical slice transitions at β = 1 from the start)");
        }
    }

    /**
     * {@code glmm:SET|FILE} (the logistic random-intercept GLMM) or {@code sv:SET|FILE} (stochastic volatility): the
     * evidence of a latent-variable model, over its parameters θ. AISEL and the annealing and SMC methods run on
     * the {@link PseudoMarginal} path with the likelihood exact (the GLMM, by quadrature) or estimated; the GLMM
     * with p ≤ 2 has a quadrature evidence.
     */
    public record LatentProblem(LatentModel model) implements Problem {
        /** Inner draws of an estimated likelihood when --inner is not given (methods other than aisel). */
        public static final int DEFAULT_DRAWS = 64;

        @Override
        public Description describe() {
            return Description.named(model.description());
        }

        @Override
        public Optional<Double> exactLogZ(boolean requested) {
            return quadrature().flatMap(r -> converged(r, requested));
        }

        /** The quadrature evidence over θ of a GLMM with p ≤ 2 (a few seconds); empty for other models. */
        public Optional<GlmmEvidence.Result> quadrature() {
            return model instanceof Glmm glmm && glmm.parameters() <= GlmmEvidence.MAX_DIMENSION
                    ? Optional.of(GlmmEvidence.of(glmm)) : Optional.empty();
        }

        /**
         * The quadrature's log Z when its two rules agree within {@link GlmmEvidence#TOLERANCE}. An unconverged quadrature
         * is no exact value: refused with the numbers when {@code requested}, empty (nothing to compare with) otherwise.
         */
        public Optional<Double> converged(GlmmEvidence.Result r, boolean requested) {
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
                    ? new Likelihood.Exact() : new Likelihood.Estimated(DEFAULT_DRAWS, Likelihood.Proposal.defaultFor(model));
            return new PseudoMarginal(model, likelihood);
        }

        /** {@code gibbs:B}: B pseudo-marginal moves at β = 1 from prior draws (default 100). */
        @Override
        public Start reverseStart(String spec, TemperedPath path, int chains, PathOptions options) {
            String s = spec == null ? "gibbs:100" : spec.trim().toLowerCase(Locale.ROOT);
            return Problem.gibbs(s, "forward[:G] or gibbs:B (B pseudo-marginal moves at β = 1 from prior draws)");
        }
    }

    /** An RBM file or the demo RBM. */
    public record RbmProblem(RbmSource source) implements Problem {
        @Override
        public Description describe() {
            return new Description(source.name(), source.rbm().visible(), source.rbm().hidden(), null, null);
        }

        @Override
        public Optional<Double> exactLogZ(boolean requested) {
            if (!source.demo() && !requested) {
                return Optional.empty();
            }
            if (!RbmEnumeration.canEnumerate(source.rbm())) {
                throw new UserException("--compare-exact: " + source.rbm() + " is too large to enumerate");
            }
            return Optional.of(RbmEnumeration.logZ(source.rbm()));
        }

        @Override
        public TemperedRbm temperedModel(ParticleBackend backend, PathOptions options) {
            BaseRate base = source.baseRate(options.baseRate(), options.data(), backend, options.seed());
            return new TemperedRbm(source.rbm(), base);
        }

        /**
         * {@code exact} (the default where a layer is small enough to sample), {@code data[:G]} (the default with data:
         * a training example per chain, then G Gibbs sweeps at β = 1; Habeck §6.3), {@code forward[:G]} or
         * {@code gibbs:B} (the default without data: B sweeps from the base).
         */
        @Override
        public Start reverseStart(String spec, TemperedPath path, int chains, PathOptions options) {
            boolean small = RbmEnumeration.canSample(source.rbm());
            String data = options == null ? null : options.data();
            String s = spec != null ? spec.trim().toLowerCase(Locale.ROOT)
                    : small ? "exact" : data != null ? "data" : "gibbs:1000";
            if (s.equals("exact")) {
                if (!small) {
                    throw new UserException("--reverse-start exact needs a layer of at most "
                            + RbmEnumeration.MAX_SAMPLING_UNITS + " units; use data[:G] with --data, forward[:G] or gibbs:B");
                }
                return new Start.Exact();
            }
            if (s.equals("data") || s.startsWith("data:")) {
                if (data == null) {
                    throw new UserException("--reverse-start " + s + " starts from training examples: add --data mnist|digits|FILE");
                }
                int sweeps = s.equals("data") ? START_SWEEPS : sweeps(s.substring(5), s);
                return new Start.Given(dataStarts(source.dataSet(data), chains, options.seed()), "data", sweeps);
            }
            return Problem.gibbs(s, "exact, data[:G], forward[:G] or gibbs:B");
        }

        /** One training example per chain, drawn uniformly (chain r's draw keyed by r) under a key derived from the seed. */
        private static float[] dataStarts(BinaryDataset set, int chains, long seed) {
            int[] examples = new int[chains];
            Resampling.randomIndices(set.size(), chains, Philox.derive(seed, StreamTag.REVERSE_START, 1), 0, examples);
            float[] states = new float[chains * set.dimension()];
            for (int r = 0; r < chains; r++) {
                set.copyRow(examples[r], states, r * set.dimension());
            }
            return states;
        }
    }

    /** {@code ising:L=N}: the N × N torus at β = 1 from the uniform distribution. */
    public record IsingProblem(Ising model) implements Problem {
        public static IsingProblem parse(String spec) {
            Map<String, String> p = parameters(spec, "ising");
            if (!p.keySet().equals(java.util.Set.of("l"))) {
                throw new UserException("--model " + spec + ": write ising:L=N with an even N ≥ 2");
            }
            try {
                return new IsingProblem(new Ising(Integer.parseInt(p.get("l"))));
            } catch (NumberFormatException e) {
                throw new UserException("--model " + spec + ": L must be an integer");
            }
        }

        @Override
        public Description describe() {
            return new Description("ising:L=" + model.size(), null, null, model.sites(), null);
        }

        @Override
        public Optional<Double> exactLogZ(boolean requested) {
            return Optional.of(IsingExact.logZ(model, 1.0));
        }

        @Override
        public Ising temperedModel(ParticleBackend backend, PathOptions options) {
            return model;
        }

        /** {@code ground} (default; Habeck §6.1), {@code ground:B} (then B sweeps at β = 1) or {@code gibbs:B}. */
        @Override
        public Start reverseStart(String spec, TemperedPath path, int chains, PathOptions options) {
            String s = spec == null ? "ground" : spec.trim().toLowerCase(Locale.ROOT);
            if (s.equals("ground") || s.startsWith("ground:")) {
                int sweeps = s.equals("ground") ? 0 : burnIn(s.substring(7), s);
                return new Start.Given(model.groundStates(chains), "ground", sweeps);
            }
            return Problem.gibbs(s, "ground, ground:B, forward[:G] or gibbs:B");
        }
    }

    /** {@code gauss-toy[:mu0=..,sigma0=..,tau0=..,mu1=..,sigma1=..,tau1=..,power=..]}; defaults: Habeck's. */
    public record ToyProblem(GaussianToy model) implements Problem {
        public static ToyProblem parse(String spec) {
            GaussianToy d = GaussianToy.habeck();
            Map<String, String> p = parameters(spec, "gauss-toy");
            java.util.Set<String> known = java.util.Set.of("mu0", "sigma0", "tau0", "mu1", "sigma1", "tau1", "power");
            for (String key : p.keySet()) {
                if (!known.contains(key)) {
                    throw new UserException("--model " + spec + ": unknown parameter '" + key + "'; use "
                            + String.join(", ", new java.util.TreeSet<>(known)));
                }
            }
            try {
                return new ToyProblem(new GaussianToy(number(spec, p, "mu0", d.mu0()), number(spec, p, "sigma0", d.sigma0()),
                        number(spec, p, "tau0", d.tau0()), number(spec, p, "mu1", d.mu1()),
                        number(spec, p, "sigma1", d.sigma1()), number(spec, p, "tau1", d.tau1()), power(spec, p, d.power())));
            } catch (IllegalArgumentException e) {
                throw new UserException("--model " + spec + ": " + e.getMessage());
            }
        }

        private static double number(String spec, Map<String, String> p, String key, double fallback) {
            if (!p.containsKey(key)) {
                return fallback;
            }
            return Decimal.parse(p.get(key)).orElseThrow(() -> new UserException(key + " = '" + p.get(key)
                    + "' is not a finite decimal number"));
        }

        /** The kernel power: an integer, not a float rounded down. */
        private static int power(String spec, Map<String, String> p, int fallback) {
            if (!p.containsKey("power")) {
                return fallback;
            }
            String v = p.get("power");
            if (!v.matches("[+-]?[0-9]{1,9}")) {
                throw new UserException("power = '" + v + "' must be an integer from 1 to " + GaussianToy.MAX_POWER);
            }
            return Integer.parseInt(v);
        }

        @Override
        public Description describe() {
            return Description.named("gauss-toy:mu0=" + model.mu0() + ",sigma0=" + model.sigma0() + ",tau0=" + model.tau0()
                    + ",mu1=" + model.mu1() + ",sigma1=" + model.sigma1() + ",tau1=" + model.tau1() + ",power=" + model.power());
        }

        @Override
        public Optional<Double> exactLogZ(boolean requested) {
            return Optional.of(model.logZ1());
        }

        @Override
        public GaussianToy temperedModel(ParticleBackend backend, PathOptions options) {
            return model;
        }

        @Override
        public TemperedPath temperingPath(ParticleBackend backend, PathOptions options) {
            throw new UserException("the Gaussian toy runs the annealing methods (ais, raise, bar, cumulant, "
                    + "histogram), not tempered sampling");
        }

        @Override
        public Start reverseStart(String spec, TemperedPath path, int chains, PathOptions options) {
            String s = spec == null ? "exact" : spec.trim().toLowerCase(Locale.ROOT);
            return s.equals("exact") ? new Start.Exact() : Problem.gibbs(s, "exact, forward[:G] or gibbs:B");
        }
    }

    /** {@code name:key=value,...} as a map with lower-case keys; a bare name gives an empty map. */
    private static Map<String, String> parameters(String spec, String name) {
        Map<String, String> out = new LinkedHashMap<>();
        int colon = spec.indexOf(':');
        if (colon < 0) {
            return out;
        }
        for (String part : spec.substring(colon + 1).split(",")) {
            int eq = part.indexOf('=');
            if (eq <= 0 || eq == part.length() - 1) {
                throw new UserException("--model " + spec + ": write " + name + ":key=value,...");
            }
            out.put(part.substring(0, eq).trim().toLowerCase(Locale.ROOT), part.substring(eq + 1).trim());
        }
        return out;
    }
}
