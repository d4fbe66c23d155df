package org.logz.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.apache.spark.SparkConf;
import org.apache.spark.deploy.master.Master;
import org.apache.spark.rpc.RpcEnv;
import org.junit.jupiter.api.Test;
import org.logz.cli.Main;

/**
 * A standalone master without workers never gives a job an executor: the run fails with the reason after the wait,
 * exit code 2, instead of waiting forever.
 */
class ExecutorWatchTest {
    @Test
    void aMasterWithoutWorkersFailsTheRunWithTheReason() {
        RpcEnv master = Master.startRpcEnvAndEndpoint("127.0.0.1", 0, 0, new SparkConf())._1();
        String url = "spark://127.0.0.1:" + master.address().port();
        System.setProperty(ExecutorWatch.PROPERTY, "3");
        try {
            StringWriter err = new StringWriter();
            long started = System.nanoTime();
            int code = Main.run(new String[] {"estimate", "--chains", "20", "--steps", "10", "--spark", url},
                    new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
            double seconds = (System.nanoTime() - started) * 1e-9;
            assertEquals(2, code, err.toString());
            assertTrue(err.toString().contains("no executor joined the job within 3 s"), err.toString());
            assertTrue(seconds < 60, "failed after " + seconds + " s");
        } finally {
            System.clearProperty(ExecutorWatch.PROPERTY);
            master.shutdown();
        }
    }

    @Test
    void aWaitThatIsNoNumberOfSecondsIsRefused() {
        System.setProperty(ExecutorWatch.PROPERTY, "soon");
        try {
            StringWriter err = new StringWriter();
            int code = Main.run(new String[] {"estimate", "--chains", "20", "--steps", "10", "--spark", "local[2]"},
                    new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
            assertEquals(2, code, err.toString());
            assertTrue(err.toString().contains("-Dlogz.spark.executor-wait=soon"), err.toString());
        } finally {
            System.clearProperty(ExecutorWatch.PROPERTY);
        }
    }
}
