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
import org.logz.estimate.TracePoint;
import org.logz.io.AtomicFiles;

/** PNG plot of an annealing run: the weights' ESS fraction along β. */
public final class TracePlot {
    private TracePlot() {
    }

    public static void write(Path file, AnnealingResult result) {
        List<TracePoint> trace = result.trace();
        double[] beta = new double[trace.size()];
        double[] essFraction = new double[trace.size()];
        for (int i = 0; i < beta.length; i++) {
            beta[i] = trace.get(i).beta();
            essFraction[i] = trace.get(i).ess() / result.chains();
        }
        XYChart chart = new XYChartBuilder().width(800).height(500)
                .title(result.method() + ": log Z = " + String.format("%.4f ± %.4f", result.logZ(), result.stdErr()))
                .xAxisTitle("β").yAxisTitle("ESS / chains").build();
        chart.getStyler().setLegendVisible(false);
        chart.addSeries("ess", beta, essFraction).setMarker(SeriesMarkers.NONE);
        BufferedImage image = BitmapEncoder.getBufferedImage(chart);
        AtomicFiles.write(file, out -> ImageIO.write(image, "png", out));
    }
}
