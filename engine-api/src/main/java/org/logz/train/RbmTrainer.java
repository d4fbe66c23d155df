package org.logz.train;

import java.util.Arrays;
import java.util.Optional;

import org.logz.backend.Betas;
import org.logz.backend.ParticleBackend;
import org.logz.backend.ParticleMatrix;
import org.logz.base.EstimationException;
import org.logz.base.UserException;
import org.logz.data.BinaryDataset;
import org.logz.kernel.Kernels;
import org.logz.kernel.TemperedKernel;
import org.logz.memory.HostMemory;
import org.logz.model.BaseRate;
import org.logz.model.Rbm;
import org.logz.model.rbm.Gradient;
import org.logz.model.rbm.TemperedRbm;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * Fits a binary RBM by minibatch stochastic gradient ascent on the log-likelihood, with momentum and L2 weight decay,
 * the negative phase drawn by CD-k or PCD ({@link TrainingMethod}). The Gibbs sweeps of the negative phase run on a
 * backend, through the model's tempered kernel at β = 1 (the same kernel every estimator uses, so training runs on every
 * backend and its draws follow DESIGN §3); the gradient's sums are taken on the host over the states' active units
 * ({@link Gradient}). Visible biases start at the data's base-rate log-odds, weights at N(0, 0.01²), hidden biases at
 * 0. Deterministic for a seed on a backend.
 */
public final class RbmTrainer {

    /**
     * @param hidden       number of hidden units
     * @param epochs       passes over the data
     * @param method       how the negative phase is drawn
     * @param batchSize    examples per update (the last partial minibatch of an epoch is left out)
     * @param learningRate SGD step
     * @param momentum     momentum of the updates
     * @param weightDecay  L2 penalty on W
     * @param seed         Philox key for initialization, shuffling and sampling
     */
    public record Settings(int hidden, int epochs, TrainingMethod method, int batchSize, double learningRate,
                           double momentum, double weightDecay, long seed) {
        public Settings {
            if (hidden < 1 || epochs < 1 || batchSize < 1) {
                throw new UserException("hidden units, epochs and batch size must all be positive; got " + hidden
                        + ", " + epochs + ", " + batchSize);
            }
            if (method == null) {
                throw new UserException("the training method is missing");
            }
            // the decay alone multiplies W by 1 - learningRate·weightDecay each update: at 1 or more it flips or explodes
            if (!(learningRate > 0 && learningRate < Double.POSITIVE_INFINITY) || !(momentum >= 0 && momentum < 1)
                    || !(weightDecay >= 0 && learningRate * weightDecay < 1)) {
                throw new UserException("need a finite learning rate > 0, 0 ≤ momentum < 1 and a weight decay ≥ 0 "
                        + "whose product with the learning rate is below 1; got learning rate " + learningRate
                        + ", momentum " + momentum + ", weight decay " + weightDecay);
            }
        }

        /** CD-1, minibatches of 100, learning rate 0.05, momentum 0.5, weight decay 1e-4. */
        public static Settings defaults(int hidden, int epochs, long seed) {
            return new Settings(hidden, epochs, new TrainingMethod.ContrastiveDivergence(1), 100, 0.05, 0.5, 1e-4, seed);
        }

        /** Parameter updates per epoch on {@code examples} examples: one per whole minibatch. */
        public int updatesPerEpoch(int examples) {
            return examples / Math.min(batchSize, examples);
        }
    }

    /** Told of the model as it trains. */
    public interface Observer {
        Observer NONE = new Observer() { };

        /** After parameter update {@code update} (1 after the first); {@code model} is the updated one. */
        default void updated(long update, Rbm model) {
        }

        /** After epoch {@code epoch} (1 after the first). */
        default void epochDone(int epoch, Rbm model) {
        }
    }

    private RbmTrainer() {
    }

    /**
     * Trains on {@code data} on {@code backend}, telling {@code observer} of every update and epoch. The epochs'
     * minibatch orders are keyed by the epoch and the negative phase by the update, so the model after epoch e is the
     * one a run of e epochs returns.
     *
     * @throws UserException       when the weights cannot be held or the run's Gibbs sweeps exceed the streams' steps
     * @throws EstimationException when the parameters diverge (leave what {@link Rbm} accepts)
     */
    public static Rbm train(BinaryDataset data, Settings s, ParticleBackend backend, Observer observer) {
        return train(data, s, Optional.empty(), backend, observer);
    }

