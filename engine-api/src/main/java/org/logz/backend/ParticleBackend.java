package org.logz.backend;

import org.logz.model.BaseRate;
import org.logz.model.Rbm;

/**
 * The backend contract (DESIGN §2): owns device memory and runs whole-batch operations on it.
 * Estimators hold opaque handles ({@link ParticleMatrix}, {@link ParticleVector}) and exchange only
 * scalars and short vectors with the host. Handles of one backend must not be passed to another
 * (an {@link IllegalArgumentException} says so). A backend is correct when the shared contract
 * tests pass on it and its results agree with the CPU reference.
 */
public abstract class ParticleBackend implements AutoCloseable {

    /** Short name used on the command line ({@code cpu}, {@code cuda}, {@code cuda-emulated}). */
    public abstract String name();

    /** One line about the device and its configuration, for logs and result files. */
    public abstract String description();

    /** A zero-filled matrix of {@code rows} particles with {@code cols} values each. */
    public abstract ParticleMatrix matrix(int rows, int cols);

    /** A zero-filled float64 vector. */
    public abstract ParticleVector vector(int length);

    /** Copies {@code rows} row-major particle states from the host into {@code dst}. */
    public abstract void upload(float[] rowMajor, int rows, ParticleMatrix dst);

    /** Copies {@code values} from the host into the first {@code values.length} entries of {@code dst}. */
    public abstract void upload(double[] values, ParticleVector dst);

    /** Copies the first {@code rows} particles to the host, row-major (diagnostics and tests). */
    public abstract float[] download(ParticleMatrix src, int rows);

    /** Copies the first {@code count} entries to the host. */
    public abstract double[] download(ParticleVector src, int count);

    /** Sets entries {@code [0, count)} of {@code v} to {@code value}. Modifies {@code v}. */
    public abstract void fill(ParticleVector v, int count, double value);

    /**
     * LSE of {@code logW[0, count)} and of its doubles, in a fixed order that does not depend on
     * the number of threads.
     */
    public abstract WeightSummary summarize(ParticleVector logW, int count);

    /** Uploads the model and base rate and returns kernels bound to them. */
    public abstract RbmOps bind(Rbm model, BaseRate baseRate);

    /** Frees everything the backend still holds; closing twice is harmless. */
    @Override
    public abstract void close();

    @Override
    public String toString() {
        return description();
    }
}
