package org.logz.problem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.logz.base.UserException;
import org.logz.model.RandomRbm;
import org.logz.model.rbm.RbmFiles;

/** What benchmarks measure against: the exact log Z, else a given reference, else a stored one; labelled as such. */
class ReferenceTest {
    @TempDir
    Path dir;

    @Test
    void parsesValueAndStandardError() {
        Reference r = Reference.parse("451.24:0.015");
        assertEquals(451.24, r.logZ());
        assertEquals(0.015, r.stdErr());
        assertEquals("reference log Z 451.2400 ± 0.0150", r.label());
        assertEquals(0, Reference.parse(" -3e2 ").stdErr());
        assertEquals("0.0:0.0", Reference.parse("-0:-0").logZ() + ":" + Reference.parse("-0:-0").stdErr());
        for (String bad : new String[] {"", "x", "1:2:3", "NaN", "Infinity", "1e400", "0x1p3", "1:-0.5", "1:", ":1", "1d",
                "1e200", "1:1e13"}) {
            UserException e = assertThrows(UserException.class, () -> Reference.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("--reference"), e.getMessage());
        }
    }

    /** The exact value wins and a reference beside it is refused; a large RBM needs one or fails in one line. */
    @Test
    void exactFirstThenGivenThenStored() throws IOException {
        Problem ising = Problem.parse("ising:L=4");
        Reference exact = ising.requireReference(null, "bench x");
        assertTrue(exact.kind().equals(Reference.EXACT) && exact.label().startsWith("exact log Z "), exact.toString());
        UserException refused = assertThrows(UserException.class, () -> ising.reference("12.5"));
        assertTrue(refused.getMessage().contains("has an exact log Z"), refused.getMessage());

        Path large = dir.resolve("large.npz");
        RbmFiles.write(large, RandomRbm.create(40, 40, 0.1, 3), Optional.empty());
        Problem rbm = Problem.parse(large.toString());
        assertEquals(Optional.empty(), rbm.reference(null), "no stored reference for an unknown file");
        UserException missing = assertThrows(UserException.class, () -> rbm.requireReference(null, "bench tempered"));
        assertTrue(missing.getMessage().startsWith("bench tempered needs a model with an exact log Z or a reference")
                && missing.getMessage().contains("--reference LOGZ[:SE]"), missing.getMessage());
        Reference given = rbm.requireReference("30.5:0.2", "bench tempered");
        assertEquals("reference", given.kind());
        assertEquals(30.5, given.logZ());
    }
}
