package org.logz.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

import org.logz.model.rbm.RbmFiles;

/** The trained test models of {@code src/test/resources/org/logz/fixtures} (see {@code tools/models/README.md}). */
public final class Fixtures {
    private Fixtures() {
    }

    /** The 784×16 RBM trained by CD-1 on the shipped MNIST digits, with its data base rate. */
    public static RbmFiles.RbmFile mnist784x16() {
        return load("/org/logz/fixtures/mnist-784x16-cd1.npz");
    }

    /** The 784×20 RBM trained by CD-1 on the shipped MNIST digits, with its data base rate. */
    public static RbmFiles.RbmFile mnist784x20() {
        return load("/org/logz/fixtures/mnist-784x20-cd1.npz");
    }

    /** The 784×20 RBM trained by PCD (100 chains) on the shipped MNIST digits, with its data base rate. */
    public static RbmFiles.RbmFile mnist784x20Pcd() {
        return load("/org/logz/fixtures/mnist-784x20-pcd.npz");
    }

    /** Exact log Z of {@link #mnist784x20Pcd()} ({@code logz exact}, enumerating 2^20 hidden states). */
    public static final double MNIST_784x20_PCD_LOG_Z = 203.1529315158055;

    /** The 64×16 RBM trained by PCD (100 chains) on the shipped 8×8 digits, with its data base rate. */
    public static RbmFiles.RbmFile digits64x16Pcd() {
        return load("/org/logz/fixtures/digits-64x16-pcd.npz");
    }

    /** The 64×16 demo RBM trained by CD-5 on the shipped 8×8 digits, with its data base rate. */
    public static RbmFiles.RbmFile digits64x16() {
        return load("/org/logz/models/demo-digits-64x16.npz");
    }

    static RbmFiles.RbmFile load(String resource) {
        try (InputStream in = Fixtures.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + resource);
            }
            return RbmFiles.read(resource, in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
