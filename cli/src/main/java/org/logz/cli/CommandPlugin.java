package org.logz.cli;

import java.util.ServiceLoader;

/**
 * A {@code logz} subcommand that another module adds, found by {@link ServiceLoader} as the backends and the
 * {@link Distributor} are: the bench module's {@code logz bench}. The cli module names none of them, so a module adds a
 * command with its own classes and one service-file line.
 */
public interface CommandPlugin {
    /** The picocli command: a {@code @Command}-annotated class, or an instance of one. */
    Object command();
}
