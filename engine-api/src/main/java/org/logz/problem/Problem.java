package org.logz.problem;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import org.logz.backend.ParticleBackend;
import org.logz.base.UserException;
import org.logz.estimate.AnnealedImportanceSampling.Start;
import org.logz.estimate.Method;
import org.logz.estimate.ResampleMove;
import org.logz.model.AnnealedMarginal;
import org.logz.model.GpClassification;
import org.logz.model.LatentModel;
import org.logz.model.Likelihood;
import org.logz.model.PointwiseLikelihood;
import org.logz.model.Rbm;
import org.logz.model.SequentialModel;
import org.logz.model.TemperedModel;
import org.logz.model.data.DataSequence;
import org.logz.numeric.Decimal;
import org.logz.numeric.Parameters;
import org.logz.path.GpcSequence;
import org.logz.path.TemperedPath;
import org.logz.path.UnitOrder;
import org.logz.schedule.Schedule;

/**
 * A model that {@code --model} names, parsed by its {@link ModelFamily}: what the estimators and reports ask of it.
 * The families are found through {@link java.util.ServiceLoader} ({@link ModelFamilies}); each lives in its own
 * package under {@code org.logz.model}.
 */
public interface Problem {
    /**
     * Path options: the RBM's base rate and data set, the transitions (sweeps) per step of every model,
     * the seed the model base rate's Gibbs run derives its key from, a GP classifier's start (prior or
     * ep; null for the default, ep) and transition ({@code --kernel}; null for the default, ellipse), a latent-variable
     * model's likelihood, and an RBM's path (full or marginal; null for the default, full).
     */
    public record PathOptions(String baseRate, String data, int sweepsPerStep, long seed, String start, Likelihood likelihood,
                              String path, String kernel) {
        public PathOptions(String baseRate, String data, int sweepsPerStep, long seed) {
            this(baseRate, data, sweepsPerStep, seed, null, null, null, null);
        }

        /** These options with another seed (a replicate's, for what it draws). */
        public PathOptions withSeed(long other) {
            return new PathOptions(baseRate, data, sweepsPerStep, other, start, likelihood, path, kernel);
        }
    }

    static Problem parse(String spec) {
        return parse(spec, OptionalDouble.empty(), OptionalDouble.empty());
    }

    /** {@link #parse(String)} with the GP hyperparameters of {@code --log-ell} and {@code --log-sigma}. */
    static Problem parse(String spec, OptionalDouble logEll, OptionalDouble logSigma) {
        return ModelFamilies.parse(spec, new ModelFamily.Options(logEll, logSigma));
    }

    /** The family that parses this model: its model-specific options and the method families it runs. */
    ModelFamily family();

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

    /** Exact log Z where logz can compute it (an RBM only where it enumerates one layer), empty where it cannot. */
    default Optional<Double> knownExactLogZ() {
        return exactLogZ(true);
    }

    /**
     * A reference log Z that logz has for this model (stored for a file it knows by its SHA-256, or computed by a series
     * with a stated error), where there is one.
     */
    default Optional<Reference> storedReference() {
        return Optional.empty();
    }

    /**
     * What a benchmark measures log Z against: the model's exact log Z, else {@code given} ({@code --reference
     * LOGZ[:SE]}, null when absent), else {@link #storedReference()}; empty where there is none. A reference given for a
     * model whose exact log Z logz computes is refused: the exact value is what results are measured by.
     */
    default Optional<Reference> reference(String given) {
        if (given != null) {
            Reference parsed = Reference.parse(given);
            if (hasKnownExactLogZ()) {
                throw new UserException("--reference: " + describe().model() + " has an exact log Z, which results are "
                        + "measured against; leave out --reference");
            }
            return Optional.of(parsed);
        }
        return knownExactLogZ().map(v -> Reference.exact(v, "the model's exact log Z")).or(this::storedReference);
    }

    /** Whether {@link #knownExactLogZ()} has a value, without computing it where that is costly (an RBM's enumeration). */
    default boolean hasKnownExactLogZ() {
        return knownExactLogZ().isPresent();
    }

    /** {@link #reference(String)}, or a one-line error saying that {@code what} needs one. */
    default Reference requireReference(String given, String what) {
        return reference(given).orElseThrow(() -> new UserException(what + " needs a model with an exact log Z or a "
                + "reference: " + describe().model() + " has no exact log Z; give one with --reference LOGZ[:SE]"));
    }

    /**
     * What {@code logz exact} prints for a model it does not enumerate: the value, the name of the method and, for a
     * quadrature, the difference between its rules (null otherwise); a one-line error where the model has none.
     */
    default Exact exact() {
        return new Exact(requireExactLogZ("logz exact"), "closed form", null);
    }

    /** {@link #exact()}'s answer. */
    public record Exact(double logZ, String method, Double error) {
    }

    /**
     * How papers write this model's log Z where they drop a constant term from it (Habeck's Potts value is log Z - N ln q):
     * the term's name and value, which reports print beside log Z; empty where log Z is the only form.
     */
    default Optional<Convention> convention() {
        return Optional.empty();
    }

    /** {@link #convention()}'s answer: papers write {@code log Z - offset}, the term named {@code term} ({@code N ln q}). */
    public record Convention(String term, double offset) {
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
     * Backend bytes one chain of the path of {@code options} holds, where the model knows it before building the path
     * (an RBM, whose default base rate takes minutes to find on large models); 0 where it does not.
     */
    default long bytesPerChain(PathOptions options) {
        return 0;
    }

    /**
     * Refuses, before a run of {@code particles} chains or particles, path options whose sweeps would take hours (an
     * estimated likelihood with too many inner draws); nothing for models whose transitions cost a fixed amount.
     */
    default void checkCost(PathOptions options, long particles) {
    }

