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
 * compares them), so arrays that differ anywhere digest differently. The numbers pass through one small buffer: the
 * largest models are not copied to be digested.
 */
public final class ContentDigest {
    private static final int CHUNK = 8192;

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
        ByteBuffer chunk = ByteBuffer.allocate(CHUNK);
        for (Object array : arrays) {
            if (array instanceof float[] f) {
                header(sha, chunk, 'f', f.length);
                for (float v : f) {
                    room(sha, chunk).putInt(Float.floatToIntBits(v));
                }
            } else if (array instanceof double[] d) {
                header(sha, chunk, 'd', d.length);
                for (double v : d) {
                    room(sha, chunk).putLong(Double.doubleToLongBits(v));
                }
            } else if (array instanceof int[] n) {
                header(sha, chunk, 'i', n.length);
                for (int v : n) {
                    room(sha, chunk).putInt(v);
                }
            } else if (array instanceof long[] n) {
                header(sha, chunk, 'l', n.length);
                for (long v : n) {
                    room(sha, chunk).putLong(v);
                }
            } else {
                throw new IllegalArgumentException("digests arrays of numbers, got " + array);
            }
        }
        sha.update(chunk.flip());
        return "sha256:" + HexFormat.of().formatHex(sha.digest());
    }

    private static void header(MessageDigest sha, ByteBuffer chunk, char type, int length) {
        room(sha, chunk).put((byte) type);
        room(sha, chunk).putInt(length);
    }

    /** The buffer with room for one more number, its bytes fed to the digest when it was full. */
    private static ByteBuffer room(MessageDigest sha, ByteBuffer chunk) {
        if (chunk.remaining() < Long.BYTES) {
            sha.update(chunk.flip());
            chunk.clear();
        }
        return chunk;
    }
}
