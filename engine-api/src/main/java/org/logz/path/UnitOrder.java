package org.logz.path;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.IntStream;

import org.logz.base.UserException;
import org.logz.data.BinaryDataset;
import org.logz.numeric.Decimal;
import org.logz.random.Philox;
import org.logz.random.StreamTag;

/**
 * The order in which visible units enter the sequential path: {@code permutation[k]} is the unit
 * added at iteration k. The ARM paper (§5.1) adds the units of highest data variance first, "so that
 * higher density regions are explored from the very beginning".
 */
public record UnitOrder(String name, int[] permutation) {
    public UnitOrder {
        permutation = permutation.clone();
        boolean[] seen = new boolean[permutation.length];
        for (int unit : permutation) {
            if (unit < 0 || unit >= permutation.length || seen[unit]) {
                throw new UserException("unit order " + name + " is not a permutation");
            }
            seen[unit] = true;
        }
    }

    @Override
    public int[] permutation() {
        return permutation.clone();
    }

    public static UnitOrder natural(int units) {
        return new UnitOrder("natural", IntStream.range(0, units).toArray());
    }

    /** Decreasing variance {@code p(1-p)} of the units in the data; ties in index order. */
    public static UnitOrder byVariance(BinaryDataset data) {
        double[] v = data.variances();
        Integer[] order = IntStream.range(0, v.length).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingDouble((Integer i) -> -v[i]).thenComparingInt(i -> i));
        return new UnitOrder("variance:" + data.name(), Arrays.stream(order).mapToInt(Integer::intValue).toArray());
    }

    /** A uniformly random order (Fisher-Yates on Philox stream {@code ORDER}). */
    public static UnitOrder random(int units, long seed) {
        int[] p = IntStream.range(0, units).toArray();
        int[] words = new int[4];
        for (int i = units - 1; i > 0; i--) {
            Philox.block(seed, i, 0, 0, StreamTag.ORDER, words);
            int j = (int) ((words[0] & 0xFFFFFFFFL) % (i + 1));
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return new UnitOrder("random:" + seed, p);
    }

    /**
     * {@code natural}, {@code variance} (needs data) or {@code random:SEED}; {@code null} picks
     * variance when data is given and natural otherwise.
     */
    public static UnitOrder parse(String spec, int units, Optional<BinaryDataset> data) {
        if (spec == null) {
            return data.map(UnitOrder::byVariance).orElseGet(() -> natural(units));
        }
        String s = spec.trim().toLowerCase(Locale.ROOT);
        if (s.equals("natural")) {
            return natural(units);
        }
        if (s.equals("variance")) {
            return byVariance(data.orElseThrow(() -> new UserException(
                    "unit order 'variance' needs a data set (--data)")));
        }
        if (s.startsWith("random:")) {
            try {
                return random(units, Decimal.parseLong(s.substring(7)));
            } catch (NumberFormatException e) {
                throw new UserException("unit order " + spec + ": SEED must be an integer");
            }
        }
        throw new UserException("unknown unit order '" + spec + "'; use natural, variance or random:SEED");
    }
}
