// Compile-only stub of Android's documented signature (never shipped; docs/sdk.md).
package android.net;

public abstract class Uri {
    /** Android parses lazily; the stub keeps the text, all a test compares. */
    public static Uri parse(final String text) {
        return new Uri() {
            @Override
            public String toString() {
                return text;
            }
        };
    }
}
