package io.lander.sdk.android;

import android.content.ClipData;
import android.content.ClipDescription;
import android.content.ClipboardManager;
import android.content.ContentResolver;
import android.content.Context;
import android.content.pm.PackageManager;
import android.net.ConnectivityManager;
import android.database.Cursor;
import android.net.Network;
import android.net.Uri;
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
import io.lander.sdk.StoreReferrer;
import java.io.File;
import java.util.Collections;
import java.util.Locale;
import java.util.TimeZone;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.json.JSONException;
import org.json.JSONObject;

/**
 * The Android platform (docs/sdk.md): files under {@code getFilesDir()/lander}, the device from
 * {@link Build} and the display, the clipboard when it holds text, the Play install referrer through
 * Play's Install Referrer library ({@code com.android.installreferrer:installreferrer}; an app without
 * it simply has no referrer), the install referrers of Huawei AppGallery and Honor's store through
 * their content providers (no vendor library; docs/attribution.md#the-stores), and the stamp inside
 * this app's own APK. No permission is asked; an app
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

    /** AppGallery's provider: one row for the package asked, its columns by index. */
    static final String APPGALLERY_URI = "content://com.huawei.appmarket.commondata/item/5";
    static final int GALLERY_CHANNEL = 0;
    static final int GALLERY_CLICK_MS = 1;
    static final int GALLERY_INSTALL_MS = 2;
    /** AppGallery 10.5.0.300 and later: the `referrer` parameter of the link tapped. */
    static final int GALLERY_REFERRER = 5;
    /** Honor's provider: the row's `wise_params`, a JSON object with the channel `itgSctChannel`. */
    static final String HONOR_URI = "content://com.hihonor.appmarket.commondata/item/wisepackage";
    static final int HONOR_WISE_PARAMS = 3;

    /**
     * AppGallery's install referrer of this package (the store answers only the package it is asked
     * about, this app's own): its channel, the click time (entering AppGallery), the install time and,
     * on AppGallery 10.5.0.300 and later, the link's {@code referrer}. Null without AppGallery or a row.
     */
    @Override
    public StoreReferrer appGalleryReferrer() {
        Cursor row = query(APPGALLERY_URI);
        if (row == null) return null;
        try {
            int columns = row.getColumnCount();
            return new StoreReferrer(StoreReferrer.APPGALLERY,
                    columns > GALLERY_REFERRER ? row.getString(GALLERY_REFERRER) : null,
                    row.getString(GALLERY_CHANNEL), millis(row, GALLERY_CLICK_MS), millis(row, GALLERY_INSTALL_MS));
        } finally {
            row.close();
        }
    }

    /** Honor's store's channel of this package ({@code itgSctChannel}); null without the store or a row. */
    @Override
    public StoreReferrer honorReferrer() {
        Cursor row = query(HONOR_URI);
        if (row == null) return null;
        try {
            String params = row.getColumnCount() > HONOR_WISE_PARAMS ? row.getString(HONOR_WISE_PARAMS) : null;
            if (params == null || params.isEmpty()) return null;
            String channel = new JSONObject(params).optString("itgSctChannel", "");
            return channel.isEmpty() ? null : new StoreReferrer(StoreReferrer.HONOR, null, channel, 0, 0);
        } catch (JSONException notJson) {
            return null;
        } finally {
            row.close();
        }
    }

    /** The first row the provider at {@code uri} has for this package, or null (no such store, no row). */
    private Cursor query(String uri) {
        ContentResolver resolver = context.getContentResolver();
        if (resolver == null) return null;
        Cursor cursor;
        try {
            cursor = resolver.query(Uri.parse(uri), null, null, new String[] {context.getPackageName()}, null);
        } catch (RuntimeException noProvider) {
            return null;
        }
        if (cursor == null) return null;
        if (cursor.moveToFirst()) return cursor;
        cursor.close();
        return null;
    }

    private static long millis(Cursor row, int column) {
        String text = row.getString(column);
        try {
            return text == null ? 0 : Math.max(0, Long.parseLong(text.trim()));
        } catch (NumberFormatException notTime) {
            return 0;
        }
    }
}
