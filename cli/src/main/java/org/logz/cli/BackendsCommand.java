package org.logz.cli;

import java.io.PrintWriter;

import org.logz.backend.BackendProvider;
import org.logz.backend.Backends;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code logz backends}: the installed backends and whether each can run here. */
@Command(name = "backends", mixinStandardHelpOptions = true, description = "List installed backends and whether each can run here.")
final class BackendsCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        for (BackendProvider p : Backends.providers()) {
            String detail = p.isAvailable() ? p.detail() : "";
            out.printf("%-14s %s%n", p.name(), p.isAvailable() ? "available" + (detail.isEmpty() ? "" : ": " + detail)
                    : "unavailable: " + p.unavailableReason());
        }
        out.flush();
    }
}
