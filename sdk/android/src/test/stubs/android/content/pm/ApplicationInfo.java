// Compile-only stub of Android's documented signature (never shipped; docs/sdk.md).
package android.content.pm;

public class ApplicationInfo {
    public String sourceDir;
}
