package org.logz.spark;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.apache.spark.api.java.JavaSparkContext;
import org.logz.base.UserException;

/**
 * A cluster master that never gives the job an executor (a standalone master without workers, or with none that has
 * the cores and memory the job asks for) leaves Spark waiting forever, with a warning in a log logz keeps quiet. The
 * watch stops the context after {@value #PROPERTY} seconds (default {@value #DEFAULT_SECONDS}) without an executor, so
 * that the run fails with the reason. Local masters run their tasks in the driver and are not watched.
 */
final class ExecutorWatch implements AutoCloseable {
    /** The system property that sets the seconds to wait for a first executor. */
    static final String PROPERTY = "logz.spark.executor-wait";
    static final double DEFAULT_SECONDS = 120;

    private final Thread thread;
    private volatile String reason;
    /** Set by {@link #close}: from then on the watch stops nothing. */
    private boolean closed;

    /** Watches {@code sc} for {@code seconds} ({@link #seconds()}) unless its master is local. */
    ExecutorWatch(JavaSparkContext sc, String master, double seconds) {
        if (master.startsWith("local")) {
            thread = null;
            return;
        }
        thread = new Thread(() -> watch(sc, master, seconds), "logz executor watch");
        thread.setDaemon(true);
        thread.start();
    }

    /** The seconds {@value #PROPERTY} sets, refused when it is not a positive number of at most 1e6. */
    static double seconds() {
        String value = System.getProperty(PROPERTY);
        if (value == null) {
            return DEFAULT_SECONDS;
        }
        try {
            double seconds = Double.parseDouble(value.trim());
            if (seconds > 0 && seconds <= 1e6) {
                return seconds;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new UserException("-D" + PROPERTY + "=" + value + ": give the seconds to wait for an executor, above 0 and "
                + "at most 1e6");
    }

    private void watch(JavaSparkContext sc, String master, double seconds) {
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        try {
            while (!sc.sc().isStopped()) {
                // the driver is listed too
                if (sc.sc().statusTracker().getExecutorInfos().length > 1) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    synchronized (this) {
                        if (closed) {
                            return;
                        }
                        reason = String.format(Locale.ROOT, "no executor joined the job within %.0f s: does the master "
                                + "have workers with free cores and memory? (-D%s=S waits longer)", seconds, PROPERTY);
                    }
                    sc.stop();
                    return;
                }
                Thread.sleep(200);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Why the watch stopped the context, or null when it did not. */
    String reason() {
        return reason;
    }

    /**
     * Ends the watch. Where it is stopping the context, it is left to finish: interrupted inside {@code sc.stop()} it
     * left Spark's active context set, and the context's own close, finding it stopping, did not clear it ("Only one
     * SparkContext should be running in this JVM" for the next run in the process).
     */
    @Override
    public void close() {
        if (thread == null) {
            return;
        }
        boolean stopping;
        synchronized (this) {
            closed = true;
            stopping = reason != null;
        }
        if (!stopping) {
            thread.interrupt();
        }
        try {
            thread.join(TimeUnit.MINUTES.toMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
