package org.logz.train;

import org.logz.base.EstimationException;
import org.logz.base.ProgressListener;
import org.logz.base.UserException;
import org.logz.data.BinaryDataset;
import org.logz.memory.HostMemory;
import org.logz.model.BaseRate;
import org.logz.model.Rbm;
import org.logz.numeric.LogSpace;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * Contrastive divergence (CD-k, Hinton 2002) for binary RBMs, on the host in plain Java. Meant for
 * the small and medium models logz tests against and for quick experiments; deterministic for a
 * given seed. Minibatch SGD with momentum and L2 weight decay; visible biases start at the data's
 * base-rate log-odds, weights at N(0, 0.01²), hidden biases at 0.
 */
public final class CdTrainer {

    /**
     * @param hidden       number of hidden units
     * @param epochs       passes over the data
     * @param cdSteps      Gibbs steps k of CD-k
     * @param batchSize    examples per update
     * @param learningRate SGD step
     * @param momentum     momentum of the updates
     * @param weightDecay  L2 penalty on W
     * @param seed         Philox key for initialization, shuffling and sampling
     */
    public record Settings(int hidden, int epochs, int cdSteps, int batchSize, double learningRate, double momentum,
                           double weightDecay, long seed) {
        public Settings {
            if (hidden < 1 || epochs < 1 || cdSteps < 1 || batchSize < 1) {
                throw new UserException("hidden, epochs, CD steps and batch size must all be positive");
            }
            if (!(learningRate > 0 && learningRate < Double.POSITIVE_INFINITY) || !(momentum >= 0 && momentum < 1)
                    || !(weightDecay >= 0 && weightDecay < Double.POSITIVE_INFINITY)) {
                throw new UserException("need a finite learning rate > 0, 0 ≤ momentum < 1 and a finite weight "
                        + "decay ≥ 0; got learning rate " + learningRate + ", momentum " + momentum + ", weight decay "
                        + weightDecay);
            }
        }

        public static Settings defaults(int hidden, int epochs, long seed) {
            return new Settings(hidden, epochs, 1, 100, 0.05, 0.5, 1e-4, seed);
        }
    }

    private CdTrainer() {
    }

    /**
     * Trains by CD-k.
     *
     * @throws IllegalArgumentException (an {@link org.logz.memory.InsufficientMemoryException} among them)
     *                                  when the weights cannot be held
     * @throws EstimationException      when the parameters diverge (leave what {@link Rbm} accepts)
     */
    public static Rbm train(BinaryDataset data, Settings s, ProgressListener listener) {
        return train(data, s, listener, (epoch, model) -> { });
    }

    /** Told of the model after each epoch of training. */
    @FunctionalInterface
    public interface EpochListener {
        /** @param epoch epochs done (1 after the first); {@code model} is a copy the trainer keeps no hold of */
        void epochDone(int epoch, Rbm model);
    }

