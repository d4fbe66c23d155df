package org.logz.io;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The SHA-256 of arrays of numbers, for what identifies a model's content in a checkpoint. A 32-bit hash
 * ({@code Arrays.hashCode}) let two different RBMs share a fingerprint and resume each other's checkpoints (issue 37,
 * R3: equal hashes are easy to construct); a cryptographic digest makes that as unlikely as guessing SHA-256. Each
 * array enters with its type and length, each number by its bits ({@code NaN}s as one value, as {@code Arrays.equals}
 * compares them), so arrays that differ anywhere digest differently.
 */
public final class ContentDigest {
    private ContentDigest() {
    }

    /** {@code sha256:} and the hex digest of {@code arrays} (each a float[], double[], int[] or long[]), in order. */
    public static String of(Object... arrays) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        for (Object array : arrays) {
            if (array instanceof float[] f) {
                ByteBuffer b = header(sha, 'f', f.length, 4 * f.length);
                for (float v : f) {
                    b.putInt(Float.floatToIntBits(v));
                }
                sha.update(b.flip());
            } else if (array instanceof double[] d) {
                ByteBuffer b = header(sha, 'd', d.length, 8 * d.length);
                for (double v : d) {
                    b.putLong(Double.doubleToLongBits(v));
                }
                sha.update(b.flip());
            } else if (array instanceof int[] n) {
                ByteBuffer b = header(sha, 'i', n.length, 4 * n.length);
                for (int v : n) {
                    b.putInt(v);
                }
                sha.update(b.flip());
            } else if (array instanceof long[] n) {
                ByteBuffer b = header(sha, 'l', n.length, 8 * n.length);
                for (long v : n) {
                    b.putLong(v);
                }
                sha.update(b.flip());
            } else {
                throw new IllegalArgumentException("digests arrays of numbers, got " + array);
            }
        }
        return "sha256:" + HexFormat.of().formatHex(sha.digest());
    }

    /** Feeds the array's type and length, and returns a buffer for its {@code bytes}. */
    private static ByteBuffer header(MessageDigest sha, char type, int length, int bytes) {
        sha.update(ByteBuffer.allocate(5).put((byte) type).putInt(length).flip());
        return ByteBuffer.allocate(bytes);
    }
}
