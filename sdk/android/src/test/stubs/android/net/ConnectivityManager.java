// Compile-only stub of Android's documented signature (never shipped; docs/sdk.md).
package android.net;

public class ConnectivityManager {
    public static class NetworkCallback {
        public void onAvailable(Network network) {
        }
    }

    public void registerDefaultNetworkCallback(NetworkCallback callback) {
    }
}
