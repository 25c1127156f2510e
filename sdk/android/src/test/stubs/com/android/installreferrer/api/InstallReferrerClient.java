// Compile-only stub of Android's documented signature (never shipped; docs/sdk.md).
package com.android.installreferrer.api;

import android.content.Context;
import android.os.RemoteException;

public abstract class InstallReferrerClient {
    public static Builder newBuilder(Context context) {
        throw new RuntimeException("Stub!");
    }

    public abstract void startConnection(InstallReferrerStateListener listener);

    public abstract void endConnection();

    public abstract ReferrerDetails getInstallReferrer() throws RemoteException;

    public static final class Builder {
        public InstallReferrerClient build() {
            throw new RuntimeException("Stub!");
        }
    }

    public static final class InstallReferrerResponse {
        public static final int SERVICE_DISCONNECTED = -1;
        public static final int OK = 0;
        public static final int SERVICE_UNAVAILABLE = 1;
        public static final int FEATURE_NOT_SUPPORTED = 2;
        public static final int DEVELOPER_ERROR = 3;
    }
}
