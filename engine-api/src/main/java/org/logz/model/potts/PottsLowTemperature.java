package org.logz.model.potts;

import java.util.Optional;

import org.logz.problem.Reference;

/**
 * log Z of the q-state Potts torus deep in its ordered phase by the low-temperature (polymer) expansion around its q
 * ground states: {@code log Z = ln q + 2NJ + N(q−1)e^{−4J} + 2N[(q−1)e^{−6J} + (q−1)(q−2)e^{−7J}] + O(N q² e^{−8J})},
 * the terms being one site of another colour (4 bonds broken) and two neighbouring ones of the same colour (6) or of
 * two colours (7). The first term left out, {@code −(5/2)N(q−1)²e^{−8J}} (two single flips that touch or overlap), is
 * the error it states; against the transfer matrix (q = 10 at J = 2, 2.5 and 3 on 4×4 and 6×6, q = 3 at J = 2 on 8×8)
 * the true error is a fifth to four fifths of it. It is a reference for lattices the transfer matrix cannot solve, such
 * as Habeck's 32×32 ten-colour model at J = 2 (§6.2): log Z − N ln q = 1743.78 ± 0.02, where his parallel tempering
 * gave 1742.
 */
public final class PottsLowTemperature {
    /** The largest stated error for which the expansion is offered as a reference. */
    static final double MAX_ERROR = 0.1;

    private PottsLowTemperature() {
    }

    /**
     * The expansion's log Z and its error, where the coupling lies above the transition (J &gt; ln(1 + √q), where the
     * ordered phase the expansion describes is the equilibrium one) and the error is at most {@value #MAX_ERROR}.
     */
    public static Optional<Reference> reference(Potts model) {
        double q = model.colours();
        double j = model.coupling();
        double n = model.sites();
        double error = 2.5 * n * (q - 1) * (q - 1) * Math.exp(-8 * j);
        if (!(j > Math.log(1 + Math.sqrt(q))) || error > MAX_ERROR) {
            return Optional.empty();
        }
        double logZ = Math.log(q) + 2 * n * j + n * (q - 1) * Math.exp(-4 * j)
                + 2 * n * ((q - 1) * Math.exp(-6 * j) + (q - 1) * (q - 2) * Math.exp(-7 * j));
        return Optional.of(new Reference(logZ, error, Reference.REFERENCE, "the low-temperature expansion to e^-7J"));
    }
}
