package org.logz.kernel;

import org.logz.random.NormalStream;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * One Hamiltonian Monte Carlo transition at inverse temperature β (Neal 2011; RTS appendix E), the steps every
 * backend takes in the same order so that they draw the same numbers (DESIGN §3, §5 "HMC"):
 * <ul>
 *   <li>momenta p_i ~ N(0, 1), i &lt; d, by Box-Muller on blocks {@code (i/2, particle, step, MODEL)} ({@link NormalStream});</li>
 *   <li>words 0-1 of block {@code (CONTROL_BLOCK, particle, step, MODEL)}: the accept uniform u; words 2-3: the
 *       jitter uniform v, {@code L = 1 + min(l_max − 1, ⌊v·l_max⌋)} when jittered, else l_max;</li>
 *   <li>leapfrog in float64 with identity mass: {@code p += ε/2 ∇}, then L times {@code x += ε p} and, but for the last,
 *       {@code p += ε ∇}; the end point x' is rounded to float32 (the state kept is the one tested), its log density
 *       and gradient evaluated there, and {@code p += ε/2 ∇'};</li>
 *   <li>the accept rule {@link #accepts}: {@code H = −log f_β(x) + ½ Σ p_i²} (squares summed in index order), accept
 *       when {@code log u < H − H'}; a non-finite H' rejects.</li>
 * </ul>
 */
public final class Hmc {
    /** The Philox block index of a transition's accept and jitter uniforms, far above the momenta's blocks. */
    public static final int CONTROL_BLOCK = 1 << 30;

    private Hmc() {
    }

    /** The accept rule: {@code log u < H − H'}, false where H' is not finite (a trajectory that left the target). */
    public static boolean accepts(double logU, double h, double hProposed) {
        return Double.isFinite(hProposed) && logU < h - hProposed;
    }

    /** The leapfrog steps of a transition: l_max, or with jitter {@code 1 + min(l_max − 1, ⌊v·l_max⌋)}. */
    public static int steps(HmcSettings s, double v) {
        return s.jitter() ? 1 + Math.min(s.leapfrog() - 1, (int) (v * s.leapfrog())) : s.leapfrog();
    }

    /** One chain's state and the scratch of its transitions: x (float32 values), log f_β(x), its gradient. */
    public static final class Chain {
        final double[] x;
        final double[] grad;
        final double[] p;
        final double[] proposal;
        final double[] proposalGrad;
        final int[] words = new int[4];
        double logF;

        public Chain(int dimension) {
            x = new double[dimension];
            grad = new double[dimension];
            p = new double[dimension];
            proposal = new double[dimension];
            proposalGrad = new double[dimension];
        }

        /** Loads {@code row[offset .. offset + d)} and evaluates log f_β and its gradient there. */
        public void load(HmcModel model, double beta, float[] row, int offset) {
            for (int i = 0; i < x.length; i++) {
                x[i] = row[offset + i];
            }
            logF = model.logDensity(beta, x, grad);
        }

        /** Stores the state into {@code row[offset ..]}. */
        public void store(float[] row, int offset) {
            for (int i = 0; i < x.length; i++) {
                row[offset + i] = (float) x[i];
            }
        }
    }

    /**
     * {@code transitions} HMC transitions of a loaded chain at β with step size {@code epsilon}, transition t on Philox
     * step {@code step + t}; returns how many were accepted.
     */
    public static int transitions(HmcModel model, Chain c, double beta, double epsilon, int transitions, long seed,
                                  int particle, int step) {
        HmcSettings s = model.hmc();
        int d = c.x.length;
        int accepted = 0;
        for (int t = 0; t < transitions; t++) {
            NormalStream momenta = new NormalStream(seed, particle, step + t, StreamTag.MODEL);
            double kinetic = 0;
            for (int i = 0; i < d; i++) {
                c.p[i] = momenta.at(i);
                kinetic += c.p[i] * c.p[i];
            }
            double h = -c.logF + 0.5 * kinetic;
            Philox.block(seed, CONTROL_BLOCK, particle, step + t, StreamTag.MODEL, c.words);
            double logU = Math.log(Philox.toUniformDouble(c.words[0], c.words[1]));
            int steps = steps(s, Philox.toUniformDouble(c.words[2], c.words[3]));
            System.arraycopy(c.x, 0, c.proposal, 0, d);
            System.arraycopy(c.grad, 0, c.proposalGrad, 0, d);
            for (int i = 0; i < d; i++) {
                c.p[i] += 0.5 * epsilon * c.proposalGrad[i];
            }
            for (int l = 1; l <= steps; l++) {
                for (int i = 0; i < d; i++) {
                    c.proposal[i] += epsilon * c.p[i];
                }
                if (l == steps) {
                    for (int i = 0; i < d; i++) {
                        c.proposal[i] = (float) c.proposal[i];
                    }
                }
                double lf = model.logDensity(beta, c.proposal, c.proposalGrad);
                double half = l == steps ? 0.5 * epsilon : epsilon;
                for (int i = 0; i < d; i++) {
                    c.p[i] += half * c.proposalGrad[i];
                }
                if (l == steps) {
                    double k = 0;
                    for (int i = 0; i < d; i++) {
                        k += c.p[i] * c.p[i];
                    }
                    if (accepts(logU, h, -lf + 0.5 * k)) {
                        System.arraycopy(c.proposal, 0, c.x, 0, d);
                        System.arraycopy(c.proposalGrad, 0, c.grad, 0, d);
                        c.logF = lf;
                        accepted++;
                    }
                }
            }
        }
        return accepted;
    }
}
