package org.logz.estimate;

import java.util.Arrays;
import java.util.Locale;

import org.logz.base.UserException;

/**
 * Every estimator logz has, by the name the command line and the JSON use ({@link #toString()}).
 * A result names its headline method with one of these; a tempered or bidirectional result holds one
 * reading per estimator of its family.
 */
public enum Method {
    /** Annealed importance sampling from the base (Neal 2001). */
    AIS("ais"),
    /** Reverse AIS from samples of the target (Burda, Grosse &amp; Salakhutdinov 2015). */
    RAISE("raise"),
    /** Resample-Move on the data-annealing path (Gilks &amp; Berzuini 2001). */
    RM("rm"),
    /** Adaptive Resample-Move (ARM paper, Algorithm 2). */
    ARM("arm"),
    /** ARM with the anticipated reweighting of the next variable (ARM paper §3.3). */
    ARM_ANTICIPATE("arm-anticipate"),
    /** ARM with reseeded particles (ARM paper §3.4). */
    ARM_RESEED("arm-reseed"),
    /** Rao-Blackwellized tempered sampling (Carlson et al. 2016, eq. 6). */
    RTS("rts"),
    /** Thermodynamic integration over the tempered chains' levels. */
    TI("ti"),
    /** Tempered sampling's eq. 12 on visit counts, each plus 0.1: the non-Rao-Blackwellized TS of Carlson et al. Fig. 1, 4. */
    TS("ts"),
    /** Thermodynamic integration by the right Riemann sum over the levels (Carlson et al. Fig. 2). */
    TI_RIEMANN("ti-riemann"),
    /** Thermodynamic integration by the trapezoid with the variance correction of Friel, Hurn &amp; Wyse (2014). */
    TI_FRIEL("ti-friel"),
    /** Rao-Blackwellized thermodynamic integration. */
    TI_RB("ti-rb"),
    /** Multistate Bennett acceptance ratio over the levels (Shirts &amp; Chodera 2008). */
    MBAR("mbar"),
    /** Parallel tempering (replica exchange) read by BAR between neighbouring levels, MBAR and TI (Geyer 1991). */
    PT("pt"),
    /** The forward mean work, a lower bound of the log ratio (Jensen). */
    LOWER_BOUND("lower-bound"),
    /** Minus the reverse mean work, an upper bound of the log ratio. */
    UPPER_BOUND("upper-bound"),
    /** Jarzynski's equality on the forward work. */
    JARZYNSKI_FORWARD("jarzynski-forward"),
    /** Jarzynski's equality on the reverse work. */
    JARZYNSKI_REVERSE("jarzynski-reverse"),
    /** Second-order cumulant expansion of the forward work. */
    CUMULANT_FORWARD("cumulant-forward"),
    /** Second-order cumulant expansion of the reverse work. */
    CUMULANT_REVERSE("cumulant-reverse"),
    /** The two cumulant expansions combined (Habeck's nonequilibrium paper). */
    CUMULANT("cumulant"),
    /** Bennett's acceptance ratio on forward and reverse work (Bennett 1976). */
    BAR("bar"),
    /** The work-histogram estimator of the nonequilibrium paper. */
    HISTOGRAM("histogram"),
    /** The histogram estimator's posterior by Gibbs sampling (Habeck 2017, §5.3, Fig. 4B). */
    HISTOGRAM_GIBBS("histogram-gibbs"),
    /** Expectation propagation for probit GP classification (Rasmussen &amp; Williams, eq. 3.65). */
    EP("ep"),
    /** EP with the second-order correction of Opper, Paquet &amp; Winther (2013), the ARM paper's Fig. 2 reference. */
    EP_CORRECTED("ep-corrected"),
    /** The SMC sampler on a tempered path (Del Moral, Doucet &amp; Jasra 2006; Tran et al. Algorithm 1). */
    SMC("smc"),
    /** AISEL: the SMC sampler over parameters with an estimated likelihood (Tran et al., Algorithm 1). */
    AISEL("aisel"),
    /** The power-posterior estimate from the SMC sampler's particles, by the trapezoid rule (Friel &amp; Pettitt 2008). */
    POWER_POSTERIOR("power-posterior"),
    /** The power-posterior estimate with the second-order correction of Friel, Hurn &amp; Wyse (2014). */
    POWER_POSTERIOR_CORRECTED("power-posterior-corrected"),
    /** Two estimators run to a requested accuracy and combined ({@code --tolerance}; not a --method of its own). */
    CONSENSUS("consensus");

    private final String cliName;

    Method(String cliName) {
        this.cliName = cliName;
    }

    /** The name on the command line and in the JSON. */
    @Override
    public String toString() {
        return cliName;
    }

    /** The method named {@code name} (case-insensitive), or a user error listing the names. */
    public static Method parse(String name) {
        String key = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        for (Method m : values()) {
            if (m.cliName.equals(key)) {
                return m;
            }
        }
        throw new UserException("no method named '" + name + "'; use one of " + Arrays.toString(values()));
    }
}
