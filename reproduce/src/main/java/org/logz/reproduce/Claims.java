package org.logz.reproduce;

import java.util.ArrayList;
import java.util.List;

/**
 * A paper's claims as one run checked them: each holds, differs, or was not tested at the run's scale. A result is
 * reproduced only when every claim was tested and holds.
 */
public final class Claims {
    /** What the run found. */
    public enum Status {
        REPRODUCED("reproduced"), DIFFERS("differs"), UNTESTED("not all tested"), SMOKE("smoke run, not a reproduction");

        private final String words;

        Status(String words) {
            this.words = words;
        }

        @Override
        public String toString() {
            return words;
        }
    }

    private final List<String> holds = new ArrayList<>();
    private final List<String> differs = new ArrayList<>();
    private final List<String> untested = new ArrayList<>();

    /** Records one claim: {@code what} says what the run found, whether it {@code held} or not. */
    public Claims check(boolean held, String what) {
        (held ? holds : differs).add(what);
        return this;
    }

    /** Records a claim this scale does not reach. */
    public Claims untested(String what) {
        untested.add(what);
        return this;
    }

    public Status status() {
        return !differs.isEmpty() ? Status.DIFFERS : !untested.isEmpty() ? Status.UNTESTED : Status.REPRODUCED;
    }

    /** One line: what differs, then what was not tested, then what holds. */
    public String verdict() {
        List<String> parts = new ArrayList<>(differs);
        untested.forEach(u -> parts.add("not tested at this scale: " + u));
        String head = String.join("; ", parts);
        String held = String.join("; ", holds);
        return head.isEmpty() ? held : held.isEmpty() ? head : head + " (holds: " + held + ")";
    }
}
