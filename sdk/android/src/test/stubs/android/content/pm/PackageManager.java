// Compile-only stub of Android's documented signature (never shipped; docs/sdk.md).
package android.content.pm;

public abstract class PackageManager {
    public static final int PERMISSION_GRANTED = 0;
}
