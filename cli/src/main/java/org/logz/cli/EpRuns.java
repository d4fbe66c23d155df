package org.logz.cli;

import java.util.List;
import java.util.Locale;

import org.logz.UserException;
import org.logz.estimate.ep.ProbitEp;

/** {@code --method ep}: expectation propagation for GP classification (Rasmussen &amp; Williams, Algorithm 3.5). */
final class EpRuns {
    private EpRuns() {
    }

    static EstimateCommand.Runs run(EstimateCommand c, Problem problem) {
        if (!(problem instanceof Problem.GpcProblem gpc)) {
            throw new UserException("--method ep approximates the evidence of GP classification (--model gpc:...); it "
                    + "does not apply to " + problem.describe().model());
        }
        if (c.replicates > 1) {
            throw new UserException("--method ep is deterministic: replicates would repeat the same number");
        }
        ProbitEp.Settings settings = ProbitEp.Settings.defaults();
        ProbitEp.Result r = ProbitEp.run(gpc.model(), settings);
        return new EstimateCommand.Runs(List.of(r), String.format(Locale.ROOT,
                "EP converged in %d sweeps (last site change %.1e, damping %.1f)", r.sweeps(), r.change(),
                settings.damping()), null, "none: EP is a deterministic approximation (Rasmussen & Williams eq. 3.65)",
                new EstimateReport.Ep(r.sweeps(), r.change(), settings.tolerance(), settings.damping()));
    }
}
