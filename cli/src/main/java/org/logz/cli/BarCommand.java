package org.logz.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.logz.estimate.work.Bar;
import org.logz.estimate.work.WorkEstimate;
import org.logz.estimate.work.WorkEstimators;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code logz bar}: Bennett's acceptance ratio on two files of work values (pymbar's convention). */
@Command(name = "bar", mixinStandardHelpOptions = true,
        description = "log(Z_1/Z_0) by Bennett's acceptance ratio from forward and reverse work values (pymbar's convention: "
                + "F holds u_1(x) - u_0(x) for x from state 0, R holds u_0(x) - u_1(x) for x from state 1). Prints JSON.")
final class BarCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Option(names = "--forward", required = true, paramLabel = "F", description = "Text file, one forward work value per line.")
    Path forward;

    @Option(names = "--reverse", required = true, paramLabel = "R", description = "Text file, one reverse work value per line.")
    Path reverse;

    @Override
    public void run() {
        double[] wF = read(forward);
        double[] wR = read(reverse);
        Bar.Result bar = Bar.solve(wF, wR);
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("logRatio", bar.logRatio());
        o.put("stderr", bar.stdErr());
        o.put("deltaF", bar.deltaF());
        o.put("forward", wF.length);
        o.put("reverse", wR.length);
        Map<String, Object> others = new LinkedHashMap<>();
        for (WorkEstimate e : List.of(WorkEstimators.lowerBound(wF), WorkEstimators.upperBound(wR),
                WorkEstimators.jarzynskiForward(wF), WorkEstimators.jarzynskiReverse(wR), WorkEstimators.cumulant(wF, wR),
                WorkEstimators.histogram(wF, wR, 200, 1))) {
            others.put(e.name(), e.logRatio());
        }
        o.put("other", others);
        Json.print(spec.commandLine().getOut(), o);
    }

    /** Work values, one per line; blank lines and lines starting with # are skipped. */
    static double[] read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such file");
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read (" + e.getMessage() + ")");
        }
        List<Double> values = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                double v = Double.parseDouble(line);
                if (!Double.isFinite(v)) {
                    throw new NumberFormatException();
                }
                values.add(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": '" + line + "' is not a finite number");
            }
        }
        if (values.isEmpty()) {
            throw new IllegalArgumentException(file + ": no work values");
        }
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