    /**
     * Whether the chains of one run with these options move independently, so that a run can be split by chains; the
     * pseudo-marginal moves of latent-variable models follow the whole cloud, and an HMC step size adapted on the fly
     * follows the whole batch's acceptance.
     */
    default boolean independentChains(PathOptions options) {
        return true;
    }

    /** Why a run with these options cannot be checkpointed and resumed to the same bits; empty where it can. */
    default Optional<String> notResumable(PathOptions options) {
        return Optional.empty();
    }

    /**
     * The refusal of {@code method}, of a family the model does not run, when the options are checked; empty where
     * the run itself refuses it (naming what it builds on).
     */
    default Optional<String> refusal(Method method) {
        return Optional.empty();
    }

    /**
     * Why {@code method} cannot run on the path {@code options} choose, checked before anything runs (a path whose
     * construction takes a fit should not run it for a method that then refuses the path); empty where it can.
     */
    default Optional<String> pathRefusal(Method method, PathOptions options) {
        return Optional.empty();
    }

    /** Whether one estimator's answer cannot be checked against an exact value, which the report warns of. */
    default boolean unverified() {
        return false;
    }

    /**
     * The sequential path of rm and arm (Fraccaro et al.): the units it adds one at a time in the order of
     * {@code order} (null for the model's default), the model built up along them, and a GP classifier's sequence,
     * whose defaults and conditioning the run reads (null for other models).
     */
    default Sequence sequence(String order, String data, ResampleMove.Variant variant, Method method) {
        throw new UserException("--method " + method + " builds up " + ModelFamilies.sequentialUnits()
                + "; it does not apply to " + describe().model());
    }

    /** {@link #sequence}'s answer. */
    public record Sequence(UnitOrder order, SequentialModel model, GpcSequence classifier) {
    }

    /**
     * The data-annealing path of {@code model} (Habeck §6.4): its points entered in {@code order} (natural, the default,
     * or random:SEED). arm-reseed is refused: it starts chains from data examples of the path's variables, and θ has
     * none.
     */
    static Sequence dataAnnealing(PointwiseLikelihood model, String order, ResampleMove.Variant variant) {
        if (variant == ResampleMove.Variant.RESEED) {
            throw new UserException("--method arm-reseed starts chains from examples of the variables; data annealing "
                    + "over " + model.description() + " has none: use rm, arm or arm-anticipate");
        }
        UnitOrder o = DataSequence.order(order, model.points());
        return new Sequence(o, new DataSequence(model, o), null);
    }

    /**
     * Where the model has them in closed form, the marginals of chains annealed along {@code betas} (forward from p_0 or
     * reverse from p_1, {@code transitions} per step) against the path's equilibria, step by step (Habeck Fig. 1B);
     * empty where it does not.
     */
    default List<AnnealedMarginal> annealedMarginals(double[] betas, boolean forward, int transitions) {
        return List.of();
    }

    /** The schedule of equal divergence between neighbouring steps where the model has it in closed form. */
    default Optional<Schedule> equalDivergenceSchedule(int steps) {
        return Optional.empty();
    }

    /**
     * Whether reverse runs start from a forward run's end states ({@code forward[:G]}) when --reverse-start is not
     * given: such runs cannot be split by chains, since no part has the whole forward run.
     */
    default boolean reverseStartsFromForward() {
        return false;
    }

    /**
     * The reverse start of a consensus run's annealing estimator ({@code data}: whether a data set is given); null for
     * the model's default.
     */
    default String consensusReverseStart(boolean data) {
        return null;
    }

    /** The RBM, for the commands that run on RBMs only (enumeration, sweep benchmarks). */
    default Optional<Rbm> rbm() {
        return Optional.empty();
    }

    /** The GP classifier, for expectation propagation and the GP benchmarks. */
    default Optional<GpClassification> classifier() {
        return Optional.empty();
    }

    /** The latent-variable model, for AISEL and its likelihood options. */
    default Optional<LatentModel> latentModel() {
        return Optional.empty();
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

    /**
     * A lattice model's reverse start: {@code ground} (the default; Habeck §6.1) or {@code ground:B} (then B transitions at
     * β = 1) from the rows {@code states} gives for the chains, else {@link #gibbs}'s {@code forward[:G]} or
     * {@code gibbs:B}.
     */
    static Start ground(String spec, java.util.function.IntFunction<float[]> states, int chains) {
        String s = spec == null ? "ground" : spec.trim().toLowerCase(Locale.ROOT);
        if (s.equals("ground") || s.startsWith("ground:")) {
            int sweeps = s.equals("ground") ? 0 : burnIn(s.substring(7), s);
            return new Start.Given(states.apply(chains), "ground", sweeps);
        }
        return gibbs(s, "ground, ground:B, forward[:G] or gibbs:B");
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
            return Decimal.parseInt(value);
        } catch (NumberFormatException e) {
            throw new UserException("--reverse-start " + spec + ": G must be an integer");
        }
    }

    static int burnIn(String value, String spec) {
        try {
            return Decimal.parseInt(value);
        } catch (NumberFormatException e) {
            throw new UserException("--reverse-start " + spec + ": B must be an integer");
        }
    }

    /** {@code name:key=value,...} of {@code --model} as a map with lower-case keys; a bare name gives an empty map. */
    static Map<String, String> parameters(String spec, String name) {
        return parameters("--model", spec, name);
    }

    /**
     * {@code name:key=value,...} given to {@code option} as a map with lower-case keys; a bare name gives an empty map.
     * An empty part or a key given twice is refused, so a typo never silently yields to a later value.
     */
    static Map<String, String> parameters(String option, String spec, String name) {
        return Parameters.of(option, spec, name);
    }
}
