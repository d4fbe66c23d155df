package org.logz.bench;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;

import javax.imageio.ImageIO;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.BidirectionalResult;
import org.logz.estimate.SequentialResult;
import org.logz.estimate.SequentialTracePoint;
import org.logz.estimate.TracePoint;
import org.logz.estimate.tempered.TemperedResult;
import org.logz.io.AtomicFiles;

/** PNG plots of a run's trace, written atomically. */
public final class TracePlot {
    private TracePlot() {
    }

    /** Annealing: the weights' ESS fraction along β. */
    public static void write(Path file, AnnealingResult result) {
        List<TracePoint> trace = result.trace();
        double[] beta = new double[trace.size()];
        double[] essFraction = new double[trace.size()];
        for (int i = 0; i < beta.length; i++) {
            beta[i] = trace.get(i).beta();
            essFraction[i] = trace.get(i).ess() / result.chains();
        }
        XYChart chart = chart(result.method(), result.logZ(), "β", "ESS / chains");
        chart.addSeries("ESS / chains", beta, essFraction).setMarker(SeriesMarkers.NONE);
        save(file, chart);
    }

    /** Resample-Move and ARM: R_n / R and γ = ESS / R_n along the iterations (the paper's plots). */
    public static void write(Path file, SequentialResult result) {
        List<SequentialTracePoint> trace = result.trace();
        double[] unit = new double[trace.size()];
        double[] size = new double[trace.size()];
        double[] gamma = new double[trace.size()];
        for (int i = 0; i < unit.length; i++) {
            unit[i] = trace.get(i).unit() + 1;
            size[i] = (double) trace.get(i).particles() / result.particles();
            gamma[i] = trace.get(i).gamma();
        }
        XYChart chart = chart(result.method(), result.logZ(), "variables added n", "R_n / R and γ");
        chart.getStyler().setLegendVisible(true);
        chart.addSeries("R_n / R", unit, size).setMarker(SeriesMarkers.NONE);
        chart.addSeries("γ = ESS / R_n", unit, gamma).setMarker(SeriesMarkers.NONE);
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
        XYSeries occupancy = chart.addSeries("ĉ_k / r_k", beta, ratio);
        occupancy.setMarker(SeriesMarkers.NONE);
        occupancy.setYAxisGroup(1);
        chart.setYAxisGroupTitle(1, "ĉ_k / r_k");
        save(file, chart);
    }

    /**
     * Forward and reverse annealing: densities of the forward work {@code W_f} and of {@code -W_r},
     * which by Crooks' theorem cross at {@code ΔF = -log(Z_1/Z_0)} (Habeck 2017, Fig. 1A, 3A).
     */
    public static void write(Path file, BidirectionalResult result) {
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
        chart.addSeries("forward W_f", centers, density(forward, lo, width, bins)).setMarker(SeriesMarkers.NONE);
        chart.addSeries("reverse -W_r", centers, density(reverse, lo, width, bins)).setMarker(SeriesMarkers.NONE);
        save(file, chart);
    }

    private static double[] density(double[] values, double lo, double width, int bins) {
        double[] d = new double[bins];
        for (double v : values) {
            d[Math.min(bins - 1, (int) ((v - lo) / width))] += 1.0 / (values.length * width);
        }
        return d;
    }

    private static XYChart chart(String method, double logZ, String x, String y) {
        XYChart chart = new XYChartBuilder().width(800).height(500)
                .title(method + ": log Z = " + String.format("%.4f", logZ)).xAxisTitle(x).yAxisTitle(y).build();
        chart.getStyler().setLegendVisible(false);
        return chart;
    }

    private static void save(Path file, XYChart chart) {
        BufferedImage image = BitmapEncoder.getBufferedImage(chart);
        AtomicFiles.write(file, out -> ImageIO.write(image, "png", out));
    }
}
