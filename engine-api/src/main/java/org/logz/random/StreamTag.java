package org.logz.random;

/**
 * Values of the Philox counter word {@code c3} that separate the purposes random numbers are drawn
 * for (DESIGN §3). Two draws with the same particle and step index but different purposes never
 * share uniforms.
 *
 * <p>This class is the one list of tags: kernels-cu's {@code build.sh} turns every constant into a
 * {@code #define LOGZ_TAG_NAME N} of the generated header {@code stream_tags.h} that the CUDA kernels
 * include, and fails when two constants share a number or one is not written
 * {@code public static final int NAME = N;}.
 */
public final class StreamTag {
    /** Hidden units of an RBM Gibbs sweep. */
    public static final int HIDDEN = 1;
    /** Visible units of an RBM Gibbs sweep. */
    public static final int VISIBLE = 2;
    /** Exact draws from the base distribution of a tempered path. */
    public static final int BASE = 3;
    /** Uniforms that drive resampling. */
    public static final int RESAMPLE = 4;
    /** Augmentation of a sequential path (the next unit given the previous ones). */
    public static final int AUGMENT = 5;
    /** Exact sampling by enumeration (host side). */
    public static final int EXACT = 6;
    /** Derivation of replicate keys. */
    public static final int REPLICATE = 7;
    /** Derivation of the key of reverse (target-to-base) runs, so they are independent of forward runs. */
    public static final int REVERSE = 8;
    /** Weight initialization of the RBM trainer. */
    public static final int TRAIN_INIT = 9;
    /** Minibatch order of the RBM trainer. */
    public static final int TRAIN_SHUFFLE = 10;
    /**
     * Derivation of the keys of the sampling during training, so that each draws its own streams: the negative phase,
     * the tracking chains, and each log Z check.
     */
    public static final int TRAIN_KEYS = 11;
    /** Random row indices (data examples that reseeded chains start from). */
    public static final int RESEED = 12;
    /** Random unit orders of the sequential path. */
    public static final int ORDER = 13;
    /** Bootstrap resamples of the histogram estimator. */
    public static final int BOOTSTRAP = 14;
    /** Ising spins (base draws and heat-bath sweeps). */
    public static final int ISING = 15;
    /** Gaussian toy draws. */
    public static final int GAUSSIAN = 16;
    /** Temperature moves of simulated tempering. */
    public static final int TEMPERATURE = 17;
    /** Random starts of the search for an RBM's hidden modes (host side). */
    public static final int MODES = 18;
    /** The two uniforms of each slice-sampled Gibbs update of a GP classifier's z_i (ARM eq. A.2). */
    public static final int SLICE = 19;
    /** The random order of the cases within one GP Gibbs sweep (shared by all particles). */
    public static final int SLICE_ORDER = 20;
    /** The angles and the slice height of an elliptical slice sampling transition (Murray, Adams &amp; MacKay 2010). */
    public static final int ELLIPSE = 21;
    /** The standard normals behind the auxiliary Gaussian draw that defines the ellipse. */
    public static final int ELLIPSE_NORMAL = 22;
    /** Derivation of the key of a schedule's pilot run, so that it is independent of the run it plans. */
    public static final int PILOT = 23;
    /** The inner draws of a likelihood estimate (AISEL): a GLMM's intercepts, a particle filter's transitions. */
    public static final int LATENT = 24;
    /** The resampling uniforms of a particle filter's steps. */
    public static final int LATENT_RESAMPLE = 25;
    /** The random-walk proposals and acceptance uniforms of pseudo-marginal Metropolis-Hastings moves. */
    public static final int PROPOSAL = 26;
    /** Derivation of the keys of the pilot runs that choose the inner particles N. */
    public static final int INNER_PILOT = 27;
    /** The acceptance uniforms of parallel tempering's swaps between neighbouring levels (host side). */
    public static final int SWAP = 28;
    /** Derivation of the key that picks reverse chains' start states: data examples or forward end states (host side). */
    public static final int REVERSE_START = 29;
    /** Derivation of the keys of the independent islands a sequential run's particles are split into. */
    public static final int ISLAND = 30;
    /** Derivation of the keys of the runs of a consensus ({@code --tolerance}), one per estimator and round. */
    public static final int CONSENSUS = 31;
    /**
     * The transitions of a model added after this list: a model draws its own moves under this tag, so
     * a new model package need not edit this file. Tags only separate purposes within one run, and two
     * models never run together, so models may share it.
     */
    public static final int MODEL = 32;
    /** The Gamma draws of the Gibbs sampler of the histogram estimator's posterior (Habeck 2017, §5.3, host side). */
    public static final int HISTOGRAM_GIBBS = 33;

    private StreamTag() {
    }
}
