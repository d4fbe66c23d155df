package org.logz.testkit;

/**
 * A small instance of one model, for the contracts that run the kernels of every registered model. Found through
 * {@link java.util.ServiceLoader} ({@code META-INF/services/org.logz.testkit.ModelExample}), so that a new model
 * brings its example as a new class and a service line, and no contract or binding changes ({@link Examples}).
 */
public interface ModelExample {
    /** The instance: a {@link org.logz.model.TemperedModel}, {@link org.logz.model.SequentialModel} or {@link org.logz.model.LatentModel}. */
    Object model();
}
