// Compile-only stub of Android's documented signature (never shipped; docs/sdk.md).
package android.os;

public class Build {
    public static final String MODEL = null;

    public static class VERSION {
        public static final String RELEASE = null;
    }
}
