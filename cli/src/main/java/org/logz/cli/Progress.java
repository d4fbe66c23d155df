package org.logz.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

import org.logz.base.ProgressListener;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress of a long run on stderr: a progress bar with an ETA when stderr is a terminal (even when
 * stdout is redirected, e.g. {@code --json > f}); otherwise, once the run has taken a second, a plain
 * line every ten seconds with the fraction done and the time left. Nothing for runs under a second.
 * The time left is the rate since the run's first report applied to what remains, and only once the run has gone
 * two seconds and a percent past that report: counted from the command's start it took the setup (a pilot, a resumed
 * checkpoint's skipped work) for the run's own pace, and the hostile review saw first lines of "about 1 h 08 min left"
 * for a 13 s run. Work that reports nothing (EP on thousands of cases, a million base draws) is covered by
 * {@link #heartbeat}.
 */
public final class Progress implements ProgressListener, AutoCloseable {
    private static final long QUIET_NANOS = 1_000_000_000L;
    private static final long LINE_EVERY_NANOS = 10_000_000_000L;
    private static final long ETA_AFTER_NANOS = 2_000_000_000L;

    /** When any progress last reached stderr (a line or the bar), for {@link #heartbeat}. */
    private static volatile long lastShown = System.nanoTime();

    /**
     * How many {@link #quietly} calls are running: nested runs (a benchmark's many estimates) print no progress. A count
     * rather than a saved flag, so that calls overlapping on two threads cannot leave it set.
     */
    private static final AtomicInteger QUIET = new AtomicInteger();

    private final String task;
    private final boolean terminal;
    private final long started = System.nanoTime();
    private long lastLine;
    private long firstReport = -1;
    private long firstDone;
    private ProgressBar bar;

    private Progress(String task, boolean terminal) {
        this.task = task;
        this.terminal = terminal;
    }

    public static Progress onTerminal(String task) {
        return new Progress(task, stderrIsTerminal());
    }

    /** Plain lines, as where stderr is not a terminal. */
    static Progress lines(String task) {
        return new Progress(task, false);
    }

    /** Runs {@code work} with the progress of every run inside it silenced. */
    public static <T> T quietly(java.util.function.Supplier<T> work) {
        QUIET.incrementAndGet();
        try {
            return work.get();
        } finally {
            QUIET.decrementAndGet();
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
        if (firstReport < 0) {
            firstReport = now;
            firstDone = done;
        }
        if (QUIET.get() > 0 || now - started < QUIET_NANOS && done < total) {
            return;
        }
        lastShown = now;
        if (!terminal) {
            if (done < total && now - lastLine >= LINE_EVERY_NANOS) {
                lastLine = now;
                double fraction = total > 0 ? (double) done / total : 0;
                long left = timeLeft(now, done, total);
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

    /** Nanoseconds left at the pace since the first report, or -1 until the run has gone far enough to tell. */
    private long timeLeft(long now, long done, long total) {
        long since = now - firstReport;
        long progressed = done - firstDone;
        if (since < ETA_AFTER_NANOS || progressed <= 0 || 100 * progressed < total - firstDone) {
            return -1;
        }
        return (long) ((double) since * (total - done) / progressed);
    }

    /**
     * A line every {@code every} while nothing else reaches stderr: work that reports no progress (a GP classifier's
     * EP on thousands of cases, a million particles' base draws, a latent model's quadrature) is otherwise silent for
     * minutes (the hostile review's big06 and ex04: nothing on stderr for 120 s). Close it when the work ends.
     */
    public static Heartbeat heartbeat(String task, Duration every) {
        long started = System.nanoTime();
        long period = every.toNanos();
        lastShown = started;
        Thread beat = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(Math.max(1, Duration.ofNanos(period / 10).toMillis()));
                    long now = System.nanoTime();
                    if (QUIET.get() == 0 && now - lastShown >= period) {
                        lastShown = now;
                        System.err.printf(Locale.ROOT, "logz: %s still working, %s so far%n", task,
                                format(Duration.ofNanos(now - started)));
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "logz-heartbeat");
        beat.setDaemon(true);
        beat.start();
        return beat::interrupt;
    }

    /** The running {@link #heartbeat}; closing it stops the lines. */
    public interface Heartbeat extends AutoCloseable {
        @Override
        void close();
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
