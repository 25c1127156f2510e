// Compile-only stub of Android's documented signature (never shipped; docs/sdk.md).
package android.content;

public class ClipData {
    public int getItemCount() {
        throw new RuntimeException("Stub!");
    }

    public Item getItemAt(int index) {
        throw new RuntimeException("Stub!");
    }

    public static class Item {
        public CharSequence getText() {
            throw new RuntimeException("Stub!");
        }
    }
}
