package org.logz.model.mixture;

import java.util.Map;

import org.logz.io.ModelFormatException;
import org.logz.io.NpyArray;
import org.logz.model.latent.LatentFiles;

/**
 * A {@link Mixture} from an .npz file: {@code y} (n, d) observations, {@code weights} (K,), {@code sigma} and
 * {@code prior_sd} (scalars), optional {@code prior_mean} (d,) (default 0). The shipped sets ({@value #SHIPPED}) are
 * resources built by {@code tools/datasets/make_mixture_sets.py}.
 */
public final class MixtureFiles {
    public static final String SHIPPED = "sim12, sim200";
    private static final String EXPECTED = "y (n, d), weights (K,), sigma (), prior_sd () and optionally prior_mean (d,)";

    private MixtureFiles() {
    }

    /** {@code mixture:SET|FILE}'s model. */
    public static Mixture read(String spec) {
        Map<String, NpyArray> arrays = LatentFiles.arrays("mixture", spec, SHIPPED);
        String source = "mixture:" + spec;
        NpyArray y = floats(source, LatentFiles.require(source, arrays, "y", EXPECTED));
        if (y.rank() != 2 || y.shape()[0] == 0 || y.shape()[1] == 0) {
            throw new ModelFormatException(source + ": y has shape " + NpyArray.shapeText(y.shape())
                    + ", expected (n, d) with n, d ≥ 1");
        }
        int d = y.shape()[1];
        NpyArray weights = floats(source, LatentFiles.require(source, arrays, "weights", EXPECTED));
        if (weights.rank() != 1) {
            throw new ModelFormatException(source + ": weights has shape " + NpyArray.shapeText(weights.shape())
                    + ", expected (K,)");
        }
        double[] priorMean = new double[d];
        NpyArray mean = arrays.get("prior_mean");
        if (mean != null) {
            if (mean.rank() != 1 || mean.size() != d) {
                throw new ModelFormatException(source + ": prior_mean has shape " + NpyArray.shapeText(mean.shape())
                        + ", expected (" + d + ",)");
            }
            priorMean = floats(source, mean).toDoubles();
        }
        return new Mixture(y.toDoubles(), d, weights.toDoubles(), scalar(source, arrays, "sigma"), priorMean,
                scalar(source, arrays, "prior_sd"), source);
    }

    private static double scalar(String source, Map<String, NpyArray> arrays, String name) {
        NpyArray a = floats(source, LatentFiles.require(source, arrays, name, EXPECTED));
        if (a.size() != 1 || a.rank() > 1) {
            throw new ModelFormatException(source + ": " + name + " has shape " + NpyArray.shapeText(a.shape())
                    + ", expected a scalar");
        }
        return a.toDoubles()[0];
    }

    private static NpyArray floats(String source, NpyArray a) {
        if (a.kind() != NpyArray.Kind.FLOAT) {
            throw new ModelFormatException(source + ": " + a.name() + " has dtype " + a.descr()
                    + ", expected float32 or float64");
        }
        return a;
    }
}
