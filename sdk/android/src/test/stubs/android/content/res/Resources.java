// Compile-only stub of Android's documented signature (never shipped; docs/sdk.md).
package android.content.res;

import android.util.DisplayMetrics;

public class Resources {
    public DisplayMetrics getDisplayMetrics() {
        throw new RuntimeException("Stub!");
    }
}