    /**
     * {@link #train(BinaryDataset, Settings, ProgressListener)}, handing {@code epochs} the model after every epoch
     * (for instance to track its log Z while it trains). The epochs' random numbers are keyed by the epoch, so the
     * model after epoch e is the one a run of e epochs returns.
     */
    public static Rbm train(BinaryDataset data, Settings s, ProgressListener listener, EpochListener epochs) {
        int n = data.dimension();
        int h = s.hidden();
        long cells = (long) n * h;
        if (cells > Integer.MAX_VALUE - 16) {
            throw new UserException("an RBM of " + n + "×" + h + " has " + cells + " weights, more than one array "
                    + "holds");
        }
        // W, its momentum and its gradient while training, then the model's own copy and the file's array
        HostMemory.requireHeap(20 * cells, "training a " + n + "×" + h + " RBM");
        float[] w = new float[n * h];
        int[] words = new int[4];
        for (int k = 0; k < w.length; k += 2) {
            Philox.block(s.seed(), k, 0, 0, StreamTag.TRAIN_INIT, words);
            double u1 = Philox.toUniform(words[0]);
            double u2 = Philox.toUniform(words[1]);
            double r = Math.sqrt(-2 * Math.log(u1));
            w[k] = (float) (0.01 * r * Math.cos(2 * Math.PI * u2));
            if (k + 1 < w.length) {
                w[k + 1] = (float) (0.01 * r * Math.sin(2 * Math.PI * u2));
            }
        }
        float[] a = BaseRate.fromCounts(data.onCounts(), data.size(), "data").logOdds();
        float[] b = new float[h];
        float[] dw = new float[n * h];
        float[] da = new float[n];
        float[] db = new float[h];

        int batch = Math.min(s.batchSize(), data.size());
        float[] x0 = new float[n];
        float[] x = new float[n];
        float[] p0 = new float[h];
        float[] ph = new float[h];
        float[] hs = new float[h];
        float[] gw = new float[n * h];
        float[] ga = new float[n];
        float[] gb = new float[h];
        int[] order = new int[data.size()];
        int sampleStep = 0;
        for (int epoch = 0; epoch < s.epochs(); epoch++) {
            shuffle(order, s.seed(), epoch);
            for (int start = 0; start + batch <= order.length; start += batch) {
                java.util.Arrays.fill(gw, 0f);
                java.util.Arrays.fill(ga, 0f);
                java.util.Arrays.fill(gb, 0f);
                for (int e = start; e < start + batch; e++) {
                    data.copyRow(order[e], x0, 0);
                    hiddenProbabilities(x0, w, b, n, h, p0);
                    System.arraycopy(p0, 0, ph, 0, h);
                    System.arraycopy(x0, 0, x, 0, n);
                    for (int step = 0; step < s.cdSteps(); step++) {
                        sample(ph, hs, s.seed(), e, 2 * sampleStep);
                        visibleSample(hs, w, a, n, h, x, s.seed(), e, 2 * sampleStep + 1);
                        hiddenProbabilities(x, w, b, n, h, ph);
                        sampleStep++;
                    }
                    for (int i = 0; i < n; i++) {
                        int row = i * h;
                        for (int j = 0; j < h; j++) {
                            gw[row + j] += x0[i] * p0[j] - x[i] * ph[j];
                        }
                        ga[i] += x0[i] - x[i];
                    }
                    for (int j = 0; j < h; j++) {
                        gb[j] += p0[j] - ph[j];
                    }
                }
                float lr = (float) (s.learningRate() / batch);
                float mom = (float) s.momentum();
                float decay = (float) (s.learningRate() * s.weightDecay());
                for (int k = 0; k < w.length; k++) {
                    dw[k] = mom * dw[k] + lr * gw[k] - decay * w[k];
                    w[k] += dw[k];
                }
                for (int i = 0; i < n; i++) {
                    da[i] = mom * da[i] + lr * ga[i];
                    a[i] += da[i];
                }
                for (int j = 0; j < h; j++) {
                    db[j] = mom * db[j] + lr * gb[j];
                    b[j] += db[j];
                }
            }
            Rbm model = requireConverging(n, h, w, a, b, epoch, s);
            listener.progress(epoch + 1, s.epochs(), Double.NaN, Double.NaN);
            epochs.epochDone(epoch + 1, model);
        }
        return new Rbm(n, h, w, a, b);
    }

    /** The model after an epoch, refused with the epoch and the advice when it left what an Rbm accepts. */
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

    private static void hiddenProbabilities(float[] x, float[] w, float[] b, int n, int h, float[] out) {
        double[] field = new double[h];
        for (int j = 0; j < h; j++) {
            field[j] = b[j];
        }
        for (int i = 0; i < n; i++) {
            if (x[i] != 0f) {
                int row = i * h;
                for (int j = 0; j < h; j++) {
                    field[j] += x[i] * w[row + j];
                }
            }
        }
        for (int j = 0; j < h; j++) {
            out[j] = (float) LogSpace.sigmoid(field[j]);
        }
    }

    private static void visibleSample(float[] hs, float[] w, float[] a, int n, int h, float[] x, long seed, int example,
                                      int step) {
        int[] words = new int[4];
        for (int i = 0; i < n; i++) {
            double field = a[i];
            int row = i * h;
            for (int j = 0; j < h; j++) {
                field += hs[j] * w[row + j];
            }
            if ((i & 3) == 0) {
                Philox.block(seed, i >>> 2, example, step, StreamTag.TRAIN_GIBBS, words);
            }
            x[i] = Philox.toUniform(words[i & 3]) < LogSpace.sigmoid(field) ? 1f : 0f;
        }
    }

    private static void sample(float[] p, float[] out, long seed, int example, int step) {
        int[] words = new int[4];
        for (int j = 0; j < p.length; j++) {
            if ((j & 3) == 0) {
                Philox.block(seed, j >>> 2, example, step, StreamTag.TRAIN_GIBBS, words);
            }
            out[j] = Philox.toUniform(words[j & 3]) < p[j] ? 1f : 0f;
        }
    }
}
