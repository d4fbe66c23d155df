package org.logz.cuda;

import java.util.ArrayList;
import java.util.List;

/**
 * The parameters of one kernel launch, typed as the kernel declares them: a pointer, int32, int64,
 * float or double each. Both devices take them in this form: JCuda as a kernelParams array, the
 * emulator as 8-byte slots whose kinds it checks against the kernel's own signature.
 */
final class KernelArgs {
    /** One parameter: its kind ({@code p i l f d}) and its bits, low-aligned in 64. */
    record Arg(char kind, long bits) {
    }

    private final List<Arg> args = new ArrayList<>();

    static KernelArgs of() {
        return new KernelArgs();
    }

    KernelArgs ptr(long address) {
        args.add(new Arg('p', address));
        return this;
    }

    KernelArgs i32(int value) {
        args.add(new Arg('i', value & 0xFFFFFFFFL));
        return this;
    }

    KernelArgs i64(long value) {
        args.add(new Arg('l', value));
        return this;
    }

    KernelArgs f32(float value) {
        args.add(new Arg('f', Float.floatToRawIntBits(value) & 0xFFFFFFFFL));
        return this;
    }

    KernelArgs f64(double value) {
        args.add(new Arg('d', Double.doubleToRawLongBits(value)));
        return this;
    }

    /** Philox key words k0 (low) and k1 (high) of a seed. */
    KernelArgs key(long seed) {
        return i32((int) seed).i32((int) (seed >>> 32));
    }

    List<Arg> list() {
        return args;
    }

    String kinds() {
        StringBuilder sb = new StringBuilder(args.size());
        for (Arg a : args) {
            sb.append(a.kind());
        }
        return sb.toString();
    }

    long[] slots() {
        long[] slots = new long[args.size()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = args.get(i).bits();
        }
        return slots;
    }
}
