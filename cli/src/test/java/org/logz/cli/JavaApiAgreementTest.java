package org.logz.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.Supplier;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.logz.api.Estimation;
import org.logz.api.Logz;

/**
 * The Java API and {@code logz estimate} on the same model, options and seed give the same log Z to the bit, for a
 * method of every family (the command line builds its runs through the same {@link Estimation}).
 */
class JavaApiAgreementTest {
    static Stream<Arguments> families() {
        return Stream.of(
                Arguments.of("ais", new String[] {"--chains", "50", "--steps", "100"},
                        (Supplier<Estimation>) () -> Logz.demo().chains(50).steps(100)),
                Arguments.of("raise on ising", new String[] {"--model", "ising:L=4", "--method", "raise", "--chains", "40",
                        "--steps", "60", "--seed", "5"},
                        (Supplier<Estimation>) () -> Logz.ising(4).raise().chains(40).steps(60).seed(5)),
                Arguments.of("bar on gauss-toy", new String[] {"--model", "gauss-toy", "--method", "bar", "--chains", "50",
                        "--steps", "40"},
                        (Supplier<Estimation>) () -> Logz.model("gauss-toy").bar().chains(50).steps(40)),
                Arguments.of("rts", new String[] {"--method", "rts", "--chains", "20", "--levels", "10", "--sweeps", "40",
                        "--round-sweeps", "10", "--rounds", "2", "--batches", "5", "--mbar-samples", "100"},
                        (Supplier<Estimation>) () -> Logz.demo().rts().chains(20).levels(10).sweeps(40).roundSweeps(10)
                                .rounds(2).batches(5).mbarSamples(100)),
                Arguments.of("pt on ising", new String[] {"--model", "ising:L=4", "--method", "pt", "--ladders", "4",
                        "--levels", "6", "--sweeps", "60", "--rounds", "2", "--round-sweeps", "10"},
                        (Supplier<Estimation>) () -> Logz.ising(4).pt().ladders(4).levels(6).sweeps(60).rounds(2)
                                .roundSweeps(10)),
                Arguments.of("arm", new String[] {"--method", "arm", "--particles", "40", "--gibbs-steps", "2"},
                        (Supplier<Estimation>) () -> Logz.demo().arm().particles(40).gibbsSteps(2)),
                Arguments.of("bar from data", new String[] {"--method", "bar", "--data", "digits", "--reverse-start",
                        "data:5", "--chains", "40", "--steps", "30"},
                        (Supplier<Estimation>) () -> Logz.demo().bar().data("digits").reverseStart("data:5").chains(40)
                                .steps(30)),
                Arguments.of("bar on the marginal path from data", new String[] {"--method", "bar", "--path", "marginal",
                        "--data", "digits", "--reverse-start", "data:5", "--chains", "40", "--steps", "30"},
                        (Supplier<Estimation>) () -> Logz.demo().bar().path("marginal").data("digits")
                                .reverseStart("data:5").chains(40).steps(30)),
                Arguments.of("tolerance", new String[] {"--tolerance", "0.2"},
                        (Supplier<Estimation>) () -> Logz.demo().tolerance(0.2)),
                Arguments.of("smc", new String[] {"--method", "smc", "--particles", "100", "--ess-target", "0.9"},
                        (Supplier<Estimation>) () -> Logz.demo().smc().particles(100).essTarget(0.9)),
                Arguments.of("aisel on glmm", new String[] {"--model", "glmm:sim8", "--method", "aisel", "--particles", "50",
                        "--inner", "8", "--ess-target", "0.9"},
                        (Supplier<Estimation>) () -> Logz.model("glmm:sim8").aisel().particles(50).inner("8").essTarget(0.9)),
                Arguments.of("arm on a mixture posterior", new String[] {"--model", "mixture:sim12", "--method", "arm",
                        "--particles", "100", "--gibbs-steps", "3", "--order", "random:2"},
                        (Supplier<Estimation>) () -> Logz.mixture("sim12").arm().particles(100).gibbsSteps(3)
                                .order("random:2")),
                Arguments.of("ep on a GP classifier", new String[] {"--model", "gpc:digits35", "--method", "ep"},
                        (Supplier<Estimation>) () -> Logz.model("gpc:digits35").ep()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void theCommandLineAndTheApiGiveTheSameBits(String name, String[] options, Supplier<Estimation> api) throws Exception {
        String[] args = Stream.concat(Stream.of("estimate", "--json"), Stream.of(options)).toArray(String[]::new);
        Cli.Outcome o = Cli.run(args);
        assertEquals(0, o.code(), o.err());
        double cli = o.json().get("logZ").asDouble();
        double java = api.get().run().logZ();
        assertEquals(Double.doubleToLongBits(cli), Double.doubleToLongBits(java), cli + " vs " + java);
    }
}
