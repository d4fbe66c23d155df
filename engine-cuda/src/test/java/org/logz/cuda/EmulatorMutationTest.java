package org.logz.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check modes catch the bugs they exist for, planted in copies of the real kernel sources:
 * deleting the first barrier of {@code logz_block_reduce} (common.cuh), which the in-order emulator
 * cannot see and which on a GPU corrupts every log-sum-exp and ESS, and an off-by-one in the
 * grid-stride loop of every element kernel. Each mutant is compiled with g++ into kernels-cu's
 * command-line driver ({@code emu_driver.cpp}) and run without and with the checks: without them it
 * prints the right answers, with them the launch fails naming the bug.
 */
class EmulatorMutationTest {
    private static final Path SOURCES = Path.of("..", "kernels-cu", "src", "main");
    /** Where kernels-cu's build.sh writes stream_tags.h, generated from StreamTag. */
    private static final Path GENERATED = Path.of("..", "kernels-cu", "target", "generated-include");
    private static final int RACES = 1;
    private static final int MEMORY = 2;

    @TempDir
    static Path work;
    private static String clean;

    @BeforeAll
    static void compileTheRuntimeAndTheCleanDriver() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(SOURCES.resolve("cuda")),
                () -> "kernel sources not found at " + SOURCES.toAbsolutePath() + " (the test runs from engine-cuda in the repository)");
        Assumptions.assumeTrue(run(List.of("g++", "--version"), work) != null, "g++ not found: the mutants cannot be compiled");
        assertTrue(Files.isRegularFile(GENERATED.resolve("stream_tags.h")), "build kernels-cu first: it generates " + GENERATED);
        Path emulator = SOURCES.resolve("emulator").toAbsolutePath();
        Files.writeString(work.resolve("sources.inc"), "#include \"reduce.cu\"\n#include \"particles.cu\"\n");
        Files.writeString(work.resolve("kernels.inc"), "LOGZ_KERNEL(logz_weight_summary)\nLOGZ_KERNEL(logz_fill_f64)\n");
        compile(SOURCES.resolve("cuda"), emulator.resolve("emu_runtime.cpp"), emulator.resolve("emu_memcheck.cpp"),
                emulator.resolve("emu_profile.cpp"), emulator.resolve("emu_driver.cpp"));
        clean = output(driver("clean", UnaryOperator.identity()), 0);
        assertTrue(clean.startsWith("summary "), clean);
        assertEquals(clean, output(driver("clean", UnaryOperator.identity()), RACES | MEMORY),
                "the real kernels pass under both checks");
    }

    @Test
    void raceModeCatchesTheDeletedFirstBarrierOfTheBlockReduction() throws Exception {
        Path binary = driver("no-first-barrier", source -> {
            int function = source.indexOf("T logz_block_reduce(");
            assertTrue(function >= 0, "common.cuh's logz_block_reduce changed; update the mutant");
            int barrier = source.indexOf("__syncthreads();", function);
            return source.substring(0, barrier) + source.substring(barrier + "__syncthreads();".length());
        });
        assertEquals(clean, output(binary, 0), "the in-order emulator alone does not notice");
        String report = output(binary, RACES);
        assertTrue(report.matches("(?s)error: kernel logz_weight_summary, block \\(0,0,0\\): shared-memory race at address "
                + "0x[0-9a-f]+: thread \\(\\d+,0,0\\) (writes|reads) it after thread \\(\\d+,0,0\\) (read|wrote) it with no barrier "
                + "between them\\s*"), report);
    }

    @Test
    void memcheckCatchesAnOffByOneInTheGridStrideLoop() throws Exception {
        Path binary = driver("off-by-one", source -> {
            String loop = "i < (long long) (n); \\";
            assertTrue(source.contains(loop), "common.cuh's LOGZ_FOR_EACH changed; update the mutant");
            return source.replace(loop, "i <= (long long) (n); \\");
        });
        assertEquals(clean, output(binary, 0), "without memcheck the write past the end goes unnoticed");
        String report = output(binary, MEMORY);
        assertTrue(report.contains("error: kernel logz_fill_f64, block (3,0,0) thread (232,0,0): write at byte offset 8000 "
                + "of buffer #1 (8000 bytes, kernel argument 0), past its end"), report);
    }

    /** Compiles the driver against the kernel sources with common.cuh rewritten by {@code mutation}. */
    private static Path driver(String name, UnaryOperator<String> mutation) throws Exception {
        Path cuda = work.resolve("cuda-" + name);
        if (!Files.isDirectory(cuda)) {
            Files.createDirectories(cuda);
            try (Stream<Path> files = Files.list(SOURCES.resolve("cuda"))) {
                for (Path f : files.toList()) {
                    String text = Files.readString(f);
                    Files.writeString(cuda.resolve(f.getFileName()),
                            f.getFileName().toString().equals("common.cuh") ? mutation.apply(text) : text);
                }
            }
        }
        Path binary = work.resolve("driver-" + name);
        if (!Files.exists(binary)) {
            compile(cuda, SOURCES.resolve("emulator").toAbsolutePath().resolve("emu_kernels.cpp"));
            Path kernels = work.resolve("emu_kernels.o");
            Files.move(kernels, work.resolve("kernels-" + name + ".o"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            List<String> link = new ArrayList<>(List.of("g++", "-o", binary.toString(), "kernels-" + name + ".o",
                    "emu_runtime.o", "emu_memcheck.o", "emu_profile.o", "emu_driver.o", "-lpthread"));
            assertEquals(0, run(link, work).exit(), () -> "link failed");
        }
        return binary;
    }

    private static void compile(Path cuda, Path... sources) throws Exception {
        List<String> command = new ArrayList<>(List.of("g++", "-std=c++17", "-O1", "-c", "-I", cuda.toAbsolutePath().toString(),
                "-I", SOURCES.resolve("emulator").toAbsolutePath().toString(), "-I", work.toString(),
                "-I", GENERATED.toAbsolutePath().toString()));
        for (Path s : sources) {
            command.add(s.toString());
        }
        Result r = run(command, work);
        assertEquals(0, r.exit(), () -> "g++ failed:\n" + r.output());
    }

    private static String output(Path binary, int checks) throws Exception {
        return run(List.of(binary.toString(), Integer.toString(checks)), work).output();
    }

    private record Result(int exit, String output) {
    }

    /** Runs a command to completion (at most two minutes); null when it cannot be started. */
    private static Result run(List<String> command, Path directory) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            return null;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException(command + " did not finish");
        }
        return new Result(p.exitValue(), out);
    }
}
