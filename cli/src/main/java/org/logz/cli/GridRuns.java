package org.logz.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import org.logz.backend.Backends;
import org.logz.options.Family;

/**
 * One point of {@code logz grid} run where a task runs it: the command line as it would run alone, on the best backend
 * there (cuda if present, else cpu) unless it names one, with the task's cores as host threads unless it sets them,
 * its output captured.
 */
public final class GridRuns {
    private GridRuns() {
    }

    /**
     * Runs {@code args} ({@code estimate} and its options) in this process.
     *
     * @param threads host threads for a backend opened by name when the command line does not set them; 0 for the
     *                command line's own default (all cores)
     */
    public static Distributor.CommandRun run(List<String> args, int threads) {
        List<String> here = new ArrayList<>(args);
        if (threads > 0) {
            EstimateCommand c = TaskReplicates.command(args);
            boolean host = Family.of(Family.method(c.methodName)) == Family.APPROXIMATION;
            if (!c.matched("--backend") && !host) {
                here.add("--backend");
                here.add(Backends.best());
            }
            if (!c.matched("--threads") && !host) {
                here.add("--threads");
                here.add(Integer.toString(threads));
            }
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(here.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Distributor.CommandRun(exit, out.toString(), err.toString());
    }
}
