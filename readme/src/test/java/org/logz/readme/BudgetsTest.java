package org.logz.readme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The test's own rewriting of commands: caps, shapes and the shell's words. */
class BudgetsTest {
    @Test
    void sizesAreCappedInBothSpellingsAndTheRestStays() {
        assertEquals(List.of("estimate", "--chains", "200", "--steps=300", "--seed", "3", "--runs", "rm:4,ais-ep:4:4",
                "--budgets", "25,100,400", "--checkpoint-every", "0.05"), Budgets.capped(List.of("estimate", "--chains",
                "1000", "--steps=100000", "--seed", "3", "--runs", "rm:100,ais-ep:100:1000", "--budgets", "500,2000,8000",
                "--checkpoint-every", "60")));
        assertEquals(List.of("bench", "aisel", "--likelihoods", "bootstrap:1;bootstrap:2;bootstrap:8"),
                Budgets.capped(List.of("bench", "aisel", "--likelihoods", "bootstrap:10;bootstrap:40;bootstrap:160")));
        assertEquals(List.of("--chains", "50", "--vary", "--seed=1,2,3"),
                Budgets.capped(List.of("--chains", "50", "--vary", "--seed=1,2,3")));
        assertEquals(List.of("reproduce", "habeck-fig3", "--scale=0.001"),
                Budgets.capped(List.of("reproduce", "habeck-fig3", "--scale=0.25")));
        assertEquals(Budgets.shape(List.of("reproduce", "arm-fig2", "--scale", "1")),
                Budgets.shape(List.of("reproduce", "arm-fig2", "--scale", "0.25")));
    }

    @Test
    void aShapeIsTheCommandWithoutItsBudgets() {
        assertEquals(Budgets.shape(List.of("bench", "gpc", "--runs", "rm:1000,arm:1000", "--replicates", "3")),
                Budgets.shape(List.of("bench", "gpc", "--runs", "rm:100,arm:100", "--replicates", "10")));
        assertEquals(List.of("bench", "gpc", "--runs", "rm:#,ais-ep:#:#"),
                Budgets.shape(List.of("bench", "gpc", "--runs", "rm:100,ais-ep:100:1000")));
    }

    @Test
    void wordsAreTheShells() {
        assertEquals(List.of("grid", "--spark", "local[2]", "--vary", "--x=a b", "c"),
                Readme.words("grid --spark \"local[2]\" --vary '--x=a b'  c"));
        assertEquals(List.of("--options", "a;b"), Readme.words("--options \"a;b\""));
    }
}
