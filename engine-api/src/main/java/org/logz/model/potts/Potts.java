package org.logz.model.potts;

import java.util.Locale;

import org.logz.base.UserException;
import org.logz.model.GroundStates;
import org.logz.model.TemperedModel;

/**
 * The q-state Potts model on an L × L torus (DESIGN §5; Habeck 2017, §6.2): colours 0 .. q-1 stored as floats,
 * {@code log f(x) = J Σ_<ij> δ(x_i, x_j)} over the 2L² nearest-neighbour bonds (each site's right and down
 * neighbour), base {@code p_0} uniform with {@code Z_0 = q^{L²}}, so log Z includes {@code L² log q} as Ising's
 * includes {@code L² log 2}. L is even, so that the checkerboard colouring the batched sweeps rely on is a proper
 * two-colouring of the torus. A transition is one checkerboard sweep of {@link Moves heat-bath or Metropolis} updates.
 *
 * @param colours  q, from 2 to {@value #MAX_COLOURS}
 * @param size     L, even, from 2 to {@value #MAX_SIZE}
 * @param coupling J, finite, in (0, {@value #MAX_COUPLING}]
 * @param moves    the single-site update of a sweep
 */
public record Potts(int colours, int size, double coupling, Moves moves) implements TemperedModel {
    /** Colours are small integers in float32 states; 255 keeps a state's colour in one byte for any later packing. */
    public static final int MAX_COLOURS = 255;
    /** L² ≤ 2^24, so that a site's Philox block index fits below the purpose bits ({@link PottsSteps}). */
    public static final int MAX_SIZE = 4096;
    /**
     * Far above any useful coupling (at J = 1000 a move that breaks one agreement has probability e^-1000 at β = 1); the
     * bound keeps {@code β J S} and every weight of the kernels finite.
     */
    public static final double MAX_COUPLING = 1000;

    /** The single-site update of a checkerboard sweep. */
    public enum Moves {
        /** A site's colour drawn from its conditional over the q colours. */
        HEATBATH,
        /** A uniform other colour proposed and accepted by Metropolis' rule. */
        METROPOLIS;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public Potts {
        if (colours < 2 || colours > MAX_COLOURS) {
            throw new UserException("Potts colours q must be from 2 to " + MAX_COLOURS + ", got " + colours);
        }
        if (size < 2 || size % 2 != 0 || size > MAX_SIZE) {
            throw new UserException("Potts lattice size L must be even, from 2 to " + MAX_SIZE + ", got " + size);
        }
        if (!(coupling > 0) || coupling > MAX_COUPLING) {
            throw new UserException("Potts coupling J must be a finite number in (0, " + (int) MAX_COUPLING + "], got "
                    + coupling);
        }
        if (moves == null) {
            throw new UserException("Potts moves must be heatbath or metropolis");
        }
    }

    /** The heat-bath model, as Habeck's default q = 10, J = 2 is run here unless Metropolis is asked for. */
    public Potts(int colours, int size, double coupling) {
        this(colours, size, coupling, Moves.HEATBATH);
    }

    public int sites() {
        return size * size;
    }

    @Override
    public String description() {
        return "Potts q=" + colours + " " + size + "×" + size + " torus, J=" + PottsProblem.number(coupling);
    }

    /** Counts the transitions as sweeps of L² single-site updates, Habeck's unit divided by L². */
    @Override
    public String description(int transitionsPerStep) {
        return description() + ", " + transitionsPerStep + " " + moves.label() + " sweep" + (transitionsPerStep > 1 ? "s" : "")
                + " per step";
    }

    @Override
    public int dimension() {
        return sites();
    }

    /** {@code log Z_0 = L² log q}: the uniform distribution over colourings. */
    @Override
    public double logZ0() {
        return sites() * Math.log(colours);
    }

    @Override
    public boolean discrete() {
        return true;
    }

    /** {@code log f_β = β J S(x)}, S the number of bonds whose ends share a colour. */
    @Override
    public boolean linearPath() {
        return true;
    }

    /**
     * The q ground states (one colour everywhere) over {@code count} rows, row r coloured {@code r mod q}: the start of
     * reverse runs (Habeck 2017, §6.1 for Ising). Every ground state gives the same distribution of reverse work (f is
     * invariant under permuting colours), so cycling through them is a uniform choice stratified over the chains and
     * needs no random numbers.
     */
    public float[] groundStates(int count) {
        return GroundStates.rows(count, sites(), "ground-state starts of the " + size + "×" + size + " Potts model",
                r -> r % colours);
    }

    /** S(x): the bonds of one configuration (row-major colours) whose two ends share a colour, each bond once. */
    public int agreements(float[] x, int offset) {
        int s = 0;
        for (int r = 0; r < size; r++) {
            int here = offset + r * size;
            int down = offset + (r + 1) % size * size;
            for (int c = 0; c < size; c++) {
                float v = x[here + c];
                s += (v == x[here + (c + 1) % size] ? 1 : 0) + (v == x[down + c] ? 1 : 0);
            }
        }
        return s;
    }
}