    /**
     * {@link #train(BinaryDataset, Settings, ParticleBackend, Observer)} from {@code initial}'s weights and biases where
     * given (continued training, or PCD after CD pretraining as in Carlson et al. 2016 §4.4), else from the start
     * described above; the momentum starts at zero either way.
     *
     * @throws UserException where {@code initial}'s shape is not the data's and the settings' units
     */
    public static Rbm train(BinaryDataset data, Settings s, Optional<Rbm> initial, ParticleBackend backend,
                            Observer observer) {
        int n = data.dimension();
        int h = s.hidden();
        if (initial.isPresent() && (initial.get().visible() != n || initial.get().hidden() != h)) {
            throw new UserException("the initial RBM is " + initial.get().visible() + "×" + initial.get().hidden()
                    + "; training " + n + " visible units with " + h + " hidden needs " + n + "×" + h);
        }
        long cells = (long) n * h;
        if (cells > Integer.MAX_VALUE - 16) {
            throw new UserException("an RBM of " + n + "×" + h + " has " + cells + " weights, more than one array "
                    + "holds");
        }
        int batch = Math.min(s.batchSize(), data.size());
        int negatives = s.method().negativeSamples(batch);
        long sweeps = (long) s.epochs() * s.updatesPerEpoch(data.size()) * s.method().sweepsPerUpdate();
        if (sweeps >= Integer.MAX_VALUE) {
            throw new UserException(s.epochs() + " epochs of " + s.updatesPerEpoch(data.size()) + " updates × "
                    + s.method().sweepsPerUpdate() + " sweeps exceed the random streams' 2^31 steps; train fewer "
                    + "epochs or use larger minibatches");
        }
        // W, its momentum and its gradient while training, then the model's own copy and the file's array
        HostMemory.requireHeap(20 * cells, "training a " + n + "×" + h + " RBM");
        BaseRate baseRate = data.baseRate();
        float[] w = initial.map(Rbm::weights).orElseGet(() -> initialWeights(n, h, s.seed()));
        float[] a = initial.map(Rbm::visibleBias).orElseGet(baseRate::logOdds);
        float[] b = initial.map(Rbm::hiddenBias).orElseGet(() -> new float[h]);
        float[] dw = new float[n * h];
        float[] da = new float[n];
        float[] db = new float[h];
        float[] gw = new float[n * h];
        float[] ga = new float[n];
        float[] gb = new float[h];
        float[] positive = new float[batch * n];
        int[] order = new int[data.size()];
        long key = Philox.derive(s.seed(), StreamTag.TRAIN_KEYS, 0);
        int step = 0;
        long updates = 0;
        Rbm model = new Rbm(n, h, w, a, b);
        try (ParticleMatrix states = backend.matrix(negatives, n)) {
            boolean persistent = s.method() instanceof TrainingMethod.Persistent;
            if (persistent) {
                try (TemperedKernel kernel = Kernels.tempered(backend, new TemperedRbm(model, baseRate))) {
                    kernel.sampleBase(states, negatives, key, step++);
                }
            }
            for (int epoch = 0; epoch < s.epochs(); epoch++) {
                shuffle(order, s.seed(), epoch);
                for (int start = 0; start + batch <= order.length; start += batch) {
                    for (int e = 0; e < batch; e++) {
                        data.copyRow(order[start + e], positive, e * n);
                    }
                    if (!persistent) {
                        backend.upload(positive, batch, states);
                    }
                    try (TemperedKernel kernel = Kernels.tempered(backend, new TemperedRbm(model, baseRate))) {
                        kernel.transition(states, negatives, Betas.of(1.0), s.method().sweepsPerUpdate(), key, step, 0);
                    }
                    step += s.method().sweepsPerUpdate();
                    float[] negative = backend.download(states, negatives);
                    Arrays.fill(gw, 0f);
                    Arrays.fill(ga, 0f);
                    Arrays.fill(gb, 0f);
                    Gradient.accumulate(positive, batch, n, h, w, b, 1f / batch, gw, ga, gb);
                    Gradient.accumulate(negative, negatives, n, h, w, b, -1f / negatives, gw, ga, gb);
                    apply(s, w, a, b, dw, da, db, gw, ga, gb);
                    model = requireConverging(n, h, w, a, b, epoch, s);
                    observer.updated(++updates, model);
                }
                observer.epochDone(epoch + 1, model);
            }
        }
        return model;
    }

    /** W ~ N(0, 0.01²) by Box–Muller from the seed's {@link StreamTag#TRAIN_INIT} streams. */
    private static float[] initialWeights(int n, int h, long seed) {
        float[] w = new float[n * h];
        int[] words = new int[4];
        for (int k = 0; k < w.length; k += 2) {
            Philox.block(seed, k, 0, 0, StreamTag.TRAIN_INIT, words);
            double u1 = Philox.toUniform(words[0]);
            double u2 = Philox.toUniform(words[1]);
            double r = Math.sqrt(-2 * Math.log(u1));
            w[k] = (float) (0.01 * r * Math.cos(2 * Math.PI * u2));
            if (k + 1 < w.length) {
                w[k + 1] = (float) (0.01 * r * Math.sin(2 * Math.PI * u2));
            }
        }
        return w;
    }

    /** One momentum step along the gradient's means, with weight decay on W. */
    private static void apply(Settings s, float[] w, float[] a, float[] b, float[] dw, float[] da, float[] db,
                              float[] gw, float[] ga, float[] gb) {
        float lr = (float) s.learningRate();
        float mom = (float) s.momentum();
        float decay = (float) (s.learningRate() * s.weightDecay());
        for (int k = 0; k < w.length; k++) {
            dw[k] = mom * dw[k] + lr * gw[k] - decay * w[k];
            w[k] += dw[k];
        }
        for (int i = 0; i < a.length; i++) {
            da[i] = mom * da[i] + lr * ga[i];
            a[i] += da[i];
        }
        for (int j = 0; j < b.length; j++) {
            db[j] = mom * db[j] + lr * gb[j];
            b[j] += db[j];
        }
    }

    /** The model after an update, refused with the epoch and the advice when it left what an Rbm accepts. */
    private static Rbm requireConverging(int n, int h, float[] w, float[] a, float[] b, int epoch, Settings s) {
        try {
            return new Rbm(n, h, w, a, b);
        } catch (IllegalArgumentException e) {
            throw new EstimationException("training diverged in epoch " + (epoch + 1) + " with learning rate "
                    + s.learningRate() + ": " + e.getMessage() + "; lower --learning-rate");
        }
    }

    private static void shuffle(int[] order, long seed, int epoch) {
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        int[] words = new int[4];
        for (int i = order.length - 1; i > 0; i--) {
            Philox.block(seed, i, epoch, 0, StreamTag.TRAIN_SHUFFLE, words);
            int j = (int) ((words[0] & 0xFFFFFFFFL) % (i + 1));
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    }
}
