package org.logz.cli;

/** Plugs {@code logz bench} and its benchmarks into the {@code logz} command. */
public final class BenchPlugin implements CommandPlugin {
    @Override
    public Object command() {
        return BenchCommand.class;
    }
}
