// Compile-only stub of Android's documented signature (never shipped; docs/sdk.md).
package android.content;

import android.content.pm.ApplicationInfo;
import android.content.res.Resources;
import java.io.File;

public abstract class Context {
    public static final String CLIPBOARD_SERVICE = "clipboard";
    public static final String CONNECTIVITY_SERVICE = "connectivity";

    public abstract Context getApplicationContext();

    public abstract Object getSystemService(String name);

    public abstract File getFilesDir();

    public abstract ApplicationInfo getApplicationInfo();

    public abstract Resources getResources();

    /** Abstract in Android; here none unless a test overrides it. */
    public ContentResolver getContentResolver() {
        return null;
    }

    /** Abstract in Android; here a stub's failure unless a test overrides it. */
    public String getPackageName() {
        throw new RuntimeException("Stub!");
    }

    /** Abstract in Android; here a stub's refusal unless a test overrides it. */
    public int checkCallingOrSelfPermission(String permission) {
        return -1;
    }
}
