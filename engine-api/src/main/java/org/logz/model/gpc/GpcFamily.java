package org.logz.model.gpc;

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.logz.options.Family;
import org.logz.problem.ModelFamily;
import org.logz.problem.Problem;

/** {@code gpc:SET|FILE}: GP classification (ARM paper §4) with the hyperparameters of --log-ell and --log-sigma. */
public final class GpcFamily implements ModelFamily {
    static final Set<Family> METHODS = Set.copyOf(EnumSet.complementOf(EnumSet.of(Family.AISEL)));

    @Override
    public int order() {
        return 40;
    }

    @Override
    public boolean accepts(String spec) {
        return spec.startsWith("gpc:");
    }

    @Override
    public Problem parse(String spec, Options options) {
        return new GpcProblem(GpcFiles.read(spec.substring(4), options.logEll(), options.logSigma()));
    }

    @Override
    public String syntax() {
        return "gpc:SET|FILE";
    }

    @Override
    public List<String> help() {
        return List.of("gpc:digits35|mnist35|FILE.npz (GP classification: y and X or K)");
    }

    @Override
    public Optional<String> exactHelp() {
        return Optional.of("of small GP classifiers by orthant probabilities");
    }

    @Override
    public String kind() {
        return "GP classification (--model gpc:...)";
    }

    @Override
    public Set<String> options() {
        return Set.of("--start", "--kernel", "--log-ell", "--log-sigma");
    }

    @Override
    public Set<Family> methods() {
        return METHODS;
    }

    @Override
    public Optional<String> sequentialUnits() {
        return Optional.of("a GP classifier's cases");
    }
}
