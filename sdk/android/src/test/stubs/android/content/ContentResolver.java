// Compile-only stub of Android's documented signature (never shipped; docs/sdk.md).
package android.content;

import android.database.Cursor;
import android.net.Uri;

public abstract class ContentResolver {
    /** Final in Android, which answers null for an authority no installed app provides; here a test overrides it. */
    public Cursor query(Uri uri, String[] projection, String selection, String[] selectionArgs, String sortOrder) {
        return null;
    }
}
