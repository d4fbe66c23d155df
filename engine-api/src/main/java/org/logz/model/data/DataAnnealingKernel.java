package org.logz.model.data;

import java.util.Arrays;
import java.util.stream.IntStream;

import org.logz.backend.IndexVector;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.backend.ParticleVector;
import org.logz.kernel.Kernels;
import org.logz.kernel.ParticleState;
import org.logz.kernel.PointLikelihoodKernel;
import org.logz.kernel.RandomWalk;
import org.logz.kernel.SequentialKernel;
import org.logz.model.PointwiseLikelihood;
import org.logz.random.NormalStream;
import org.logz.random.StreamTag;

/**
 * The sequential kernel of {@link DataSequence} on any backend (Habeck §6.4): the state is θ, the moves are random-walk
 * Metropolis on {@code p_k(θ) ∝ p(θ) Π_{l<k} p(y_l | θ)} with {@link RandomWalk}'s proposal scaled by the covariance of
 * the particles moved together (the pseudo-marginal kernel's, with an exact likelihood), and the bookkeeping on the
 * host, d numbers per particle; the point likelihoods, the work, on the backend's {@link PointLikelihoodKernel} where
 * it has one for the model (the mixture), else on the host. Philox, all on tag {@code MODEL}: the prior draw of {@link #start} takes the normals
 * 0..d-1 of {@code (particle, step)}; transition t of a move takes the normals 0..d-1 of {@code (particle, step + t)}
 * and the acceptance uniform of block d. Deterministic: every sum over points runs in entry order, whatever the
 * threads.
 */
final class DataAnnealingKernel implements SequentialKernel {
    private final ParticleBackend backend;
    private final PointwiseLikelihood model;
    private final int[] points;
    private final int d;
    /** The backend's point likelihoods, or null where the host computes them (the GLMM's quadratures). */
    private final PointLikelihoodKernel device;
    private IndexVector order;
    private ParticleMatrix rows;
    private ParticleVector sums;
    private boolean closed;

    DataAnnealingKernel(ParticleBackend backend, DataSequence sequence) {
        this.backend = backend;
        this.model = sequence.model();
        this.points = sequence.order().permutation();
        this.d = model.parameters();
        this.device = Kernels.pointLikelihood(backend, model).orElse(null);
    }

    @Override
    public int length() {
        return points.length;
    }

    @Override
    public int[] stateColumns() {
        return new int[] {d};
    }

    /** p_0 is the prior, a distribution: its particles are drawn by {@link #start}. */
    @Override
    public void reset(ParticleState state, int first, int count) {
        throw new UnsupportedOperationException("data annealing's p_0 is the prior: its particles are drawn (start), "
                + "not set to one state");
    }

    /** θ ~ p(θ), the model's independent normal priors. */
    @Override
    public void start(ParticleState state, int first, int count, long seed, int step) {
        checkOpen();
        double[] mean = model.priorMean();
        double[] sd = model.priorSd();
        float[] all = backend.download(state.variables(), first + count);
        for (int r = 0; r < count; r++) {
            NormalStream normals = new NormalStream(seed, first + r, step, StreamTag.MODEL);
            for (int k = 0; k < d; k++) {
                all[(first + r) * d + k] = (float) (mean[k] + sd[k] * normals.at(k));
            }
        }
        backend.upload(all, first + count, state.variables());
    }

    /** θ is the whole state: nothing is derived from it. */
    @Override
    public void refresh(ParticleState state, int first, int count) {
        checkOpen();
    }

    @Override
    public void move(ParticleState state, int active, int first, int count, int transitions, long seed, int step) {
        checkOpen();
        float[] all = backend.download(state.variables(), first + count);
        float[] theta = Arrays.copyOfRange(all, first * d, (first + count) * d);
        double[] current = logTargets(theta, count, active);
        for (int t = 0; t < transitions; t++) {
            double[] factor = RandomWalk.factor(theta, count, d, d, model.priorSd());
            float[] proposed = RandomWalk.propose(theta, count, d, d, factor, seed, first, step + t, StreamTag.MODEL);
            double[] candidate = logTargets(proposed, count, active);
            for (int r = 0; r < count; r++) {
                if (RandomWalk.accept(candidate[r] - current[r], seed, d, first + r, step + t, StreamTag.MODEL)) {
                    System.arraycopy(proposed, r * d, theta, r * d, d);
                    current[r] = candidate[r];
                }
            }
        }
        System.arraycopy(theta, 0, all, first * d, count * d);
        backend.upload(all, first + count, state.variables());
    }

    /** {@code logW += log p(y_l | θ)}, l the point entered at iteration {@code variable}. */
    @Override
    public void smooth(ParticleState state, int variable, int first, int count, ParticleVector logW) {
        checkOpen();
        float[] all = backend.download(state.variables(), first + count);
        double[] weights = backend.download(logW, first + count);
        double[] terms = logLikelihoods(Arrays.copyOfRange(all, first * d, (first + count) * d), count, variable,
                variable + 1);
        for (int r = 0; r < count; r++) {
            weights[first + r] += terms[r];
        }
        backend.upload(weights, logW);
    }

    /** A data point adds no variable. */
    @Override
    public void augment(ParticleState state, int variable, int first, int count, long seed, int step) {
        checkOpen();
    }

    /**
     * The posterior's {@code log f_n(θ) = log p(θ) + Σ_l log p(y_l | θ)} over all points: θ does not record how many
     * have entered, and the path is continuous, so no estimator bounds log Z with it.
     */
    @Override
    public void logDensity(ParticleState state, int count, ParticleVector out) {
        checkOpen();
        backend.upload(logTargets(backend.download(state.variables(), count), count, points.length), out);
    }

    /** {@code log p(θ_r) + Σ_{k<active} log p(y_{points[k]} | θ_r)} of the rows of {@code theta}. */
    private double[] logTargets(float[] theta, int count, int active) {
        double[] out = logLikelihoods(theta, count, 0, active);
        for (int r = 0; r < count; r++) {
            out[r] += model.logPrior(theta(theta, r));
        }
        return out;
    }

    /**
     * {@code Σ_{k=from}^{to-1} log p(y_{points[k]} | θ_r)} of the rows of {@code theta}, summed from +0 in k's order: on
     * the backend's {@link PointLikelihoodKernel} where it has one, else on the host in parallel over rows.
     */
    private double[] logLikelihoods(float[] theta, int count, int from, int to) {
        if (device == null) {
            double[] out = new double[count];
            IntStream.range(0, count).parallel().forEach(r -> {
                double[] th = theta(theta, r);
                double sum = 0;
                for (int k = from; k < to; k++) {
                    sum += model.logLikelihood(points[k], th);
                }
                out[r] = sum;
            });
            return out;
        }
        if (rows == null || rows.rows() < count) {
            releaseScratch();
            rows = backend.matrix(count, d);
            sums = backend.vector(count);
        }
        if (order == null) {
            order = backend.indices(points.length);
            backend.upload(points, order);
        }
        backend.upload(theta, count, rows);
        device.logLikelihoods(rows, count, order, from, to, sums);
        return backend.download(sums, count);
    }

    private double[] theta(float[] rows, int r) {
        double[] th = new double[d];
        for (int k = 0; k < d; k++) {
            th[k] = rows[r * d + k];
        }
        return th;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("data annealing kernel is closed");
        }
    }

    private void releaseScratch() {
        if (rows != null) {
            rows.close();
            sums.close();
            rows = null;
            sums = null;
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            releaseScratch();
            if (order != null) {
                order.close();
            }
            if (device != null) {
                device.close();
            }
        }
    }
}
