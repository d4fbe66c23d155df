package org.logz.model.gmm;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.logz.backend.ParticleBackend;
import org.logz.base.UserException;
import org.logz.estimate.AnnealedImportanceSampling.Start;
import org.logz.kernel.HmcSettings;
import org.logz.numeric.Decimal;
import org.logz.path.TemperedPath;
import org.logz.problem.ModelFamily;
import org.logz.problem.Problem;

/**
 * {@code gmm[:d=N,sep=S,s1=..,s2=..,w=..,s0=..,leapfrog=L,step=E|auto[:E],accept=A,jitter=on|off]}: the Gaussian
 * mixture of {@link GaussianMixture} with its HMC settings ({@link HmcSettings}); defaults
 * {@link GaussianMixture#defaults()}.
 */
public record GmmProblem(GaussianMixture model) implements Problem {
    private static final Set<String> KEYS = Set.of("d", "sep", "s1", "s2", "w", "s0", "leapfrog", "step", "accept",
            "jitter");

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
            HmcSettings h = d.hmc();
            HmcSettings hmc = new HmcSettings(integer(p, "leapfrog", h.leapfrog()), h.stepSize(), h.adapt(),
                    number(p, "accept", h.targetAcceptance()), onOff(p, "jitter", h.jitter()));
            if (p.containsKey("step")) {
                hmc = hmc.withStep(p.get("step"));
            }
            return new GmmProblem(new GaussianMixture(integer(p, "d", d.dimension()), number(p, "sep", d.separation()),
                    number(p, "s1", d.sigma1()), number(p, "s2", d.sigma2()), number(p, "w", d.weight()),
                    number(p, "s0", d.sigma0()), hmc));
        } catch (UserException e) {
            throw new UserException("--model " + spec + ": " + e.getMessage());
        }
    }

    private static double number(Map<String, String> p, String key, double fallback) {
        if (!p.containsKey(key)) {
            return fallback;
        }
        return Decimal.parse(p.get(key)).orElseThrow(() -> new UserException(key + " = '" + p.get(key)
                + "' is not a finite decimal number"));
    }

    private static int integer(Map<String, String> p, String key, int fallback) {
        if (!p.containsKey(key)) {
            return fallback;
        }
        String v = p.get(key);
        if (!v.matches("[+-]?[0-9]{1,9}")) {
            throw new UserException(key + " = '" + v + "' is not an integer");
        }
        return Integer.parseInt(v);
    }

    private static boolean onOff(Map<String, String> p, String key, boolean fallback) {
        if (!p.containsKey(key)) {
            return fallback;
        }
        return switch (p.get(key).toLowerCase(Locale.ROOT)) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new UserException(key + " must be on or off, got '" + p.get(key) + "'");
        };
    }

    @Override
    public ModelFamily family() {
        return new GmmFamily();
    }

    @Override
    public Description describe() {
        GaussianMixture m = model;
        HmcSettings h = m.hmc();
        return new Description(String.format(Locale.ROOT,
                "gmm:d=%d,sep=%s,s1=%s,s2=%s,w=%s,s0=%s,leapfrog=%d,step=%s,accept=%s,jitter=%s", m.dimension(),
                m.separation(), m.sigma1(), m.sigma2(), m.weight(), m.sigma0(), h.leapfrog(),
                (h.adapt() ? "auto:" : "") + h.stepSize(), h.targetAcceptance(), h.jitter() ? "on" : "off"), null, null,
                null, null);
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
    public boolean independentChains() {
        return !model.hmc().adapt();
    }

    /** {@code exact} (default: draws from the mixture itself), {@code forward[:G]} or {@code gibbs:B} (B HMC transitions). */
    @Override
    public Start reverseStart(String spec, TemperedPath path, int chains, PathOptions options) {
        String s = spec == null ? "exact" : spec.trim().toLowerCase(Locale.ROOT);
        return s.equals("exact") ? new Start.Exact() : Problem.gibbs(s, "exact, forward[:G] or gibbs:B");
    }
}
