package org.logz.io;

import java.io.ByteArrayInputStream;
import java.io.IOException;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.logz.model.rbm.RbmFiles;

/**
 * Fuzz tests of every reader of user files: a .npy array, a .npz archive, an RBM model file and a
 * value file (work values, priors). Whatever the bytes, a reader returns or throws
 * {@link ModelFormatException} or {@link IllegalArgumentException} with a message (the CLI's exit 2);
 * anything else (an index or size error, a hang, an OutOfMemoryError) is a finding. In the suite
 * these run in regression mode over the kept inputs under {@code ReaderFuzzTestInputs/<method>/};
 * {@code tools/fuzz/run} fuzzes them for a fixed budget and keeps what it finds there.
 */
class ReaderFuzzTest {
    @FuzzTest(maxDuration = "60s")
    void npyArray(byte[] bytes) throws IOException {
        try {
            Npy.read("fuzz.npy", new ByteArrayInputStream(bytes));
        } catch (ModelFormatException expected) {
            requireMessage(expected);
        }
    }

    @FuzzTest(maxDuration = "60s")
    void npzArchive(byte[] bytes) {
        try {
            Npz.read("fuzz.npz", new ByteArrayInputStream(bytes));
        } catch (ModelFormatException expected) {
            requireMessage(expected);
        }
    }

    @FuzzTest(maxDuration = "60s")
    void rbmFile(byte[] bytes) {
        try {
            RbmFiles.read("fuzz.npz", new ByteArrayInputStream(bytes));
        } catch (IllegalArgumentException expected) {
            requireMessage(expected);
        }
    }

    @FuzzTest(maxDuration = "60s")
    void valueFile(byte[] bytes) {
        try {
            double[] values = ValueFiles.parse("fuzz.txt", bytes);
            for (double v : values) {
                if (!Double.isFinite(v)) {
                    throw new AssertionError("a value file gave " + v);
                }
            }
        } catch (ModelFormatException expected) {
            requireMessage(expected);
        }
    }

    private static void requireMessage(RuntimeException e) {
        if (e.getMessage() == null || e.getMessage().isBlank()) {
            throw new AssertionError("an input error without a message", e);
        }
    }
}
