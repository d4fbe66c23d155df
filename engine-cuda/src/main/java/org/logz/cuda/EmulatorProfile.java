package org.logz.cuda;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.logz.kernel.KernelProfiling;

/**
 * The emulator's {@link KernelProfiling}: the launches its profile mode ({@code LOGZ_EMULATOR_CHECKS=profile},
 * kernels-cu {@code emu_profile.cpp}) counted, and the ptxas accounts build.sh kept ({@code ptxas-sm80.txt},
 * {@code ptxas-sm90.txt}). The emulator keeps one line per launch until taken, so a long run in profile mode should
 * take them as it goes.
 */
final class EmulatorProfile implements KernelProfiling {
    private static final Pattern ENTRY = Pattern.compile("Compiling entry function '([a-z_0-9]+)' for '(sm_[0-9]+)'");
    private static final Pattern FRAME = Pattern.compile(
            "([0-9]+) bytes stack frame, ([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads");
    private static final Pattern USED = Pattern.compile("Used ([0-9]+) registers");
    private static final Pattern SMEM = Pattern.compile("([0-9]+) bytes smem");

    /** Whether launches are being profiled: the instrumented library is loaded in profile mode. */
    static boolean active() {
        return EmulatorNative.loadError().isEmpty() && EmulatorChecks.configured().profile()
                && EmulatorNative.profileBuilt();
    }

    @Override
    public List<Launch> take() {
        List<Launch> launches = new ArrayList<>();
        for (String line : EmulatorNative.takeProfile().split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\t");
            long[] grid = dims(f[1]);
            long[] block = dims(f[2]);
            launches.add(new Launch(f[0], (int) (block[0] * block[1] * block[2]), grid[0] * grid[1] * grid[2],
                    Long.parseLong(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]), Long.parseLong(f[6]),
                    Long.parseLong(f[7]), Long.parseLong(f[8]), Long.parseLong(f[9]), Long.parseLong(f[10]),
                    Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13])));
        }
        return launches;
    }

    @Override
    public Map<String, Resources> resources(String arch) {
        String file = "/org/logz/cuda/ptxas-" + arch.replace("_", "") + ".txt";
        try (InputStream in = EmulatorProfile.class.getResourceAsStream(file)) {
            return in == null ? Map.of() : parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** ptxas -v's lines: per entry function its frame, spills, registers and static shared memory. */
    static Map<String, Resources> parse(String text) {
        Map<String, Resources> out = new LinkedHashMap<>();
        String kernel = null;
        int stack = 0;
        int stores = 0;
        int loads = 0;
        for (String line : text.split("\n")) {
            Matcher entry = ENTRY.matcher(line);
            Matcher frame = FRAME.matcher(line);
            Matcher used = USED.matcher(line);
            if (entry.find()) {
                kernel = entry.group(1);
            } else if (kernel != null && frame.find()) {
                stack = Integer.parseInt(frame.group(1));
                stores = Integer.parseInt(frame.group(2));
                loads = Integer.parseInt(frame.group(3));
            } else if (kernel != null && used.find()) {
                Matcher smem = SMEM.matcher(line);
                out.put(kernel, new Resources(kernel, Integer.parseInt(used.group(1)), stores, loads,
                        smem.find() ? Integer.parseInt(smem.group(1)) : 0, stack));
                kernel = null;
            }
        }
        return out;
    }

    private static long[] dims(String text) {
        String[] p = text.split(",");
        return new long[] {Long.parseLong(p[0]), Long.parseLong(p[1]), Long.parseLong(p[2])};
    }
}
