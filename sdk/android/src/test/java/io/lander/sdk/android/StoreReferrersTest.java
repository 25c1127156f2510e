package io.lander.sdk.android;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import android.content.ContentResolver;
import android.content.Context;
import android.content.pm.ApplicationInfo;
import android.content.res.Resources;
import android.database.Cursor;
import android.net.Uri;
import android.util.DisplayMetrics;
import io.lander.sdk.Clock;
import io.lander.sdk.Lander;
import io.lander.sdk.LanderOptions;
import io.lander.sdk.Transport;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.json.JSONException;
import org.json.JSONObject;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The makers' stores' install referrers (docs/attribution.md#the-stores), scenario by scenario,
 * through {@link AndroidPlatform} over fake providers that answer as the stores document: a query
 * of the store's URI with this app's package as its one selection argument gets at most one row.
 * AppGallery's row: channel, click time (entering AppGallery), install time, download start time,
 * trackId and, from AppGallery 10.5.0.300, the link's referrer; older versions have the first three
 * columns only. Honor's row: its fourth column, wise_params, a JSON object with itgSctChannel. Each
 * scenario checks what the install sends, and that every carrier sent is the tap's own (precision).
 */
public class StoreReferrersTest {
    @Rule
    public TemporaryFolder folder = new TemporaryFolder();

    static final String APP = "com.pebble.notes";
    static final String OTHER_APP = "com.example.other";
    static final String CARRIER = "Hq3x0v9gLwA8c2m5Yb7TnQ.SWfRYQ-eqPiZj4ojDMKpaqArdQAAPdXW93vhUEe7Y03r6tZSqxD_YI7QPCJETpBlZk";
    static final String OTHER_CARRIER = "Zz9x0v9gLwA8c2m5Yb7TnQ";
    static final long CLICK = 1764300000000L;
    static final long INSTALL = CLICK + 5 * 60 * 1000;
    static final long DAY = 24L * 60 * 60 * 1000;

    /** One row of a store's provider. */
    static class Row implements Cursor {
        final String[] columns;
        boolean closed;

        Row(String... columns) {
            this.columns = columns;
        }

        @Override
        public boolean moveToFirst() {
            return true;
        }

        @Override
        public int getColumnIndex(String name) {
            return -1;
        }

        @Override
        public int getColumnCount() {
            return columns.length;
        }

        @Override
        public String getString(int index) {
            return columns[index];
        }

        @Override
        public long getLong(int index) {
            return Long.parseLong(columns[index]);
        }

        @Override
        public int getInt(int index) {
            return Integer.parseInt(columns[index]);
        }

        @Override
        public boolean isNull(int index) {
            return columns[index] == null;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /** Providers by URI, each with its rows by package; a URI no store provides answers null, as Android does. */
    static class Providers extends ContentResolver {
        final Map<String, Map<String, Row>> rows = new HashMap<String, Map<String, Row>>();
        final List<String> asked = new ArrayList<String>();

        Providers row(String uri, String pkg, Row row) {
            if (!rows.containsKey(uri)) rows.put(uri, new HashMap<String, Row>());
            rows.get(uri).put(pkg, row);
            return this;
        }

        @Override
        public Cursor query(Uri uri, String[] projection, String selection, String[] args, String order) {
            asked.add(uri + " " + args[0]);
            Map<String, Row> provider = rows.get(uri.toString());
            if (provider == null) return null;
            Row row = provider.get(args[0]);
            // A provider with nothing for the package: an empty cursor.
            return row != null ? row : new Row() {
                @Override
                public boolean moveToFirst() {
                    return false;
                }
            };
        }
    }

    private Context context(final ContentResolver resolver) throws IOException {
        final File files = folder.newFolder();
        return new Context() {
            @Override
            public Context getApplicationContext() {
                return this;
            }

            @Override
            public Object getSystemService(String name) {
                return null;
            }

            @Override
            public File getFilesDir() {
                return files;
            }

            @Override
            public ApplicationInfo getApplicationInfo() {
                return new ApplicationInfo();
            }

            @Override
            public Resources getResources() {
                return new Resources() {
                    @Override
                    public DisplayMetrics getDisplayMetrics() {
                        DisplayMetrics metrics = new DisplayMetrics();
                        metrics.widthPixels = 1080;
                        metrics.heightPixels = 2340;
                        metrics.density = 3;
                        return metrics;
                    }
                };
            }

            @Override
            public ContentResolver getContentResolver() {
                return resolver;
            }

            @Override
            public String getPackageName() {
                return APP;
            }
        };
    }

    /** The body of the install the app sends at its first launch on a phone with these providers. */
    private JSONObject installBody(Providers providers) throws Exception {
        final List<String> bodies = new ArrayList<String>();
        Transport server = new Transport() {
            @Override
            public Response post(String url, String json, int timeoutMs) {
                bodies.add(json);
                return new Response(200, "{\"matched\":false,\"reason\":\"none\"}");
            }
        };
        Lander lander = new Lander(new LanderOptions("https://get.pebble-notes.example", APP),
                new AndroidPlatform(context(providers)), server, Clock.SYSTEM);
        lander.install();
        assertEquals(1, bodies.size());
        return new JSONObject(bodies.get(0));
    }

    static Row gallery(String channel, long click, long install, String referrer) {
        return new Row(channel, Long.toString(click), Long.toString(install), Long.toString(click + 1000), "{}",
                referrer);
    }

    static Row honor(String wiseParams) {
        return new Row("1", "2", "3", wiseParams);
    }

    /** What the body carries of the stores: carriers, store channel and times, in one comparable text. */
    private static String storesOf(JSONObject body, String carrier) throws JSONException {
        JSONObject carriers = body.optJSONObject("carriers");
        String gallery = carriers == null ? null : carriers.optString("appGallery", null);
        // Precision: a carrier sent is always the tap's own, never another app's or a channel.
        if (gallery != null) assertEquals("the carrier sent", carrier, gallery);
        JSONObject out = new JSONObject();
        if (gallery != null) out.put("appGallery", gallery);
        if (body.has("storeChannel")) out.put("storeChannel", body.get("storeChannel"));
        if (body.has("installReferrer")) out.put("installReferrer", body.get("installReferrer"));
        return out.toString();
    }

    private void scenario(Providers providers, String carrier, String expected) throws Exception {
        JSONObject body = installBody(providers);
        assertEquals(new JSONObject(expected).toString(), storesOf(body, carrier));
    }

    private static final String TIMES =
            "\"installReferrer\":{\"referrerClickTimestampSeconds\":1764300000,\"installBeginTimestampSeconds\":1764300300}";

    @Test
    public void appGalleryCarrierPresent() throws Exception {
        scenario(new Providers().row(AndroidPlatform.APPGALLERY_URI, APP, gallery("C10086", CLICK, INSTALL, CARRIER)),
                CARRIER, "{\"appGallery\":\"" + CARRIER + "\",\"storeChannel\":{\"store\":\"appgallery\",\"channel\":"
                        + "\"C10086\"}," + TIMES + "}");
    }

    @Test
    public void appGalleryBeforeReferrerColumnCarrierInChannel() throws Exception {
        Row old = new Row(CARRIER, Long.toString(CLICK), Long.toString(INSTALL));
        scenario(new Providers().row(AndroidPlatform.APPGALLERY_URI, APP, old), CARRIER,
                "{\"appGallery\":\"" + CARRIER + "\"," + TIMES + "}");
    }

    @Test
    public void appGalleryCarrierAbsent() throws Exception {
        scenario(new Providers().row(AndroidPlatform.APPGALLERY_URI, APP, gallery("C10086", CLICK, INSTALL, "")),
                null, "{\"storeChannel\":{\"store\":\"appgallery\",\"channel\":\"C10086\"}," + TIMES + "}");
        scenario(new Providers(), null, "{}");
        scenario(new Providers().row(AndroidPlatform.APPGALLERY_URI, OTHER_APP, gallery("C1", CLICK, INSTALL, CARRIER)),
                null, "{}");
    }

    @Test
    public void appGalleryCarrierTamperedIsSentForTheWorkerToRefuse() throws Exception {
        String tampered = CARRIER.substring(0, CARRIER.length() - 2) + "zz";
        scenario(new Providers().row(AndroidPlatform.APPGALLERY_URI, APP, gallery("", CLICK, INSTALL, tampered)),
                tampered, "{\"appGallery\":\"" + tampered + "\"," + TIMES + "}");
        // Not carrier-shaped at all (a referrer with other text around it): never sent.
        scenario(new Providers().row(AndroidPlatform.APPGALLERY_URI, APP,
                gallery("spring sale!", CLICK, INSTALL, "ref=" + CARRIER)), null, "{" + TIMES + "}");
    }

    @Test
    public void appGalleryRowOfAnotherAppIsNeverRead() throws Exception {
        Providers providers = new Providers()
                .row(AndroidPlatform.APPGALLERY_URI, OTHER_APP, gallery("C1", CLICK, INSTALL, OTHER_CARRIER))
                .row(AndroidPlatform.HONOR_URI, OTHER_APP, honor("{\"itgSctChannel\":\"h1\"}"));
        scenario(providers, null, "{}");
        assertEquals(2, providers.asked.size());
        for (String asked : providers.asked) assertTrue(asked, asked.endsWith(" " + APP));
    }

    @Test
    public void appGalleryTooOldSendsNothing() throws Exception {
        scenario(new Providers().row(AndroidPlatform.APPGALLERY_URI, APP,
                gallery("C10086", CLICK, CLICK + 91 * DAY, CARRIER)), null, "{}");
        // 90 days is still this install's.
        scenario(new Providers().row(AndroidPlatform.APPGALLERY_URI, APP,
                gallery("", CLICK, CLICK + 90 * DAY, CARRIER)), CARRIER,
                "{\"appGallery\":\"" + CARRIER + "\",\"installReferrer\":{\"referrerClickTimestampSeconds\":1764300000,"
                        + "\"installBeginTimestampSeconds\":" + (CLICK + 90 * DAY) / 1000 + "}}");
    }

    @Test
    public void appGalleryClickAfterInstallIsSentWithItsTimesForTheFraudRule() throws Exception {
        scenario(new Providers().row(AndroidPlatform.APPGALLERY_URI, APP,
                gallery("", INSTALL + 60000, INSTALL, CARRIER)), CARRIER,
                "{\"appGallery\":\"" + CARRIER + "\",\"installReferrer\":{\"referrerClickTimestampSeconds\":1764300360,"
                        + "\"installBeginTimestampSeconds\":1764300300}}");
    }

    @Test
    public void honorChannelPresentAbsentAndMalformed() throws Exception {
        scenario(new Providers().row(AndroidPlatform.HONOR_URI, APP,
                honor("{\"itgSctChannel\":\"honor-ads-07\",\"trackId\":\"t1\",\"callback\":\"https://x\"}")), null,
                "{\"storeChannel\":{\"store\":\"honor\",\"channel\":\"honor-ads-07\"}}");
        scenario(new Providers().row(AndroidPlatform.HONOR_URI, APP, honor("{\"trackId\":\"t1\"}")), null, "{}");
        scenario(new Providers().row(AndroidPlatform.HONOR_URI, APP, honor("not json")), null, "{}");
        scenario(new Providers().row(AndroidPlatform.HONOR_URI, APP, new Row("1", "2")), null, "{}");
        // Honor's channel is no carrier, even when it is carrier-shaped: Honor documents no pass-through.
        scenario(new Providers().row(AndroidPlatform.HONOR_URI, APP,
                honor("{\"itgSctChannel\":\"" + OTHER_CARRIER + "\"}")), null, "{}");
    }

    @Test
    public void providerThatThrowsIsSkipped() throws Exception {
        Providers failing = new Providers() {
            @Override
            public Cursor query(Uri uri, String[] projection, String selection, String[] args, String order) {
                throw new SecurityException("Permission Denial");
            }
        };
        scenario(failing, null, "{}");
    }
}
