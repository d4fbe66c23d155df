package org.logz.nd4j;

import org.logz.api.Estimation;
import org.logz.api.Logz;
import org.logz.base.UserException;
import org.logz.memory.HostMemory;
import org.logz.model.Rbm;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The Java API's models from ND4J arrays, for Deeplearning4j and ND4J users: an RBM's parameters as the training
 * loop holds them, without writing a model file.
 */
public final class Nd4jModels {
    private Nd4jModels() {
    }

    /**
     * {@link Logz#rbm} from ND4J arrays: {@code weights} visible × hidden (DL4J's RBM and pretrain layers store W
     * that way), the visible biases and the hidden biases as vectors (rank 1, or a row or column). The arrays are
     * read, not modified; their values are copied, as floats, into the model (any data type, ordering or view
     * is accepted), so the caller may keep training them.
     *
     * @throws UserException when a shape disagrees or a value is not finite
     */
    public static Estimation rbm(INDArray weights, INDArray visibleBias, INDArray hiddenBias) {
        if (weights == null || weights.rank() != 2) {
            throw new UserException("W must be a visible × hidden matrix, got "
                    + (weights == null ? "none" : "rank " + weights.rank()));
        }
        long visible = weights.rows();
        long hidden = weights.columns();
        if (visible * hidden > Integer.MAX_VALUE) {
            throw new UserException("W of " + visible + "×" + hidden + " is too large");
        }
        // the flattened copy, its float array and the model's own
        HostMemory.requireHeap(12L * visible * hidden, "an RBM of " + visible + "×" + hidden);
        float[] w = floats("W", weights);
        return Logz.rbm(new Rbm((int) visible, (int) hidden, w, vector("a", visibleBias),
                vector("b", hiddenBias)));
    }

    private static float[] vector(String name, INDArray v) {
        if (v == null) {
            throw new UserException(name + " is missing");
        }
        if (v.rank() > 2 || (v.rank() == 2 && v.rows() != 1 && v.columns() != 1)) {
            throw new UserException(name + " must be a vector, got shape " + java.util.Arrays.toString(v.shape()));
        }
        return floats(name, v);
    }

    /** The values in row-major (C) order, as floats; an array ND4J cannot read (closed, released) is a one-line error. */
    private static float[] floats(String name, INDArray array) {
        try {
            return Nd4j.toFlattened('c', array.castTo(DataType.FLOAT)).toFloatVector();
        } catch (RuntimeException e) {
            throw new UserException(name + " cannot be read: " + e.getMessage());
        }
    }
}
