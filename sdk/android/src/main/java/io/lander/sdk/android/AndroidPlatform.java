package io.lander.sdk.android;

import android.content.ClipData;
import android.content.ClipDescription;
import android.content.ClipboardManager;
import android.content.Context;
import android.content.pm.PackageManager;
import android.net.ConnectivityManager;
import android.net.Network;
import android.os.Build;
import android.util.DisplayMetrics;
import com.android.installreferrer.api.InstallReferrerClient;
import com.android.installreferrer.api.InstallReferrerStateListener;
import com.android.installreferrer.api.ReferrerDetails;
import io.lander.sdk.ApkStamp;
import io.lander.sdk.DeviceFacts;
import io.lander.sdk.FileStorage;
import io.lander.sdk.Platform;
import io.lander.sdk.PlayReferrer;
import io.lander.sdk.Storage;
import java.io.File;
import java.util.Collections;
import java.util.Locale;
import java.util.TimeZone;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Android platform (docs/sdk.md): files under {@code getFilesDir()/lander}, the device from
 * {@link Build} and the display, the clipboard when it holds text, the Play install referrer through
 * Play's Install Referrer library ({@code com.android.installreferrer:installreferrer}; an app without
 * it simply has no referrer), and the stamp inside this app's own APK. No permission is asked; an app
 * that declares {@code ACCESS_NETWORK_STATE} also has an offline install asked again when the default
 * network comes back (Android 7+), the others on the SDK's backoff alone.
 */
public final class AndroidPlatform implements Platform {
    private final Context context;
    private final Storage storage;

    public AndroidPlatform(Context context) {
        this.context = context.getApplicationContext();
        this.storage = new FileStorage(new File(this.context.getFilesDir(), "lander"));
    }

    @Override
    public void onOnline(final Runnable online) {
        if (Build.VERSION.SDK_INT < 24) return;
        String permission = "android.permission.ACCESS_NETWORK_STATE";
        if (context.checkCallingOrSelfPermission(permission) != PackageManager.PERMISSION_GRANTED) return;
        ConnectivityManager connectivity = (ConnectivityManager) context.getSystemService(Context.CONNECTIVITY_SERVICE);
        if (connectivity == null) return;
        connectivity.registerDefaultNetworkCallback(new ConnectivityManager.NetworkCallback() {
            @Override
            public void onAvailable(Network network) {
                online.run();
            }
        });
    }

    private String metaAppId;

    /** The app's Meta (Facebook) app id: Meta's install referrer is read for it (docs/sdk.md); none: not read. */
    public AndroidPlatform metaAppId(String id) {
        this.metaAppId = id;
        return this;
    }

    @Override
    public io.lander.sdk.MetaReferrer metaReferrer() {
        return MetaProviders.read(context.getContentResolver(), metaAppId);
    }

    @Override
    public Storage storage() {
        return storage;
    }

    @Override
    public DeviceFacts device() {
        DisplayMetrics metrics = context.getResources().getDisplayMetrics();
        float density = metrics.density > 0 ? metrics.density : 1;
        return new DeviceFacts("android", Build.VERSION.RELEASE, Build.MODEL,
                Math.round(metrics.widthPixels / density), Math.round(metrics.heightPixels / density), density,
                TimeZone.getDefault().getID(), Collections.singletonList(Locale.getDefault().toLanguageTag()));
    }

    /** Android 10+ lets only the focused app read it; Android 12+ shows a "pasted" notice. */
    @Override
    public String clipboard() {
        ClipboardManager clipboard = (ClipboardManager) context.getSystemService(Context.CLIPBOARD_SERVICE);
        if (clipboard == null || !clipboard.hasPrimaryClip()) return null;
        ClipDescription description = clipboard.getPrimaryClipDescription();
        if (description == null || !(description.hasMimeType(ClipDescription.MIMETYPE_TEXT_PLAIN)
                || description.hasMimeType(ClipDescription.MIMETYPE_TEXT_URILIST))) {
            return null;
        }
        ClipData clip = clipboard.getPrimaryClip();
        if (clip == null || clip.getItemCount() == 0) return null;
        CharSequence text = clip.getItemAt(0).getText();
        return text == null ? null : text.toString();
    }

    @Override
    public PlayReferrer playReferrer(long timeoutMs) throws InterruptedException {
        final InstallReferrerClient client;
        try {
            client = InstallReferrerClient.newBuilder(context).build();
        } catch (LinkageError noLibrary) {
            return null;
        }
        final CountDownLatch answered = new CountDownLatch(1);
        final AtomicReference<PlayReferrer> result = new AtomicReference<PlayReferrer>();
        client.startConnection(new InstallReferrerStateListener() {
            @Override
            public void onInstallReferrerSetupFinished(int code) {
                try {
                    if (code == InstallReferrerClient.InstallReferrerResponse.OK) {
                        ReferrerDetails details = client.getInstallReferrer();
                        result.set(new PlayReferrer(details.getInstallReferrer(),
                                details.getInstallBeginTimestampSeconds(),
                                details.getInstallBeginTimestampServerSeconds(),
                                details.getReferrerClickTimestampSeconds(),
                                details.getReferrerClickTimestampServerSeconds()));
                    }
                } catch (Exception unavailable) {
                    // No referrer: the other carriers decide.
                } finally {
                    answered.countDown();
                }
            }

            @Override
            public void onInstallReferrerServiceDisconnected() {
                answered.countDown();
            }
        });
        try {
            answered.await(timeoutMs, TimeUnit.MILLISECONDS);
        } finally {
            client.endConnection();
        }
        return result.get();
    }

    @Override
    public String apkStamp() throws java.io.IOException {
        return ApkStamp.read(context.getApplicationInfo().sourceDir);
    }

    @Override
    public String harmonyLink() {
        return null;
    }
}
