package org.logz.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import org.logz.kernel.KernelProvider;
import org.logz.kernel.Kernels;
import org.logz.testkit.reference.ReferenceBackend;

/**
 * The models the contracts run: one {@link ModelExample} per model type that a registered {@link KernelProvider}
 * serves on the reference backend, which has every model (DESIGN §2). The set follows the service files, so the
 * next model adds no line to any contract.
 */
public final class Examples {
    private Examples() {
    }

    /** Every model type served on the reference backend, in the order of the service files. */
    public static List<Class<?>> modelTypes() {
        List<Class<?>> types = new ArrayList<>();
        for (KernelProvider<?> p : Kernels.providers()) {
            if (p.backendType().isAssignableFrom(ReferenceBackend.class) && !types.contains(p.modelType())) {
                types.add(p.modelType());
            }
        }
        return types;
    }

    /** The example of every model type served on the reference backend; fails naming a type that has none. */
    public static List<Object> all() {
        List<Object> examples = new ArrayList<>();
        for (ModelExample e : ServiceLoader.load(ModelExample.class)) {
            examples.add(e.model());
        }
        List<Object> served = new ArrayList<>();
        for (Class<?> type : modelTypes()) {
            served.add(examples.stream().filter(type::isInstance).findFirst().orElseThrow(() -> new AssertionError(
                    "no ModelExample of " + type.getName() + " is registered in testkit's service file")));
        }
        return served;
    }

    /** The examples that are instances of {@code kind}, e.g. every {@link org.logz.model.TemperedModel}. */
    public static <T> List<T> of(Class<T> kind) {
        return all().stream().filter(kind::isInstance).map(kind::cast).toList();
    }
}
