package org.logz.model.gmm;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.logz.options.Family;
import org.logz.problem.ModelFamily;
import org.logz.problem.Problem;

/** {@code gmm[:key=value,...]}: two isotropic Gaussians in d dimensions, sampled by HMC, exact log Z in closed form. */
public final class GmmFamily implements ModelFamily {
    static final Set<Family> METHODS = Set.of(Family.ANNEALING, Family.WORK, Family.TEMPERED, Family.PARALLEL_TEMPERING,
            Family.SMC);

    @Override
    public int order() {
        return 35;
    }

    @Override
    public boolean accepts(String spec) {
        return spec.equals("gmm") || spec.startsWith("gmm:");
    }

    @Override
    public Problem parse(String spec, Options options) {
        return GmmProblem.parse(spec);
    }

    @Override
    public String syntax() {
        return "gmm[:d=N,sep=S,...]";
    }

    @Override
    public boolean hinted() {
        return true;
    }

    @Override
    public List<String> help() {
        return List.of("gmm[:d=N,sep=S,s1=,s2=,w=,s0=,leapfrog=L,step=E|auto[:E],accept=A,jitter=on|off]");
    }

    @Override
    public Optional<String> exactHelp() {
        return Optional.of("of gmm: Gaussian mixtures in closed form");
    }

    @Override
    public String kind() {
        return "the Gaussian mixture (--model gmm:...)";
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
