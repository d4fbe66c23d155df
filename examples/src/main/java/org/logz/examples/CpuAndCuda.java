package org.logz.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.logz.api.Logz;
import org.logz.api.Result;
import org.logz.backend.BackendProvider;
import org.logz.backend.Backends;

/**
 * The same estimate (AIS on the demo RBM, seed 1) on the CPU and on the CUDA kernels: on a GPU when one is present,
 * else in the host emulation of the kernels; a backend that cannot run here is named with its reason.
 */
public final class CpuAndCuda {
    private CpuAndCuda() {
    }

    public static void main(String[] args) {
        for (Result r : estimates()) {
            System.out.printf(Locale.ROOT, "%-14s log Z %.4f ± %.4f  (%.2f s)%n", r.backend(), r.logZ(),
                    r.standardError().orElse(Double.NaN), r.seconds());
        }
    }

    /** The backends of this example that can run here: cpu, then cuda or else cuda-emulated. */
    static List<String> backends() {
        List<String> names = new ArrayList<>(List.of("cpu"));
        BackendProvider gpu = Backends.provider("cuda");
        BackendProvider emulated = Backends.provider("cuda-emulated");
        if (gpu.isAvailable()) {
            names.add("cuda");
        } else if (emulated.isAvailable()) {
            System.out.println("no GPU (" + gpu.unavailableReason() + "): running the CUDA kernels in the emulator");
            names.add("cuda-emulated");
        } else {
            System.out.println("the CUDA kernels cannot run here: " + emulated.unavailableReason());
        }
        return names;
    }

    static List<Result> estimates() {
        List<Result> results = new ArrayList<>();
        for (String backend : backends()) {
            results.add(Logz.demo().ais().chains(200).steps(500).seed(1).backend(backend).run());
        }
        return results;
    }
}
