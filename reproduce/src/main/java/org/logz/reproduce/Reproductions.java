package org.logz.reproduce;

import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

import org.logz.base.UserException;

/** The reproductions on the class path, by name ({@link ServiceLoader}). */
public final class Reproductions {
    private Reproductions() {
    }

    /** Every reproduction, sorted by name. */
    public static List<Reproduction> all() {
        return ServiceLoader.load(Reproduction.class).stream().map(ServiceLoader.Provider::get)
                .sorted(Comparator.comparing(Reproduction::name)).toList();
    }

    /** The reproduction called {@code name}, or a one-line error that lists the names. */
    public static Reproduction named(String name) {
        List<Reproduction> all = all();
        return all.stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow(() -> new UserException(
                "no reproduction '" + name + "'; one of " + String.join(", ", all.stream().map(Reproduction::name).toList())
                        + " (logz reproduce --list)"));
    }
}
