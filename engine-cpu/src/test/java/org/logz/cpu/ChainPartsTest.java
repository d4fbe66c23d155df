package org.logz.cpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.logz.Logz;
import org.logz.UserException;
import org.logz.api.ChainPart;
import org.logz.api.Estimation;
import org.logz.api.Outcome;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.BidirectionalResult;
import org.logz.estimate.Estimate;
import org.logz.estimate.TracePoint;

/**
 * A run split by chains (DESIGN §1) on the CPU: its parts run apart, in any grouping, and put together
 * ({@link Estimation#combine}) give the single process's estimate, standard error, ESS and final weights to the bit.
 */
class ChainPartsTest {

    /** Each case: a fresh estimation of the same run, 2 replicates, chains not a multiple of the block. */
    private static Supplier<Estimation> run(String name) {
        return switch (name) {
            case "ais-rbm" -> () -> Logz.demo().ais().chains(300).steps(40).seed(5);
            case "raise-ising" -> () -> Logz.ising(4).raise().reverseStart("ground:3").chains(150).steps(30).seed(7);
            case "bar-toy" -> () -> Logz.model("gauss-toy").bar().chains(200).reverseChains(130).steps(20).seed(11);
            case "histogram-gpc" -> () -> Logz.model("gpc:digits35").method("histogram").chains(130).steps(4)
                    .reverseStart("gibbs:2").seed(2);
            default -> throw new IllegalArgumentException(name);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"ais-rbm", "raise-ising", "bar-toy", "histogram-gpc"})
    void partsPutTogetherAreTheSingleProcessRunToTheBit(String name) {
        Supplier<Estimation> e = run(name);
        Outcome whole = e.get().outcome(2, b -> null);
        Estimation driver = e.get();
        Outcome plan = driver.outcome(0, 0, b -> null);
        List<ChainPart> parts = driver.chainParts(2, 6);
        assertTrue(parts.size() >= 6, parts.toString());
        // two tasks, each with an estimation of its own, as executors would run them; the first ends mid-replicate
        int half = parts.size() / 2 + 1;
        List<AnnealingResult> results = new ArrayList<>(e.get().run(parts.subList(0, half)));
        results.addAll(e.get().run(parts.subList(half, parts.size())));
        Outcome split = driver.combine(plan, parts, results);
        assertEquals(whole.runs().size(), split.runs().size());
        for (int b = 0; b < whole.runs().size(); b++) {
            Estimate w = whole.runs().get(b);
            Estimate s = split.runs().get(b);
            assertEquals(w.logZ(), s.logZ(), 0.0, name + " replicate " + b);
            assertEquals(w.standardError().getAsDouble(), s.standardError().getAsDouble(), 0.0, name);
            for (AnnealingResult[] pair : directions(w, s)) {
                assertSameRun(pair[0], pair[1], name);
            }
        }
    }

    private static List<AnnealingResult[]> directions(Estimate whole, Estimate split) {
        if (whole instanceof BidirectionalResult w) {
            BidirectionalResult s = (BidirectionalResult) split;
            assertEquals(w.estimates(), s.estimates());
            assertEquals(w.overlap(), s.overlap(), 0.0);
            return List.of(new AnnealingResult[] {w.forward(), s.forward()}, new AnnealingResult[] {w.reverse(), s.reverse()});
        }
        return List.<AnnealingResult[]>of(new AnnealingResult[] {(AnnealingResult) whole, (AnnealingResult) split});
    }

    private static void assertSameRun(AnnealingResult w, AnnealingResult s, String name) {
        assertArrayEquals(w.logWeights(), s.logWeights(), 0.0, name);
        assertEquals(w.ess(), s.ess(), 0.0, name);
        assertEquals(w.chains(), s.chains());
        assertEquals(w.sweeps(), s.sweeps());
        assertEquals(w.seed(), s.seed());
        assertEquals(w.start(), s.start());
        assertEquals(w.trace().size(), s.trace().size());
        for (int i = 0; i < w.trace().size(); i++) {
            TracePoint a = w.trace().get(i);
            TracePoint b = s.trace().get(i);
            assertEquals(a.step(), b.step());
            assertEquals(a.logRatio(), b.logRatio(), 1e-12 * (1 + Math.abs(a.logRatio())), name + " trace " + i);
            assertEquals(a.ess(), b.ess(), 1e-9 * a.ess(), name + " trace " + i);
        }
        if (w.visitedBound().isPresent()) {
            // each part climbs from its own best states: the pooled bound is at least the whole run's
            assertTrue(s.visitedBound().getAsDouble() >= w.visitedBound().getAsDouble(), name);
        }
    }

    @Test
    void partsStartOnTheChainBlockAndCoverTheRun() {
        assertEquals(List.of("0+128", "128+192", "320+130"), ranges(450, 3));
        assertEquals(List.of("0+10"), ranges(10, 4));
        assertEquals(List.of("0+64", "64+64", "128+1"), ranges(129, 7));
        assertEquals(List.of("0+715827840", "715827840+715827904", "1431655744+715827903"),
                ranges(Integer.MAX_VALUE, 3));
    }

    private static List<String> ranges(int chains, int parts) {
        return ChainPart.ranges(chains, parts).stream().map(r -> r[0] + "+" + r[1]).toList();
    }

    @Test
    void methodsThatCoupleTheirChainsAndPseudoMarginalPathsDoNotSplit() {
        assertTrue(Logz.demo().bar().splitsChains());
        assertFalse(Logz.demo().smc().splitsChains());
        UserException smc = assertThrows(UserException.class, () -> Logz.demo().smc().chainParts(1, 2));
        assertTrue(smc.getMessage().contains("couples its chains"), smc.getMessage());
        assertFalse(Logz.model("glmm:sim8").ais().splitsChains());
        UserException glmm = assertThrows(UserException.class, () -> Logz.model("glmm:sim8").ais().chainParts(1, 2));
        assertTrue(glmm.getMessage().contains("do not split"), glmm.getMessage());
    }
}
