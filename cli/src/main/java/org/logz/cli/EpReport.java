package org.logz.cli;

import java.util.Locale;

import org.logz.api.Outcome;
import org.logz.estimate.ep.ProbitEp;

/** {@code --method ep}: the report of expectation propagation for GP classification (Rasmussen &amp; Williams, Algorithm 3.5). */
final class EpReport {
    private EpReport() {
    }

    static EstimateCommand.Runs report(Outcome o) {
        ProbitEp.Settings settings = ((Outcome.Plan.Ep) o.plan()).settings();
        ProbitEp.Result r = (ProbitEp.Result) o.runs().get(0);
        return new EstimateCommand.Runs(o.runs(), String.format(Locale.ROOT,
                "EP converged in %d sweeps (last site change %.1e, damping %.1f)", r.sweeps(), r.change(),
                settings.damping()), null, "none: EP is a deterministic approximation (Rasmussen & Williams eq. 3.65)",
                new EstimateReport.Ep(r.sweeps(), r.change(), settings.tolerance(), settings.damping()), o.modelWarnings());
    }
}
