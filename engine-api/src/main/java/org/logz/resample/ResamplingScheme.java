package org.logz.resample;

import java.util.Locale;

import org.logz.base.UserException;

/**
 * Resampling schemes (Douc, Cappé &amp; Moulines 2005). All are unbiased, {@code E[N_r] = M w̃_r}
 * for the offspring count of particle r; residual and systematic have lower variance than
 * multinomial. Residual is the default, as in the ARM paper (footnote 1).
 */
public enum ResamplingScheme {
    /** {@code ⌊M w̃_r⌋} deterministic copies, the remaining draws multinomial on the residual weights. */
    RESIDUAL,
    /** One uniform U, draws at {@code (U + k)/M}. */
    SYSTEMATIC,
    /** M independent draws from the weights. */
    MULTINOMIAL;

    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ResamplingScheme parse(String name) {
        for (ResamplingScheme s : values()) {
            if (s.cliName().equals(name.trim().toLowerCase(Locale.ROOT))) {
                return s;
            }
        }
        throw new UserException("unknown resampling scheme '" + name + "'; use residual, systematic or multinomial");
    }
}
