package org.logz.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

import org.logz.api.ConsensusResult;
import org.logz.api.Estimation;
import org.logz.api.Result;
import org.logz.base.UserException;
import org.logz.estimate.Method;
import org.logz.estimate.Warning;
import org.logz.numeric.Decimal;
import org.logz.problem.ModelFamilies;
import org.logz.problem.Problem;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/** {@code logz estimate --tolerance T [--time-limit D]}: log Z to a requested accuracy, with its evidence. */
final class ConsensusReport {
    private ConsensusReport() {
    }

    /**
     * The report: the problem, the accuracy asked and whether it was reached, the answer, each estimator's last reading
     * (the evidence), the rounds and every run of them, and the exact log Z where the model has one.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Report(Method method, @JsonUnwrapped Problem.Description problem, double tolerance, boolean reached,
                  String verdict, double logZ, double stderr, List<Run> estimators, int rounds, List<Run> runs,
                  String backend, long seed, Double exactLogZ, Double error, EstimateReport.Convention convention,
                  double seconds, List<Warning> warnings) {
    }

    /** One estimator's run, as the report writes it. */
    record Run(Method method, String budget, double logZ, double stderr, double seconds, List<Warning> warnings) {
        static List<Run> of(List<ConsensusResult.Reading> readings) {
            return readings.stream().map(r -> new Run(r.method(), r.budget(), r.logZ(), r.stdErr(), r.seconds(),
                    r.warnings())).toList();
        }
    }

    static int run(EstimateCommand c) {
        if (!c.matched("--tolerance")) {
            throw new UserException("--time-limit bounds a --tolerance run; add --tolerance T");
        }
        for (String option : EstimateCommand.NOT_WITH_TOLERANCE) {
            if (c.matched(option)) {
                throw new UserException(option + " does not apply with --tolerance, which chooses the estimators and "
                        + "their budgets");
            }
        }
        Problem problem = c.parseProblem();
        if (!problem.family().options().contains("--compare-exact") && c.matched("--compare-exact")) {
            throw new UserException("--compare-exact applies to " + ModelFamilies.readers("--compare-exact") + " only");
        }
        Estimation e = c.estimation(problem).tolerance(c.tolerance).listeners(Progress::onTerminal);
        if (c.timeLimit != null) {
            e.timeLimit(seconds(c.timeLimit));
        }
        Double exact = c.exactLogZ(problem);
        Result result = e.run();
        ConsensusResult answer = (ConsensusResult) result.run();
        List<Warning> warnings = new ArrayList<>(result.warnings());
        warnings.addAll(e.boundWarnings(answer.logZ(), answer.standardError(), exact == null
                ? OptionalDouble.empty() : OptionalDouble.of(exact)));
        Report report = new Report(Method.CONSENSUS, problem.describe(), answer.tolerance(), answer.reached(),
                answer.verdict(), answer.logZ(), answer.stdErr(), Run.of(answer.evidence()), answer.rounds(),
                Run.of(answer.readings()),
                answer.backend(),
                c.seed, exact, exact == null ? null : answer.logZ() - exact,
                EstimateReport.Convention.of(problem, answer.logZ(), exact), answer.seconds(), List.copyOf(warnings));
        PrintWriter out = c.spec.commandLine().getOut();
        if (c.json) {
            Json.print(out, report);
        } else {
            print(out, report);
        }
        return c.warningReport.finish(c.spec.commandLine().getErr(), report.warnings());
    }

    private static void print(PrintWriter out, Report r) {
        List<String> names = r.estimators().stream().map(x -> x.method().toString()).toList();
        out.printf(Locale.ROOT, "method   %s of %s (tolerance %.3g): %s%n", r.method(), String.join(" and ", names),
                r.tolerance(), r.reached() ? "reached" : "not reached");
        Problem.Description p = r.problem();
        out.printf(Locale.ROOT, "model    %s%s%n", p.model(), p.visible() == null ? "" : ", " + p.visible() + "×" + p.hidden());
        out.printf(Locale.ROOT, "log Z    %.4f ± %.4f%n", r.logZ(), r.stderr());
        if (r.exactLogZ() != null) {
            out.printf(Locale.ROOT, "exact    %.4f (error %+.4f)%n", r.exactLogZ(), r.error());
        }
        EstimateReport.Convention.print(out, r.convention());
        for (Run e : r.estimators()) {
            out.printf(Locale.ROOT, "%-8s %.4f ± %.4f (%s, %.1f s%s)%n", e.method(), e.logZ(), e.stderr(), e.budget(),
                    e.seconds(), e.warnings().isEmpty() ? "" : "; warned " + String.join(", ",
                            e.warnings().stream().map(Warning::code).toList()));
        }
        out.printf(Locale.ROOT, "run      %d round(s), %d runs on %s, seed %d, %.2f s%n", r.rounds(), r.runs().size(),
                r.backend(), r.seed(), r.seconds());
        out.flush();
    }

    /** A duration: seconds, or a number with the unit s, m or h. */
    static double seconds(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        double unit = 1;
        if (t.endsWith("h")) {
            unit = 3600;
        } else if (t.endsWith("m")) {
            unit = 60;
        }
        String number = t.endsWith("h") || t.endsWith("m") || t.endsWith("s") ? t.substring(0, t.length() - 1) : t;
        double value = Decimal.parse(number).orElseThrow(() -> new UserException("--time-limit must be a "
                + "duration such as 600, 90s, 15m or 2h, got " + text));
        if (!(value > 0)) {
            throw new UserException("--time-limit must be positive, got " + text);
        }
        return value * unit;
    }
}
