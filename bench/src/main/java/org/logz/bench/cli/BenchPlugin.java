package org.logz.bench.cli;

import org.logz.bench.cli.BenchCommand;
import org.logz.cli.CommandPlugin;

/** Plugs {@code logz bench} and its benchmarks into the {@code logz} command. */
public final class BenchPlugin implements CommandPlugin {
    @Override
    public Object command() {
        return BenchCommand.class;
    }
}
