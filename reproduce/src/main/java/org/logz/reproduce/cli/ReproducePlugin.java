package org.logz.reproduce.cli;

import org.logz.cli.CommandPlugin;

/** Plugs {@code logz reproduce} into the {@code logz} command. */
public final class ReproducePlugin implements CommandPlugin {
    @Override
    public Object command() {
        return ReproduceCommand.class;
    }
}
