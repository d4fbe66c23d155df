package org.logz.model.toy;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.logz.backend.ParticleBackend;
import org.logz.base.UserException;
import org.logz.model.AnnealedMarginal;
import org.logz.estimate.AnnealedImportanceSampling.Start;
import org.logz.numeric.Decimal;
import org.logz.path.TemperedPath;
import org.logz.problem.ModelFamily;
import org.logz.problem.Problem;
import org.logz.schedule.EqualDivergence;
import org.logz.schedule.Schedule;

/** {@code gauss-toy[:mu0=..,sigma0=..,tau0=..,mu1=..,sigma1=..,tau1=..,power=..]}; defaults: Habeck's. */
public record ToyProblem(GaussianToy model) implements Problem {
    public static ToyProblem parse(String spec) {
        GaussianToy d = GaussianToy.habeck();
        Map<String, String> p = Problem.parameters(spec, "gauss-toy");
        Set<String> known = Set.of("mu0", "sigma0", "tau0", "mu1", "sigma1", "tau1", "power");
        for (String key : p.keySet()) {
            if (!known.contains(key)) {
                throw new UserException("--model " + spec + ": unknown parameter '" + key + "'; use "
                        + String.join(", ", new TreeSet<>(known)));
            }
        }
        try {
            return new ToyProblem(new GaussianToy(number(spec, p, "mu0", d.mu0()), number(spec, p, "sigma0", d.sigma0()),
                    number(spec, p, "tau0", d.tau0()), number(spec, p, "mu1", d.mu1()),
                    number(spec, p, "sigma1", d.sigma1()), number(spec, p, "tau1", d.tau1()), power(spec, p, d.power())));
        } catch (IllegalArgumentException e) {
            throw new UserException("--model " + spec + ": " + e.getMessage());
        }
    }

    private static double number(String spec, Map<String, String> p, String key, double fallback) {
        if (!p.containsKey(key)) {
            return fallback;
        }
        return Decimal.parse(p.get(key)).orElseThrow(() -> new UserException(key + " = '" + p.get(key)
                + "' is not a finite decimal number"));
    }

    /** The kernel power: an integer, not a float rounded down. */
    private static int power(String spec, Map<String, String> p, int fallback) {
        if (!p.containsKey("power")) {
            return fallback;
        }
        String v = p.get("power");
        if (!v.matches("[+-]?[0-9]{1,9}")) {
            throw new UserException("power = '" + v + "' must be an integer from 1 to " + GaussianToy.MAX_POWER);
        }
        return Decimal.parseInt(v);
    }

    @Override
    public ModelFamily family() {
        return new ToyFamily();
    }

    @Override
    public Description describe() {
        return Description.named("gauss-toy:mu0=" + model.mu0() + ",sigma0=" + model.sigma0() + ",tau0=" + model.tau0()
                + ",mu1=" + model.mu1() + ",sigma1=" + model.sigma1() + ",tau1=" + model.tau1() + ",power=" + model.power());
    }

    @Override
    public Optional<Double> exactLogZ(boolean requested) {
        return Optional.of(model.logZ1());
    }

    @Override
    public GaussianToy temperedModel(ParticleBackend backend, PathOptions options) {
        return model;
    }

    @Override
    public TemperedPath temperingPath(ParticleBackend backend, PathOptions options) {
        throw new UserException("the Gaussian toy runs the annealing methods (ais, raise, bar, cumulant, "
                + "histogram), not tempered sampling");
    }

    @Override
    public List<AnnealedMarginal> annealedMarginals(double[] betas, boolean forward, int transitions) {
        return model.annealedMarginals(betas, forward, transitions);
    }

    @Override
    public Optional<Schedule> equalDivergenceSchedule(int steps) {
        return Optional.of(EqualDivergence.of(steps, model::divergence));
    }

    @Override
    public Start reverseStart(String spec, TemperedPath path, int chains, PathOptions options) {
        String s = spec == null ? "exact" : spec.trim().toLowerCase(Locale.ROOT);
        return s.equals("exact") ? new Start.Exact() : Problem.gibbs(s, "exact, forward[:G] or gibbs:B");
    }
}
