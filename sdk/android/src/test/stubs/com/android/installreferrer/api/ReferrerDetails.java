// Compile-only stub of Android's documented signature (never shipped; docs/sdk.md).
package com.android.installreferrer.api;

public class ReferrerDetails {
    public String getInstallReferrer() {
        throw new RuntimeException("Stub!");
    }

    public long getReferrerClickTimestampSeconds() {
        throw new RuntimeException("Stub!");
    }

    public long getInstallBeginTimestampSeconds() {
        throw new RuntimeException("Stub!");
    }

    public long getInstallBeginTimestampServerSeconds() {
        throw new RuntimeException("Stub!");
    }

    public long getReferrerClickTimestampServerSeconds() {
        throw new RuntimeException("Stub!");
    }
}
