package io.lander.sdk;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Reading the stamp from APK files (docs/apk-stamping.md), built here byte by byte: a zip, a signing
 * block inserted before its central directory with the End of Central Directory's offset moved.
 * The worker's own stamped downloads are read in tests/browser/sdk-android.test.ts.
 */
public class ApkStampTest {
    private static final Charset UTF8 = Charset.forName("UTF-8");
    private static final int V2 = 0x7109871a;

    @Rule
    public TemporaryFolder folder = new TemporaryFolder();

    private static byte[] zip(String comment) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ZipOutputStream zip = new ZipOutputStream(out);
        zip.putNextEntry(new ZipEntry("classes.dex"));
        zip.write(new byte[3000]);
        zip.closeEntry();
        zip.setComment(comment);
        zip.close();
        return out.toByteArray();
    }

    private static byte[] pair(int id, byte[] value) {
        ByteBuffer pair = ByteBuffer.allocate(12 + value.length).order(ByteOrder.LITTLE_ENDIAN);
        pair.putLong(4 + value.length).putInt(id).put(value);
        return pair.array();
    }

    private static byte[] stampValue(String carrier) {
        byte[] text = carrier.getBytes(UTF8);
        ByteBuffer value = ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN);
        value.putInt(text.length).put(text);
        return value.array();
    }

    /** The zip with a signing block of these pairs before its central directory. */
    private static byte[] withBlock(byte[] zip, int commentLength, byte[]... pairs) {
        int pairsLength = 0;
        for (byte[] pair : pairs) pairsLength += pair.length;
        ByteBuffer block = ByteBuffer.allocate(8 + pairsLength + 24).order(ByteOrder.LITTLE_ENDIAN);
        block.putLong(pairsLength + 24);
        for (byte[] pair : pairs) block.put(pair);
        block.putLong(pairsLength + 24).put("APK Sig Block 42".getBytes(UTF8));
        ByteBuffer in = ByteBuffer.wrap(zip).order(ByteOrder.LITTLE_ENDIAN);
        int eocd = zip.length - 22 - commentLength;
        int directory = in.getInt(eocd + 16);
        ByteBuffer out = ByteBuffer.allocate(zip.length + block.capacity()).order(ByteOrder.LITTLE_ENDIAN);
        out.put(zip, 0, directory).put(block.array()).put(zip, directory, zip.length - directory);
        out.putInt(eocd + block.capacity() + 16, directory + block.capacity());
        return out.array();
    }

    private String read(byte[] apk) throws IOException {
        File file = folder.newFile();
        Files.write(file.toPath(), apk);
        return ApkStamp.read(file.getPath());
    }

    @Test
    public void readsTheCarrierOfAStampedApk() throws IOException {
        byte[] apk = withBlock(zip(""), 0, pair(V2, new byte[700]), pair(ApkStamp.RESERVED_ID, stampValue("Hq3x0v9gLwA8c2m5Yb7TnQ.tok")));
        assertEquals("Hq3x0v9gLwA8c2m5Yb7TnQ.tok", read(apk));
    }

    @Test
    public void readsItBehindAZipCommentThatHoldsTheEndRecordSignature() throws IOException {
        String comment = "PK\u0005\u0006 a comment that looks like an end record";
        byte[] apk = withBlock(zip(comment), comment.length(), pair(ApkStamp.RESERVED_ID, stampValue("Hq3x0v9gLwA8c2m5Yb7TnQ")));
        assertEquals("Hq3x0v9gLwA8c2m5Yb7TnQ", read(apk));
    }

    @Test
    public void aBlankReservedValueIsNoStamp() throws IOException {
        assertNull(read(withBlock(zip(""), 0, pair(V2, new byte[100]), pair(ApkStamp.RESERVED_ID, new byte[1024]))));
    }

    @Test
    public void aReservedValueOfAnotherLengthIsNoStamp() throws IOException {
        assertNull(read(withBlock(zip(""), 0, pair(ApkStamp.RESERVED_ID, new byte[] {5, 0, 0, 0, 'a', 'b', 'c', 'd', 'e'}))));
    }

    @Test
    public void aSignedApkWithoutTheReservedPairIsNoStamp() throws IOException {
        assertNull(read(withBlock(zip(""), 0, pair(V2, new byte[100]))));
    }

    @Test
    public void anUnsignedZipIsNoStamp() throws IOException {
        assertNull(read(zip("")));
    }

    @Test
    public void aPairLengthPastTheBlockIsNoStamp() throws IOException {
        byte[] apk = withBlock(zip(""), 0, pair(V2, new byte[100]));
        int directory = ByteBuffer.wrap(apk).order(ByteOrder.LITTLE_ENDIAN).getInt(apk.length - 22 + 16);
        int blockStart = directory - (8 + 112 + 24);
        ByteBuffer.wrap(apk).order(ByteOrder.LITTLE_ENDIAN).putLong(blockStart + 8, 1 << 20);
        assertNull(read(apk));
    }

    @Test
    public void aFileThatIsNoZipIsNoStamp() throws IOException {
        assertNull(read("not an apk at all".getBytes(UTF8)));
    }
}
