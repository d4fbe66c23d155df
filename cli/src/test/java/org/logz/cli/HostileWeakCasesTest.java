package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.logz.base.UserException;
import org.logz.estimate.Replicates;

/** Weak cases of the hostile review at 5211905 (issue 37): one form for numbers, and messages that name the cause. */
class HostileWeakCasesTest {
    /** in_d87f16: integers in another script's digits ran (--chains ٣٠ was 30 chains); decimals already refused them. */
    @Test
    void integersTakeAsciiDigitsOnly() {
        Cli.assertUserError(Cli.run("estimate", "--chains", "٣٠", "--steps", "١٠"), "'٣٠' is not an int");
        Cli.assertUserError(Cli.run("estimate", "--model", "ising:L=٨"), "ising");
        Cli.assertUserError(Cli.run("estimate", "--seed", "٣"), "'٣' is not a long");
        Cli.assertUserError(Cli.run("estimate", "--method", "raise", "--reverse-start", "gibbs:١٠"), "must be an integer");
    }

    /**
     * mem06_aisel_inner: an --inner out of range was refused only after the GLMM's quadrature (7-13 s); now with the
     * option checks ({@code Estimation.check}), and auto:V takes a decimal V only.
     */
    @Test
    void aiselOptionsAreCheckedBeforeTheExactEvidence() {
        Cli.assertUserError(Cli.run("estimate", "--model", "glmm:sim20", "--method", "aisel", "--inner", "2000000000"),
                "--inner N must be between 1 and 1048576");
        Cli.assertUserError(Cli.run("estimate", "--model", "glmm:sim20", "--method", "aisel", "--inner", "auto:0x1p-3"),
                "--inner must be a number of draws N, auto or auto:V");
    }

    /** p17_levels_huge: the refusal spoke of "a schedule of 1999999999 steps" for --levels 2000000000. */
    @Test
    void aLadderTooLongNamesLevels() {
        Cli.assertUserError(Cli.run("estimate", "--method", "rts", "--chains", "2", "--levels", "2000000000", "--sweeps",
                "10"), "--levels 2000000000: a schedule of 1999999999 steps needs");
    }

    /** sv07_exact: the stochastic-volatility model was told it needed GLMM covariates. */
    @Test
    void exactOnAModelWithoutOneSaysWhyForThatModel() {
        Cli.Outcome sv = Cli.run("exact", "--model", "sv:sim200");
        Cli.assertUserError(sv, "its likelihood has no closed form to integrate");
        assertFalse(sv.err().contains("GLMM"), sv.err());
    }

    /** J52: an empty list of replicates was blamed on degenerate weights. */
    @Test
    void noReplicatesIsToldAsSuch() {
        UserException e = assertThrows(UserException.class, () -> Replicates.of(List.of()));
        assertTrue(e.getMessage().equals("replicates need at least one run, got none"), e.getMessage());
    }
}
