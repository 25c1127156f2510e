// Compile-only stub of Android's documented signature (never shipped; docs/sdk.md).
package android.net;

public class Network {
}
