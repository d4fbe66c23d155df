package org.logz.io;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.logz.memory.HostMemory;

/**
 * The {@code .npy} format (NumPy NEP 1, versions 1.0 to 3.0): a magic string, a version, a header
 * that is a Python dict literal with {@code descr}, {@code fortran_order} and {@code shape}, then the
 * raw data.
 */
final class Npy {
    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    /** Refuse arrays whose claimed size could not be a model or data set (guards allocation). */
    private static final long MAX_BYTES = Integer.MAX_VALUE - 8;

    private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([<>|=])([a-z])(\\d{1,3})'");
    private static final Pattern FORTRAN = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");

    private Npy() {
    }

    static NpyArray read(String name, InputStream in) throws IOException {
        byte[] magic = in.readNBytes(MAGIC.length + 2);
        if (magic.length < MAGIC.length + 2) {
            throw new ModelFormatException(name + ": truncated (no .npy header)");
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (magic[i] != MAGIC[i]) {
                throw new ModelFormatException(name + ": not a .npy array (bad magic)");
            }
        }
        int major = magic[MAGIC.length];
        int headerLength;
        if (major == 1) {
            byte[] len = in.readNBytes(2);
            if (len.length < 2) {
                throw new ModelFormatException(name + ": truncated header");
            }
            headerLength = (len[0] & 0xFF) | (len[1] & 0xFF) << 8;
        } else if (major == 2 || major == 3) {
            byte[] len = in.readNBytes(4);
            if (len.length < 4) {
                throw new ModelFormatException(name + ": truncated header");
            }
            headerLength = (len[0] & 0xFF) | (len[1] & 0xFF) << 8 | (len[2] & 0xFF) << 16 | (len[3] & 0xFF) << 24;
            if (headerLength < 0 || headerLength > (1 << 20)) {
                throw new ModelFormatException(name + ": implausible header length " + headerLength);
            }
        } else {
            throw new ModelFormatException(name + ": unsupported .npy version " + major);
        }
        byte[] headerBytes = in.readNBytes(headerLength);
        if (headerBytes.length < headerLength) {
            throw new ModelFormatException(name + ": truncated header");
        }
        String header = new String(headerBytes, major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);

        Matcher descr = DESCR.matcher(header);
        if (!descr.find()) {
            throw new ModelFormatException(name + ": unsupported dtype in header " + header.trim()
                    + " (expected a numeric type such as <f4, <f8, |u1)");
        }
        ByteOrder order = descr.group(1).equals(">") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        int itemSize = Integer.parseInt(descr.group(3));
        NpyArray.Kind kind = kind(name, descr.group(2), itemSize);

        Matcher fortran = FORTRAN.matcher(header);
        if (!fortran.find()) {
            throw new ModelFormatException(name + ": header lacks fortran_order");
        }
        Matcher shapeMatch = SHAPE.matcher(header);
        if (!shapeMatch.find()) {
            throw new ModelFormatException(name + ": header lacks shape");
        }
        int[] shape = parseShape(name, shapeMatch.group(1));
        long elements = NpyArray.elementCount(shape);
        long bytes = elements > MAX_BYTES / itemSize ? Long.MAX_VALUE : elements * itemSize;
        if (bytes > MAX_BYTES) {
            throw new ModelFormatException(name + ": array of shape " + Arrays.toString(shape) + " is too large (over "
                    + MAX_BYTES + " bytes)");
        }
        if (bytes > HostMemory.heapAvailable()) {
            // a few compressed kilobytes can claim gigabytes: refuse before inflating them
            throw new ModelFormatException(name + ": array of shape " + Arrays.toString(shape) + " needs "
                    + HostMemory.format(bytes) + ", the JVM has " + HostMemory.format(HostMemory.heapAvailable()));
        }
        byte[] data = in.readNBytes((int) bytes);
        if (data.length < bytes) {
            throw new ModelFormatException(name + ": truncated data (" + data.length + " of " + bytes + " bytes)");
        }
        return new NpyArray(name, kind, itemSize, order, shape, fortran.group(1).equals("True"), data);
    }

    private static NpyArray.Kind kind(String name, String code, int itemSize) {
        NpyArray.Kind kind = switch (code) {
            case "f" -> NpyArray.Kind.FLOAT;
            case "i" -> NpyArray.Kind.SIGNED;
            case "u" -> NpyArray.Kind.UNSIGNED;
            case "b" -> NpyArray.Kind.BOOL;
            default -> throw new ModelFormatException(name + ": unsupported dtype kind '" + code + "'");
        };
        boolean ok = switch (kind) {
            case FLOAT -> itemSize == 4 || itemSize == 8;
            case BOOL -> itemSize == 1;
            default -> itemSize == 1 || itemSize == 2 || itemSize == 4 || itemSize == 8;
        };
        if (!ok) {
            throw new ModelFormatException(name + ": unsupported item size " + itemSize + " for kind '" + code + "'");
        }
        return kind;
    }

    private static int[] parseShape(String name, String text) {
        List<Integer> dims = new ArrayList<>();
        for (String part : text.split(",")) {
            String t = part.trim();
            if (t.isEmpty()) {
                continue;
            }
            try {
                long d = Long.parseLong(t.endsWith("L") ? t.substring(0, t.length() - 1) : t);
                if (d < 0 || d > Integer.MAX_VALUE) {
                    throw new ModelFormatException(name + ": invalid dimension " + t);
                }
                dims.add((int) d);
            } catch (NumberFormatException e) {
                throw new ModelFormatException(name + ": invalid shape (" + text + ")");
            }
        }
        return dims.stream().mapToInt(Integer::intValue).toArray();
    }

    static byte[] write(NpyArray array) {
        StringBuilder shape = new StringBuilder("(");
        int[] dims = array.shape();
        for (int i = 0; i < dims.length; i++) {
            shape.append(dims[i]).append(dims.length == 1 ? "," : (i + 1 < dims.length ? ", " : ""));
        }
        shape.append(')');
        String dict = "{'descr': '" + array.descr() + "', 'fortran_order': " + (array.fortranOrder() ? "True" : "False")
                + ", 'shape': " + shape + ", }";
        // total header (magic + version + length + dict + padding + newline) is a multiple of 64
        int unpadded = MAGIC.length + 2 + 2 + dict.length() + 1;
        int pad = (64 - unpadded % 64) % 64;
        String header = dict + " ".repeat(pad) + "\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream(header.length() + array.rawData().length + 16);
        out.writeBytes(MAGIC);
        out.write(1);
        out.write(0);
        out.write(header.length() & 0xFF);
        out.write((header.length() >>> 8) & 0xFF);
        out.writeBytes(header.getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(array.rawData());
        return out.toByteArray();
    }
}
