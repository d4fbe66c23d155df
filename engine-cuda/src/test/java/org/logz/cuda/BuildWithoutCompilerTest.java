package org.logz.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The native builds on a machine without a C++ compiler (the README promises only a JDK): each build script, run with
 * a PATH that holds every tool of this machine but the compilers, succeeds with one warning per part it skips and
 * leaves no library, so the cpu backend runs its Java path and the emulator's tests skip (unless
 * {@code logz.emulator.required}).
 */
class BuildWithoutCompilerTest {
    /** What the scripts may not find: C and C++ compilers and nvcc (found on PATH, not by its absolute candidates). */
    private static final Set<String> COMPILERS = Set.of("g++", "gcc", "c++", "cc", "clang", "clang++", "nvcc");
    /** g++-12, x86_64-linux-gnu-g++-12 and the like. */
    private static final String VERSIONED_COMPILER = "([a-z0-9_]+-linux-gnu-)?(g\\+\\+|gcc|c\\+\\+|clang)(-[0-9.]+)?";

    @ParameterizedTest
    @ValueSource(strings = {"engine-cpu", "kernels-cu"})
    void theScriptSkipsWhatNeedsACompilerWithAWarning(String module, @TempDir Path dir) throws Exception {
        Path script = Path.of("..", module, "build.sh").toAbsolutePath().normalize();
        Assumptions.assumeTrue(Files.isRegularFile(script), "the sources' build scripts are not here: " + script);
        Path bin = Files.createDirectory(dir.resolve("bin"));
        for (String root : List.of("/usr/local/bin", "/usr/bin", "/bin")) {
            linkTools(Path.of(root), bin);
        }
        Path out = Files.createDirectory(dir.resolve("out"));
        ProcessBuilder build = new ProcessBuilder("/bin/bash", script.toString(), out.toString(),
                System.getProperty("java.home")).redirectErrorStream(true);
        build.environment().put("PATH", bin.toString());
        build.environment().remove("CUDA_HOME");
        build.environment().remove("CXX");
        Process p = build.start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), log);
        assertTrue(log.contains("[WARNING]"), log);
        try (Stream<Path> files = Files.walk(out)) {
            assertFalse(files.anyMatch(f -> f.toString().endsWith(".so") || f.toString().endsWith(".fatbin")), log);
        }
    }

    private static void linkTools(Path from, Path bin) throws IOException {
        if (!Files.isDirectory(from)) {
            return;
        }
        try (Stream<Path> tools = Files.list(from)) {
            for (Path tool : (Iterable<Path>) tools::iterator) {
                String name = tool.getFileName().toString();
                boolean compiler = COMPILERS.contains(name) || name.matches(VERSIONED_COMPILER);
                if (!compiler && !Files.exists(bin.resolve(name))) {
                    Files.createSymbolicLink(bin.resolve(name), tool);
                }
            }
        }
    }
}
