package org.logz.testkit.reference;

import java.util.Arrays;
import java.util.Optional;

import org.logz.backend.IndexVector;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.backend.Splitting;
import org.logz.backend.Tempering;
import org.logz.backend.TemperingMoves;
import org.logz.backend.WeightSummary;
import org.logz.backend.WeightedMoments;
import org.logz.memory.Footprint;
import org.logz.memory.HostMemory;
import org.logz.numeric.LogSpace;
import org.logz.resample.ResamplingScheme;

/**
 * The scalar reference backend (the llm.c "CPU reference" idea): every buffer a Java array, every
 * operation a plain loop on one thread, kernels in float64, resampling and tempering written again from
 * DESIGN's specification instead of calling the host code the CPU backend runs. It exists for tests:
 * estimators are tested on it, so that their accuracy tests do not rest on the backend under test, and
 * the CPU and CUDA backends are compared with it. It draws the same Philox uniforms as the other
 * backends; it is slow and has no tiles, threads or GEMMs to get wrong.
 */
public final class ReferenceBackend extends ParticleBackend {

    @Override
    public String name() {
        return "reference";
    }

    @Override
    public String description() {
        return "reference (scalar Java, one thread)";
    }

    /** Matrices and vectors live on the JVM heap with the host arrays. */
    @Override
    protected void checkDeviceMemory(Footprint footprint, String what) {
        HostMemory.requireHeap(footprint.plus(Footprint.heap(footprint.deviceBytes())).heapBytes(), what);
    }

    @Override
    protected boolean owns(Object handle) {
        return handle instanceof HostMatrix m && m.owner() == this || handle instanceof HostVector v && v.owner() == this
                || handle instanceof HostIndices i && i.owner() == this;
    }

    @Override
    protected ParticleMatrix newMatrix(int rows, int cols) {
        return new HostMatrix(this, rows, cols);
    }

    @Override
    protected ParticleVector newVector(int length) {
        return new HostVector(this, length);
    }

    @Override
    protected IndexVector newIndices(int length) {
        return new HostIndices(this, length);
    }

    @Override
    protected void doUpload(float[] rowMajor, int rows, ParticleMatrix dst) {
        System.arraycopy(rowMajor, 0, values(dst), 0, rows * dst.cols());
    }

    @Override
    protected void doUpload(double[] values, ParticleVector dst) {
        System.arraycopy(values, 0, values(dst), 0, values.length);
    }

    @Override
    protected void doUpload(int[] values, IndexVector dst) {
        System.arraycopy(values, 0, values(dst), 0, values.length);
    }

    @Override
    protected float[] doDownload(ParticleMatrix src, int rows) {
        return Arrays.copyOf(values(src), rows * src.cols());
    }

    @Override
    protected double[] doDownload(ParticleVector src, int count) {
        return Arrays.copyOf(values(src), count);
    }

    @Override
    protected int[] doDownload(IndexVector src, int count) {
        return Arrays.copyOf(values(src), count);
    }

    @Override
    protected void doFill(ParticleVector v, int first, int count, double value) {
        Arrays.fill(values(v), first, first + count, value);
    }

    @Override
    protected void doSequence(IndexVector v, int first, int count, int start) {
        int[] values = values(v);
        for (int k = 0; k < count; k++) {
            values[first + k] = start + k;
        }
    }

    @Override
    protected void doCopyRows(ParticleMatrix src, int srcRow, ParticleMatrix dst, int dstRow, int count) {
        int cols = dst.cols();
        System.arraycopy(values(src), srcRow * cols, values(dst), dstRow * cols, count * cols);
    }

    @Override
    protected void doCopy(ParticleVector src, int srcOffset, ParticleVector dst, int dstOffset, int count) {
        System.arraycopy(values(src), srcOffset, values(dst), dstOffset, count);
    }

    @Override
    protected boolean indicesWithin(IndexVector index, int count, int bound) {
        return Arrays.stream(values(index), 0, count).allMatch(i -> i >= 0 && i < bound);
    }

    /** Reads every source row before writing any, so that a gather within one matrix sees the old rows. */
    @Override
    protected void doGatherRows(ParticleMatrix src, IndexVector index, int count, ParticleMatrix dst, int dstRow) {
        int cols = dst.cols();
        float[] from = values(src).clone();
        int[] idx = values(index);
        for (int k = 0; k < count; k++) {
            System.arraycopy(from, idx[k] * cols, values(dst), (dstRow + k) * cols, cols);
        }
    }

    @Override
    protected void doGather(ParticleVector src, IndexVector index, int count, ParticleVector dst, int dstOffset) {
        double[] from = values(src).clone();
        int[] idx = values(index);
        for (int k = 0; k < count; k++) {
            values(dst)[dstOffset + k] = from[idx[k]];
        }
    }

