// Compile-only stub of Android's documented signature (never shipped; docs/sdk.md).
package android.content;

public class ClipboardManager {
    public boolean hasPrimaryClip() {
        throw new RuntimeException("Stub!");
    }

    public ClipDescription getPrimaryClipDescription() {
        throw new RuntimeException("Stub!");
    }

    public ClipData getPrimaryClip() {
        throw new RuntimeException("Stub!");
    }
}
