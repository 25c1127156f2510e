// Compile-only stub of Android's documented signature (never shipped; docs/sdk.md).
package android.util;

public class DisplayMetrics {
    public int widthPixels;
    public int heightPixels;
    public float density;
}
