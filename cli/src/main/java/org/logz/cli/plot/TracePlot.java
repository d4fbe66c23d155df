package org.logz.cli.plot;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

import javax.imageio.ImageIO;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.BidirectionalResult;
import org.logz.estimate.Method;
import org.logz.estimate.SequentialResult;
import org.logz.estimate.SequentialTracePoint;
import org.logz.estimate.TracePoint;
import org.logz.estimate.smc.SmcResult;
import org.logz.estimate.smc.SmcTracePoint;
import org.logz.estimate.tempered.ParallelTempering;
import org.logz.estimate.tempered.PtResult;
import org.logz.estimate.tempered.TemperedResult;
import org.logz.estimate.work.HistogramGibbs;
import org.logz.io.AtomicFiles;
import org.logz.model.AnnealedMarginal;
import org.logz.train.TrainingRun;

/**
 * PNG plots of a run's trace, written atomically. Every axis spans a round range with round ticks
 * ({@link NiceAxis}), so labels read 0.2, 0.4, ... instead of the data's own extremes.
 */
public final class TracePlot {
    private TracePlot() {
    }

    /**
     * Annealing: the weights' ESS fraction along β on [0, 1], with the 10% line below which the
     * result warns ({@code low-ess}), so a collapse shows where it happens; where {@code lag} is given (the Gaussian
     * toy), below it the chains' marginal q_k against the equilibrium p_k along the path, mean ± sd (Habeck Fig. 1B).
     */
    public static void write(Path file, AnnealingResult result, List<AnnealedMarginal> lag) {
        List<TracePoint> trace = result.trace();
        double[] beta = new double[trace.size()];
        double[] essFraction = new double[trace.size()];
        for (int i = 0; i < beta.length; i++) {
            beta[i] = trace.get(i).beta();
            essFraction[i] = trace.get(i).ess() / result.chains();
        }
        XYChart chart = chart(result.method(), result.logZ(), "β", "ESS / chains");
        chart.getStyler().setLegendVisible(true);
        chart.addSeries("ESS / chains", beta, essFraction).setMarker(SeriesMarkers.NONE);
        double[] ends = {0, 1};
        XYSeries low = chart.addSeries("10%: low-ess warning", ends, new double[] {0.1, 0.1});
        low.setMarker(SeriesMarkers.NONE).setLineStyle(SeriesLines.DASH_DASH).setLineColor(java.awt.Color.RED);
        roundX(chart, 0, 1);
        roundY(chart, 0, 1);
        if (lag.isEmpty()) {
            save(file, chart);
        } else {
            save(file, chart, lagChart(lag));
        }
    }

