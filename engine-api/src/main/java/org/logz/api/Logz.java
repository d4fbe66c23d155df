package org.logz.api;

import java.util.Optional;
import java.util.OptionalDouble;

import org.logz.base.UserException;
import org.logz.memory.HostMemory;
import org.logz.model.GpClassification;
import org.logz.model.LatentModel;
import org.logz.model.Rbm;
import org.logz.model.gmm.GaussianMixture;
import org.logz.model.gmm.GmmProblem;
import org.logz.model.gpc.GpcProblem;
import org.logz.model.latent.LatentProblem;
import org.logz.model.mixture.Mixture;
import org.logz.model.mixture.MixtureProblem;
import org.logz.model.potts.Potts;
import org.logz.model.potts.PottsProblem;
import org.logz.model.rbm.RbmProblem;
import org.logz.model.rbm.RbmSource;
import org.logz.problem.Problem;

/**
 * logz from Java, reading like the command line:
 *
 * <pre>{@code
 * var r = Logz.rbm(weights, visibleBias, hiddenBias).ais().chains(1000).steps(10_000).seed(1).run();
 * System.out.println(r.logZ() + " ± " + r.standardError().orElse(Double.NaN));
 * }</pre>
 *
 * Each factory names a model and returns an {@link Estimation} with the command line's defaults (AIS, 1000 chains,
 * 1000 linear steps, seed 1, the cpu backend); its setters are {@code logz estimate}'s options, and its
 * {@link Estimation#run() run()} returns the record the command line prints. The same model, method, options and
 * seed give the same bits as {@code logz estimate}. Bad input raises a {@link UserException} with the command line's
 * one-line message; a run whose diagnostics fail lists them in the result's {@code warnings()}.
 */
public final class Logz {
    private Logz() {
    }

    /**
     * An RBM from its weights {@code weights[i][j]} (visible i, hidden j), visible biases {@code a} and hidden biases
     * {@code b}, as a model file names them; the arrays are read once and copied (later changes do not reach the
     * model). The base rate defaults to the model's own ({@code model}: visible marginals of a short Gibbs run from
     * the hidden modes); set it with {@link Estimation#baseRate}.
     *
     * @throws UserException when the shapes disagree, a row is missing or a value is not finite
     */
    public static Estimation rbm(float[][] weights, float[] visibleBias, float[] hiddenBias) {
        if (weights == null || weights.length == 0 || weights[0] == null) {
            throw new UserException("W is missing or has no rows");
        }
        int visible = weights.length;
        int hidden = weights[0].length;
        if ((long) visible * hidden > Integer.MAX_VALUE) {
            throw new UserException("W of " + visible + "×" + hidden + " is too large");
        }
        // the flat copy here and the model's own
        String what = "an RBM of " + visible + "×" + hidden;
        HostMemory.requireHeap(8L * visible * hidden, what);
        float[] w = HostMemory.floats(visible * hidden, what);
        for (int i = 0; i < visible; i++) {
            if (weights[i] == null || weights[i].length != hidden) {
                throw new UserException("W row " + i + " has " + (weights[i] == null ? "no" : weights[i].length)
                        + " values, row 0 has " + hidden);
            }
            System.arraycopy(weights[i], 0, w, i * hidden, hidden);
        }
        return rbm(new Rbm(visible, hidden, w, visibleBias, hiddenBias));
    }

    /** An RBM already built (for instance by {@code org.logz.train.CdTrainer}); immutable, so used as it is. */
    public static Estimation rbm(Rbm rbm) {
        required(rbm, "the RBM");
        return new Estimation(new RbmProblem(new RbmSource(rbm.toString(), rbm, Optional.empty(), false)));
    }

    /**
     * What {@code --model} names: an RBM .npz file, {@code ising:L=N}, {@code potts:q=Q,L=N[,J=2]},
     * {@code gauss-toy[:key=value,...]}, {@code gmm[:key=value,...]}, {@code gpc:SET|FILE}, {@code glmm:SET|FILE},
     * {@code sv:SET|FILE} or {@code mixture:SET|FILE}; null for the embedded demo RBM.
     */
    public static Estimation model(String spec) {
        return new Estimation(Problem.parse(spec));
    }

    /** The embedded 64×16 demo RBM (CD-5 on the 8×8 digits), whose exact log Z is known. */
    public static Estimation demo() {
        return model(null);
    }

    /** The 2D Ising model on an L × L torus at β = 1 (exact log Z by Kaufman's formula). */
    public static Estimation ising(int size) {
        return model("ising:L=" + size);
    }

    /**
     * The q-state Potts model on an L × L torus at β = 1 with Habeck's coupling J = 2 (exact log Z by transfer matrix on
     * small lattices); log Z includes {@code L² ln q}.
     */
    public static Estimation potts(int colours, int size) {
        return potts(colours, size, PottsProblem.DEFAULT_COUPLING);
    }

    /** {@link #potts(int, int)} with coupling J > 0, heat-bath sweeps. */
    public static Estimation potts(int colours, int size, double coupling) {
        return new Estimation(new PottsProblem(new Potts(colours, size, coupling)));
    }

    /** A GP classifier of {@code gpc:SET|FILE} with the given log length scale and log signal standard deviation. */
    public static Estimation gpc(String setOrFile, double logEll, double logSigma) {
        return new Estimation(Problem.parse("gpc:" + setOrFile, OptionalDouble.of(logEll), OptionalDouble.of(logSigma)));
    }

    /** A GP classifier built in memory; its covariance and labels are read by every run, never modified. */
    public static Estimation gpc(GpClassification model) {
        return new Estimation(new GpcProblem(required(model, "the GP classifier")));
    }

    /**
     * A mixture of two Gaussians sampled by HMC ({@link GaussianMixture#defaults()} is RTS §4.1's 10-dimensional one),
     * exact log Z in closed form; the same as {@code --model gmm:...}.
     */
    public static Estimation gmm(GaussianMixture model) {
        return new Estimation(new GmmProblem(required(model, "the Gaussian mixture")));
    }

    /**
     * A latent-variable model built in memory (a {@code Glmm} or a {@code StochasticVolatility}); its data are read by
     * every run, never modified.
     */
    public static Estimation latent(LatentModel model) {
        return new Estimation(new LatentProblem(required(model, "the latent-variable model")));
    }

    /**
     * The posterior of a Gaussian mixture's means given data, {@code mixture:SET|FILE} (a shipped set, sim12 or sim200,
     * or an .npz file): rm and arm anneal its data, the annealing and SMC methods its likelihood.
     */
    public static Estimation mixture(String setOrFile) {
        return model("mixture:" + setOrFile);
    }

    /** A Gaussian mixture posterior built in memory; its data are read by every run, never modified. */
    public static Estimation mixture(Mixture model) {
        return new Estimation(new MixtureProblem(required(model, "the mixture model")));
    }

    private static <T> T required(T model, String what) {
        if (model == null) {
            throw new UserException(what + " is missing (null)");
        }
        return model;
    }
}
