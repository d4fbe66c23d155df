package org.logz.cli.plot;

/**
 * A round axis range for plots: a tick step of 1, 2 or 5 × 10^k giving at most about eight ticks, the range
 * widened to whole steps, and a decimal pattern with as many digits as the step needs (Heckbert,
 * "Nice numbers for graph labels", Graphics Gems 1990).
 *
 * @param min     the first tick, a multiple of {@code step} at or below the data
 * @param max     the last tick, a multiple of {@code step} at or above the data
 * @param step    the tick spacing
 * @param pattern a {@link java.text.DecimalFormat} pattern showing the step's digits and no more
 */
record NiceAxis(double min, double max, double step, String pattern) {
    private static final int TICKS = 8;

    static NiceAxis of(double lo, double hi) {
        if (!Double.isFinite(lo) || !Double.isFinite(hi)) {
            return new NiceAxis(0, 1, 0.2, "0.0");
        }
        if (hi <= lo) {
            double pad = lo == 0 ? 1 : Math.abs(lo) * 0.1;
            lo -= pad;
            hi += pad;
        }
        double step = niceStep((hi - lo) / TICKS);
        double min = Math.floor(lo / step) * step;
        double max = Math.ceil(hi / step) * step;
        int decimals = Math.max(0, (int) -Math.floor(Math.log10(step) + 1e-9));
        return new NiceAxis(min, max, step, decimals == 0 ? "#,##0" : "#,##0." + "0".repeat(decimals));
    }

    private static double niceStep(double rough) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(rough)));
        double fraction = rough / magnitude;
        double nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
        return nice * magnitude;
    }
}