    @Override
    protected void doGather(IndexVector src, IndexVector index, int count, IndexVector dst, int dstOffset) {
        int[] from = values(src).clone();
        int[] idx = values(index).clone();
        for (int k = 0; k < count; k++) {
            values(dst)[dstOffset + k] = from[idx[k]];
        }
    }

    @Override
    protected void doZeroColumns(ParticleMatrix m, int first, int count, int fromColumn) {
        float[] values = values(m);
        int cols = m.cols();
        for (int r = first; r < first + count; r++) {
            Arrays.fill(values, r * cols + fromColumn, (r + 1) * cols, 0f);
        }
    }

    @Override
    protected void doAxpy(double a, ParticleVector x, ParticleVector y, int first, int count) {
        double[] xs = values(x);
        double[] ys = values(y);
        for (int k = first; k < first + count; k++) {
            ys[k] = ys[k] + a * xs[k];
        }
    }

    @Override
    protected void doScale(ParticleVector v, int first, int count, double s) {
        double[] values = values(v);
        for (int k = first; k < first + count; k++) {
            values[k] = values[k] * s;
        }
    }

    @Override
    protected WeightSummary doSummarize(ParticleVector logW, int first, int count) {
        return summary(Arrays.copyOfRange(values(logW), first, first + count));
    }

    @Override
    protected WeightSummary doSummarize(ParticleVector logW, ParticleVector delta, double s, int first, int count) {
        double[] trial = new double[count];
        for (int k = 0; k < count; k++) {
            trial[k] = values(logW)[first + k] + s * values(delta)[first + k];
        }
        return summary(trial);
    }

    /** Straight from the definition: normalized weights first, then the mean and the centred second moment. */
    @Override
    protected WeightedMoments doMoments(ParticleVector logW, ParticleVector values, int offset, int stride, int count) {
        double[] lw = values(logW);
        double[] v = values(values);
        double logTotal = LogSpace.logSumExp(lw, count);
        if (!Double.isFinite(logTotal)) {
            return new WeightedMoments(Double.NaN, Double.NaN);
        }
        double mean = 0;
        for (int k = 0; k < count; k++) {
            mean += Math.exp(lw[k] - logTotal) * v[offset + k * stride];
        }
        double variance = 0;
        for (int k = 0; k < count; k++) {
            double d = v[offset + k * stride] - mean;
            variance += Math.exp(lw[k] - logTotal) * d * d;
        }
        return new WeightedMoments(mean, variance);
    }

    /** {@code log Σ w} and {@code log Σ w²} in index order ({@link LogSpace#logSumExp}, the reduction order of DESIGN §3). */
    private static WeightSummary summary(double[] logW) {
        double[] twice = Arrays.stream(logW).map(v -> 2 * v).toArray();
        return new WeightSummary(logW.length, LogSpace.logSumExp(logW, logW.length), LogSpace.logSumExp(twice, twice.length));
    }

    @Override
    protected void doResample(ResamplingScheme scheme, ParticleVector logW, int count, int offspring, long seed, int step,
                              IndexVector out) {
        ReferenceResampling.ancestors(scheme, values(logW), count, offspring, seed, step, values(out));
    }

    @Override
    protected void doRandomIndices(int bound, int count, long seed, int step, IndexVector out) {
        ReferenceResampling.randomIndices(bound, count, seed, step, values(out));
    }

    /** Both capabilities, in this module's own scalar implementation. */
    @Override
    public <C> Optional<C> capability(Class<C> type) {
        Object c = type == TemperingMoves.class ? (TemperingMoves) this::temperInPlace
                : type == Splitting.class ? (Splitting) this::splitInPlace : null;
        return Optional.ofNullable(type.cast(c));
    }

    private int splitInPlace(ParticleVector logW, int count, double scale, ParticleVector carried, IndexVector indices,
                             ParticleVector carriedOut) {
        return ReferenceResampling.split(values(logW), count, scale, values(carried), values(indices), values(carriedOut));
    }

    private void temperInPlace(Tempering t, int count, int levels, long seed, int step) {
        ReferenceTempering.temper(values(t.logF()), values(t.slope()), values(t.logLevelWeight()), values(t.levelBetas()),
                values(t.level()), values(t.nextLevel()), values(t.betas()), values(t.probabilities()),
                values(t.statistics()), t.groups(), t.firstChain(), count, levels, seed, step);
    }

    @Override
    protected void release() {
    }

    /** The heap array behind a checked handle (also for this module's kernels). */
    float[] values(ParticleMatrix m) {
        return ((HostMatrix) own(m)).values();
    }

    HostMatrix matrix(ParticleMatrix m) {
        checkOpen();
        return (HostMatrix) own(m);
    }

    double[] values(ParticleVector v) {
        return ((HostVector) own(v)).values();
    }

    int[] values(IndexVector v) {
        return ((HostIndices) own(v)).values();
    }
}
