package io.lander.sdk.android;

import android.content.ContentResolver;
import android.database.Cursor;
import android.net.Uri;
import io.lander.sdk.MetaReferrer;

/**
 * Meta's install referrer from the content providers Meta documents (docs/attribution.md#metas-install-referrer),
 * with no Meta library: {@code content://<authority>/<Meta app id>} of the Facebook, Instagram and
 * Messenger apps, in that order, columns {@code install_referrer}, {@code is_ct}, {@code actual_timestamp}.
 * The first provider with a referrer answers; an app not installed (Android answers null) or one whose
 * provider fails is passed over. The app declares the three packages in its manifest's
 * {@code <queries>} (Android 11+), as Meta's documentation says.
 */
public final class MetaProviders {
    static final String[] AUTHORITIES = {
        "com.facebook.katana.provider.InstallReferrerProvider",
        "com.instagram.contentprovider.InstallReferrerProvider",
        "com.facebook.orca.provider.InstallReferrerProvider",
    };
    static final String[] PROJECTION = {"install_referrer", "is_ct", "actual_timestamp"};

    private MetaProviders() {}

    /** The first provider's referrer for {@code metaAppId}, or null (none without an app id). */
    public static MetaReferrer read(ContentResolver resolver, String metaAppId) {
        if (resolver == null || metaAppId == null || !metaAppId.matches("[0-9]{1,32}")) return null;
        for (String authority : AUTHORITIES) {
            MetaReferrer found = null;
            try {
                found = readOne(resolver, Uri.parse("content://" + authority + "/" + metaAppId));
            } catch (RuntimeException failed) {
                // A provider that fails (a SecurityException, an old app) is as good as none.
            }
            if (found != null) return found;
        }
        return null;
    }

    private static MetaReferrer readOne(ContentResolver resolver, Uri uri) {
        Cursor cursor = resolver.query(uri, PROJECTION, null, null, null);
        if (cursor == null) return null;
        try {
            if (!cursor.moveToFirst()) return null;
            int referrer = cursor.getColumnIndex("install_referrer");
            int clickThrough = cursor.getColumnIndex("is_ct");
            int timestamp = cursor.getColumnIndex("actual_timestamp");
            String text = referrer < 0 || cursor.isNull(referrer) ? null : cursor.getString(referrer);
            if (text == null || text.trim().isEmpty()) return null;
            Boolean ct = clickThrough < 0 || cursor.isNull(clickThrough) ? null : cursor.getInt(clickThrough) == 1;
            long seconds = timestamp < 0 || cursor.isNull(timestamp) ? 0 : cursor.getLong(timestamp);
            return new MetaReferrer(text, seconds, ct);
        } finally {
            cursor.close();
        }
    }
}
