// Compile-only stub of Android's documented signature (never shipped; docs/sdk.md).
package com.android.installreferrer.api;

public interface InstallReferrerStateListener {
    void onInstallReferrerSetupFinished(int responseCode);

    void onInstallReferrerServiceDisconnected();
}
