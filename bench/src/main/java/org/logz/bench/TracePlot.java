package org.logz.bench;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;

import javax.imageio.ImageIO;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.SequentialResult;
import org.logz.estimate.SequentialTracePoint;
import org.logz.estimate.TracePoint;
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
