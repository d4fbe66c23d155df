package org.logz.examples;

import org.logz.api.Logz;

/** The README's example: log Z of an RBM given as arrays, by AIS, with its standard error and any warning. */
public final class QuickStart {
    private QuickStart() {
    }

    public static void main(String[] args) {
        float[][] w = new float[20][8];
        for (int i = 0; i < 20; i++) {
            for (int j = 0; j < 8; j++) {
                w[i][j] = (float) Math.sin(i + 3 * j);
            }
        }
        var r = Logz.rbm(w, new float[20], new float[8]).ais().chains(1000).steps(1000).seed(1).run();
        System.out.printf("log Z = %.4f ± %.4f%n", r.logZ(), r.standardError().orElse(Double.NaN));
        r.warnings().forEach(warning -> System.out.println("warning: " + warning.message()));
    }
}
