package org.logz.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import org.logz.base.EstimationException;
import org.logz.estimate.Method;
import org.logz.estimate.Warning;
import org.logz.estimate.work.Bar;
import org.logz.estimate.work.WorkEstimate;
import org.logz.estimate.work.WorkEstimators;
import org.logz.estimate.work.WorkHistogram;
import org.logz.io.ValueFiles;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code logz bar}: Bennett's acceptance ratio on two files of work values (pymbar's convention). */
@Command(name = "bar", mixinStandardHelpOptions = true,
        description = "log(Z_1/Z_0) by Bennett's acceptance ratio from forward and reverse work values (pymbar's convention: "
                + "F holds u_1(x) - u_0(x) for x from state 0, R holds u_0(x) - u_1(x) for x from state 1), with the "
                + "overlap of the two work distributions and the other work estimators. Prints JSON.")
final class BarCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--forward", required = true, paramLabel = "F",
            description = "Text file, one forward work value per line (numpy.savetxt's format; # comments).")
    Path forward;

    @Option(names = "--reverse", required = true, paramLabel = "R", description = "Text file, one reverse work value per line.")
    Path reverse;

    @Mixin
    WarningReport warningReport;

    @Override
    public Integer call() {
        double[] wF = ValueFiles.read(forward);
        double[] wR = ValueFiles.read(reverse);
        Bar.Result bar = Bar.solve(wF, wR);
        WorkEstimate lower = WorkEstimators.lowerBound(wF);
        WorkEstimate upper = WorkEstimators.upperBound(wR);
        WorkEstimate ais = WorkEstimators.jarzynskiForward(wF);
        WorkEstimate raise = WorkEstimators.jarzynskiReverse(wR);
        Map<Method, Double> others = new LinkedHashMap<>();
        for (WorkEstimate e : List.of(lower, upper, ais, raise, WorkEstimators.cumulant(wF, wR))) {
            others.put(e.method(), e.logRatio());
        }
        List<Warning> warnings = new ArrayList<>();
        try {
            others.put(Method.HISTOGRAM, WorkHistogram.of(wF, wR).logRatio());
        } catch (EstimationException e) {
            warnings.add(Warning.estimatorFailed(Set.of(Method.HISTOGRAM), Method.BAR, e.getMessage()));
        }
        if (bar.overlap() < Bar.MIN_OVERLAP) {
            warnings.add(Warning.poorOverlap(bar.overlap(), Bar.MIN_OVERLAP));
        }
        // the bounds' own noise, as a run's (BidirectionalResult): three of their standard errors
        double low = lower.logRatio() - 3 * lower.stdErr().orElse(0);
        double high = upper.logRatio() + 3 * upper.stdErr().orElse(0);
        if (Warning.beyondBounds(bar.logRatio(), low, high)) {
            warnings.add(Warning.outsideBounds(Method.BAR, bar.logRatio(), lower.logRatio(), upper.logRatio()));
        }
        String outside = others.entrySet().stream().filter(e -> e.getKey() != Method.LOWER_BOUND
                        && e.getKey() != Method.UPPER_BOUND && Warning.beyondBounds(e.getValue(), low, high))
                .map(e -> String.format(Locale.ROOT, "%s %.4f", e.getKey(), e.getValue()))
                .collect(Collectors.joining(", "));
        if (lower.logRatio() <= upper.logRatio() && !outside.isEmpty()) {
            warnings.add(Warning.secondaryOutsideBounds(outside, lower.logRatio(), upper.logRatio(), Method.BAR));
        }
        if (Warning.disagree(ais.logRatio(), ais.stdErr().orElse(Double.NaN), raise.logRatio(),
                raise.stdErr().orElse(Double.NaN))) {
            warnings.add(Warning.workDirectionsDisagree(ais.logRatio(), ais.stdErr().orElse(Double.NaN),
                    raise.logRatio(), raise.stdErr().orElse(Double.NaN)));
        }
        Json.print(spec.commandLine().getOut(), new Report(bar.logRatio(), bar.stdErr(), bar.deltaF(), bar.overlap(),
                wF.length, wR.length, others, List.copyOf(warnings)));
        return warningReport.finish(spec.commandLine().getErr(), warnings);
    }

    /** The JSON of {@code logz bar}: BAR's estimate, the work counts, the other estimators and the warnings. */
    record Report(double logRatio, double stderr, double deltaF, double overlap, int forward, int reverse,
                  Map<Method, Double> other, List<Warning> warnings) {
    }
}
