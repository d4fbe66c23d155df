package org.logz.model.ising;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.logz.backend.ParticleBackend;
import org.logz.base.UserException;
import org.logz.estimate.AnnealedImportanceSampling.Start;
import org.logz.numeric.Decimal;
import org.logz.path.TemperedPath;
import org.logz.problem.ModelFamily;
import org.logz.problem.Problem;

/** {@code ising:L=N}: the N × N torus at β = 1 from the uniform distribution. */
public record IsingProblem(Ising model) implements Problem {
    public static IsingProblem parse(String spec) {
        Map<String, String> p = Problem.parameters(spec, "ising");
        if (!p.keySet().equals(Set.of("l"))) {
            throw new UserException("--model " + spec + ": write ising:L=N with an even N ≥ 2");
        }
        try {
            return new IsingProblem(new Ising(Decimal.parseInt(p.get("l"))));
        } catch (NumberFormatException e) {
            throw new UserException("--model " + spec + ": L must be an integer");
        }
    }

    @Override
    public ModelFamily family() {
        return new IsingFamily();
    }

    @Override
    public Description describe() {
        return new Description("ising:L=" + model.size(), null, null, model.sites(), null);
    }

    @Override
    public Optional<Double> exactLogZ(boolean requested) {
        return Optional.of(IsingExact.logZ(model, 1.0));
    }

    @Override
    public Exact exact() {
        return new Exact(IsingExact.logZ(model, 1.0), "Kaufman (1949)", null);
    }

    @Override
    public Ising temperedModel(ParticleBackend backend, PathOptions options) {
        return model;
    }

    /** {@code ground} (default; Habeck §6.1), {@code ground:B} (then B sweeps at β = 1) or {@code gibbs:B}. */
    @Override
    public Start reverseStart(String spec, TemperedPath path, int chains, PathOptions options) {
        return Problem.ground(spec, model::groundStates, chains);
    }
}
