package org.logz.model.mixture;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.logz.options.Family;
import org.logz.problem.ModelFamily;
import org.logz.problem.Problem;

/** {@code mixture:SET|FILE}: the posterior of a Gaussian mixture's component means given data. */
public final class MixtureFamily implements ModelFamily {
    @Override
    public int order() {
        return 60;
    }

    @Override
    public boolean accepts(String spec) {
        return spec.startsWith("mixture:");
    }

    @Override
    public Problem parse(String spec, Options options) {
        return new MixtureProblem(MixtureFiles.read(spec.substring("mixture:".length())));
    }

    @Override
    public String syntax() {
        return "mixture:SET|FILE";
    }

    @Override
    public List<String> help() {
        return List.of("mixture:sim12|sim200|FILE.npz (Gaussian mixture means given data: y, weights, sigma, prior_sd)");
    }

    @Override
    public Optional<String> exactHelp() {
        return Optional.of("of mixture: by the sum over the K^n allocations (K^n ≤ 2^20)");
    }

    @Override
    public String kind() {
        return "Gaussian mixture posteriors (--model mixture:...)";
    }

    @Override
    public Set<String> options() {
        return Set.of();
    }

    @Override
    public Set<Family> methods() {
        return Set.of(Family.ANNEALING, Family.WORK, Family.SMC, Family.SEQUENTIAL);
    }

    @Override
    public Optional<String> sequentialUnits() {
        return Optional.of("a mixture's observations (data annealing)");
    }
}
