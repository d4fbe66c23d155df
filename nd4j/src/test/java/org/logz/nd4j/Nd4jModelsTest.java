package org.logz.nd4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.logz.api.Logz;
import org.logz.base.UserException;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

/** ND4J arrays as DL4J holds them give the bits of the same model from float arrays, and bad shapes one line. */
class Nd4jModelsTest {
    @Test
    void ndArraysOfAnyTypeAndShapeGiveTheBitsOfFloatArrays() {
        Rbm rbm = RandomRbm.create(12, 5, 1.5, 3);
        double byRbm = Logz.rbm(rbm).baseRate("visible-bias").raise().chains(64).steps(100).seed(9).threads(1).run()
                .logZ();
        double byNd4j = Nd4jModels.rbm(Nd4j.createFromArray(rbm.weights()).reshape(12, 5).castTo(DataType.DOUBLE),
                Nd4j.createFromArray(rbm.visibleBias()).reshape(1, 12), Nd4j.createFromArray(rbm.hiddenBias()))
                .baseRate("visible-bias").raise().chains(64).steps(100).seed(9).run().logZ();
        assertEquals(Double.doubleToLongBits(byRbm), Double.doubleToLongBits(byNd4j));
    }

    @Test
    void badShapesAreOneLine() {
        assertMessage("W must be a visible × hidden matrix", () -> Nd4jModels.rbm(Nd4j.create(3), Nd4j.create(3),
                Nd4j.create(2)));
        assertMessage("b must be a vector", () -> Nd4jModels.rbm(Nd4j.create(3, 2), Nd4j.create(3), Nd4j.create(2, 2)));
    }

    private static void assertMessage(String fragment, Runnable call) {
        UserException e = assertThrows(UserException.class, call::run);
        assertTrue(e.getMessage().contains(fragment), "'" + e.getMessage() + "' lacks '" + fragment + "'");
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }
}
