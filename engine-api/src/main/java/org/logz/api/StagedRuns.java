package org.logz.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.logz.base.ProgressListener;
import org.logz.estimate.tempered.StageResult;
import org.logz.estimate.tempered.TemperedCoordinator;
import org.logz.estimate.tempered.TemperedResult;
import org.logz.estimate.tempered.TemperedStage;

/**
 * The driver of tempered sampling runs split by chains (rts, ti, ti-rb, mbar): one {@link TemperedCoordinator} per
 * replicate, whose stages the parts run wherever they are ({@link Estimation#runStage}), one stage per initial round,
 * until every replicate has its result. On the CPU the estimates, curves and standard errors are the single process's to
 * the bit; the visited-state bound is the parts' best, as for annealing split by chains (DESIGN §1).
 */
public final class StagedRuns {
    private final Map<Integer, TemperedCoordinator> runs = new LinkedHashMap<>();

    /** Replicates {@code 0 .. replicates - 1} of {@code estimation}, each before its first stage. */
    public StagedRuns(Estimation estimation, int replicates) {
        Estimation.checkReplicates(replicates);
        for (int b = 0; b < replicates; b++) {
            runs.put(b, new TemperedCoordinator(estimation.temperedSettings(b), ProgressListener.NONE));
        }
    }

    /** The stage each unfinished replicate runs next; empty once all are finished. */
    public Map<Integer, TemperedStage> stages() {
        Map<Integer, TemperedStage> stages = new LinkedHashMap<>();
        runs.forEach((b, run) -> {
            if (run.stage() != null) {
                stages.put(b, run.stage());
            }
        });
        return stages;
    }

    /**
     * Reads the parts after a stage, in the order of {@link Estimation#chainParts}: those of the replicates that ran it
     * (others are ignored), which must cover each such replicate's chains from chain 0 without gaps.
     */
    public void accept(List<StagedPart> parts) {
        Map<Integer, List<StageResult>> byReplicate = new LinkedHashMap<>();
        Map<Integer, Integer> next = new LinkedHashMap<>();
        for (StagedPart p : parts) {
            int b = p.part().replicate();
            TemperedCoordinator run = runs.get(b);
            if (run == null) {
                throw new IllegalArgumentException("a part of replicate " + b + " of a job of " + runs.size());
            }
            if (run.stage() != null) {
                if (p.part().firstChain() != next.getOrDefault(b, 0) || p.result() == null) {
                    throw new IllegalArgumentException("replicate " + b + "'s parts do not follow each other from chain "
                            + "0: chains " + p.part().firstChain() + " + " + p.part().chains() + " after chain "
                            + next.getOrDefault(b, 0));
                }
                next.put(b, p.part().firstChain() + p.part().chains());
                byReplicate.computeIfAbsent(b, x -> new ArrayList<>()).add(p.result());
            }
        }
        stages().keySet().forEach(b -> runs.get(b).accept(byReplicate.getOrDefault(b, List.of())));
    }

    /** Every replicate's result, in order. */
    public List<TemperedResult> results() {
        return runs.values().stream().map(TemperedCoordinator::result).toList();
    }
}
