package org.logz.model.potts;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.logz.options.Family;
import org.logz.problem.ModelFamily;
import org.logz.problem.Problem;

/** {@code potts:q=Q,L=N[,J=2][,moves=...]}: the q-state Potts torus, exact log Z by transfer matrix on small lattices. */
public final class PottsFamily implements ModelFamily {
    static final Set<Family> METHODS = Set.of(Family.ANNEALING, Family.WORK, Family.TEMPERED, Family.PARALLEL_TEMPERING,
            Family.SMC);

    @Override
    public int order() {
        return 25;
    }

    @Override
    public boolean accepts(String spec) {
        return spec.equals("potts") || spec.startsWith("potts:");
    }

    @Override
    public Problem parse(String spec, Options options) {
        return PottsProblem.parse(spec);
    }

    @Override
    public String syntax() {
        return "potts:q=Q,L=N";
    }

    @Override
    public boolean hinted() {
        return true;
    }

    @Override
    public List<String> help() {
        return List.of(PottsProblem.SYNTAX);
    }

    @Override
    public Optional<String> exactHelp() {
        return Optional.of("of potts:q=Q,L=N by transfer matrix (L ≤ 12 for q = 2, 8 for q = 3, 6 for q ≤ 10, 4 for q ≤ 80, else 2)");
    }

    @Override
    public String kind() {
        return "the Potts model (--model potts:q=Q,L=N)";
    }

    /** {@code --compare-exact}: the transfer matrix beyond what every estimate computes unasked. */
    @Override
    public Set<String> options() {
        return Set.of("--compare-exact");
    }

    @Override
    public Set<Family> methods() {
        return METHODS;
    }
}