    private static XYChart lagChart(List<AnnealedMarginal> lag) {
        int n = lag.size();
        double[] beta = new double[n];
        double[][] q = new double[3][n];
        double[][] p = new double[3][n];
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            AnnealedMarginal m = lag.get(i);
            beta[i] = m.beta();
            for (int s = -1; s <= 1; s++) {
                q[s + 1][i] = m.mean() + s * m.sd();
                p[s + 1][i] = m.equilibriumMean() + s * m.equilibriumSd();
                lo = Math.min(lo, Math.min(q[s + 1][i], p[s + 1][i]));
                hi = Math.max(hi, Math.max(q[s + 1][i], p[s + 1][i]));
            }
        }
        XYChart chart = new XYChartBuilder().width(800).height(500).title("chains' marginal q_k against p_k (Habeck Fig. 1B)")
                .xAxisTitle("β").yAxisTitle("x: mean ± sd").build();
        chart.addSeries("q_k mean", beta, q[1]).setMarker(SeriesMarkers.NONE).setLineColor(java.awt.Color.BLUE);
        chart.addSeries("p_k mean", beta, p[1]).setMarker(SeriesMarkers.NONE).setLineColor(java.awt.Color.BLACK);
        for (int s : new int[] {0, 2}) {
            chart.addSeries(s == 0 ? "q_k - sd" : "q_k + sd", beta, q[s]).setMarker(SeriesMarkers.NONE)
                    .setLineStyle(SeriesLines.DASH_DASH).setLineColor(java.awt.Color.BLUE);
            chart.addSeries(s == 0 ? "p_k - sd" : "p_k + sd", beta, p[s]).setMarker(SeriesMarkers.NONE)
                    .setLineStyle(SeriesLines.DASH_DASH).setLineColor(java.awt.Color.BLACK);
        }
        roundX(chart, 0, 1);
        roundY(chart, lo, hi);
        return chart;
    }

    /**
     * The SMC sampler: β against the step (the schedule adaptive tempering chose) and the reweighted
     * particles' ESS fraction before resampling, with the 10% line of the {@code low-ess} warning.
     */
    public static void write(Path file, SmcResult result) {
        write(file, result, result.method());
    }

    /** {@link #write(Path, SmcResult)} titled by {@code method}: AISEL's sampler is an SMC run. */
    public static void write(Path file, SmcResult result, Method method) {
        List<SmcTracePoint> trace = result.trace();
        double[] step = new double[trace.size()];
        double[] beta = new double[trace.size()];
        double[] essFraction = new double[trace.size()];
        for (int i = 0; i < step.length; i++) {
            step[i] = trace.get(i).step();
            beta[i] = trace.get(i).beta();
            essFraction[i] = trace.get(i).ess() / result.particles();
        }
        XYChart chart = chart(method, result.logZ(), "step", "β and ESS / particles");
        chart.getStyler().setLegendVisible(true);
        chart.addSeries("β", step, beta).setMarker(SeriesMarkers.NONE);
        chart.addSeries("ESS / particles", step, essFraction).setMarker(SeriesMarkers.NONE);
        double last = Math.max(1, step[step.length - 1]);
        XYSeries low = chart.addSeries("10%: low-ess warning", new double[] {0, last}, new double[] {0.1, 0.1});
        low.setMarker(SeriesMarkers.NONE).setLineStyle(SeriesLines.DASH_DASH).setLineColor(java.awt.Color.RED);
        roundX(chart, 0, last);
        roundY(chart, 0, 1);
        save(file, chart);
    }

    /**
     * Resample-Move and ARM: R_n / R and γ = ESS / R_n along the iterations (the paper's plots), and Theorem 1's
     * optimal R_n^opt / R for the run's total ({@link org.logz.estimate.Allocation}).
     */
    public static void write(Path file, SequentialResult result) {
        List<SequentialTracePoint> trace = result.trace();
        double[] unit = new double[trace.size()];
        double[] size = new double[trace.size()];
        double[] gamma = new double[trace.size()];
        double[] optimal = result.allocation().optimalParticles();
        for (int i = 0; i < unit.length; i++) {
            unit[i] = trace.get(i).unit() + 1;
            size[i] = (double) trace.get(i).particles() / result.particles();
            gamma[i] = trace.get(i).gamma();
            optimal[i] /= result.particles();
        }
        XYChart chart = chart(result.method(), result.logZ(), "variables added n", "R_n / R and γ");
        chart.getStyler().setLegendVisible(true);
        chart.addSeries("R_n / R", unit, size).setMarker(SeriesMarkers.NONE);
        chart.addSeries("R_n^opt / R (Theorem 1)", unit, optimal).setMarker(SeriesMarkers.NONE);
        chart.addSeries("γ = ESS / R_n", unit, gamma).setMarker(SeriesMarkers.NONE);
        roundX(chart, 1, unit.length == 0 ? 1 : unit[unit.length - 1]);
        roundY(chart, 0, Math.max(1, Math.max(max(size), max(optimal))));
        save(file, chart);
    }

    /**
     * Tempered sampling: the headline estimator's {@code log Z_k - log Z_0} along β, and the final
     * run's occupancy over the prior, {@code ĉ_k / r_k}, on a second axis (flat at 1 when Ẑ was right).
     */
    public static void write(Path file, TemperedResult result) {
        double[] beta = result.levelBetas();
        double[] curve = result.estimate(result.method()).curve().clone();
        double[] ratio = new double[beta.length];
        for (int k = 0; k < beta.length; k++) {
            curve[k] -= result.logZ0();
            ratio[k] = result.occupancy()[k] / Math.exp(result.logPrior()[k]);
        }
        XYChart chart = chart(result.method(), result.logZ(), "β", "log Z_β - log Z_0");
        chart.getStyler().setLegendVisible(true);
        chart.addSeries("log Z_β - log Z_0", beta, curve).setMarker(SeriesMarkers.NONE);
        rightAxis(chart, "ĉ_k / r_k", beta, ratio, NiceAxis.of(0, Math.max(2, max(ratio))));
        roundX(chart, 0, 1);
        chart.getStyler().putYAxisGroupDecimalPatternMap(0, NiceAxis.of(min(curve), max(curve)).pattern());
        save(file, chart);
    }

    /**
     * Parallel tempering: each neighbouring pair's swap rate at the pair's midpoint in β, with the line below which the
     * result warns ({@code poor-swaps}), and the levels' mean {@code d log f/dβ} on a second axis (a steep change marks
     * the transition the ladder had to crowd its levels into).
     */
    public static void write(Path file, PtResult result) {
        double[] beta = result.levelBetas();
        double[] rates = result.swapRates();
        double[] mid = new double[rates.length];
        for (int k = 0; k < rates.length; k++) {
            mid[k] = 0.5 * (beta[k] + beta[k + 1]);
        }
        XYChart chart = chart(result.method(), result.logZ(), "β", "swap rate");
        chart.getStyler().setLegendVisible(true);
        chart.addSeries("swap rate of (β_k, β_k+1)", mid, rates).setMarker(SeriesMarkers.CIRCLE);
        XYSeries poor = chart.addSeries(String.format(Locale.ROOT, "%.2f: poor-swaps warning", ParallelTempering.POOR_SWAP_RATE),
                new double[] {0, 1}, new double[] {ParallelTempering.POOR_SWAP_RATE, ParallelTempering.POOR_SWAP_RATE});
        poor.setMarker(SeriesMarkers.NONE).setLineStyle(SeriesLines.DASH_DASH).setLineColor(java.awt.Color.RED);
        double[] slope = result.meanSlope();
        rightAxis(chart, "mean d log f/dβ", beta, slope, NiceAxis.of(min(slope), max(slope)));
        roundX(chart, 0, 1);
        NiceAxis rateAxis = NiceAxis.of(0, 1);
        chart.getStyler().setYAxisMin(0, rateAxis.min()).setYAxisMax(0, rateAxis.max());
        chart.getStyler().putYAxisGroupDecimalPatternMap(0, rateAxis.pattern());
        save(file, chart);
    }

    /**
     * Forward and reverse annealing: densities of the forward work {@code W_f} and of {@code -W_r},
     * which by Crooks' theorem cross at {@code ΔF = -log(Z_1/Z_0)} (Habeck 2017, Fig. 1A, 3A), with
     * vertical lines at the headline estimate, at the bounds of Habeck's eq. 7 and, when known, at the
     * exact value, all as work {@code W = log Z_0 - log Z}; below it the mean energy of the forward and of the reverse
     * chains along β, which part where the chains lag behind the path (Habeck 2017, Fig. 3B).
     */
    public static void write(Path file, BidirectionalResult result, OptionalDouble exactLogZ) {
        double[] forward = result.forward().work();
        double[] reverse = result.reverse().work();
        for (int i = 0; i < reverse.length; i++) {
            reverse[i] = -reverse[i];
        }
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double[] w : new double[][] {forward, reverse}) {
            for (double v : w) {
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
        }
        int bins = 60;
        double width = hi > lo ? (hi - lo) / bins : 1;
        double[] centers = new double[bins];
        for (int b = 0; b < bins; b++) {
            centers[b] = lo + (b + 0.5) * width;
        }
        XYChart chart = chart(result.method(), result.logZ(), "work W", "density");
        chart.getStyler().setLegendVisible(true);
        double[] forwardDensity = density(forward, lo, width, bins);
        chart.addSeries("forward W_f", centers, forwardDensity).setMarker(SeriesMarkers.NONE);
        double[] reverseDensity = density(reverse, lo, width, bins);
        chart.addSeries("reverse -W_r", centers, reverseDensity).setMarker(SeriesMarkers.NONE);
        double top = Math.max(max(forwardDensity), max(reverseDensity));
        double estimate = result.logZ0() - result.logZ();
        double lower = result.logZ0() - result.logZ(Method.UPPER_BOUND);
        double upper = result.logZ0() - result.logZ(Method.LOWER_BOUND);
        vertical(chart, String.format(Locale.ROOT, "%s estimate %.4f", result.method(), estimate), estimate, top,
                java.awt.Color.BLACK, SeriesLines.SOLID);
        vertical(chart, "bounds (Habeck eq. 7)", lower, top, java.awt.Color.GRAY, SeriesLines.DASH_DASH);
        vertical(chart, "", upper, top, java.awt.Color.GRAY, SeriesLines.DASH_DASH).setShowInLegend(false);
        double[] range = {Math.min(lo, Math.min(lower, estimate)), Math.max(hi, Math.max(upper, estimate))};
        if (exactLogZ.isPresent()) {
            range = marked(chart, "exact", result.logZ0() - exactLogZ.getAsDouble(), top, java.awt.Color.RED, range);
        }
        roundX(chart, range[0], range[1]);
        roundY(chart, 0, top);
        if (result.method() == Method.HISTOGRAM_GIBBS && result.posterior().isPresent()) {
            save(file, chart, energies(result), posterior(result, result.posterior().get(), exactLogZ));
        } else {
            save(file, chart, energies(result));
        }
    }

    /** The histogram-gibbs posterior of log Z (Habeck Fig. 4B): its draws' density, mean, 95% interval, BAR, exact. */
    private static XYChart posterior(BidirectionalResult result, HistogramGibbs.Posterior p, OptionalDouble exactLogZ) {
        double[] draws = p.draws();
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < draws.length; i++) {
            draws[i] += result.logZ0();
            lo = Math.min(lo, draws[i]);
            hi = Math.max(hi, draws[i]);
        }
        int bins = 60;
        double width = hi > lo ? (hi - lo) / bins : 1;
        double[] centers = new double[bins];
        for (int b = 0; b < bins; b++) {
            centers[b] = lo + (b + 0.5) * width;
        }
        double[] d = density(draws, lo, width, bins);
        double top = max(d);
        XYChart chart = new XYChartBuilder().width(800).height(500).title("posterior of log Z (Habeck 2017 Fig. 4B)")
                .xAxisTitle("log Z").yAxisTitle("density").build();
        chart.addSeries("Gibbs draws", centers, d).setMarker(SeriesMarkers.NONE);
        double mean = result.logZ0() + p.mean();
        vertical(chart, String.format(Locale.ROOT, "mean %.4f", mean), mean, top, java.awt.Color.BLACK, SeriesLines.SOLID);
        vertical(chart, "95% interval", result.logZ0() + p.lower(), top, java.awt.Color.GRAY, SeriesLines.DASH_DASH);
        vertical(chart, "", result.logZ0() + p.upper(), top, java.awt.Color.GRAY, SeriesLines.DASH_DASH)
                .setShowInLegend(false);
        double[] range = {lo, hi};
        if (result.has(Method.BAR)) {
            range = marked(chart, "bar", result.logZ(Method.BAR), top, java.awt.Color.BLUE, range);
        }
        if (exactLogZ.isPresent()) {
            range = marked(chart, "exact", exactLogZ.getAsDouble(), top, java.awt.Color.RED, range);
        }
        roundX(chart, range[0], range[1]);
        roundY(chart, 0, top);
        return chart;
    }

    /** A dotted vertical line at {@code x} labelled with its value, and {@code range} widened to hold it. */
    private static double[] marked(XYChart chart, String label, double x, double top, java.awt.Color color,
                                   double[] range) {
        vertical(chart, String.format(Locale.ROOT, "%s %.4f", label, x), x, top, color, SeriesLines.DOT_DOT);
        return new double[] {Math.min(range[0], x), Math.max(range[1], x)};
    }

    /** The forward and the reverse chains' mean energies along β, from the traced points that measured them. */
    private static XYChart energies(BidirectionalResult result) {
        XYChart energies = chart(result.method(), result.logZ(), "β", "mean energy -d log f/dβ");
        energies.setTitle("mean energy of the forward and reverse chains (hysteresis)");
        energies.getStyler().setLegendVisible(true);
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (AnnealingResult run : List.of(result.forward(), result.reverse())) {
            List<TracePoint> points = run.trace().stream().filter(p -> Double.isFinite(p.energy())).toList();
            double[] beta = points.stream().mapToDouble(TracePoint::beta).toArray();
            double[] energy = points.stream().mapToDouble(TracePoint::energy).toArray();
            if (beta.length > 0) {
                energies.addSeries(run.method() == Method.AIS ? "forward" : "reverse", beta, energy)
                        .setMarker(SeriesMarkers.NONE);
                lo = Math.min(lo, min(energy));
                hi = Math.max(hi, max(energy));
            }
        }
        roundX(energies, 0, 1);
        roundY(energies, Double.isFinite(lo) ? lo : 0, Double.isFinite(hi) ? hi : 1);
        return energies;
    }

    /**
     * Training (RTS §4.4, Fig. 5): the mean train and validation log-likelihood against the epoch, with error bars from
     * log Z's error, AIS's at its check epochs as points, and the train log-likelihood under the exact log Z where the
     * model enumerates. Each series has the epochs where it has a value; the legend stands beside the plot.
     */
    public static void write(Path file, TrainingRun.Result result) {
        List<TrainingRun.Epoch> rows = result.epochs();
        XYChart chart = new XYChartBuilder().width(900).height(500).title("mean log-likelihood while training, "
                + result.model().visible() + "×" + result.model().hidden() + " RBM").xAxisTitle("epoch")
                .yAxisTitle("mean log-likelihood (nats)").build();
        chart.getStyler().setLegendVisible(true).setLegendPosition(Styler.LegendPosition.OutsideE);
        double[] range = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        series(chart, "train", rows, r -> r.trainLogLikelihood(), true, range);
        series(chart, "validation", rows, r -> r.validationLogLikelihood(), true, range);
        series(chart, "train, AIS", rows, r -> r.trainLogLikelihood() + r.logZ() - r.aisLogZ(), false, range);
        series(chart, "validation, AIS", rows, r -> r.validationLogLikelihood() + r.logZ() - r.aisLogZ(), false, range);
        XYSeries exact = series(chart, "train, exact log Z", rows, r -> r.trainLogLikelihood() + r.logZ()
                - r.exactLogZ(), true, range);
        if (exact != null) {
            exact.setMarker(SeriesMarkers.NONE).setLineStyle(SeriesLines.DASH_DASH);
        }
        roundX(chart, 0, Math.max(1, rows.get(rows.size() - 1).epoch()));
        roundY(chart, Double.isFinite(range[0]) ? range[0] : 0, Double.isFinite(range[1]) ? range[1] : 1);
        save(file, chart);
    }

    /**
     * A series of the epochs where {@code value} is finite (a line with log Z's error bars, or points), widening
     * {@code range}; null when no epoch has one.
     */
    private static XYSeries series(XYChart chart, String name, List<TrainingRun.Epoch> rows,
                                   java.util.function.ToDoubleFunction<TrainingRun.Epoch> value, boolean line,
                                   double[] range) {
        List<TrainingRun.Epoch> kept = rows.stream().filter(r -> Double.isFinite(value.applyAsDouble(r))).toList();
        if (kept.isEmpty()) {
            return null;
        }
        double[] x = kept.stream().mapToDouble(TrainingRun.Epoch::epoch).toArray();
        double[] y = kept.stream().mapToDouble(value).toArray();
        double[] error = kept.stream().mapToDouble(r -> Double.isFinite(r.stdErr()) ? r.stdErr() : 0).toArray();
        range[0] = Math.min(range[0], min(y));
        range[1] = Math.max(range[1], max(y));
        if (!line) {
            XYSeries points = chart.addSeries(name, x, y);
            points.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter).setMarker(SeriesMarkers.DIAMOND);
            return points;
        }
        return chart.addSeries(name, x, y, error);
    }

    private static XYSeries vertical(XYChart chart, String name, double x, double top, java.awt.Color color,
                                     java.awt.BasicStroke line) {
        XYSeries s = chart.addSeries(name.isEmpty() ? "\u200b" + chart.getSeriesMap().size() : name, new double[] {x, x},
                new double[] {0, top});
        s.setMarker(SeriesMarkers.NONE).setLineColor(color).setLineStyle(line);
        return s;
    }

    /** A line series on a second y axis at the right, titled by its name and spanning {@code axis}. */
    private static void rightAxis(XYChart chart, String name, double[] x, double[] y, NiceAxis axis) {
        XYSeries series = chart.addSeries(name, x, y);
        series.setMarker(SeriesMarkers.NONE);
        series.setYAxisGroup(1);
        chart.setYAxisGroupTitle(1, name);
        chart.getStyler().setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
        chart.getStyler().setYAxisMin(1, axis.min()).setYAxisMax(1, axis.max());
        chart.getStyler().putYAxisGroupDecimalPatternMap(1, axis.pattern());
    }

    private static void roundX(XYChart chart, double lo, double hi) {
        NiceAxis axis = NiceAxis.of(lo, hi);
        chart.getStyler().setXAxisMin(axis.min()).setXAxisMax(axis.max()).setXAxisDecimalPattern(axis.pattern());
    }

    private static void roundY(XYChart chart, double lo, double hi) {
        NiceAxis axis = NiceAxis.of(lo, hi);
        chart.getStyler().setYAxisMin(axis.min()).setYAxisMax(axis.max()).setYAxisDecimalPattern(axis.pattern());
    }

    private static double min(double[] values) {
        double m = Double.POSITIVE_INFINITY;
        for (double v : values) {
            m = Double.isFinite(v) ? Math.min(m, v) : m;
        }
        return Double.isFinite(m) ? m : 0;
    }

    private static double max(double[] values) {
        double m = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            m = Double.isFinite(v) ? Math.max(m, v) : m;
        }
        return Double.isFinite(m) ? m : 1;
    }

    private static double[] density(double[] values, double lo, double width, int bins) {
        double[] d = new double[bins];
        for (double v : values) {
            d[Math.min(bins - 1, (int) ((v - lo) / width))] += 1.0 / (values.length * width);
        }
        return d;
    }

    private static XYChart chart(Method method, double logZ, String x, String y) {
        XYChart chart = new XYChartBuilder().width(800).height(500)
                .title(method + ": log Z = " + String.format("%.4f", logZ)).xAxisTitle(x).yAxisTitle(y).build();
        chart.getStyler().setLegendVisible(false);
        return chart;
    }

    /** The charts one above the other in one PNG. */
    private static void save(Path file, XYChart... charts) {
        BufferedImage[] images = new BufferedImage[charts.length];
        int width = 0;
        int height = 0;
        for (int i = 0; i < charts.length; i++) {
            images[i] = BitmapEncoder.getBufferedImage(charts[i]);
            width = Math.max(width, images[i].getWidth());
            height += images[i].getHeight();
        }
        BufferedImage image = images[0];
        if (charts.length > 1) {
            image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
            java.awt.Graphics2D g = image.createGraphics();
            int y = 0;
            for (BufferedImage part : images) {
                g.drawImage(part, 0, y, null);
                y += part.getHeight();
            }
            g.dispose();
        }
        BufferedImage written = image;
        AtomicFiles.write(file, out -> ImageIO.write(written, "png", out));
    }
}
