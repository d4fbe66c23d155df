package org.logz.model.rbm;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

import org.logz.backend.ParticleBackend;
import org.logz.base.UserException;
import org.logz.data.BinaryDataset;
import org.logz.estimate.AnnealedImportanceSampling.Start;
import org.logz.estimate.Method;
import org.logz.estimate.ResampleMove;
import org.logz.model.BaseRate;
import org.logz.model.Rbm;
import org.logz.model.TemperedModel;
import org.logz.options.Family;
import org.logz.path.TemperedPath;
import org.logz.path.UnitOrder;
import org.logz.problem.ModelFamily;
import org.logz.problem.Problem;
import org.logz.problem.Reference;
import org.logz.random.Philox;
import org.logz.random.StreamTag;
import org.logz.resample.Resampling;

/** An RBM file or the demo RBM. */
public record RbmProblem(RbmSource source) implements Problem {
    @Override
    public ModelFamily family() {
        return new RbmFamily();
    }

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
    public Optional<Double> knownExactLogZ() {
        return RbmEnumeration.canEnumerate(source.rbm()) ? Optional.of(RbmEnumeration.logZ(source.rbm())) : Optional.empty();
    }

    @Override
    public boolean hasKnownExactLogZ() {
        return RbmEnumeration.canEnumerate(source.rbm());
    }

    @Override
    public Optional<Reference> storedReference() {
        return source.demo() ? Optional.empty() : StoredReferences.of(Path.of(source.name()));
    }

    /**
     * The RBM on the path of {@code --path}: the full model from its base rate ({@link TemperedRbm}), or the marginal
     * over the hidden units from the uniform base ({@link MarginalRbm}, which has no base rate to choose).
     */
    @Override
    public TemperedModel temperedModel(ParticleBackend backend, PathOptions options) {
        if (movesMoments(options)) {
            BaseRate base = source.baseRate(options.baseRate(), options.data(), backend, options.seed());
            return MomentAveraging.fit(source.rbm(), base, MomentAveraging.Settings.parse(options.path()), backend,
                    options.seed());
        }
        if (marginal(options)) {
            if (!"auto".equals(options.baseRate())) {
                throw new UserException("--base-rate does not apply to --path marginal: its base is the uniform "
                        + "distribution over the hidden units (Z_0 = 2^H)");
            }
            return new MarginalRbm(source.rbm());
        }
        BaseRate base = source.baseRate(options.baseRate(), options.data(), backend, options.seed());
        return new TemperedRbm(source.rbm(), base);
    }

    /**
     * The moment-averages path runs the annealing methods only: tempered sampling and parallel tempering move chains
     * between levels, which its kernels do not, and the SMC sampler's power-posterior readings would integrate the mean
     * slope across the kinks the path has at its knots.
     */
    @Override
    public Optional<String> pathRefusal(Method method, PathOptions options) {
        if (!movesMoments(options) || Family.ANNEALING.runs(method) || Family.WORK.runs(method)) {
            return Optional.empty();
        }
        return Optional.of("--path mas runs the annealing methods (ais, raise, bar, cumulant, histogram, "
                + "histogram-gibbs), not " + (method == Method.CONSENSUS ? "--tolerance, which runs pt"
                : "--method " + method));
    }

    /** The same refusal for the runs that need a tempering path without naming a method (--tolerance's pt). */
    @Override
    public TemperedPath temperingPath(ParticleBackend backend, PathOptions options) {
        if (movesMoments(options)) {
            throw new UserException("--path mas runs the annealing methods (ais, raise, bar, cumulant, histogram, "
                    + "histogram-gibbs), not tempered sampling or parallel tempering (nor --tolerance, which runs pt)");
        }
        return Problem.super.temperingPath(backend, options);
    }

    /** Known before the base rate, whose mode search and Gibbs run take minutes on large models. */
    @Override
    public long bytesPerChain(PathOptions options) {
        if (movesMoments(options)) {
            return 2 * TemperedRbm.bytesPerChain(source.rbm()) + 16;
        }
        return marginal(options) ? MarginalRbm.bytesPerChain(source.rbm()) : TemperedRbm.bytesPerChain(source.rbm());
    }

    /** Whether the options choose the moment-averages path, {@code mas[:...]}. */
    static boolean movesMoments(PathOptions options) {
        String path = options == null || options.path() == null ? "" : options.path().trim().toLowerCase(Locale.ROOT);
        return path.equals("mas") || path.startsWith("mas:");
    }

    /** Whether the options choose the marginal path; a name other than full, marginal or mas[:...] is refused. */
    static boolean marginal(PathOptions options) {
        String path = options == null || options.path() == null ? "full" : options.path().trim().toLowerCase(Locale.ROOT);
        return switch (path) {
            case "full" -> false;
            case "marginal" -> true;
            default -> {
                if (movesMoments(options)) {
                    yield false;
                }
                throw new UserException("--path must be full, marginal or mas[:knots=K,chains=C,updates=U], got "
                        + options.path());
            }
        };
    }

    /** Too large to enumerate: nothing checks one estimator's answer. */
    @Override
    public boolean unverified() {
        return !RbmEnumeration.canEnumerate(source.rbm());
    }

    /** The visible units in the order of {@code order}, with the data set's statistics where one is given. */
    @Override
    public Sequence sequence(String order, String data, ResampleMove.Variant variant, Method method) {
        Optional<BinaryDataset> dataSet = Optional.ofNullable(data).map(source::dataSet);
        UnitOrder unitOrder = UnitOrder.parse(order, source.rbm().visible(), dataSet);
        return new Sequence(unitOrder, new RbmSequence(source.rbm(), unitOrder, dataSet), null);
    }

    /**
     * A large RBM without data starts from the forward run's end states, which annealing reaches the target with,
     * rather than from chains run at β = 1 from the base.
     */
    @Override
    public String consensusReverseStart(boolean data) {
        return !data && !RbmEnumeration.canSample(source.rbm()) ? "forward" : null;
    }

    @Override
    public Optional<Rbm> rbm() {
        return Optional.of(source.rbm());
    }

    /**
     * {@code exact} (the default where a layer is small enough to sample), {@code data[:G]} (the default with data:
     * a training example per chain, then G Gibbs sweeps at β = 1; Habeck §6.3; on the marginal path the example's
     * hidden units drawn from p(h|v), then G Metropolis sweeps), {@code forward[:G]} or {@code gibbs:B} (the default
     * without data: B sweeps from the base).
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
            int sweeps = s.equals("data") ? START_SWEEPS : Problem.sweeps(s.substring(5), s);
            float[] visible = dataStarts(source.dataSet(data), chains, options.seed());
            return new Start.Given(path.model() instanceof MarginalRbm m
                    ? m.hiddenGivenVisible(visible, chains, Philox.derive(options.seed(), StreamTag.REVERSE_START, 2))
                    : visible, "data", sweeps);
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
