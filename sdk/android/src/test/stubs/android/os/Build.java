// Compile-only stub of Android's documented signature (never shipped; docs/sdk.md).
package android.os;

public class Build {
    public static final String MODEL = null;

    public static class VERSION {
        public static final String RELEASE = null;
        /** Not a constant here, so that no value of the stub is compiled into the SDK. */
        public static final int SDK_INT = Integer.valueOf(33);
    }
}
