package io.lander.sdk;

/**
 * What a platform provides (docs/sdk.md): storage, device facts and the raw text of each carrier it
 * finds. Each reader returns null when there is nothing; the SDK decides what of it may be sent. A
 * reader that throws is skipped.
 */
public interface Platform {
    Storage storage();

    DeviceFacts device() throws Exception;

    /** The clipboard's text, read only where the platform says it holds text. */
    String clipboard() throws Exception;

    /** The Play install referrer, waiting at most {@code timeoutMs} for Play's service. */
    PlayReferrer playReferrer(long timeoutMs) throws Exception;

    /** The carrier stamped into the installed APK (docs/apk-stamping.md). */
    String apkStamp() throws Exception;

    /** HarmonyOS NEXT: the App Linking URL of the first launch (not on Android). */
    String harmonyLink() throws Exception;

    /** Meta's install referrer from the Facebook, Instagram or Messenger app (docs/attribution.md); null without one. */
    default MetaReferrer metaReferrer() throws Exception {
        return null;
    }

    /** Huawei AppGallery's install referrer of this app (docs/attribution.md#the-stores); null without one. */
    default StoreReferrer appGalleryReferrer() throws Exception {
        return null;
    }

    /** Honor's store's channel of this app (docs/attribution.md#the-stores); null without one. */
    default StoreReferrer honorReferrer() throws Exception {
        return null;
    }

    /**
     * Calls {@code online} each time the network comes back (Android: the default network's callback),
     * on any thread: an "offline" install is asked again then. A platform without such a hook keeps
     * the SDK's backoff alone.
     */
    default void onOnline(Runnable online) throws Exception {
    }
}
