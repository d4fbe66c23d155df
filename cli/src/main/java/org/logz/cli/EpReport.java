package org.logz.cli;

import java.util.Locale;

import org.logz.api.Outcome;
import org.logz.estimate.Estimate;
import org.logz.estimate.ep.CorrectedEp;
import org.logz.estimate.ep.ProbitEp;

/**
 * {@code --method ep|ep-corrected}: the report of expectation propagation for GP classification (Rasmussen &amp;
 * Williams, Algorithm 3.5), and of its second-order correction (Opper, Paquet &amp; Winther 2013).
 */
final class EpReport {
    private EpReport() {
    }

    static EstimateCommand.Runs report(Outcome o) {
        ProbitEp.Settings settings = ((Outcome.Plan.Ep) o.plan()).settings();
        Estimate run = o.runs().get(0);
        CorrectedEp corrected = run instanceof CorrectedEp c ? c : null;
        ProbitEp.Result r = corrected == null ? (ProbitEp.Result) run : corrected.ep();
        String summary = String.format(Locale.ROOT, "EP converged in %d sweeps (last site change %.1e, damping %.1f)",
                r.sweeps(), r.change(), settings.damping());
        if (corrected != null) {
            summary += String.format(Locale.ROOT, "; EP %.4f, corrected by %+.4f (order 3) and %+.4f (order 4)", r.logZ(),
                    corrected.order3(), corrected.order4());
        }
        return new EstimateCommand.Runs(o.runs(), summary, null, corrected == null
                ? "none: EP is a deterministic approximation (Rasmussen & Williams eq. 3.65)"
                : "none: a deterministic approximation (EP, eq. 3.65, and the pairwise terms of Opper, Paquet & Winther "
                + "2013)", new EstimateReport.Ep(r.sweeps(), r.change(), settings.tolerance(), settings.damping(),
                corrected == null ? null : r.logZ(), corrected == null ? null : corrected.order3(),
                corrected == null ? null : corrected.order4()), o.modelWarnings());
    }
}
