package org.logz.model.latent;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import org.logz.options.Family;
import org.logz.problem.ModelFamily;
import org.logz.problem.Problem;

/** {@code glmm:SET|FILE} (the logistic random-intercept GLMM) or {@code sv:SET|FILE} (stochastic volatility). */
public final class LatentFamily implements ModelFamily {
    static final Set<Family> METHODS = Set.of(Family.ANNEALING, Family.WORK, Family.SMC, Family.AISEL, Family.SEQUENTIAL);

    @Override
    public int order() {
        return 50;
    }

    @Override
    public boolean accepts(String spec) {
        return spec.startsWith("glmm:") || spec.startsWith("sv:");
    }

    @Override
    public Problem parse(String spec, Options options) {
        return spec.toLowerCase(Locale.ROOT).startsWith("glmm:")
                ? new LatentProblem(LatentFiles.glmm(spec.substring(5)))
                : new LatentProblem(LatentFiles.stochasticVolatility(spec.substring(3)));
    }

    @Override
    public String syntax() {
        return "glmm:SET|FILE or sv:SET|FILE";
    }

    @Override
    public List<String> help() {
        return List.of("glmm:sim20|sim8|FILE.npz (logistic random-intercept GLMM: y, X, group)", "sv:sim200|FILE.npz (stochastic volatility: y)");
    }

    @Override
    public Optional<String> exactHelp() {
        return Optional.of("of glmm: models with at most 2 covariates by quadrature over θ (refused when its two rules disagree)");
    }

    @Override
    public String kind() {
        return "latent-variable models (--model glmm:... or sv:...)";
    }

    @Override
    public Set<String> options() {
        return Set.of("--inner", "--proposal", "--likelihood");
    }

    @Override
    public Set<Family> methods() {
        return METHODS;
    }

    /** rm and arm anneal a GLMM's data, group by group (a stochastic volatility series does not factor). */
    @Override
    public Optional<String> sequentialUnits() {
        return Optional.of("a GLMM's groups (data annealing)");
    }
}
