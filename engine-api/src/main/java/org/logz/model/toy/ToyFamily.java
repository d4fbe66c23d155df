package org.logz.model.toy;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.logz.options.Family;
import org.logz.problem.ModelFamily;
import org.logz.problem.Problem;

/** {@code gauss-toy[:key=value,...]}: Habeck's Gaussian toy, exact log Z in closed form. */
public final class ToyFamily implements ModelFamily {
    static final Set<Family> METHODS = Set.of(Family.ANNEALING, Family.WORK, Family.SMC);

    @Override
    public int order() {
        return 30;
    }

    @Override
    public boolean accepts(String spec) {
        return spec.equals("gauss-toy") || spec.startsWith("gauss-toy:");
    }

    @Override
    public Problem parse(String spec, Options options) {
        return ToyProblem.parse(spec);
    }

    @Override
    public String syntax() {
        return "gauss-toy[:key=value,...]";
    }

    @Override
    public boolean hinted() {
        return true;
    }

    @Override
    public List<String> help() {
        return List.of("gauss-toy[:mu0=..,sigma0=..,tau0=..,mu1=..,sigma1=..,tau1=..,power=..]");
    }

    @Override
    public Optional<String> exactHelp() {
        return Optional.of("of gauss-toy in closed form");
    }

    @Override
    public String kind() {
        return "gauss-toy";
    }

    @Override
    public Set<String> options() {
        return Set.of();
    }

    @Override
    public Set<Family> methods() {
        return METHODS;
    }
}
