// Compile-only stub of Android's documented signature (never shipped; docs/sdk.md).
package android.content;

public class ClipDescription {
    public static final String MIMETYPE_TEXT_PLAIN = "text/plain";
    public static final String MIMETYPE_TEXT_URILIST = "text/uri-list";

    public boolean hasMimeType(String mimeType) {
        throw new RuntimeException("Stub!");
    }
}
