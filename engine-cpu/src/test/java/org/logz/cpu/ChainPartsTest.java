package org.logz.cpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.logz.api.ChainPart;
import org.logz.api.Estimation;
import org.logz.api.Logz;
import org.logz.api.Outcome;
import org.logz.api.StagedPart;
import org.logz.api.StagedRuns;
import org.logz.base.UserException;
import org.logz.estimate.AnnealingResult;
import org.logz.estimate.BidirectionalResult;
import org.logz.estimate.Estimate;
import org.logz.estimate.TracePoint;
import org.logz.estimate.tempered.LevelEstimate;
import org.logz.estimate.tempered.TemperedResult;
import org.logz.estimate.tempered.TemperedStage;

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

    /** Tempered runs in parts of whole blocks of their sums: 3 groups of chains, blocks of 192 chains. */
    private static Supplier<Estimation> tempered(String name) {
        return switch (name) {
            case "rts-ising" -> () -> Logz.ising(4).rts().chains(500).levels(12).sweeps(40).roundSweeps(8).rounds(3)
                    .batches(3).mbarSamples(3000).seed(3);
            case "ti-rbm" -> () -> Logz.demo().method("ti").chains(450).levels(10).sweeps(24).roundSweeps(4).rounds(2)
                    .batches(3).seed(4);
            case "mbar-gpc" -> () -> Logz.model("gpc:digits35").method("mbar").chains(400).levels(8).sweeps(12).rounds(0)
                    .batches(3).mbarSamples(1500).seed(6);
            default -> throw new IllegalArgumentException(name);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"rts-ising", "ti-rbm", "mbar-gpc"})
    void temperedPartsRunInStagesAndAreTheSingleProcessRunToTheBit(String name) {
        Supplier<Estimation> e = tempered(name);
        Outcome whole = e.get().outcome(2, b -> null);
        Estimation driver = e.get();
        Outcome plan = driver.outcome(0, 0, b -> null);
        List<ChainPart> parts = driver.chainParts(2, 6);
        assertEquals(6, parts.size(), parts.toString());
        StagedRuns runs = new StagedRuns(driver, 2);
        List<StagedPart> staged = parts.stream().map(StagedPart::of).toList();
        int stages = 0;
        for (Map<Integer, TemperedStage> next = runs.stages(); !next.isEmpty(); next = runs.stages(), stages++) {
            // two tasks, each with an estimation of its own, as executors would run them; the first ends mid-replicate
            List<StagedPart> ran = new ArrayList<>(e.get().runStage(next, staged.subList(0, 4)));
            ran.addAll(e.get().runStage(next, staged.subList(4, staged.size())));
            runs.accept(ran);
            staged = ran;
        }
        Outcome split = plan.withReplicates(runs.results());
        int most = split.runs().stream().mapToInt(r -> ((TemperedResult) r).initialRounds()).max().orElseThrow();
        assertEquals(most + 2, stages, name + ": one stage for the annealing pass, one per round, one for the final run");
        for (int b = 0; b < 2; b++) {
            TemperedResult w = (TemperedResult) whole.runs().get(b);
            TemperedResult s = (TemperedResult) split.runs().get(b);
            assertEquals(w.initialRounds(), s.initialRounds());
            assertEquals(w.finalDeviation(), s.finalDeviation(), 0.0, name);
            assertEquals(w.logZ(), s.logZ(), 0.0, name + " replicate " + b);
            assertEquals(w.standardError().getAsDouble(), s.standardError().getAsDouble(), 0.0, name);
            for (int i = 0; i < w.estimates().size(); i++) {
                LevelEstimate a = w.estimates().get(i);
                LevelEstimate c = s.estimates().get(i);
                assertEquals(a.method(), c.method());
                assertEquals(a.stdErr(), c.stdErr(), 0.0, name + " " + a.method());
                assertArrayEquals(a.curve(), c.curve(), 0.0, name + " " + a.method());
            }
            assertArrayEquals(w.initialLogZ(), s.initialLogZ(), 0.0, name);
            assertArrayEquals(w.occupancy(), s.occupancy(), 0.0, name);
            assertArrayEquals(w.visits(), s.visits(), name);
            assertEquals(w.sweeps(), s.sweeps());
            assertEquals(w.mbarSamples(), s.mbarSamples());
            assertEquals(w.mbarResidual(), s.mbarResidual(), 0.0, name);
            assertEquals(w.visitedBound().isPresent(), s.visitedBound().isPresent(), name);
            if (w.visitedBound().isPresent()) {
                // as in annealing: each part climbs from its own best states, so the pooled bound is at least the run's
                assertTrue(s.visitedBound().getAsDouble() >= w.visitedBound().getAsDouble(), name);
            }
        }
    }

    @Test
    void temperedPartsStartOnTheBlocksOfTheirSums() {
        Estimation rts = Logz.ising(4).rts().chains(1000).batches(5);
        assertEquals(List.of("0+320", "320+320", "640+360"), rts.chainParts(1, 3).stream()
                .map(p -> p.firstChain() + "+" + p.chains()).toList());
        assertEquals(1, Logz.ising(4).rts().chains(100).chainParts(1, 4).size(), "100 chains are one block");
        UserException outside = assertThrows(UserException.class, () -> rts.runStage(Map.of(0, new TemperedStage.Anneal()),
                List.of(StagedPart.of(new ChainPart(0, false, 100, 300)))));
        assertTrue(outside.getMessage().contains("no part"), outside.getMessage());
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
    void methodsThatCoupleTheirChainsPseudoMarginalPathsAndAdaptedStepSizesDoNotSplit() {
        assertTrue(Logz.demo().bar().splitsChains());
        assertFalse(Logz.demo().smc().splitsChains());
        assertTrue(Logz.demo().rts().splitsChains());
        UserException smc = assertThrows(UserException.class, () -> Logz.demo().smc().chainParts(1, 2));
        assertTrue(smc.getMessage().contains("couples its chains"), smc.getMessage());
        assertFalse(Logz.model("glmm:sim8").ais().splitsChains());
        UserException glmm = assertThrows(UserException.class, () -> Logz.model("glmm:sim8").ais().chainParts(1, 2));
        assertTrue(glmm.getMessage().contains("do not split"), glmm.getMessage());
        assertTrue(Logz.model("gpc:digits35").kernel("hmc").ais().splitsChains(), "a fixed HMC step size splits");
        assertFalse(Logz.model("gpc:digits35").kernel("hmc:step=auto").ais().splitsChains(),
                "an adapted step size follows the whole batch");
        assertFalse(Logz.model("gmm:step=auto").ais().splitsChains());
        // GP classifiers' reverse chains start from a forward run's end states by default, which no part has whole
        assertFalse(Logz.model("gpc:digits35").bar().splitsChains());
        assertFalse(Logz.model("gpc:digits35").raise().splitsChains());
        assertTrue(Logz.model("gpc:digits35").bar().reverseStart("gibbs:2").splitsChains());
        assertTrue(Logz.model("gpc:digits35").ais().splitsChains(), "AIS has no reverse chains");
    }
}
