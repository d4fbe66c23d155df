package org.logz.backend;

import org.logz.memory.Footprint;
import org.logz.memory.HostMemory;
import org.logz.model.BaseRate;
import org.logz.model.GaussianToy;
import org.logz.model.Ising;
import org.logz.model.Rbm;
import org.logz.resample.Resampler;
import org.logz.resample.Resampling;
import org.logz.resample.ResamplingScheme;

/**
 * The backend contract (DESIGN §2): owns device memory and runs whole-batch operations on it.
 * Estimators hold opaque handles ({@link ParticleMatrix}, {@link ParticleVector}) and exchange only
 * scalars and short vectors with the host. Handles of one backend must not be passed to another
 * (an {@link IllegalArgumentException} says so). A backend is correct when the shared contract
 * tests pass on it and its results agree with the CPU reference.
 */
public abstract class ParticleBackend implements AutoCloseable {
    private long transferredBytes;

    /**
     * Bytes moved between the host and the backend's memory so far: uploads, downloads and the
     * scalars that reductions return. Estimators report the difference over a run.
     */
    public final long transferredBytes() {
        return transferredBytes;
    }

    /** Implementations call this for every host-device transfer. */
    protected final void countTransfer(long bytes) {
        transferredBytes += bytes;
    }

    /**
     * Refuses a run before it allocates when its footprint does not fit: the heap part against the JVM,
     * the matrices and vectors against what this backend can still allocate ({@link #checkDeviceMemory}).
     *
     * @throws org.logz.memory.InsufficientMemoryException naming what is needed and what there is
     */
    public final void require(Footprint footprint, String what) {
        HostMemory.requireHeap(footprint.heapBytes(), what);
        checkDeviceMemory(footprint, what);
    }

    /**
     * Throws {@link org.logz.memory.InsufficientMemoryException} when the footprint's matrices and
     * vectors do not fit where this backend keeps them (off-heap and heap on the CPU, device memory on a
     * GPU).
     */
    protected abstract void checkDeviceMemory(Footprint footprint, String what);

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

    /** A zero-filled vector of int32 indices. */
    public abstract IndexVector indices(int length);

    /** Copies {@code values} from the host into the first {@code values.length} entries of {@code dst}. */
    public abstract void upload(int[] values, IndexVector dst);

    /** Copies the first {@code count} entries to the host. */
    public abstract int[] download(IndexVector src, int count);

    /** Sets entries {@code [first, first + count)} of {@code v} to {@code value}. Modifies {@code v}. */
    public abstract void fill(ParticleVector v, int first, int count, double value);

    /** Sets {@code v[first + k] = start + k} for k &lt; count. Modifies {@code v}. */
    public abstract void sequence(IndexVector v, int first, int count, int start);

    /**
     * Copies rows {@code [srcRow, srcRow + count)} of {@code src} to rows starting at {@code dstRow}
     * of {@code dst}, which may be the same matrix when the ranges do not overlap. Modifies {@code dst}.
     */
    public abstract void copyRows(ParticleMatrix src, int srcRow, ParticleMatrix dst, int dstRow, int count);

    /** Copies {@code src[srcOffset, srcOffset + count)} to {@code dst} at {@code dstOffset}. Modifies {@code dst}. */
    public abstract void copy(ParticleVector src, int srcOffset, ParticleVector dst, int dstOffset, int count);

    /**
     * Row {@code dstRow + k} of {@code dst} becomes row {@code index[k]} of {@code src}, k &lt; count.
     * {@code src} and {@code dst} must be different matrices. Modifies {@code dst}.
     */
    public abstract void gatherRows(ParticleMatrix src, IndexVector index, int count, ParticleMatrix dst, int dstRow);

    /** {@code dst[dstOffset + k] = src[index[k]]}, k &lt; count; src ≠ dst. Modifies {@code dst}. */
    public abstract void gather(ParticleVector src, IndexVector index, int count, ParticleVector dst, int dstOffset);

