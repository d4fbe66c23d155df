package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.problem.ModelFamilies;
import org.logz.problem.ModelFamily;

class ModelHelpTest {
    /** Each registered family's specs appear in {@code --model}'s help, in the families' order. */
    @Test
    void theModelOptionListsEveryFamily() {
        String help = ModelHelp.estimateModels();
        int at = 0;
        for (ModelFamily family : ModelFamilies.all()) {
            for (String entry : family.help()) {
                int found = help.indexOf(entry, at);
                assertTrue(found >= at, () -> entry + " missing or out of order in: " + help);
                at = found + entry.length();
            }
        }
        assertTrue(help.endsWith(". Default: the demo RBM."), help);
    }

    /** The exact command's description, built from the families, reads as it did when it was written out. */
    @Test
    void theExactDescriptionNamesEachMethod() {
        assertEquals("Exact log Z: of an RBM by Gray-code enumeration of its smaller layer (at most 30 units), of "
                + "ising:L=N by Kaufman's formula, of potts:q=Q,L=N by transfer matrix (L ≤ 12 for q = 2, 8 for q = 3, 6 "
                + "for q ≤ 10, 4 for q ≤ 80, else 2), of gauss-toy in closed form, of gmm: Gaussian mixtures in closed form, of small "
                + "GP classifiers by orthant "
                + "probabilities, of glmm: models with at most 2 covariates by quadrature over θ (refused when its two "
                + "rules disagree), of mixture: by the sum over the K^n allocations (K^n ≤ 2^20). Prints one JSON object.", ModelHelp.exactDescription());
    }
}
