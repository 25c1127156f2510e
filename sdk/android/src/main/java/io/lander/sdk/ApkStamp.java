package io.lander.sdk;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.Charset;

/**
 * Reads the carrier Lander stamped into an APK (docs/apk-stamping.md): the End of Central Directory
 * (the last one whose comment reaches the end of the file), the APK Signing Block just before the
 * central directory, and its pair {@code 0x71777777}: a u32 length, the carrier in UTF-8, zeros to
 * 1,024 bytes. Null for an APK without the pair, with a blank one, or one it cannot read.
 */
public final class ApkStamp {
    static final int RESERVED_ID = 0x71777777;
    static final int RESERVED_LENGTH = 1024;
    private static final int EOCD_SIGNATURE = 0x06054b50;
    private static final int EOCD_SIZE = 22;
    private static final String MAGIC = "APK Sig Block 42";

    private ApkStamp() {}

    /** The stamp of the APK at {@code path} (on Android: {@code context.getApplicationInfo().sourceDir}). */
    public static String read(String path) throws IOException {
        RandomAccessFile file = new RandomAccessFile(path, "r");
        try {
            return read(file);
        } finally {
            file.close();
        }
    }

    private static String read(RandomAccessFile file) throws IOException {
        long size = file.length();
        int tailLength = (int) Math.min(size, EOCD_SIZE + 0xffff);
        ByteBuffer tail = slice(file, size - tailLength, tailLength);
        int eocd = -1;
        for (int i = tailLength - EOCD_SIZE; i >= 0; i--) {
            if (tail.getInt(i) == EOCD_SIGNATURE && (tail.getShort(i + 20) & 0xffff) == tailLength - i - EOCD_SIZE) {
                eocd = i;
                break;
            }
        }
        if (eocd < 0) return null;
        long centralDirectory = tail.getInt(eocd + 16) & 0xffffffffL;
        if (centralDirectory < 32 || centralDirectory > size) return null;
        ByteBuffer footer = slice(file, centralDirectory - 24, 24);
        byte[] magic = new byte[16];
        footer.position(8);
        footer.get(magic);
        if (!MAGIC.equals(new String(magic, Charset.forName("US-ASCII")))) return null;
        long blockSize = footer.getLong(0);
        if (blockSize < 24 || blockSize > centralDirectory - 8 || blockSize > Integer.MAX_VALUE) return null;
        // From the first size field to the last pair (the footer excluded).
        ByteBuffer block = slice(file, centralDirectory - blockSize - 8, (int) (blockSize - 16));
        for (int at = 8; at + 12 <= block.limit(); ) {
            long length = block.getLong(at);
            if (length < 4 || at + 8 + length > block.limit()) return null;
            if (block.getInt(at + 8) == RESERVED_ID) {
                if (length != 4 + RESERVED_LENGTH) return null;
                int textLength = block.getInt(at + 12);
                if (textLength <= 0 || textLength > RESERVED_LENGTH - 4) return null;
                byte[] text = new byte[textLength];
                block.position(at + 16);
                block.get(text);
                return new String(text, Charset.forName("UTF-8"));
            }
            at += 8 + (int) length;
        }
        return null;
    }

    private static ByteBuffer slice(RandomAccessFile file, long offset, int length) throws IOException {
        byte[] bytes = new byte[length];
        file.seek(offset);
        file.readFully(bytes);
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }
}
