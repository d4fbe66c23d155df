package org.logz.estimate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Where forward and reverse annealing lag behind the path (Habeck 2017, Fig. 3B): at equilibrium the chains of both
 * directions have the same mean energy at every β; where the chains cannot follow the path the forward chains keep the
 * energies of lower β and the reverse chains those of higher β, and the two curves part. Both directions then share
 * one bias in the other estimators too, which only the parting shows.
 */
public final class Hysteresis {
    /** Standard errors of the difference beyond which two mean energies count as parted. */
    static final double PARTED = 3;

    private Hysteresis() {
    }

    /** Whether both traces hold at least two measured energies, so that they can be compared at all. */
    public static boolean comparable(List<TracePoint> forward, List<TracePoint> reverse) {
        return measured(forward) >= 2 && measured(reverse) >= 2;
    }

    private static long measured(List<TracePoint> trace) {
        return trace.stream().filter(p -> Double.isFinite(p.energy()) && Double.isFinite(p.energyStdErr())).count();
    }

    /**
     * The range of β, lowest to highest, over which the forward trace's mean energy and the reverse trace's (linearly
     * interpolated to the same β) differ by more than three of their combined standard errors; empty where they never
     * do or a trace lacks energies.
     */
    public static Optional<double[]> parted(List<TracePoint> forward, List<TracePoint> reverse) {
        List<TracePoint> down = new ArrayList<>(reverse);
        down.removeIf(p -> !Double.isFinite(p.energy()) || !Double.isFinite(p.energyStdErr()));
        down.sort(Comparator.comparingDouble(TracePoint::beta));
        if (down.size() < 2) {
            return Optional.empty();
        }
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (TracePoint f : forward) {
            if (!Double.isFinite(f.energy()) || !Double.isFinite(f.energyStdErr()) || f.beta() < down.get(0).beta()
                    || f.beta() > down.get(down.size() - 1).beta()) {
                continue;
            }
            int j = 1;
            while (j < down.size() - 1 && down.get(j).beta() < f.beta()) {
                j++;
            }
            TracePoint a = down.get(j - 1);
            TracePoint b = down.get(j);
            double t = b.beta() > a.beta() ? (f.beta() - a.beta()) / (b.beta() - a.beta()) : 0;
            double energy = a.energy() + t * (b.energy() - a.energy());
            double stdErr = a.energyStdErr() + t * (b.energyStdErr() - a.energyStdErr());
            if (Math.abs(f.energy() - energy) > PARTED * Math.hypot(f.energyStdErr(), stdErr)) {
                lo = Math.min(lo, f.beta());
                hi = Math.max(hi, f.beta());
            }
        }
        return lo <= hi ? Optional.of(new double[] {lo, hi}) : Optional.empty();
    }
}
