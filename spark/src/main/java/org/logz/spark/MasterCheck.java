package org.logz.spark;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.logz.base.UserException;

/**
 * What a master must be before the Spark context starts, where Spark itself would fail slowly and with another
 * reason. A local master runs its N tasks as N threads of this JVM, started at once: a million take the operating
 * system's threads (and a minute) before failing. Spark registers with a standalone master it cannot reach three
 * times, twenty seconds each (fixed in its StandaloneAppClient), so a mistyped host or a master that is not running
 * would cost a minute before a message that names neither; one TCP connection per listed master (a high-availability
 * URL lists several) answers in seconds.
 */
final class MasterCheck {
    /** The most task threads a local master may ask for. */
    static final int MAX_LOCAL_THREADS = 1024;
    /** Milliseconds to wait for one master's port to accept a connection. */
    static final int CONNECT_MILLIS = 5_000;
    private static final Pattern LOCAL_THREADS = Pattern.compile("local\\[\\s*(\\d+)\\s*(?:,\\s*\\d+\\s*)?]");

    private MasterCheck() {
    }

    /**
     * Refuses a cluster manager this build does not include (only spark-core is bundled: local and standalone), a
     * local master of too many threads and a {@code spark://} master that does not answer.
     */
    static void requireUsable(String master) {
        String m = master.trim().toLowerCase(Locale.ROOT);
        if (m.equals("yarn") || m.startsWith("yarn") || m.startsWith("mesos://") || m.startsWith("k8s://")) {
            throw new UserException("--spark " + master + ": this build of logz includes Spark's local[N] and standalone "
                    + "(spark://HOST:PORT) masters only, not YARN, Mesos or Kubernetes; submit to a standalone master");
        }
        Matcher local = LOCAL_THREADS.matcher(master);
        if (local.matches() && (local.group(1).length() > 9 || Integer.parseInt(local.group(1)) > MAX_LOCAL_THREADS)) {
            throw new UserException("--spark " + master + ": a local master runs its tasks as threads of this process; "
                    + "at most " + MAX_LOCAL_THREADS + " (this machine has " + Runtime.getRuntime().availableProcessors()
                    + " cores: local[*] takes one per core)");
        }
        requireReachable(master);
    }

    /**
     * Refuses a {@code spark://} master none of whose listed hosts accepts a connection; other masters, and URLs that
     * are not host:port lists (Spark's own message names the fault), pass.
     */
    private static void requireReachable(String master) {
        if (!master.startsWith("spark://")) {
            return;
        }
        List<String> failures = new ArrayList<>();
        for (String hostPort : master.substring("spark://".length()).split(",")) {
            int colon = hostPort.lastIndexOf(':');
            int port;
            try {
                port = colon < 1 ? -1 : Integer.parseInt(hostPort.substring(colon + 1));
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < 0) {
                // Spark names what is wrong with the URL
                return;
            }
            String host = hostPort.substring(0, colon).replaceAll("^\\[|]$", "");
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, port), CONNECT_MILLIS);
                return;
            } catch (IOException | IllegalArgumentException e) {
                failures.add(hostPort + " (" + (e instanceof UnknownHostException ? "unknown host"
                        : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")");
            }
        }
        throw new UserException("--spark " + master + ": no master answers at " + String.join(", ", failures)
                + "; is it running, and is the address the one its log prints?");
    }
}
