package org.logz.model.rbm;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.logz.io.UserPaths;
import org.logz.options.Family;
import org.logz.problem.ModelFamily;
import org.logz.problem.Problem;

/** RBMs: an {@code .npz} file, or the embedded demo when {@code --model} is absent. */
public final class RbmFamily implements ModelFamily {
    static final Set<String> OPTIONS = Set.of("--data", "--base-rate", "--compare-exact", "--path");

    static final Set<Family> METHODS = Set.of(Family.ANNEALING, Family.WORK, Family.TEMPERED, Family.PARALLEL_TEMPERING,
            Family.SEQUENTIAL, Family.SMC);

    @Override
    public int order() {
        return 10;
    }

    /** An RBM has no prefix: it is whatever no other family names. */
    @Override
    public boolean accepts(String spec) {
        return false;
    }

    @Override
    public boolean fallback() {
        return true;
    }

    @Override
    public Problem parse(String spec, Options options) {
        return new RbmProblem(RbmSource.resolve(spec == null ? null : UserPaths.of(spec)));
    }

    @Override
    public String syntax() {
        return "an RBM .npz file";
    }

    @Override
    public boolean hinted() {
        return true;
    }

    @Override
    public List<String> help() {
        return List.of("RBM .npz file (W, a, b, optional a0; or scikit-learn names)");
    }

    @Override
    public Optional<String> exactHelp() {
        return Optional.of("of an RBM by Gray-code enumeration of its smaller layer (at most " + RbmEnumeration.MAX_UNITS + " units)");
    }

    @Override
    public String kind() {
        return "RBMs";
    }

    @Override
    public Set<String> options() {
        return OPTIONS;
    }

    @Override
    public Set<Family> methods() {
        return METHODS;
    }

    @Override
    public Optional<String> sequentialUnits() {
        return Optional.of("an RBM's visible units");
    }
}
