package org.logz.model.gpc;

import org.logz.base.UserException;
import org.logz.model.GpClassification;

/**
 * Exact evidence of GP classification where it has a closed form (DESIGN §5): the orthant
 * probability {@code P(y_i z_i > 0 ∀i)} of {@code z ~ N(0, K + I)}. With correlations
 * {@code ρ_ij = y_i y_j Σ_ij / √(Σ_ii Σ_jj)}: n = 1 gives 1/2, n = 2 gives {@code 1/4 + asin(ρ)/(2π)}
 * (Sheppard), n = 3 gives {@code 1/8 + (asin ρ_12 + asin ρ_13 + asin ρ_23)/(4π)}; a diagonal K (K = 0
 * among them) makes the z_i independent, {@code Z = 2^-n} whatever the variances.
 */
public final class GpcExact {
    private GpcExact() {
    }

    /** Whether {@link #logZ} has a closed form for {@code model}. */
    public static boolean canSolve(GpClassification model) {
        return model.size() <= 3 || diagonal(model);
    }

    /** {@code log Z}, or a user error naming the cases that have a closed form. */
    public static double logZ(GpClassification model) {
        int n = model.size();
        if (diagonal(model)) {
            return -n * Math.log(2);
        }
        return switch (n) {
            case 1 -> -Math.log(2);
            case 2 -> Math.log(0.25 + Math.asin(rho(model, 0, 1)) / (2 * Math.PI));
            case 3 -> Math.log(0.125 + (Math.asin(rho(model, 0, 1)) + Math.asin(rho(model, 0, 2))
                    + Math.asin(rho(model, 1, 2))) / (4 * Math.PI));
            default -> throw new UserException("exact log Z of GP classification is known in closed form for n ≤ 3 "
                    + "cases or a diagonal K (independent cases); " + model + " has neither");
        };
    }

    /** The label-signed correlation of z_i and z_j under Σ = K + I. */
    private static double rho(GpClassification m, int i, int j) {
        return m.label(i) * m.label(j) * m.k(i, j) / Math.sqrt((m.k(i, i) + 1) * (m.k(j, j) + 1));
    }

    private static boolean diagonal(GpClassification m) {
        int n = m.size();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (i != j && m.k(i, j) != 0) {
                    return false;
                }
            }
        }
        return true;
    }
}
