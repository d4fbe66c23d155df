package org.logz.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

import org.logz.base.ProgressListener;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress of a long run on stderr: a progress bar with an ETA when stderr is a terminal (even when
 * stdout is redirected, e.g. {@code --json > f}); otherwise, once the run has taken a second, a plain
 * line every ten seconds with the fraction done and the time left. Nothing for runs under a second.
 */
public final class Progress implements ProgressListener, AutoCloseable {
    private static final long QUIET_NANOS = 1_000_000_000L;
    private static final long LINE_EVERY_NANOS = 10_000_000_000L;

    /** Set while {@link #quietly} runs: nested runs (a benchmark's many estimates) print no progress. */
    private static volatile boolean quiet;

    private final String task;
    private final boolean terminal;
    private final long started = System.nanoTime();
    private long lastLine;
    private ProgressBar bar;

    private Progress(String task, boolean terminal) {
        this.task = task;
        this.terminal = terminal;
    }

    public static Progress onTerminal(String task) {
        return new Progress(task, stderrIsTerminal());
    }

    /** Runs {@code work} with the progress of every run inside it silenced. */
    public static <T> T quietly(java.util.function.Supplier<T> work) {
        boolean was = quiet;
        quiet = true;
        try {
            return work.get();
        } finally {
            quiet = was;
        }
    }

    /** Whether file descriptor 2 is a terminal (Linux: /proc/self/fd/2 links to a tty or pts device). */
    private static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
    }

    @Override
    public synchronized void progress(long done, long total, double logZ, double ess) {
        long now = System.nanoTime();
        if (quiet || now - started < QUIET_NANOS && done < total) {
            return;
        }
        if (!terminal) {
            if (done < total && now - lastLine >= LINE_EVERY_NANOS) {
                lastLine = now;
                double fraction = total > 0 ? (double) done / total : 0;
                long left = fraction > 0 ? (long) ((now - started) * (1 - fraction) / fraction) : -1;
                System.err.printf(Locale.ROOT, "logz: %s %.0f%% done%s%n", task, 100 * fraction,
                        left < 0 ? "" : ", about " + format(Duration.ofNanos(left)) + " left");
            }
            return;
        }
        if (bar == null) {
            bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(total).setStyle(ProgressBarStyle.ASCII)
                    .setConsumer(new ConsoleProgressBarConsumer(System.err)).setUpdateIntervalMillis(200)
                    .build();
        }
        bar.maxHint(total);
        bar.stepTo(done);
        StringBuilder extra = new StringBuilder();
        if (Double.isFinite(logZ)) {
            extra.append(String.format(Locale.ROOT, "log Z %.4f", logZ));
        }
        if (Double.isFinite(ess)) {
            extra.append(extra.length() > 0 ? ", " : "").append(String.format(Locale.ROOT, "ESS %.1f", ess));
        }
        bar.setExtraMessage(extra.toString());
    }

    private static String format(Duration d) {
        long s = d.toSeconds();
        return s >= 3600 ? String.format(Locale.ROOT, "%d h %02d min", s / 3600, s / 60 % 60)
                : s >= 60 ? String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60) : s + " s";
    }

    @Override
    public synchronized void close() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
    }
}
