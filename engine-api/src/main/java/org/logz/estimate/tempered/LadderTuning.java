package org.logz.estimate.tempered;

import org.logz.schedule.Schedule;

/**
 * Places a parallel-tempering ladder's levels at equal steps of the communication barrier (Syed, Bouchard-Côté,
 * Deligiannidis &amp; Doucet 2021, §5.3, Algorithm 4): from the rejection rates {@code r_k} of the pairs
 * (β_k, β_{k+1}) the cumulative barrier {@code Λ(β_k) = Σ_{j<k} r_j} is interpolated linearly in β, and the new
 * β_i solves {@code Λ(β_i) = i·Λ(1)/(K - 1)}. Equal rejection between neighbours is what maximizes the round-trip
 * rate of the non-reversible scheme for a fixed K (their Theorem 4). A pair never rejected still gets a sliver of
 * barrier ({@link #FLOOR}), so that levels never coincide.
 */
final class LadderTuning {
    /** The least barrier a pair contributes: keeps the new ladder strictly increasing. */
    static final double FLOOR = 1e-3;

    private LadderTuning() {
    }

    /** The communication barrier {@code Λ = Σ_k r_k} of the rejection rates (NaN where a pair was never proposed). */
    static double barrier(double[] acceptance) {
        double sum = 0;
        for (double a : acceptance) {
            sum += Double.isNaN(a) ? 1 : 1 - a;
        }
        return sum;
    }

    /** The ladder of {@code betas}'s size with equal barrier between neighbours, from the pairs' acceptance rates. */
    static Schedule tune(double[] betas, double[] acceptance) {
        int levels = betas.length;
        double[] cumulative = new double[levels];
        for (int j = 0; j + 1 < levels; j++) {
            double rejection = Double.isNaN(acceptance[j]) ? 1 : 1 - acceptance[j];
            cumulative[j + 1] = cumulative[j] + Math.max(rejection, FLOOR);
        }
        double total = cumulative[levels - 1];
        double[] out = new double[levels];
        int j = 0;
        for (int i = 1; i + 1 < levels; i++) {
            double target = total * i / (levels - 1);
            while (cumulative[j + 1] < target) {
                j++;
            }
            double t = (target - cumulative[j]) / (cumulative[j + 1] - cumulative[j]);
            // rounding must not let two levels meet
            out[i] = Math.max(betas[j] + t * (betas[j + 1] - betas[j]), Math.nextUp(out[i - 1]));
        }
        out[levels - 1] = 1.0;
        return new Schedule("tuned", out);
    }
}