    /** {@code dst[dstOffset + k] = src[index[k]]}, k &lt; count; src ≠ dst. Modifies {@code dst}. */
    public abstract void gather(IndexVector src, IndexVector index, int count, IndexVector dst, int dstOffset);

    /** Sets columns {@code [fromColumn, cols)} of rows {@code [first, first + count)} to zero. Modifies {@code m}. */
    public abstract void zeroColumns(ParticleMatrix m, int first, int count, int fromColumn);

    /**
     * LSE of {@code logW[first, first + count)} and of its doubles, in a fixed order that does not
     * depend on the number of threads.
     */
    public abstract WeightSummary summarize(ParticleVector logW, int first, int count);

    /** LSE summary of {@code logW[0, count)}. */
    public final WeightSummary summarize(ParticleVector logW, int count) {
        return summarize(logW, 0, count);
    }

    /** The backend's implementation of a resampling scheme (arithmetic of {@link Resampling}). */
    public abstract Resampler resampler(ResamplingScheme scheme);

    /**
     * ARM-anticipate's split ({@link Resampling#split}): copies of particles {@code [0, count)},
     * {@code max(1, ⌊scale·w̃_r⌋)} of particle r with {@code w̃} from {@code logW}; their source
     * indices go to {@code indices} and their carried log weights {@code carried_r - log(copies_r)}
     * to {@code carriedOut}. Modifies {@code indices} and {@code carriedOut}.
     *
     * @return the number of copies (at most {@link Resampling#splitCapacity})
     */
    public abstract int split(ParticleVector logW, int count, double scale, ParticleVector carried,
                              IndexVector indices, ParticleVector carriedOut);

    /**
     * {@code out[k] = ⌊u_k · bound⌋} for k &lt; count, {@code u_k} the 53-bit uniform of draw k in the
     * layout of {@link Resampling#uniform} under stream {@code RESEED}. Modifies {@code out}.
     */
    public abstract void randomIndices(int bound, int count, long seed, int step, IndexVector out);

    /**
     * Levels of a path whose log density is linear in β, {@code log f_β(x) = β·v(x)}: for particle r
     * and level k, {@code logF[r·levels + k] = β_k·values[r]} and {@code slope[r·levels + k] = values[r]}.
     * Modifies logF and slope.
     */
    public abstract void linearLevels(ParticleVector values, int count, ParticleVector levelBetas, int levels,
                                      ParticleVector logF, ParticleVector slope);

    /**
     * One temperature move of simulated tempering with Rao-Blackwellized statistics (Carlson et al.
     * 2016, Algorithm 1, eq. 9 and 21): for every chain r, {@code q_rk ∝ exp(logF_rk + logLevelWeight_k)}
     * (eq. 7; {@code logLevelWeight_k = log r_k - log Ẑ_k}), a new level drawn from {@code q_r·} with the
     * 53-bit uniform of Philox block {@code (0, r, step, TEMPERATURE)}, and the accumulators of
     * {@link Tempering#statistics()} updated in a fixed order. Modifies nextLevel, betas, probabilities
     * and statistics.
     */
    public abstract void temper(Tempering tempering, int count, int levels, long seed, int step);

    /** Uploads the model and base rate and returns kernels bound to them. */
    public abstract RbmOps bind(Rbm model, BaseRate baseRate);

    /** Kernels of an Ising model. */
    public abstract IsingOps bind(Ising model);

    /** Kernels of the Gaussian toy. */
    public abstract GaussianToyOps bind(GaussianToy model);

    /**
     * Waits until all work queued on the device has finished. Operations that return values to the
     * host already wait; this is for timing. A no-op on backends that run synchronously.
     */
    public void synchronize() {
    }

    /** Frees everything the backend still holds; closing twice is harmless. */
    @Override
    public abstract void close();

    @Override
    public String toString() {
        return description();
    }
}
