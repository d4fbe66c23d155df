package org.logz.cuda;

/** Random123's kat_vectors for philox4x32_10 (DESIGN §3): counter c0..c3, key k0 k1, and the output. */
final class KnownAnswers {
    static final int[][] VECTORS = {
            {0, 0, 0, 0, 0, 0},
            {-1, -1, -1, -1, -1, -1},
            {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0}};
    static final int[][] EXPECTED = {
            {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
            {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
            {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}};

    private KnownAnswers() {
    }
}
