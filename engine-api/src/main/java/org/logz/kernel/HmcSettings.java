package org.logz.kernel;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.logz.base.UserException;
import org.logz.numeric.Decimal;

/**
 * The settings of Hamiltonian Monte Carlo on a tempered continuous target (RTS appendix E; DESIGN §5, "HMC"): L
 * leapfrog steps of size ε with momenta from N(0, I) and a Metropolis test on the Hamiltonian, each transition's L
 * drawn uniformly from 1 .. {@code leapfrog} when {@code jitter} is on (so no fixed L resonates with a period of the
 * target), and ε either fixed or adapted towards {@code targetAcceptance} by {@link HmcStepSizes}, starting from
 * {@code stepSize}.
 *
 * @param leapfrog         L, the leapfrog steps of a transition (with jitter, their largest number l_max)
 * @param stepSize         ε: the step size, or the first one where it adapts
 * @param adapt            whether ε follows each temperature's mean acceptance ({@link HmcStepSizes})
 * @param targetAcceptance the mean acceptance that adaptation aims for (0.65, Neal 2011 §4.4 and Beskos et al. 2013)
 * @param jitter           whether a transition's L is uniform on 1 .. leapfrog
 */
public record HmcSettings(int leapfrog, double stepSize, boolean adapt, double targetAcceptance, boolean jitter) {
    /** Largest L: a transition's gradient evaluations; more is a setting error, not a sampler. */
    public static final int MAX_LEAPFROG = 10_000;
    /** Smallest and largest ε, fixed or adapted: outside, float32 states either do not move or overflow. */
    public static final double MIN_STEP = 1e-6;
    public static final double MAX_STEP = 1e3;
    public static final int DEFAULT_LEAPFROG = 10;
    public static final double DEFAULT_STEP = 0.1;
    public static final double DEFAULT_ACCEPTANCE = 0.65;

    public HmcSettings {
        if (leapfrog < 1 || leapfrog > MAX_LEAPFROG) {
            throw new UserException("HMC leapfrog steps must be an integer from 1 to " + MAX_LEAPFROG + ", got " + leapfrog);
        }
        if (!(stepSize >= MIN_STEP && stepSize <= MAX_STEP)) {
            throw new UserException("HMC step size must lie in [" + MIN_STEP + ", " + MAX_STEP + "], got " + stepSize);
        }
        if (!(targetAcceptance >= 0.05 && targetAcceptance <= 0.99)) {
            throw new UserException("HMC target acceptance must lie in [0.05, 0.99], got " + targetAcceptance);
        }
    }

    /** L = 10 jittered, ε adapted from 0.1 towards acceptance 0.65. */
    public static HmcSettings defaults() {
        return new HmcSettings(DEFAULT_LEAPFROG, DEFAULT_STEP, true, DEFAULT_ACCEPTANCE, true);
    }

    /** The keys of {@link #with(Map)}. */
    public static final Set<String> KEYS = Set.of("leapfrog", "step", "accept", "jitter");
    /** Why an adapted run is not checkpointed: its ε's live in the kernel, not in the checkpoint. */
    public static final String NOT_RESUMABLE = "an HMC step size adapted on the fly (step=auto) is not saved in a "
            + "checkpoint, so a resumed run would not be the uninterrupted one; give a fixed step=E";

    /**
     * These settings with the values of the keys {@code leapfrog=L}, {@code step=E|auto|auto:E} ({@link #withStep}),
     * {@code accept=A} and {@code jitter=on|off} of {@code p} where given; other keys are the caller's.
     */
    public HmcSettings with(Map<String, String> p) {
        HmcSettings s = new HmcSettings(SpecValues.integer(p, "leapfrog", leapfrog), stepSize, adapt,
                SpecValues.number(p, "accept", targetAcceptance), SpecValues.onOff(p, "jitter", jitter));
        return p.containsKey("step") ? s.withStep(p.get("step")) : s;
    }

    /** These settings with the step size of {@code value}: {@code E} (fixed), {@code auto} or {@code auto:E} (adapted from E). */
    public HmcSettings withStep(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        boolean auto = v.equals("auto") || v.startsWith("auto:");
        String number = auto ? (v.equals("auto") ? null : v.substring(5)) : v;
        double e = number == null ? stepSize : Decimal.parse(number).orElseThrow(() -> new UserException(
                "HMC step size must be E, auto or auto:E with E a decimal number, got '" + value + "'"));
        return new HmcSettings(leapfrog, e, auto, targetAcceptance, jitter);
    }

    /** The spec of these settings, {@code leapfrog=L,step=E|auto:E,accept=A,jitter=on|off}. */
    public String spec() {
        return "leapfrog=" + leapfrog + ",step=" + (adapt ? "auto:" : "") + stepSize + ",accept=" + targetAcceptance
                + ",jitter=" + (jitter ? "on" : "off");
    }

    /** A phrase for reports: {@code HMC L uniform on 1..10, ε adapted from 0.1 towards acceptance 0.65} or {@code HMC L = 10, ε = 0.02}. */
    public String describe() {
        return "HMC " + (jitter ? "L uniform on 1.." + leapfrog : "L = " + leapfrog) + ", "
                + (adapt ? String.format(Locale.ROOT, "ε adapted from %s towards acceptance %s", stepSize, targetAcceptance)
                : "ε = " + stepSize);
    }
}
