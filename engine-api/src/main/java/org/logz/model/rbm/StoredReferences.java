package org.logz.model.rbm;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

import org.logz.problem.Reference;

/**
 * Reference log Z values logz stores for RBM files it knows by their SHA-256, so that a benchmark or a reproduction on
 * such a file needs no {@code --reference}. Each entry says how it was established; the files themselves are not shipped.
 */
final class StoredReferences {
    /**
     * The CD-25 MNIST RBM of Habeck's paths repository (tests/data/mnistvh_CD25.npz): five independent estimates on
     * logz and one in NumPy float64 without logz code, inverse-variance weighted (README, "Reference values").
     */
    private static final Map<String, Reference> BY_SHA256 = Map.of(
            "f39fb8891a4e21a89e06230478e73af1a41f43d7d4988ead2079762c1b199e8f",
            new Reference(451.24, 0.015, Reference.REFERENCE, "logz's reference for mnistvh_CD25.npz: five independent "
                    + "estimates (PT, PT in NumPy, BAR from data, AIS, RTS), inverse-variance weighted (README, "
                    + "\"Reference values\")"));

    private StoredReferences() {
    }

    /** The stored reference of {@code file}, or empty where logz knows none (or the file cannot be read). */
    static Optional<Reference> of(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                sha.update(buffer, 0, n);
            }
            return Optional.ofNullable(BY_SHA256.get(HexFormat.of().formatHex(sha.digest())));
        } catch (IOException e) {
            // the model was read once already; a file gone since has no reference to offer
            return Optional.empty();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
