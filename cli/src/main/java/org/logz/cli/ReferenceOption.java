package org.logz.cli;

import java.util.Optional;

import org.logz.problem.Problem;
import org.logz.problem.Reference;

import picocli.CommandLine.Option;

/**
 * {@code --reference LOGZ[:SE]}: the value a benchmark or reproduction measures log Z against where the model has no
 * exact one (and logz stores no reference for it); results against it are labelled as against a reference.
 */
public final class ReferenceOption {
    @Option(names = "--reference", paramLabel = "LOGZ[:SE]", description = "Measure against this log Z (and its "
            + "standard error) where the model has no exact log Z; logz has one for the CD-25 MNIST RBM "
            + "(451.24:0.015) and for Potts lattices deep in their ordered phase (a low-temperature series). Refused "
            + "where the model has an exact log Z.")
    String reference;

    /** The exact log Z, the given reference or the stored one, or a one-line error saying {@code what} needs one. */
    public Reference require(Problem problem, String what) {
        return problem.requireReference(reference, what);
    }

    /** The exact log Z, the given reference or the stored one, where there is one. */
    public Optional<Reference> optional(Problem problem) {
        return problem.reference(reference);
    }
}
