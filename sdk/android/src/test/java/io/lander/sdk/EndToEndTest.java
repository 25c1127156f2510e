package io.lander.sdk;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The Android SDK against the started worker (run by tests/browser/sdk-android.test.ts, which uploads
 * a reserved parent APK and passes its properties): a stamped APK downloaded from {@code /dl/…} is
 * matched by {@code apk} with the campaign's data; the blank parent falls back to the Play referrer.
 */
public class EndToEndTest {
    private static final String URL_BASE = System.getProperty("lander.url");
    private static final String FILE = System.getProperty("lander.apkFile");
    private static final String PARENT = System.getProperty("lander.parent");
    private static final String TOKEN = System.getProperty("lander.token");

    @Rule
    public TemporaryFolder folder = new TemporaryFolder();

    /** HttpTransport, counting what it sends. */
    static final class Counting implements Transport {
        final List<String> sent = new ArrayList<String>();
        final HttpTransport http = new HttpTransport();

        @Override
        public Response post(String url, String json, int timeoutMs) throws IOException {
            sent.add(url);
            return http.post(url, json, timeoutMs);
        }
    }

    /** A phone whose APK is {@code apk}, with a Play referrer or none, keeping its state in {@code dir}. */
    static Platform phone(final String apk, final String referrer, File dir) {
        final Storage storage = new FileStorage(dir);
        return new Platform() {
            @Override
            public Storage storage() {
                return storage;
            }

            @Override
            public DeviceFacts device() {
                return new DeviceFacts("android", "14", "SM-S911B", 360, 780, 3, "Asia/Kolkata", Arrays.asList("en-IN"));
            }

            @Override
            public String clipboard() {
                return null;
            }

            @Override
            public PlayReferrer playReferrer(long timeoutMs) {
                return referrer == null ? null : new PlayReferrer(referrer, 0, 0, 0);
            }

            @Override
            public String apkStamp() throws IOException {
                return ApkStamp.read(apk);
            }

            @Override
            public String harmonyLink() {
                return null;
            }
        };
    }

    /** A click id the worker issued, as the page gets one before a tap ({@code GET /api/a/click-ids}). */
    private static String issuedClickId() throws IOException {
        HttpURLConnection connection = (HttpURLConnection) new URL(URL_BASE + "/api/a/click-ids").openConnection();
        assertEquals(200, connection.getResponseCode());
        InputStream in = connection.getInputStream();
        try {
            java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
            byte[] buffer = new byte[4096];
            for (int n; (n = in.read(buffer)) > 0; ) body.write(buffer, 0, n);
            return new org.json.JSONObject(body.toString("UTF-8")).getJSONArray("clickIds").getString(0);
        } catch (org.json.JSONException e) {
            throw new IOException("not the click ids' answer", e);
        } finally {
            in.close();
        }
    }

    private File download(String carrier) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) new URL(URL_BASE + "/dl/" + carrier + "/" + FILE).openConnection();
        assertEquals(200, connection.getResponseCode());
        File apk = folder.newFile("stamped.apk");
        InputStream in = connection.getInputStream();
        OutputStream out = new FileOutputStream(apk);
        try {
            byte[] buffer = new byte[65536];
            for (int n; (n = in.read(buffer)) > 0; ) out.write(buffer, 0, n);
        } finally {
            out.close();
            in.close();
        }
        return apk;
    }

    @Test
    public void aStampedDownloadIsMatchedByApkAndTheSecondLaunchSendsNothing() throws IOException {
        String clickId = issuedClickId();
        String carrier = clickId + "." + TOKEN;
        File apk = download(carrier);
        assertEquals(carrier, ApkStamp.read(apk.getPath()));

        File state = folder.newFolder("state");
        Counting transport = new Counting();
        LanderOptions options = new LanderOptions(URL_BASE, "com.pebble.notes").timeoutMs(10000);
        Answer answer = new Lander(options, phone(apk.getPath(), null, state), transport, Clock.SYSTEM).install();
        assertTrue(answer.toString(), answer.matched);
        assertEquals("apk", answer.method);
        assertEquals(clickId, answer.clickId);
        assertEquals("spring-sale", answer.data.get("channel"));
        assertEquals("Ann Lee", answer.data.get("inviter"));
        assertEquals(1, transport.sent.size());

        Lander second = new Lander(options, phone(apk.getPath(), null, state), transport, Clock.SYSTEM);
        assertEquals(answer.toString(), second.install().toString());
        assertEquals(clickId, second.consumeLink().clickId);
        assertNull(second.pendingLink());
        assertEquals(1, transport.sent.size());
    }

    @Test
    public void theUnstampedParentFallsBackToThePlayReferrer() throws IOException {
        assertNull(ApkStamp.read(PARENT));
        String clickId = issuedClickId();
        LanderOptions options = new LanderOptions(URL_BASE, "com.pebble.notes").timeoutMs(10000);
        Platform phone = phone(PARENT, clickId + "." + TOKEN, folder.newFolder("state"));
        Answer answer = new Lander(options, phone, new HttpTransport(), Clock.SYSTEM).install();
        assertTrue(answer.toString(), answer.matched);
        assertEquals("referrer", answer.method);
        assertEquals(clickId, answer.clickId);
        assertEquals("spring-sale", answer.data.get("channel"));
    }
}
