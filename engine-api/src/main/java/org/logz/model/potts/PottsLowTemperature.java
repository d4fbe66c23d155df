package org.logz.model.potts;

import java.util.Optional;

import org.logz.problem.Reference;

/**
 * log Z of the q-state Potts torus deep in its ordered phase by the low-temperature (polymer) expansion around its q
 * ground states, in u = e^{−J}: {@code log Z = ln q + 2NJ + N(q−1)u⁴ + 2N[(q−1)u⁶ + (q−1)(q−2)u⁷]
 * + N(q−1)[7 − 5(q−1)/2]u⁸ + 12N(q−1)(q−2)u⁹ + O(N q³ u¹⁰)}. The terms: one site of another colour (4 bonds broken);
 * two neighbouring ones (2N pairs) of one colour (6) or of two (7); at u⁸ the three-site chains (6N: straight and bent)
 * and 2×2 squares (N) of one colour, less half the ordered pairs of single sites that touch or overlap (5N(q−1)²); at
 * u⁹ the chains with one end of a second colour. The error it states, {@code 10 N q³ u¹⁰}, bounds the terms left out
 * with a margin: against the transfer matrix (q = 2 to 20 on 4×4 to 12×12, J from 1.1 J_c to 3) the true error is 0.1
 * to 0.75 of it. Near the transition, J_c = ln(1 + √q), the disordered phase weighs on a finite lattice and the series
 * fails (q = 10 on 4×4 at 1.02 J_c is off by 1.2 times the stated error), so it is offered only at {@code J ≥ 1.2 J_c}
 * and where the stated error is at most {@value #MAX_ERROR}. It is a
 * reference for lattices the transfer matrix cannot solve, such as Habeck's 32×32 ten-colour model at J = 2 (§6.2):
 * log Z − N ln q = 1743.78 ± 0.02, where his parallel tempering gave 1742.
 */
public final class PottsLowTemperature {
    /** The largest stated error for which the expansion is offered as a reference. */
    static final double MAX_ERROR = 0.1;
    /** How far above the transition the coupling must lie, as a multiple of J_c. */
    static final double ORDERED = 1.2;

    private PottsLowTemperature() {
    }

    /** The expansion's log Z and its error, where the model lies deep enough in the ordered phase (see above). */
    public static Optional<Reference> reference(Potts model) {
        double q = model.colours();
        double j = model.coupling();
        double n = model.sites();
        double u = Math.exp(-j);
        double error = 10 * n * q * q * q * Math.pow(u, 10);
        if (!(j >= ORDERED * Math.log(1 + Math.sqrt(q))) || error > MAX_ERROR) {
            return Optional.empty();
        }
        double logZ = Math.log(q) + 2 * n * j + n * (q - 1) * Math.pow(u, 4)
                + 2 * n * ((q - 1) * Math.pow(u, 6) + (q - 1) * (q - 2) * Math.pow(u, 7))
                + n * (q - 1) * (7 - 2.5 * (q - 1)) * Math.pow(u, 8) + 12 * n * (q - 1) * (q - 2) * Math.pow(u, 9);
        return Optional.of(new Reference(logZ, error, Reference.REFERENCE, "the low-temperature expansion to e^-9J"));
    }
}
