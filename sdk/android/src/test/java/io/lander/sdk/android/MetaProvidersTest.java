package io.lander.sdk.android;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import android.content.ContentResolver;
import android.database.Cursor;
import android.net.Uri;
import io.lander.sdk.MetaReferrer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/**
 * Meta's install referrer read through fakes of the content providers as Meta documents them
 * (docs/attribution.md#metas-install-referrer): one row of {@code install_referrer}, {@code is_ct},
 * {@code actual_timestamp} at {@code content://<authority>/<Meta app id>}; Android's null for an app
 * not installed. The scenario table's device side: present, absent, from another app, a provider
 * that fails; tampered, too old and a click after install are the worker's to judge
 * (tests/worker/attribution/meta-referrer.test.ts), so here they only pass through unchanged.
 */
public class MetaProvidersTest {
    static final String SEALED = "{\"utm_campaign\":\"fb4a\",\"utm_content\":\"{\\\"source\\\":{\\\"data\\\":\\\"ab12\\\","
            + "\\\"nonce\\\":\\\"0123456789abcdef01234567\\\"}}\",\"utm_source\":\"apps.facebook.com\"}";

    /** A provider's one row, or a failure. */
    static final class Row {
        final Object[] values;
        final RuntimeException failure;

        Row(Object referrer, Object isCt, Object timestamp) {
            this.values = new Object[] {referrer, isCt, timestamp};
            this.failure = null;
        }

        Row(RuntimeException failure) {
            this.values = null;
            this.failure = failure;
        }
    }

    /** Installed apps' providers by URI; every query asked, in order. */
    static final class Resolver extends ContentResolver {
        final Map<String, Row> rows = new HashMap<String, Row>();
        final List<String> asked = new ArrayList<String>();

        @Override
        public Cursor query(Uri uri, String[] projection, String selection, String[] args, String sort) {
            asked.add(uri.toString());
            assertEquals("install_referrer,is_ct,actual_timestamp", String.join(",", projection));
            final Row row = rows.get(uri.toString());
            if (row == null) return null;
            if (row.failure != null) throw row.failure;
            return new Cursor() {
                @Override
                public boolean moveToFirst() {
                    return true;
                }

                @Override
                public int getColumnIndex(String name) {
                    return java.util.Arrays.asList(projection).indexOf(name);
                }

                @Override
                public String getString(int at) {
                    return (String) row.values[at];
                }

                @Override
                public long getLong(int at) {
                    return ((Number) row.values[at]).longValue();
                }

                @Override
                public int getInt(int at) {
                    return ((Number) row.values[at]).intValue();
                }

                @Override
                public boolean isNull(int at) {
                    return row.values[at] == null;
                }

                // No @Override: the stub's Cursor may not declare it.
                public int getColumnCount() {
                    return projection.length;
                }

                @Override
                public void close() {}
            };
        }
    }

    static final String FACEBOOK = "content://com.facebook.katana.provider.InstallReferrerProvider/1234567890";
    static final String INSTAGRAM = "content://com.instagram.contentprovider.InstallReferrerProvider/1234567890";
    static final String MESSENGER = "content://com.facebook.orca.provider.InstallReferrerProvider/1234567890";

    @Test
    public void presentInFacebookIsReadWithItsTimeAndClickThrough() {
        Resolver resolver = new Resolver();
        resolver.rows.put(FACEBOOK, new Row(SEALED, 1, 1764140000L));
        MetaReferrer found = MetaProviders.read(resolver, "1234567890");
        assertEquals(SEALED, found.installReferrer);
        assertEquals(1764140000L, found.actualTimestampSeconds);
        assertEquals(Boolean.TRUE, found.clickThrough);
        assertEquals(1, resolver.asked.size());
    }

    @Test
    public void instagramThenMessengerAnswerWhenFacebookIsNotInstalledOrHasNone() {
        Resolver resolver = new Resolver();
        resolver.rows.put(FACEBOOK, new Row(null, null, null));
        resolver.rows.put(MESSENGER, new Row(SEALED, 0, 1764140000L));
        MetaReferrer found = MetaProviders.read(resolver, "1234567890");
        assertEquals(Boolean.FALSE, found.clickThrough);
        assertEquals(java.util.Arrays.asList(FACEBOOK, INSTAGRAM, MESSENGER), resolver.asked);
    }

    @Test
    public void absentWhenNoMetaAppIsInstalledOrNoAppIdIsGiven() {
        Resolver resolver = new Resolver();
        assertNull(MetaProviders.read(resolver, "1234567890"));
        assertEquals(3, resolver.asked.size());
        assertNull(MetaProviders.read(resolver, null));
        assertNull(MetaProviders.read(resolver, "../other"));
        assertEquals(3, resolver.asked.size());
    }

    @Test
    public void anotherAppsReferrerIsNeverAskedFor() {
        Resolver resolver = new Resolver();
        resolver.rows.put(FACEBOOK.replace("1234567890", "999"), new Row(SEALED, 1, 1764140000L));
        assertNull(MetaProviders.read(resolver, "1234567890"));
    }

    @Test
    public void aFailingProviderIsPassedOver() {
        Resolver resolver = new Resolver();
        resolver.rows.put(FACEBOOK, new Row(new SecurityException("not exported")));
        resolver.rows.put(INSTAGRAM, new Row(SEALED, 1, 1764140000L));
        assertEquals(SEALED, MetaProviders.read(resolver, "1234567890").installReferrer);
    }

    @Test
    public void tamperedTooOldOrLateReferrersPassThroughForTheWorkerToJudge() {
        Resolver resolver = new Resolver();
        String tampered = SEALED.replace("ab12", "ab13");
        resolver.rows.put(FACEBOOK, new Row(tampered, 1, 1L));
        MetaReferrer found = MetaProviders.read(resolver, "1234567890");
        assertEquals(tampered, found.installReferrer);
        assertEquals(1L, found.actualTimestampSeconds);
    }
}
