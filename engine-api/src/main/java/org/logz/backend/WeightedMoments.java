package org.logz.backend;

/**
 * The weighted mean and variance of per-particle values under the normalized weights
 * {@code W_k ∝ exp(logW_k)}: what thermodynamic integration over a particle population (Friel &amp;
 * Pettitt 2008; Tran et al. eq. 11) and the VAROPT pilot (Kiwaki's V(β)) read at every step. Both are NaN
 * when the weights are degenerate (all zero, NaN or +∞) or a value is not finite.
 */
public record WeightedMoments(double mean, double variance) {
    /**
     * The moments of {@code values[offset + k·stride]} under {@code logW[k]}, k &lt; count, by two passes
     * in index order (the mean, then the centred squares), each with the largest log weight subtracted.
     */
    public static WeightedMoments of(double[] logW, double[] values, int offset, int stride, int count) {
        double max = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < count; k++) {
            double lw = logW[k];
            if (Double.isNaN(lw) || lw == Double.POSITIVE_INFINITY) {
                return new WeightedMoments(Double.NaN, Double.NaN);
            }
            max = Math.max(max, lw);
        }
        if (max == Double.NEGATIVE_INFINITY) {
            return new WeightedMoments(Double.NaN, Double.NaN);
        }
        double total = 0;
        double first = 0;
        for (int k = 0; k < count; k++) {
            double w = Math.exp(logW[k] - max);
            total += w;
            first += w * values[offset + k * stride];
        }
        double mean = first / total;
        double second = 0;
        for (int k = 0; k < count; k++) {
            double d = values[offset + k * stride] - mean;
            second += Math.exp(logW[k] - max) * d * d;
        }
        return new WeightedMoments(mean, second / total);
    }
}
