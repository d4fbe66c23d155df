package org.logz.model.ising;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.logz.options.Family;
import org.logz.problem.ModelFamily;
import org.logz.problem.Problem;

/** {@code ising:L=N}: the 2D Ising torus, exact log Z by Kaufman's formula. */
public final class IsingFamily implements ModelFamily {
    static final Set<Family> METHODS = Set.of(Family.ANNEALING, Family.WORK, Family.TEMPERED, Family.PARALLEL_TEMPERING,
            Family.SMC);

    @Override
    public int order() {
        return 20;
    }

    @Override
    public boolean accepts(String spec) {
        return spec.equals("ising") || spec.startsWith("ising:");
    }

    @Override
    public Problem parse(String spec, Options options) {
        return IsingProblem.parse(spec);
    }

    @Override
    public String syntax() {
        return "ising:L=N";
    }

    @Override
    public boolean hinted() {
        return true;
    }

    @Override
    public List<String> help() {
        return List.of("ising:L=N");
    }

    @Override
    public Optional<String> exactHelp() {
        return Optional.of("of ising:L=N by Kaufman's formula");
    }

    @Override
    public String kind() {
        return "the Ising model (--model ising:L=N)";
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
