package org.logz.spark;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

import org.logz.UserException;

/**
 * A standalone master's address, tried before the Spark context starts: Spark registers with a master it cannot reach
 * three times, twenty seconds each (fixed in its StandaloneAppClient), so a mistyped host or a master that is not
 * running would cost a minute before a message that names neither. One TCP connection per listed master (a
 * high-availability URL lists several) answers in seconds.
 */
final class MasterAddress {
    /** Milliseconds to wait for one master's port to accept a connection. */
    static final int CONNECT_MILLIS = 5_000;

    private MasterAddress() {
    }

    /**
     * Refuses a {@code spark://} master none of whose listed hosts accepts a connection; other masters, and URLs that
     * are not host:port lists (Spark's own message names the fault), pass.
     */
    static void requireReachable(String master) {
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
