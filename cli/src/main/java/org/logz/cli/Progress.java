package org.logz.cli;

import org.logz.estimate.ProgressListener;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar on stderr while an estimator runs, shown only when the process is attached to a
 * terminal; silent otherwise (pipes, files, CI).
 */
final class Progress implements ProgressListener, AutoCloseable {
    private final String task;
    private final boolean enabled;
    private ProgressBar bar;

    private Progress(String task, boolean enabled) {
        this.task = task;
        this.enabled = enabled;
    }

    static Progress onTerminal(String task) {
        return new Progress(task, System.console() != null);
    }

    @Override
    public void progress(long done, long total, double logZ, double ess) {
        if (!enabled) {
            return;
        }
        if (bar == null) {
            bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(total).setStyle(ProgressBarStyle.ASCII)
                    .setConsumer(new ConsoleProgressBarConsumer(System.err)).setUpdateIntervalMillis(200).build();
        }
        bar.maxHint(total);
        bar.stepTo(done);
        StringBuilder extra = new StringBuilder();
        if (Double.isFinite(logZ)) {
            extra.append(String.format("log Z %.4f", logZ));
        }
        if (Double.isFinite(ess)) {
            extra.append(extra.length() > 0 ? ", " : "").append(String.format("ESS %.1f", ess));
        }
        bar.setExtraMessage(extra.toString());
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
    }
}
