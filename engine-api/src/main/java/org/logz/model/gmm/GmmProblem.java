package org.logz.model.gmm;

import static org.logz.kernel.SpecValues.integer;
import static org.logz.kernel.SpecValues.number;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.logz.backend.ParticleBackend;
import org.logz.base.UserException;
import org.logz.estimate.AnnealedImportanceSampling.Start;
import org.logz.kernel.HmcSettings;
import org.logz.path.TemperedPath;
import org.logz.problem.ModelFamily;
import org.logz.problem.Problem;

/**
 * {@code gmm[:d=N,sep=S,s1=..,s2=..,w=..,s0=..,leapfrog=L,step=E|auto[:E],accept=A,jitter=on|off]}: the Gaussian
 * mixture of {@link GaussianMixture} with its HMC settings ({@link HmcSettings}); defaults
 * {@link GaussianMixture#defaults()}.
 */
public record GmmProblem(GaussianMixture model) implements Problem {
    private static final Set<String> KEYS = union(Set.of("d", "sep", "s1", "s2", "w", "s0"), HmcSettings.KEYS);

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> out = new TreeSet<>(a);
        out.addAll(b);
        return Set.copyOf(out);
    }

    public static GmmProblem parse(String spec) {
        GaussianMixture d = GaussianMixture.defaults();
        Map<String, String> p = Problem.parameters(spec, "gmm");
        for (String key : p.keySet()) {
            if (!KEYS.contains(key)) {
                throw new UserException("--model " + spec + ": unknown parameter '" + key + "'; use "
                        + String.join(", ", new TreeSet<>(KEYS)));
            }
        }
        try {
            return new GmmProblem(new GaussianMixture(integer(p, "d", d.dimension()), number(p, "sep", d.separation()),
                    number(p, "s1", d.sigma1()), number(p, "s2", d.sigma2()), number(p, "w", d.weight()),
                    number(p, "s0", d.sigma0()), d.hmc().with(p)));
        } catch (UserException e) {
            throw new UserException("--model " + spec + ": " + e.getMessage());
        }
    }

    @Override
    public ModelFamily family() {
        return new GmmFamily();
    }

    @Override
    public Description describe() {
        GaussianMixture m = model;
        return Description.named(String.format(Locale.ROOT, "gmm:d=%d,sep=%s,s1=%s,s2=%s,w=%s,s0=%s,%s", m.dimension(),
                m.separation(), m.sigma1(), m.sigma2(), m.weight(), m.sigma0(), m.hmc().spec()));
    }

    @Override
    public Optional<Double> exactLogZ(boolean requested) {
        return Optional.of(model.logZ());
    }

    @Override
    public Exact exact() {
        return new Exact(model.logZ(), "closed form", null);
    }

    @Override
    public GaussianMixture temperedModel(ParticleBackend backend, PathOptions options) {
        return model;
    }

    /** An adaptive step size follows the whole batch's acceptance ({@code HmcStepSizes}), so such runs are not split. */
    @Override
    public boolean independentChains(PathOptions options) {
        return !model.hmc().adapt();
    }

    @Override
    public Optional<String> notResumable(PathOptions options) {
        return model.hmc().adapt() ? Optional.of(HmcSettings.NOT_RESUMABLE) : Optional.empty();
    }

    /** {@code exact} (default: draws from the mixture itself), {@code forward[:G]} or {@code gibbs:B} (B HMC transitions). */
    @Override
    public Start reverseStart(String spec, TemperedPath path, int chains, PathOptions options) {
        String s = spec == null ? "exact" : spec.trim().toLowerCase(Locale.ROOT);
        return s.equals("exact") ? new Start.Exact() : Problem.gibbs(s, "exact, forward[:G] or gibbs:B");
    }
}
