package org.logz.cpu;

import org.logz.model.Rbm;

/**
 * The per-tile arithmetic of the CPU RBM kernel: the two products of a Gibbs sweep, the draws, an AIS step's
 * weights and the all-level densities of tempered sampling (DESIGN §4 "CPU kernels"). {@link NativeRbmMath} runs the
 * native kernels, {@link JavaRbmMath} the same definitions in Java; both give the same bits.
 *
 * <p>Each call works on rows {@code [from, to)} of its buffers (the same rows in every buffer) and touches nothing
 * else; nothing depends on how many rows a call gets. The particle of row r, for Philox counters, is
 * {@code particle0 + r}. Buffers hold rows of N (visible) or H (hidden) floats.
 */
interface RbmMath extends AutoCloseable {
    /** The arithmetic new kernels use: native with {@link CpuNative#chosen()}'s instruction set, else Java. */
    static RbmMath create(Rbm model, float[] a0) {
        int isa = CpuNative.chosen();
        return isa < 0 ? new JavaRbmMath(model, a0) : new NativeRbmMath(model, a0, isa);
    }

    /** Modifies rows of {@code u}: {@code u_r = x_r[0, active) · W[0, active)}, W the N × H weights. */
    void productXw(Tile x, int from, int to, int active, Tile u);

    /** Modifies rows of {@code v}, columns {@code [0, active)}: {@code v_r = hid_r · W[0, active)ᵀ}. */
    void productHwt(Tile hid, int from, int to, int active, Tile v);

    /**
     * Modifies rows of {@code out}: hidden unit j of row r on when its uniform (tag) is below the logistic of
     * {@code beta[r]·(field_rj + b_j)}, or of {@code beta[r]·field_rj} when the field has its bias.
     */
    void sampleHidden(Tile field, boolean withBias, int from, int to, float[] beta, long seed, int particle0, int step,
                      int tag, Tile out);

    /**
     * Modifies columns {@code [0, active)} of rows of {@code x}: visible unit i on when its uniform (tag) is below
     * the logistic of {@code (1 - β) a0_i + β (a_i + v_ri)}, β = {@code beta[r]}.
     */
    void sampleVisible(Tile v, int from, int to, int active, float[] beta, long seed, int particle0, int step, int tag,
                       Tile x);

    /**
     * One AIS step from the product {@code u} of the rows' states {@code x}: modifies
     * {@code logW[offset + r] += log f_to(x_r) - log f_from(x_r)} and, with {@code draw}, the rows of {@code out}
     * (hidden units drawn at {@code to}, tag {@code tag}).
     */
    void anneal(Tile u, Tile x, int from, int to, double fromBeta, double toBeta, boolean draw, long seed, int particle0,
                int step, int tag, double[] logW, int offset, Tile out);

    /**
     * Modifies {@code logF} and {@code slope} at {@code offset + r·levels + k}: log f_β_k(x_r) and its β-derivative
     * at every level of {@code betas}, from the product {@code u} of the rows' states {@code x}.
     */
    void levels(Tile u, Tile x, int from, int to, double[] betas, int levels, double[] logF, double[] slope, int offset);

    /** Which implementation runs, for {@code logz backends}. */
    String description();

    /** Frees native memory; closing twice is harmless. */
    @Override
    void close();
}
